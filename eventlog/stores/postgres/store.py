"""The PostgreSQL store: many encounters, many tables and many processes on
one server, with the SQLite store's guarantees (the contract, contract.py).

An append is one transaction, one statement (APPEND): the encounter's head
row is locked (`SELECT ... FOR UPDATE`, bounded by `lock_timeout`), the
expected seq and hash checked (a stale one is the same Conflict, so the
optimistic retry is unchanged), the batch inserted, the head moved and the
encounter's change marked with the transaction's id (changes.py), then
commit: seq is gap-free and visible in commit order, in one round trip to
the server (statements.py).
`reading()` is one REPEATABLE READ, READ ONLY transaction. Each thread has
its own connection; a broken one is replaced on the next call. Or, for the
table server (`pool=N`), one store serves every thread of the process from
a pool of at most N connections (psycopg_pool): a thread holds one for a
call, a read snapshot or a write transaction, then gives it back; the
connection wait_changes asks on is the process's one more. psycopg is
imported here only: open_store imports this module for a URL.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import TypeVar
from collections.abc import Callable, Iterable, Iterator, Sequence

import psycopg

from eventlog.codec import GENESIS, Envelope, encode_data, utc_now
from eventlog.errors import LedgerError, StoreError
from eventlog.language import _
from eventlog.events import EncounterCreated, Payload
from eventlog.stores.postgres import connection, schema
from eventlog.stores.postgres.changes import ChangesMixin, notifying
from eventlog.stores.postgres.connection import CONNECT_TIMEOUT_S
from eventlog.stores.postgres.hooks import HooksMixin
from eventlog.stores.postgres.imports import ImportMixin
from eventlog.stores.postgres.portraits import PortraitsMixin
from eventlog.stores.postgres.seats import SeatsMixin
from eventlog.stores.postgres.snapshots import SnapshotsMixin
from eventlog.stores.postgres.statements import APPEND, BATCH_ROWS, MARK, NOTIFY, SNAPSHOT
from eventlog.stores.postgres.statements import ROW as _ROW
from eventlog.stores.postgres.tidy import TidyMixin
from eventlog.stores.postgres.tokens import TokensMixin
from eventlog.stores.contract import EncounterInfo, SnapshotMaker, StoredEvent
from eventlog.stores.records import PARTY_STREAM
from eventlog.stores.shared import (
    chained, unknown,
    encounter_taken,
    DerivedFoldReads, busy_timeout, conflict, count_commit, judged_head, not_text)

T = TypeVar("T")
PAGE = 10_000  # rows fetched per query when a read streams
_MARKERS = "('Undone', 'Redone', 'Amended')"


class PostgresStore(SnapshotsMixin, ImportMixin, TokensMixin, SeatsMixin, ChangesMixin,
                    TidyMixin, HooksMixin, PortraitsMixin, DerivedFoldReads):
    """One schema of one PostgreSQL database (the EventStore contract)."""

    path = None  # no file: nothing an export could overwrite

    def __init__(self, url: str, create: bool = True, pool: int | None = None):
        self.url = url
        self.threadsafe = pool is not None  # (one store for every thread: the pool's)
        self.where = connection.shown(url)
        self.timeout = busy_timeout()
        self._local = threading.local()
        self._all: list[psycopg.Connection] = []
        self._guard = threading.Lock()
        self._listener: psycopg.Connection | None = None
        self.notify = notifying()  # (changes.py: how other processes learn of an append)
        self._horizon: str | None = None  # the poll's: see changes.py
        self._marks: dict[str, str] = {}
        self._heads: dict[str, tuple[int, str]] = {}  # as last read or written here
        self._pool = None
        try:
            if pool is not None:
                self._pool = connection.make(self, pool)
            with self._held() as db:
                store_id = schema.prepare(db, self.where, create)
        except psycopg.Error as exc:
            self.close()
            raise self._wrap(exc) from None
        except LedgerError:
            self.close()
            raise
        self.identity = f"postgresql:{store_id}:{self.where}"
        self.channel = schema.channel(store_id)

    # -- connections -----------------------------------------------------

    def _connect(self) -> psycopg.Connection:
        try:
            db = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                                 application_name="combat-ledger")
        except psycopg.Error as exc:
            raise connection.unreachable(exc, self.where) from None
        self._configure(db)
        return db

    def _configure(self, db: psycopg.Connection) -> None:
        try:  # a held lock (a row, a table) is a clear refusal, never a hang
            db.execute("SELECT set_config('lock_timeout', %s, false)",
                       (f"{int(self.timeout * 1000)}",))
        except psycopg.Error as exc:
            db.close()
            raise self._wrap(exc) from None

    @contextmanager
    def _held(self) -> Iterator[psycopg.Connection]:
        """This thread's connection for the work inside: its own, or one the
        pool lends until the outermost `_held` ends (nested ones share it)."""
        if self._pool is None:
            yield self._conn()
            return
        db = getattr(self._local, "db", None)
        if db is not None:
            yield db
            return
        with connection.lent(self) as db:
            self._local.db, self._local.depth = db, 0
            try:
                yield db
            finally:
                self._local.db = None

    def _conn(self) -> psycopg.Connection:
        db = getattr(self._local, "db", None)
        if db is None or db.closed or db.broken:
            if db is not None and getattr(self._local, "depth", None):
                raise StoreError(_("lost the connection to {where} during a read").format(
                    where=self.where))
            db = self._local.db = self._connect()
            self._local.depth = 0
            with self._guard:
                self._all.append(db)
        return db

    def _wrap(self, exc: Exception, writing: bool = False) -> StoreError:
        return connection.wrap(exc, self.where, self.timeout, writing)

    def close(self) -> None:
        self.release_hooks()
        if self._pool is not None:
            self._pool.close()
        with self._guard:
            for db in self._all:
                db.close()
            self._all.clear()
            if self._listener is not None:
                self._listener.close()
                self._listener = None
        self._local = threading.local()

    def refuses_writes(self) -> bool:
        """A read-only session or standby, or a role that may not write the log."""
        from eventlog.stores.writable import PG_READ_ONLY
        return bool(self._query(PG_READ_ONLY)[0][0])

    def _query(self, sql: str, args: Sequence = (), binary: bool = False) -> list:
        try:
            with self._held() as db:
                return db.cursor(binary=binary).execute(sql, args).fetchall()
        except psycopg.Error as exc:
            raise self._wrap(exc) from None
        except UnicodeEncodeError as exc:
            raise not_text(exc) from None

    @contextmanager
    def reading(self):
        """Every read inside sees one snapshot (REPEATABLE READ, READ ONLY:
        writers go on meanwhile). Re-entrant."""
        with self._held() as db:
            yield from self._snapshot(db)

    def _snapshot(self, db: psycopg.Connection):
        if self._local.depth:
            self._local.depth += 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        try:
            db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        except psycopg.Error as exc:
            raise self._wrap(exc) from None
        self._local.depth = 1
        try:
            yield
        finally:
            self._local.depth = 0
            try:
                db.execute("COMMIT")  # (it wrote nothing)
            except psycopg.Error:
                pass  # a lost connection: the next call makes a new one

    # -- reading ---------------------------------------------------------

    def encounters(self) -> list[EncounterInfo]:
        return [EncounterInfo._make(r) for r in self._query(
            'SELECT id, title, created_at, head_seq FROM encounters WHERE id <> %s '
            'ORDER BY created_at COLLATE "C", id COLLATE "C"', (PARTY_STREAM,))]

    def head(self, encounter: str) -> tuple[int, str]:
        row = self._query("SELECT head_seq, head_hash FROM encounters WHERE id = %s",
                          (encounter,))
        if not row:
            raise unknown(encounter, self.where)
        self._heads[encounter] = head = tuple(row[0])
        return head

    def _pages(self, columns: str, encounter: str, after: int, upto: int | None,
               where: str = "", args: Sequence = ()) -> Iterator[tuple]:
        """Rows in seq order, a page at a time (seq is the row's first column),
        so a long log is never held whole and other queries may run between."""
        sql = (f"SELECT {columns} FROM events WHERE encounter = %s AND seq > %s{where}"
               + (" AND seq <= %s" if upto is not None else "") + " ORDER BY seq LIMIT %s")
        tail = [upto] if upto is not None else []
        while True:
            page = self._query(sql, [encounter, after, *args, *tail, PAGE], binary=True)
            yield from page
            if len(page) < PAGE:
                return
            after = page[-1][0]

    def rows(self, encounter: str, after: int = 0, upto: int | None = None) -> Iterator[StoredEvent]:
        return map(StoredEvent._make, self._pages(_ROW, encounter, after, upto))

    def fold_rows(self, encounter: str, after: int = 0, upto: int | None = None,
                  skip: Sequence[str] = ()) -> Iterator[tuple[int, int, str, bytes]]:
        where = " AND type <> ALL(%s)" if skip else ""
        return self._pages("seq, batch, type, data", encounter, after, upto, where,
                           [list(skip)] if skip else [])

    def types_at(self, encounter: str, seqs: Iterable[int]) -> dict[int, str]:
        rows = self._query(  # (by the key each: `seq = ANY(%s)` may read every row)
            "SELECT s, (SELECT type FROM events WHERE encounter = %s AND seq = s) "
            "FROM unnest(%s::bigint[]) AS s", (encounter, list(seqs)))
        return {seq: t for seq, t in rows if t is not None}

    def markers(self, encounter: str, upto: int | None = None, after: int = 0) -> list[StoredEvent]:
        return [StoredEvent._make(r) for r in self._pages(
            _ROW, encounter, after, upto, f" AND type IN {_MARKERS}")]

    def batch_end(self, encounter: str, seq: int) -> int:
        row = self._query(
            "SELECT (SELECT min(seq) - 1 FROM events WHERE encounter = %s AND seq > %s "
            "AND seq = batch), (SELECT max(seq) FROM events WHERE encounter = %s)",
            (encounter, seq, encounter))[0]
        return row[0] if row[0] is not None else max(seq, row[1] or seq)

    def batch_heads(self, encounter: str) -> list[tuple[int, str]]:
        return [tuple(r) for r in self._query(
            "SELECT seq, type FROM events WHERE encounter = %s AND seq = batch ORDER BY seq",
            (encounter,))]

    def life(self, encounter: str) -> str | None:
        """The hash of the encounter's first event: this life of its id."""
        rows = self._query("SELECT hash FROM events WHERE encounter = %s AND seq = 1",
                           (encounter,))
        return rows[0][0] if rows else None

    # -- writing ---------------------------------------------------------

    def _write(self, work: Callable[[psycopg.Connection], T]) -> T:
        try:
            with self._held() as db, db.transaction():
                result = work(db)
        except psycopg.Error as exc:
            raise self._wrap(exc, writing=True) from None
        except UnicodeEncodeError as exc:
            raise not_text(exc) from None
        count_commit()
        return result

    def create(self, encounter: str, created: EncounterCreated, actor: str) -> Envelope:
        def work(db):
            at = utc_now()
            done = db.execute("INSERT INTO encounters VALUES (%s, %s, %s, 0, %s) "
                              "ON CONFLICT DO NOTHING", (encounter, created.title, at, GENESIS))
            if done.rowcount != 1:
                raise encounter_taken(encounter)
            envelopes = chained(0, GENESIS, [[created]], actor, at)
            with db.pipeline():
                self._queue(db, encounter, envelopes)
            return envelopes[0]
        return self._write(work)

    def _head_as_judged(self, db, encounter: str, expected_seq: int) -> tuple[int, str]:
        row = db.execute("SELECT head_seq, head_hash FROM encounters WHERE id = %s FOR UPDATE",
                         (encounter,)).fetchone()
        return judged_head(row, encounter, self.where, expected_seq)

    def append(self, encounter: str, expected_seq: int, payloads: list[Payload],
               actor: str, snapshot: tuple[str, SnapshotMaker] | None = None) -> list[Envelope]:
        """One statement, so one transaction and one round trip (APPEND): the
        head as last read here, else read now, is the one the batch chains on."""
        head = self._heads.get(encounter)
        if head is None or head[0] != expected_seq:
            head = self.head(encounter)
            if head[0] != expected_seq:
                raise conflict(head[0], expected_seq)
        envelopes = chained(*head, [payloads], actor, utc_now())
        last = envelopes[-1]
        args = {"e": encounter, "seq": head[0], "hash": head[1], "new": last.seq,
                "new_hash": last.hash, "channel": self.channel,
                "said": f"{encounter}:{last.seq}", **self._columns(envelopes)}
        sql = APPEND.replace("/* notify */", NOTIFY if self.notify else "")
        if snapshot is not None:
            version, maker = snapshot
            args.update(version=version, state=maker(last.seq, last.hash))
            sql = sql.replace("/* snapshot */", SNAPSHOT)
        try:
            with self._held() as db:
                locked = db.execute(sql, args).fetchone()
        except psycopg.Error as exc:
            self._heads.pop(encounter, None)
            raise self._wrap(exc, writing=True) from None
        except UnicodeEncodeError as exc:
            raise not_text(exc) from None
        if locked is None:
            raise unknown(encounter, self.where)
        if (locked[0], locked[1]) != tuple(head):  # written: nothing
            self._heads.pop(encounter, None)
            raise conflict(locked[0], expected_seq)
        count_commit()
        return self._remember(encounter, envelopes)

    @staticmethod
    def _columns(envelopes: list[Envelope]) -> dict:
        return {"seqs": [e.seq for e in envelopes], "batches": [e.batch for e in envelopes],
                "types": [e.type for e in envelopes], "ats": [e.at for e in envelopes],
                "actors": [e.actor for e in envelopes],
                "datas": [encode_data(e.data) for e in envelopes],
                "prevs": [e.prev_hash for e in envelopes], "hashes": [e.hash for e in envelopes]}

    def _remember(self, encounter: str, envelopes: list[Envelope]) -> list[Envelope]:
        self._heads[encounter] = (envelopes[-1].seq, envelopes[-1].hash)
        return envelopes

    def append_batches(self, encounter: str, expected_seq: int,
                       batches: list[list[Payload]], actor: str) -> int:
        def work(db):
            head, digest = self._head_as_judged(db, encounter, expected_seq)
            envelopes = chained(head, digest, batches, actor, utc_now())
            with db.pipeline():
                self._queue(db, encounter, envelopes)
            return envelopes[-1].seq
        return self._write(work)

    def _queue(self, db, encounter, envelopes: list[Envelope], snapshot=None) -> None:
        """Insert the events, move the head, keep the snapshot, mark the change:
        each statement only while the head still reads as the batch chains
        on from, so a head moved meanwhile makes them write nothing (and the
        caller rolls back) rather than fail inside a pipeline."""
        first, last = envelopes[0], envelopes[-1]
        was = (encounter, first.seq - 1, first.prev_hash)
        db.execute(f"INSERT INTO events {BATCH_ROWS} WHERE EXISTS (SELECT 1 FROM encounters "
                   "WHERE id = %(e)s AND head_seq = %(seq)s AND head_hash = %(hash)s)",
                   {"e": encounter, "seq": was[1], "hash": was[2], **self._columns(envelopes)})
        db.execute("UPDATE encounters SET head_seq = %s, head_hash = %s "
                   "WHERE id = %s AND head_seq = %s AND head_hash = %s",
                   (last.seq, last.hash, *was))
        now = "EXISTS (SELECT 1 FROM encounters WHERE id = %s AND head_seq = %s)"
        if snapshot is not None:
            version, maker = snapshot
            db.execute(f"INSERT INTO snapshots SELECT %s, %s, %s, %s, %s WHERE {now} "
                       "ON CONFLICT (encounter) DO UPDATE SET seq = excluded.seq, "
                       "hash = excluded.hash, version = excluded.version, state = excluded.state",
                       (encounter, last.seq, last.hash, version, maker(last.seq, last.hash),
                        encounter, last.seq))
        db.execute(MARK, (encounter, encounter, last.seq))
        if self.notify:
            db.execute(f"SELECT pg_notify(%s, %s) WHERE {now}",
                       (self.channel, f"{encounter}:{last.seq}", encounter, last.seq))
