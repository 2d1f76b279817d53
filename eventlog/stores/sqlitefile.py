"""Which file may be a store, and whether a database is one of ours: asked
before anything is written to it (issue 13, items 9 and 12).

A store carries its own marker, SQLite's `application_id` header field. A
store from before the marker is recognised by its tables, column for
column, and its `meta.schema_version`; a foreign database that merely has
tables of the same names is left alone, byte for byte.
"""
from __future__ import annotations

import os
import sqlite3
import stat

from eventlog.errors import StoreError

APPLICATION_ID = 0x436C6467  # "Cldg": combat-ledger, in the database header
# The columns of a store's tables, as version 1 wrote them.
COLUMNS = {
    "meta": ("key", "value"),
    "encounters": ("id", "title", "created_at", "head_seq", "head_hash"),
    "events": ("encounter", "seq", "batch", "type", "at", "actor", "data",
               "prev_hash", "hash", "version"),
}


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
        raise StoreError(f"cannot open {shown(path)}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise StoreError(f"{shown(path)} is a folder, not a ledger file")
    if not stat.S_ISREG(mode):
        raise StoreError(f"{shown(path)} is not a combat-ledger database (a device, FIFO "
                         "or socket, not a file)")


def _check_folder(given: str | os.PathLike) -> None:
    """The first existing ancestor of `path` must be a folder."""
    from pathlib import Path  # (a store about to be made: once in its life)
    path = Path(given)
    for parent in path.parents:
        if parent.exists() or parent.is_symlink():
            if not parent.is_dir():
                raise StoreError(f"cannot create {path}: {parent} is a file, not a folder")
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


def recognised(db: sqlite3.Connection, tables: set[str]) -> bool:
    """Whether the (non-empty) database is a combat-ledger store."""
    marker = db.execute("PRAGMA application_id").fetchone()[0]
    if marker == APPLICATION_ID:
        return True
    if marker != 0:
        return False  # another program's own marker
    for table, columns in COLUMNS.items():
        if table not in tables:
            return False
        found = tuple(r[1] for r in db.execute(f"PRAGMA table_info({table})"))
        if found != columns:
            return False
    row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return row is not None


def schema_version(value) -> int | None:
    """meta.schema_version as a number, if it is a short one (a 4,000-digit
    version is damage, not a version, and must not be echoed whole)."""
    text = str(value)
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def schema_objects(*scripts: str) -> dict[str, tuple[str, str]]:
    """{name: (type, sql as sqlite_master keeps it, spaces folded)} of the
    tables and indexes `scripts` create."""
    made: dict[str, tuple[str, str]] = {}
    for script in scripts:
        for statement in script.split(";"):
            words = statement.split()
            if words[:1] == ["CREATE"]:
                kind = words[1].lower()
                made[words[2]] = (kind, " ".join(words))
    return made


def foreign_object(rows, made: dict[str, tuple[str, str]]) -> str | None:
    """The first object in a store's sqlite_master rows (type, name, table,
    sql) that combat-ledger did not make as it is (a trigger, a view, a table
    or index of another shape), said in a few words; None if there is none.
    A table or index of ours may be missing (older stores lack some)."""
    ours = {name for name, (kind, _) in made.items() if kind == "table"}
    for kind, name, table, sql in rows:
        if kind == "index" and sql is None and table in ours and name.startswith(
                f"sqlite_autoindex_{table}_") and name.rsplit("_", 1)[-1].isdigit():
            continue  # (a PRIMARY KEY's or UNIQUE's own index)
        want = made.get(name)
        if want is None or want != (kind, " ".join(str(sql).split())):
            shown = repr(str(name)[:60])
            return f"a {kind} {shown} that combat-ledger did not make"
    return None
