"""Portraits (docs/characters.md, "Portraits"): the image a character sheet names,
checked before the store keeps it. Only PNG, JPEG and WebP, at most
MAX_BYTES and MAX_SIDE pixels a side, and decoded whole to prove it is the
image it claims to be: a PNG header on garbage, a truncated file or a
decompression bomb (a small file that inflates to gigabytes of pixels) is
refused by name, and the bomb before a pixel of it is decoded.

An image is read from a file next to the sheet that names it, never from
outside that folder (no `..`, no absolute path, no symlink leading out) and
never fetched from a web address. Pillow is imported here only, when a
portrait is read.
"""
from __future__ import annotations

import base64
import binascii
import os
import re
import stat
from pathlib import Path
from typing import NamedTuple

from eventlog.errors import InvalidFile
from eventlog.language import N_, _, reason
from eventlog.files import size_text

MAX_BYTES = 2 << 20  # 2 MiB: a portrait is drawn at 40 pixels; a phone's photo is refused
MAX_SIDE = 4096  # pixels, either side: a 4096 x 4096 RGBA image is 64 MiB decoded
MEDIA = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}
KINDS = N_("a PNG, JPEG or WebP image")
# Foundry VTT's own stand-in for "no image": an actor without a portrait.
NO_IMAGE = frozenset({"icons/svg/mystery-man.svg", ""})
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_DATA = re.compile(r"^data:(image/[a-z0-9.+-]+)?(;[^,]*)?,", re.IGNORECASE)


class Picture(NamedTuple):
    """A checked image: what the store keeps (store.add_portrait)."""
    media: str
    data: bytes
    width: int
    height: int


def checked(data: bytes, name: str) -> Picture:
    """`data` as a Picture, or InvalidFile with one line naming what is
    wrong with the image called `name` (a file's name, or where a sheet
    names it)."""
    if not data:
        raise InvalidFile(_("{name} is empty: a portrait is {kinds}").format(
            name=name, kinds=_(KINDS)))
    if len(data) > MAX_BYTES:
        raise InvalidFile(_("{name} is larger than {most}, the most a portrait may hold")
                          .format(name=name, most=size_text(MAX_BYTES)))
    import io
    import warnings

    from PIL import Image
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=list(MEDIA)) as image:
                kind, (width, height) = image.format, image.size
                if width > MAX_SIDE or height > MAX_SIDE:
                    raise InvalidFile(_(
                        "{name} is {width} x {height} pixels: a portrait is at most {most} "
                        "pixels a side (a larger one could be a decompression bomb)").format(
                        name=name, width=width, height=height, most=MAX_SIDE))
                image.load()  # every pixel decoded: garbage under a valid header fails here
    except InvalidFile:
        raise
    except Image.UnidentifiedImageError:
        raise InvalidFile(_("{name} is not {kinds}").format(name=name, kinds=_(KINDS))) from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise InvalidFile(_("{name} is a decompression bomb (it claims more pixels than "
                            "{most} x {most}); it was not read").format(name=name, most=MAX_SIDE)
                          ) from None
    except Exception as exc:  # noqa: BLE001 (hostile bytes make a decoder raise anything)
        detail = " ".join(str(exc).split())[:80] or type(exc).__name__
        raise InvalidFile(_("{name} is damaged: it does not decode as {kinds} ({detail})")
                          .format(name=name, kinds=_(KINDS), detail=detail)) from None
    if kind not in MEDIA:  # (Pillow was asked for these only)
        raise InvalidFile(_("{name} is not {kinds}").format(name=name, kinds=_(KINDS)))
    return Picture(MEDIA[kind], data, width, height)


def inline(text: str, label: str) -> Picture:
    """A `data:image/...;base64,...` address: the image carried in the sheet."""
    head = _DATA.match(text)
    if head is None or ";base64" not in (head.group(2) or "").lower():
        raise InvalidFile(_("{label}: an image written in the file is a {form} address")
                          .format(label=label, form="data:image/...;base64,..."))
    body = text[head.end():]
    if len(body) > MAX_BYTES * 4 // 3 + 4:
        raise InvalidFile(_("{name} is larger than {most}, the most a portrait may hold")
                          .format(name=label, most=size_text(MAX_BYTES)))
    try:
        data = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidFile(_("{label}: its base64 is not readable").format(label=label)) from None
    return checked(data, label)


def beside(folder: Path, given: str, where: str) -> Picture | None:
    """The image `given` names (a path relative to `folder`, the folder of
    the sheet, or a data: address), checked; None for Foundry's stand-in.
    `where` says where the sheet names it (`row 3 (Rook)`), for messages."""
    text = given.strip()
    if text in NO_IMAGE:
        return None
    if text[:5].lower() == "data:":
        return inline(text, _("{where}: the portrait written in the file").format(where=where))
    label = _("{where}: portrait {path}").format(where=where, path=repr(text[:80]))
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in text):
        raise InvalidFile(_("{where}: the portrait's path holds a control character").format(
            where=where))
    drive = re.match(r"^[A-Za-z]:[\\/]", text)
    if _SCHEME.match(text) and not drive:
        raise InvalidFile(_("{label} is a web address: a portrait is read from a file next to "
                            "the sheet, never fetched").format(label=label))
    relative = Path(text.replace("\\", "/"))
    if drive or relative.is_absolute() or ".." in relative.parts:
        raise InvalidFile(_("{label} is outside the sheet's folder: a portrait is a file in "
                            "that folder or below it").format(label=label))
    return checked(_read_inside(folder, relative, label), label)


def _read_inside(folder: Path, relative: Path, label: str) -> bytes:
    """The bytes of `folder/relative` if it is a regular file that is really
    inside `folder` (a symlink may lead anywhere: its target is what counts)."""
    root = os.path.realpath(folder)
    target = os.path.realpath(os.path.join(root, relative))
    if os.path.commonpath([root, target]) != root:
        raise InvalidFile(_("{label} leads outside the sheet's folder (a symbolic link): a "
                            "portrait is a file in that folder or below it").format(label=label))
    try:
        fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        raise InvalidFile(_("{label} is not there next to the sheet").format(label=label)
                          ) from None
    except OSError as exc:
        raise InvalidFile(_("{label} cannot be read: {why}").format(label=label, why=reason(exc))
                          ) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InvalidFile(_("{label} is not a file").format(label=label))
        data = os.read(fd, MAX_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise InvalidFile(_("{name} is larger than {most}, the most a portrait may hold")
                          .format(name=label, most=size_text(MAX_BYTES)))
    return data
