"""The SQLite store's seats of the table server: join requests, the
encounter on the table, and `deciding()`, the one write transaction an
approval or a request is decided in. A mixin of the store (its connection,
`_query`, `_write`). Their tables are schema step 6 (schema.MIGRATIONS)."""
from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING

from eventlog.stores.records import JoinRequest, TableChoice
from eventlog.stores.shared import count_commit, join_taken

if TYPE_CHECKING:
    from eventlog.stores.hosts import SqliteHost as _Host
else:
    _Host = object

_JOIN = "name, pc, seat, encounter, life, digest, address, asked_at, expires_at, state, said"


class SeatsMixin(_Host):
    """Join requests and the table's choice, on top of the store's connection."""

    _deciding = False

    @contextmanager
    def deciding(self):
        """BEGIN IMMEDIATE: SQLite's one writer at a time, whatever the process."""
        if self._deciding:
            yield
            return
        self._deciding = True
        try:
            with self._immediate():
                yield
        finally:
            self._deciding = False
        count_commit()

    def joins(self) -> list[JoinRequest]:
        if not self._has("joins"):
            return []
        return [JoinRequest._make(r) for r in self._query(
            f"SELECT {_JOIN} FROM joins ORDER BY name")]

    def join(self, digest: str) -> JoinRequest | None:
        if not self._has("joins"):
            return None
        rows = self._query(f"SELECT {_JOIN} FROM joins WHERE digest = ?", (digest,))
        return JoinRequest._make(rows[0]) if rows else None

    def add_join(self, join: JoinRequest) -> None:
        def work():
            if self.db.execute("SELECT 1 FROM joins WHERE name = ?", (join.name,)).fetchone():
                raise join_taken(join.name)
            self.db.execute(f"INSERT INTO joins ({_JOIN}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            tuple(join))
        self._write(work)

    def answer_join(self, name: str, state: str, said: str = "") -> bool:
        return self._write(lambda: self.db.execute(
            "UPDATE joins SET state = ?, said = ? WHERE name = ?",
            (state, said, name)).rowcount > 0)

    def drop_join(self, name: str) -> bool:
        if not self._has("joins"):
            return False
        return self._write(lambda: self.db.execute(
            "DELETE FROM joins WHERE name = ?", (name,)).rowcount > 0)

    def table_choice(self) -> TableChoice | None:
        if not self._has("joins"):
            return None
        rows = self._query("SELECT encounter, life FROM on_table")
        return TableChoice._make(rows[0]) if rows else None

    def choose_table(self, choice: TableChoice | None) -> None:
        def work():
            self.db.execute("DELETE FROM on_table")
            if choice is not None:
                self.db.execute("INSERT INTO on_table VALUES (?, ?)", tuple(choice))
        self._write(work)
