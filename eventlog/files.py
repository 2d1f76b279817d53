"""Files a person hands the program (an export to import or replay, a roster
to load): read with a stated size limit, refused before reading when they
are over it, and never read past it (a pipe or a device has no size to ask).
"""
from __future__ import annotations

import os
from typing import BinaryIO

from eventlog.errors import InvalidFile
from eventlog.language import _, reason


def size_text(limit: int) -> str:
    """A size limit as people say it: `256 MiB`, else in bytes."""
    mib = 1 << 20
    if limit >= mib and limit % mib == 0:
        return _("{n} MiB").format(n=limit // mib)
    return _("{n} bytes").format(n=limit)


def too_large(name: str, limit: int, most: str) -> InvalidFile:
    """`most` says whose limit it is: "the most an import reads"."""
    return InvalidFile(_("{name} is larger than {size}, {most}").format(
        name=name, size=size_text(limit), most=most))


class Bounded:
    """A binary file that refuses to yield more than `limit` bytes: reading
    past the limit raises the InvalidFile `refusal`, and a failed read is an
    InvalidFile too."""

    def __init__(self, f: BinaryIO, path, limit: int, refusal: InvalidFile):
        self.f, self.path, self.limit, self.refusal = f, path, limit, refusal
        self.left = limit

    def read(self, n: int = -1) -> bytes:
        want = self.left + 1 if n < 0 else min(n, self.left + 1)
        try:
            data = self.f.read(want)
        except OSError as exc:
            raise InvalidFile(_("cannot read {path}: {reason}").format(
                path=self.path, reason=reason(exc))) from None
        self.left -= len(data)
        if self.left < 0:
            raise self.refusal
        return data

    def seekable(self) -> bool:
        return self.f.seekable()

    def seek(self, offset: int) -> None:
        """Back to `offset` from the start (a second pass over the file)."""
        self.f.seek(offset)
        self.left = self.limit - offset

    def close(self) -> None:
        self.f.close()

    def __enter__(self) -> Bounded:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_bounded(path, limit: int, most: str, name: str | None = None) -> Bounded:
    """`path` opened for reading at most `limit` bytes; InvalidFile when it
    cannot be opened or its size on disk is already over the limit. Errors
    call the file `name` (default: its path)."""
    refusal = too_large(name or str(path), limit, most)
    try:
        f = open(path, "rb")  # noqa: SIM115 (returned open, wrapped: its caller closes it)
    except OSError as exc:
        raise InvalidFile(_("cannot read {path}: {reason}").format(
            path=path, reason=reason(exc))) from None
    try:
        over = os.fstat(f.fileno()).st_size > limit
    except OSError:
        over = False  # no size to ask: the reads are counted instead
    if over:
        f.close()
        raise refusal
    return Bounded(f, path, limit, refusal)


def read_bounded(path, limit: int, most: str, name: str | None = None) -> bytes:
    """The bytes of `path`, if there are no more than `limit` of them."""
    f = open_bounded(path, limit, most, name)
    try:
        return f.read()
    finally:
        f.close()
