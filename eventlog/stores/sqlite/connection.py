"""Which file may be a SQLite store, and how it is opened: asked before
anything is written to it (a folder, a device or a FIFO is refused; a file
this process may not write is read as it is). Paths are strings here:
pathlib costs every command ~4 ms of start-up, so it is imported only to
say what went wrong."""
from __future__ import annotations

import os
import stat

from eventlog.errors import StoreError
from eventlog.language import _, reason


def shown(path: str | os.PathLike) -> str:
    """A path as the user is shown it (as pathlib writes it; imported only
    to say what went wrong: a command that succeeds never loads it)."""
    from pathlib import Path
    return str(Path(path))


def plain(path: str | os.PathLike) -> str:
    """The path as a string the system reads as pathlib would (no trailing
    slash), without pathlib."""
    text = os.fspath(path)
    return text.rstrip("/") or text[:1]


def folder_of(path: str | os.PathLike) -> str:
    """The folder a store file is in (`.` for a bare file name)."""
    text = os.fspath(path).rstrip("/")
    return os.path.dirname(text) or ("/" if os.fspath(path).startswith("/") else ".")


def check_path(path: str | os.PathLike, given: str) -> None:
    """Refuse, in one line, a path no store can live at: empty, a folder, a
    device or a FIFO (SQLite would write a journal beside /dev/null), or one
    whose folder is a file."""
    if given == "":
        raise StoreError(_("--db is empty: name a ledger file (or leave --db out for the "
                           "default store)"))
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        _check_folder(path)
        return
    except NotADirectoryError:
        _check_folder(path)
        return
    except OSError as exc:
        raise StoreError(_("cannot open {path}: {reason}").format(
            path=shown(path), reason=reason(exc))) from None
    if stat.S_ISDIR(mode):
        raise StoreError(_("{path} is a folder, not a ledger file").format(path=shown(path)))
    if not stat.S_ISREG(mode):
        raise StoreError(_("{path} is not a combat-ledger database (a device, FIFO or socket, "
                           "not a file)").format(path=shown(path)))


def _check_folder(given: str | os.PathLike) -> None:
    """The first existing ancestor of `path` must be a folder."""
    from pathlib import Path  # (a store about to be made: once in its life)
    path = Path(given)
    for parent in path.parents:
        if parent.exists() or parent.is_symlink():
            if not parent.is_dir():
                raise StoreError(_("cannot create {path}: {parent} is a file, not a folder")
                                 .format(path=path, parent=parent))
            return


def read_only(path: str | os.PathLike) -> bool:
    """An existing file this process may not write (its mode, a read-only
    file system), or in a folder where SQLite may not put its -wal and -shm
    files; opening it for writing changes nothing in it."""
    # (Asked with access(2), never by opening the file: closing any descriptor
    # of a database drops every POSIX lock this process holds on it, so a
    # second handle opened beside a first (the table server's threads) would
    # let another program's close delete the WAL under the first one.)
    if not os.path.exists(path):
        return False
    if not os.access(path, os.W_OK):
        return os.path.isfile(path)
    return not os.access(folder_of(path), os.W_OK)


def has_wal(path: str | os.PathLike) -> bool:
    """Committed writes may wait in the write-ahead log (a writer's crash)."""
    try:
        return os.path.getsize(f"{path}-wal") > 0
    except OSError:
        return False
