"""Files the program writes (`export -o FILE`): never the store, never a
database, never a device or a link replaced by a regular file
(`export -o ledger.db` must not turn every encounter into a report).

A regular file is written beside its target and replaces it only once it
is complete, so a failed export leaves nothing half-written. A symlink is
written through (its target is replaced, the link stays); a device or a
FIFO (`-o /dev/stdout`) is written to as it is, since it cannot be replaced.
"""
from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TextIO, TypeVar

from eventlog.errors import InvalidFile
from eventlog.language import _, reason

R = TypeVar("R")
SQLITE_MAGIC = b"SQLite format 3\x00"
# Files SQLite and this program keep beside a store: its journals, its
# snapshot and history sidecars (`ledger.db-wal`, `ledger.db.history`, ...).
SIDECAR_SEPARATORS = ("-", ".")


def _is_store_file(target: Path, store: Path) -> bool:
    store = Path(os.path.realpath(store))
    if target == store or (target.exists() and store.exists() and target.samefile(store)):
        return True
    return target.parent == store.parent and any(
        target.name.startswith(store.name + sep) for sep in SIDECAR_SEPARATORS)


def _is_database(target: Path) -> bool:
    try:
        with open(target, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def checked_target(path, store: Path | None, force: bool) -> tuple[Path, bool]:
    """(where to write, whether it is replaced as a regular file), or an
    InvalidFile saying in one line why `path` may not be written."""
    if str(path) == "":
        raise InvalidFile(_("-o is empty: name a file, or leave -o out to write to stdout"))
    path = Path(path)
    try:
        mode = os.stat(path).st_mode  # through a symlink, to what it names
    except (FileNotFoundError, NotADirectoryError):
        mode = None
    except OSError as exc:
        raise InvalidFile(_("cannot write {path}: {reason}").format(
            path=path, reason=reason(exc))) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise InvalidFile(_("{path} is a folder: name a file to write the export to").format(
            path=path))
    if mode is not None and not stat.S_ISREG(mode):
        return path, False  # a device or a FIFO (/dev/stdout): written as it is
    target = Path(os.path.realpath(path))
    if store is not None and _is_store_file(target, store):
        raise InvalidFile(_("{path} is the ledger itself or a file it keeps beside it: the "
                            "export would destroy every encounter; choose another file").format(
                                path=path))
    if mode is not None and not force and _is_database(target):
        raise InvalidFile(_("{path} is a SQLite database: exporting onto it would destroy it; "
                            "choose another file, or --force to replace it").format(path=path))
    return target, True


def write_file(path: str | Path, write: Callable[[TextIO], R], store: Path | None = None,
               force: bool = False) -> R:
    """Call `write` on the file `path` (checked by `checked_target`)."""
    target, regular = checked_target(path, store, force)
    if not regular:  # a device or a FIFO: written as it is
        try:
            with open(target, "w", encoding="utf-8", newline="") as f:
                return write(f)
        except OSError as exc:
            raise InvalidFile(_("cannot write {path}: {reason}").format(
                path=path, reason=reason(exc))) from None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise InvalidFile(_("cannot write {path}: {reason}").format(
            path=path, reason=reason(exc))) from None
    try:
        with open(fd, "w", encoding="utf-8", newline="") as f:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)  # as an ordinary new file, not mkstemp's 0600
            result = write(f)
        os.replace(tmp, target)
    except OSError as exc:
        raise InvalidFile(_("cannot write {path}: {reason}").format(
            path=path, reason=reason(exc))) from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return result
