"""Which file may be a SQLite store, and how it is opened: asked before
anything is written to it (a folder, a device or a FIFO is refused; a file
this process may not write is read as it is)."""
from __future__ import annotations

import os
import stat
from pathlib import Path

from eventlog.errors import StoreError


def check_path(path: Path, given: str) -> None:
    """Refuse, in one line, a path no store can live at: empty, a folder, a
    device or a FIFO (SQLite would write a journal beside /dev/null), or one
    whose folder is a file."""
    if given == "":
        raise StoreError("--db is empty: name a ledger file (or leave --db out for "
                         "the default store)")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        _check_folder(path)
        return
    except NotADirectoryError:
        _check_folder(path)
        return
    except OSError as exc:
        raise StoreError(f"cannot open {path}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise StoreError(f"{path} is a folder, not a ledger file")
    if not stat.S_ISREG(mode):
        raise StoreError(f"{path} is not a combat-ledger database (a device, FIFO or "
                         "socket, not a file)")


def _check_folder(path: Path) -> None:
    """The first existing ancestor of `path` must be a folder."""
    for parent in path.parents:
        if parent.exists() or parent.is_symlink():
            if not parent.is_dir():
                raise StoreError(f"cannot create {path}: {parent} is a file, not a folder")
            return


def read_only(path: Path) -> bool:
    """An existing file this process may not write (its mode, a read-only
    file system), or in a folder where SQLite may not put its -wal and -shm
    files; opening it for writing changes nothing in it."""
    # (Asked with access(2), never by opening the file: closing any descriptor
    # of a database drops every POSIX lock this process holds on it, so a
    # second handle opened beside a first (the table server's threads) would
    # let another program's close delete the WAL under the first one.)
    if not path.exists():
        return False
    if not os.access(path, os.W_OK):
        return path.is_file()
    return not os.access(path.parent, os.W_OK)


def has_wal(path: Path) -> bool:
    """Committed writes may wait in the write-ahead log (a writer's crash)."""
    try:
        return os.path.getsize(f"{path}-wal") > 0
    except OSError:
        return False


