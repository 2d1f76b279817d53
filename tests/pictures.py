"""Images for the portrait tests, made here (never downloaded): good ones of
each kind and the hostile ones a sheet may name."""
from __future__ import annotations

import io
import os
import struct
import zlib


def image(kind: str = "PNG", size: tuple[int, int] = (48, 48),
          colour: tuple[int, int, int] = (180, 60, 40)) -> bytes:
    """A small picture in `kind` (PNG, JPEG or WEBP)."""
    from PIL import Image
    out = io.BytesIO()
    with Image.new("RGB", size, colour) as made:
        made.save(out, kind)
    return out.getvalue()


def noise_png(side: int) -> bytes:
    """A PNG of random pixels: incompressible, about 3 x side² bytes."""
    from PIL import Image
    out = io.BytesIO()
    with Image.frombytes("RGB", (side, side), os.urandom(3 * side * side)) as made:
        made.save(out, "PNG", compress_level=1)
    return out.getvalue()


def _chunk(kind: bytes, body: bytes) -> bytes:
    return (struct.pack(">I", len(body)) + kind + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))


def bomb_png(side: int = 20_000) -> bytes:
    """A valid little PNG that claims side x side pixels of one bit: a few
    KiB on disk, 400 MB once decoded as the RGB a page draws (a
    decompression bomb)."""
    row = b"\0" + b"\0" * ((side + 7) // 8)
    packer = zlib.compressobj(9)
    body = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0))
            + _chunk(b"IDAT", body) + _chunk(b"IEND", b""))


def garbage_png() -> bytes:
    """PNG's eight-byte signature, then noise."""
    return b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


def truncated(kind: str = "PNG") -> bytes:
    """A real image cut off halfway: its header reads, its pixels do not."""
    data = image(kind, (64, 64))
    return data[: len(data) // 2]
