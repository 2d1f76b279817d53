"""The SQLite store's part for the table server: its tokens (only their
SHA-256 digests), the forward-only schema migrations that added them, and
the change hint `wait_changes` (a mixin of sqlite.Store, which keeps the
connection, `_query` and `_write`).

A change made by any connection to the file, in this process or another,
moves `PRAGMA data_version` as seen from every *other* connection; the hint
asks it on a connection of its own, so the server's own appends and a CLI
process's alike wake it within one poll.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import sqlite3
import threading
import time

from eventlog.errors import Refusal
from eventlog.stores.contract import Token
from eventlog.stores.sqlitehooks import HOOKS_TABLES

if TYPE_CHECKING:
    from eventlog.stores.hosts import SqliteHost as _Host
else:
    _Host = object

POLL_S = 0.015  # how often wait_changes asks whether the file changed
TOKENS_TABLE = (
    "CREATE TABLE tokens (name TEXT PRIMARY KEY, role TEXT NOT NULL, "
    "owns TEXT NOT NULL, encounter TEXT, digest TEXT NOT NULL UNIQUE, "
    "created_at TEXT NOT NULL)")
# The schema version each step reaches, and its statements: a store of an
# older version is brought forward step by step when it is opened.
MIGRATIONS: dict[int, tuple[str, ...]] = {2: (TOKENS_TABLE,), 3: HOOKS_TABLES}
_TOKEN = "name, role, owns, encounter, digest, created_at"


def _token(row) -> Token:
    name, role, owns, encounter, digest, created_at = row
    return Token(name, role, tuple(x for x in owns.split(",") if x), encounter,
                 digest, created_at)


class TokensMixin(_Host):
    """Tokens and the change hint, on top of the store's connection."""

    def _create_current(self) -> None:
        """A new store's tables of every step (inside its creating transaction)."""
        for statements in MIGRATIONS.values():
            for statement in statements:
                self.db.execute(statement)

    def _migrate(self, version: int, target: int) -> None:
        """Bring a store written at `version` forward to `target`, in one
        write transaction; a store this process may not write stays as it is
        (it is read, and has no tokens)."""
        if self._immutable():
            return

        def work():
            for step in range(version + 1, target + 1):
                for statement in MIGRATIONS.get(step, ()):
                    self.db.execute(statement)
            self.db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                            (str(target),))
        self._write(work)

    def _immutable(self) -> bool:
        from eventlog.stores.sqlitefile import has_wal, read_only
        return read_only(self.path) and not has_wal(self.path)

    def _has_tokens(self) -> bool:
        """(A store read without its migration has none; once there, it stays.)"""
        if not self.__dict__.get("_tokens_table"):
            self._tokens_table = bool(self._query(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tokens'"))
        return self._tokens_table

    # -- tokens ----------------------------------------------------------

    def tokens(self) -> list[Token]:
        if not self._has_tokens():
            return []
        return [_token(r) for r in self._query(f"SELECT {_TOKEN} FROM tokens ORDER BY name")]

    def token(self, digest: str) -> Token | None:
        if not self._has_tokens():
            return None
        rows = self._query(f"SELECT {_TOKEN} FROM tokens WHERE digest = ?", (digest,))
        return _token(rows[0]) if rows else None

    def add_token(self, token: Token) -> None:
        def work():
            if self.db.execute("SELECT 1 FROM tokens WHERE name = ?", (token.name,)).fetchone():
                raise Refusal(f"a token named {token.name!r} exists already: "
                              "revoke it first or choose another name")
            self.db.execute(f"INSERT INTO tokens ({_TOKEN}) VALUES (?, ?, ?, ?, ?, ?)",
                            (token.name, token.role, ",".join(token.owns), token.encounter,
                             token.digest, token.created_at))
        self._write(work)

    def revoke_token(self, name: str) -> bool:
        if not self._has_tokens():
            return False
        return self._write(lambda: self.db.execute(
            "DELETE FROM tokens WHERE name = ?", (name,)).rowcount > 0)

    # -- the change hint ---------------------------------------------------

    def wait_changes(self, timeout: float) -> None:
        """Return when the file changed since this handle last asked (at
        once if it did meanwhile), or after `timeout` seconds."""
        lock = self.__dict__.setdefault("_watch_lock", threading.Lock())
        with lock:
            watch = self.__dict__.get("_watch")
            if watch is None:
                watch = sqlite3.connect(self.path, timeout=self.timeout,
                                        isolation_level=None, check_same_thread=False)
                self._watch = watch
                self._seen = watch.execute("PRAGMA data_version").fetchall()[0][0]
            deadline = time.monotonic() + timeout
            while True:
                try:
                    now = watch.execute("PRAGMA data_version").fetchall()[0][0]
                except sqlite3.DatabaseError:
                    now = self._seen  # (locked for a moment: ask again)
                if now != self._seen:
                    self._seen = now
                    return
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                time.sleep(min(POLL_S, left))

    def close_watch(self) -> None:
        watch = self.__dict__.pop("_watch", None)
        if watch is not None:
            watch.close()
