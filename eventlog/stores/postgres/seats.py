"""The PostgreSQL store's seats of the table server: join requests, the
encounter on the table, and `deciding()`, the one write transaction an
approval or a request is decided in, serialized by an advisory lock with
every other one and with every token write, from any server. A mixin of the
store (`_held`, `_query`, `_write`, `_tokens_changed`)."""
from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING

import psycopg

from eventlog.stores.records import JoinRequest, TableChoice
from eventlog.stores.shared import count_commit, join_taken

if TYPE_CHECKING:
    from eventlog.stores.hosts import PgHost as _Host
else:
    _Host = object

_JOIN = "name, pc, seat, encounter, life, digest, address, asked_at, expires_at, state, said"
# Held to the end of the transaction: one decision about seats at a time.
SEATS_LOCK = "SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':combat-seats'))"


class SeatsMixin(_Host):
    @contextmanager
    def deciding(self):
        if getattr(self._local, "deciding", False):
            yield
            return
        with self._held() as db:
            depth = getattr(self._local, "depth", 0)
            try:
                with db.transaction():
                    # (reads inside are the transaction's: `reading()` begins none)
                    self._local.deciding, self._local.depth = True, 1
                    db.execute(SEATS_LOCK)
                    yield
            except psycopg.Error as exc:
                raise self._wrap(exc, writing=True) from None
            finally:
                self._local.deciding, self._local.depth = False, depth
        count_commit()

    def joins(self) -> list[JoinRequest]:
        return [JoinRequest._make(r) for r in self._query(
            f'SELECT {_JOIN} FROM joins ORDER BY name COLLATE "C"')]

    def join(self, digest: str) -> JoinRequest | None:
        rows = self._query(f"SELECT {_JOIN} FROM joins WHERE digest = %s", (digest,))
        return JoinRequest._make(rows[0]) if rows else None

    def add_join(self, join: JoinRequest) -> None:
        def work(db):
            db.execute(SEATS_LOCK)
            done = db.execute(f"INSERT INTO joins ({_JOIN}) VALUES "
                              "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                              tuple(join))
            if done.rowcount != 1:
                raise join_taken(join.name)
            self._tokens_changed(db)
        self._write(work)

    def answer_join(self, name: str, state: str, said: str = "") -> bool:
        def work(db):
            db.execute(SEATS_LOCK)
            done = db.execute("UPDATE joins SET state = %s, said = %s WHERE name = %s",
                              (state, said, name)).rowcount > 0
            if done:
                self._tokens_changed(db)
            return done
        return self._write(work)

    def drop_join(self, name: str) -> bool:
        def work(db):
            db.execute(SEATS_LOCK)
            done = db.execute("DELETE FROM joins WHERE name = %s", (name,)).rowcount > 0
            if done:
                self._tokens_changed(db)
            return done
        return self._write(work)

    def table_choice(self) -> TableChoice | None:
        rows = self._query("SELECT encounter, life FROM on_table")
        return TableChoice._make(rows[0]) if rows else None

    def choose_table(self, choice: TableChoice | None) -> None:
        def work(db):
            db.execute(SEATS_LOCK)
            db.execute("DELETE FROM on_table")
            if choice is not None:
                db.execute("INSERT INTO on_table VALUES (%s, %s)", tuple(choice))
            self._tokens_changed(db)
        self._write(work)
