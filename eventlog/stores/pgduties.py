"""The PostgreSQL store's other duties, beside the log itself (postgres.py):
the change hint (LISTEN on `combat_ledger`), the table server's tokens, and
import (staged in a temporary table, judged, then copied in one short write
transaction). A mixin: it uses the store's connection, `_query` and `_write`.
"""
from __future__ import annotations

import time
from itertools import islice
from typing import TYPE_CHECKING, TypeVar
from collections.abc import Callable, Iterable, Iterator

import psycopg

from eventlog.codec import GENESIS, Envelope, encode_data, utc_now
from eventlog.errors import Conflict, Refusal
from eventlog.stores import pgschema
from eventlog.stores.contract import SnapshotMaker, Token
from eventlog.stores.shared import EVENT_VERSION, not_text as _not_text

if TYPE_CHECKING:
    from eventlog.stores.hosts import PgHost as _Host
else:
    _Host = object

T = TypeVar("T")
PAGE = 10_000
IMPORT_CHUNK = 1000
CONNECT_TIMEOUT_S = 10
_ROW = "seq, batch, type, at, actor, data, prev_hash, hash"


class Duties(_Host):
    def wait_changes(self, timeout: float) -> set[str] | None:
        """LISTEN on `combat_ledger` (one connection of its own, outside any
        pool); back after a notification or `timeout` with the encounters
        notified (payload `encounter:seq`). None when they are unknown: the
        listener was (re)connected, so what was sent meanwhile is lost, or
        the server is lost; the caller re-reads every encounter's head from
        the last seq it saw. A lost notification only costs a later look."""
        started = time.monotonic()
        try:
            with self._guard:
                fresh = self._listener is None or self._listener.closed or self._listener.broken
                if fresh:
                    self._listener = psycopg.connect(
                        self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                        application_name="combat-ledger-listen")
                    self._listener.execute(f"LISTEN {pgschema.CHANNEL}")
                listener = self._listener
            if fresh or listener is None:
                return None
            said = [n.payload for n in listener.notifies(timeout=timeout, stop_after=1)]
            said += [n.payload for n in listener.notifies(timeout=0)]  # the rest of a burst
            return {p.rpartition(":")[0] for p in said}
        except psycopg.Error:
            with self._guard:
                if self._listener is not None:
                    self._listener.close()
                self._listener = None
            time.sleep(max(0.0, timeout - (time.monotonic() - started)))
            return None

    def probe(self) -> None:
        """A write transaction that locks nothing another waits on (SKIP
        LOCKED) and is rolled back: a standby, a read-only role or a lost
        server fails it."""
        try:
            with self._held() as db, db.transaction(force_rollback=True):
                db.execute("SELECT 1 FROM encounters LIMIT 1 FOR UPDATE SKIP LOCKED")
        except psycopg.Error as exc:
            raise self._wrap(exc, writing=True) from None

    @staticmethod
    def _put_snapshot(db, encounter, seq, digest, version, state: bytes) -> None:
        db.execute("INSERT INTO snapshots VALUES (%s, %s, %s, %s, %s) ON CONFLICT (encounter) "
                   "DO UPDATE SET seq = excluded.seq, hash = excluded.hash, "
                   "version = excluded.version, state = excluded.state",
                   (encounter, seq, digest, version, state))

    def save_snapshot(self, encounter: str, seq: int, version: str,
                      maker: SnapshotMaker) -> None:
        def work(db):
            row = db.execute("SELECT hash FROM events WHERE encounter = %s AND seq = %s",
                             (encounter, seq)).fetchone()
            if row:
                self._put_snapshot(db, encounter, seq, row[0], version, maker(seq, row[0]))
        self._write(work)

    def drop_snapshot(self, encounter: str) -> None:
        self._write(lambda db: db.execute("DELETE FROM snapshots WHERE encounter = %s",
                                          (encounter,)))

    # -- archive, titles, deletion ------------------------------------------

    def archived(self) -> set[str]:
        return {r[0] for r in self._query("SELECT encounter FROM archived")}

    def set_archived(self, encounter: str, archived: bool) -> None:
        self.head(encounter)  # an unknown encounter is refused
        sql = ("INSERT INTO archived VALUES (%s) ON CONFLICT DO NOTHING" if archived
               else "DELETE FROM archived WHERE encounter = %s")
        self._write(lambda db: db.execute(sql, (encounter,)))

    def retitle(self, encounter: str, title: str) -> None:
        self.head(encounter)
        self._write(lambda db: db.execute("UPDATE encounters SET title = %s WHERE id = %s",
                                          (title, encounter)))

    def delete(self, encounter: str) -> None:
        self.head(encounter)
        def work(db):
            for table, column in (("events", "encounter"), ("snapshots", "encounter"),
                                  ("archived", "encounter"), ("hook_marks", "encounter"),
                                  ("encounters", "id")):
                db.execute(f"DELETE FROM {table} WHERE {column} = %s", (encounter,))
        self._write(work)
        self._heads.pop(encounter, None)

    # -- tokens of the table server ----------------------------------------

    _TOKEN = "name, role, owns, encounter, digest, created_at"

    def tokens(self) -> list[Token]:
        return [self._token(r) for r in self._query(
            f'SELECT {self._TOKEN} FROM tokens ORDER BY name COLLATE "C"')]

    def token(self, digest: str) -> Token | None:
        row = self._query(f"SELECT {self._TOKEN} FROM tokens WHERE digest = %s", (digest,))
        return self._token(row[0]) if row else None

    @staticmethod
    def _token(row) -> Token:
        name, role, owns, encounter, digest, created_at = row
        return Token(name, role, tuple(owns), encounter, digest, created_at)

    def add_token(self, token: Token) -> None:
        def work(db):
            done = db.execute(
                "INSERT INTO tokens VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (token.name, token.role, list(token.owns), token.encounter, token.digest,
                 token.created_at))
            if done.rowcount != 1:
                raise Refusal(f"a token named {token.name!r} exists already: "
                              "revoke it first or choose another name")
        self._write(work)

    def revoke_token(self, name: str) -> bool:
        return self._write(lambda db: db.execute(
            "DELETE FROM tokens WHERE name = %s", (name,)).rowcount > 0)

    def import_log(self, encounter: str, title: str, envelopes: Iterable[Envelope],
                   then: Callable[[Iterator[tuple]], T]) -> T:
        """Store `envelopes` verbatim as a new encounter, all or nothing: they
        are staged in a temporary table of this session, judged by `then`
        from there, and copied into the log in one short write transaction."""
        with self._held() as db:
            return self._import(db, encounter, title, envelopes, then)

    def _import(self, db, encounter: str, title: str, envelopes: Iterable[Envelope],
                then: Callable[[Iterator[tuple]], T]) -> T:
        try:
            if self._query("SELECT 1 FROM encounters WHERE id = %s", (encounter,)):
                raise Refusal(f"encounter {encounter!r} already exists")
            db.execute("CREATE TEMP TABLE IF NOT EXISTS combat_staged (seq bigint PRIMARY KEY, "
                       "batch bigint, type text, at text, actor text, data bytea, "
                       "prev_hash text, hash text)")
            db.execute("TRUNCATE combat_staged")
            try:
                events = iter(envelopes)
                while chunk := list(islice(events, IMPORT_CHUNK)):
                    with db.cursor().copy(f"COPY combat_staged ({_ROW}) FROM STDIN") as copy:
                        for e in chunk:
                            copy.write_row((e.seq, e.batch, e.type, e.at, e.actor,
                                            encode_data(e.data), e.prev_hash, e.hash))
                result = then(self._staged())
                self._write(lambda db: self._copy_staged(db, encounter, title))
                return result
            finally:
                if not db.broken:
                    db.execute("TRUNCATE combat_staged")
        except psycopg.Error as exc:
            raise self._wrap(exc, writing=True) from None
        except UnicodeEncodeError as exc:
            raise _not_text(exc) from None

    def _staged(self) -> Iterator[tuple]:
        after = 0
        while True:
            page = self._query("SELECT seq, batch, type, data FROM combat_staged WHERE seq > %s "
                               "ORDER BY seq LIMIT %s", (after, PAGE), binary=True)
            yield from page
            if len(page) < PAGE:
                return
            after = page[-1][0]

    def _copy_staged(self, db, encounter: str, title: str) -> None:
        head = db.execute("SELECT seq, hash FROM combat_staged ORDER BY seq DESC LIMIT 1"
                          ).fetchone() or (0, GENESIS)
        done = db.execute("INSERT INTO encounters VALUES (%s, %s, %s, %s, %s) "
                          "ON CONFLICT DO NOTHING", (encounter, title, utc_now(), *head))
        if done.rowcount != 1:  # another writer made it meanwhile
            raise Refusal(f"encounter {encounter!r} already exists")
        db.execute(f"INSERT INTO events SELECT %s, {_ROW}, %s FROM combat_staged ORDER BY seq",
                   (encounter, EVENT_VERSION))
        db.execute("SELECT pg_notify(%s, %s)", (pgschema.CHANNEL, f"{encounter}:{head[0]}"))

    def extend_log(self, encounter: str, head: tuple[int, str],
                   envelopes: Iterable[Envelope]) -> None:
        """Append `envelopes` verbatim after `head`, the encounter's (seq,
        hash), all or nothing (`copy --to` bringing a copy up to date)."""
        def work(db):
            row = self._head_as_judged(db, encounter, head[0])
            if tuple(row) != tuple(head):
                raise Conflict(f"the head of {encounter} moved while it was copied")
            last = None
            events = iter(envelopes)
            while chunk := list(islice(events, IMPORT_CHUNK)):
                db.cursor().executemany(
                    f"INSERT INTO events ({_ROW}, encounter, version) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    [(e.seq, e.batch, e.type, e.at, e.actor, encode_data(e.data),
                      e.prev_hash, e.hash, encounter, EVENT_VERSION) for e in chunk])
                last = chunk[-1]
            if last is not None:
                db.execute("UPDATE encounters SET head_seq = %s, head_hash = %s WHERE id = %s",
                           (last.seq, last.hash, encounter))
                db.execute("SELECT pg_notify(%s, %s)",
                           (pgschema.CHANNEL, f"{encounter}:{last.seq}"))
        try:
            self._write(work)
        except UnicodeEncodeError as exc:
            raise _not_text(exc) from None
