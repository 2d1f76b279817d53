"""The PostgreSQL store: many encounters, many tables and many processes on
one server, with the SQLite store's guarantees (the contract, contract.py).

An append is one transaction: the encounter's head row is locked (`SELECT
... FOR UPDATE`, bounded by `lock_timeout`), the expected seq checked (a
stale one is the same Conflict, so the optimistic retry is unchanged), the
batch inserted, the head moved and `NOTIFY combat_ledger, 'encounter:seq'`
sent last, then commit: seq is gap-free and visible in commit order.
`reading()` is one REPEATABLE READ, READ ONLY transaction. Each thread has
its own connection; a broken one is replaced on the next call.

psycopg is imported here only: open_store imports this module for a URL.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from itertools import islice
from typing import Callable, Iterable, Iterator, Sequence, TypeVar

import psycopg

from eventlog.codec import GENESIS, Envelope, encode_data, event_hash, utc_now
from eventlog.errors import Conflict, LedgerError, Refusal, StoreError, UnknownEncounter
from eventlog.events import EncounterCreated, Payload
from eventlog.stores import pgschema
from eventlog.stores.contract import EncounterInfo, Snapshot, SnapshotMaker, StoredEvent, Token
from eventlog.stores.sqlite import EVENT_VERSION, _not_text, busy_timeout
from eventlog.text import check_actor, check_payload

T = TypeVar("T")
PAGE = 10_000  # rows fetched per query when a read streams
IMPORT_CHUNK = 1000
CONNECT_TIMEOUT_S = 10
_ROW = "seq, batch, type, at, actor, data, prev_hash, hash"
_MARKERS = "('Undone', 'Redone', 'Amended')"


class PostgresStore:
    """One schema of one PostgreSQL database (the EventStore contract)."""

    commits = 0  # write transactions committed in this process (cli/base.py)
    path = None  # no file: nothing an export could overwrite

    def __init__(self, url: str, create: bool = True):
        self.url = url
        self.where = pgschema.shown(url)
        self.timeout = busy_timeout()
        self._local = threading.local()
        self._all: list[psycopg.Connection] = []
        self._guard = threading.Lock()
        self._listener: psycopg.Connection | None = None
        db = self._conn()
        try:
            store_id = pgschema.prepare(db, self.where, create)
        except psycopg.Error as exc:
            self.close()
            raise self._wrap(exc) from None
        except LedgerError:
            self.close()
            raise
        self.identity = f"postgresql:{store_id}:{self.where}"

    # -- connections -----------------------------------------------------

    def _connect(self) -> psycopg.Connection:
        try:
            db = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                                 application_name="combat-ledger")
        except psycopg.Error as exc:
            raise pgschema.unreachable(exc, self.where) from None
        try:  # a held lock (a row, a table) is a clear refusal, never a hang
            db.execute("SELECT set_config('lock_timeout', %s, false)",
                       (f"{int(self.timeout * 1000)}",))
        except psycopg.Error as exc:
            db.close()
            raise self._wrap(exc) from None
        return db

    def _conn(self) -> psycopg.Connection:
        db = getattr(self._local, "db", None)
        if db is None or db.closed or db.broken:
            if db is not None and getattr(self._local, "depth", 0):
                raise StoreError(f"lost the connection to {self.where} during a read")
            db = self._local.db = self._connect()
            self._local.depth = 0
            with self._guard:
                self._all.append(db)
        return db

    def _wrap(self, exc: Exception, writing: bool = False) -> StoreError:
        return pgschema.wrap(exc, self.where, self.timeout, writing)

    def close(self) -> None:
        with self._guard:
            for db in self._all:
                db.close()
            self._all.clear()
            if self._listener is not None:
                self._listener.close()
                self._listener = None
        self._local = threading.local()

    def _query(self, sql: str, args: Sequence = (), binary: bool = False) -> list:
        try:
            return self._conn().cursor(binary=binary).execute(sql, args).fetchall()
        except psycopg.Error as exc:
            raise self._wrap(exc) from None
        except UnicodeEncodeError as exc:
            raise _not_text(exc) from None

    @contextmanager
    def reading(self):
        """Every read inside sees one snapshot (REPEATABLE READ, READ ONLY:
        writers go on meanwhile). Re-entrant."""
        db = self._conn()
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
            'SELECT id, title, created_at, head_seq FROM encounters '
            'ORDER BY created_at COLLATE "C", id COLLATE "C"')]

    def head(self, encounter: str) -> tuple[int, str]:
        row = self._query("SELECT head_seq, head_hash FROM encounters WHERE id = %s",
                          (encounter,))
        if not row:
            raise UnknownEncounter(f"no encounter {encounter!r} in {self.where}")
        return tuple(row[0])

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

    def fold_data(self, encounter: str, after: int = 0, upto: int | None = None,
                  skip: Sequence[str] = ()) -> Iterator[tuple[str, bytes]]:
        return ((row[2], row[3]) for row in self.fold_rows(encounter, after, upto, skip))

    def markers(self, encounter: str, upto: int | None = None) -> list[StoredEvent]:
        return [StoredEvent._make(r) for r in self._pages(
            _ROW, encounter, 0, upto, f" AND type IN {_MARKERS}")]

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

    def snapshot(self, encounter: str, version: str) -> Snapshot | None:
        row = self._query(
            "SELECT s.seq, s.hash, s.state FROM snapshots s JOIN events e "
            "ON e.encounter = s.encounter AND e.seq = s.seq AND e.hash = s.hash "
            "WHERE s.encounter = %s AND s.version = %s", (encounter, version), binary=True)
        return Snapshot._make(row[0]) if row else None

    def wait_changes(self, timeout: float) -> None:
        """LISTEN on `combat_ledger`; back after a notification or `timeout`
        (a lost notification, or a lost server, only costs the timeout)."""
        import time
        started = time.monotonic()
        try:
            with self._guard:
                if self._listener is None or self._listener.closed or self._listener.broken:
                    self._listener = psycopg.connect(
                        self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
                    self._listener.execute(f"LISTEN {pgschema.CHANNEL}")
                listener = self._listener
            for _ in listener.notifies(timeout=timeout, stop_after=1):
                pass
            for _ in listener.notifies(timeout=0):
                pass  # the rest of a burst: one wake-up is enough
        except psycopg.Error:
            with self._guard:
                if self._listener is not None:
                    self._listener.close()
                self._listener = None
            time.sleep(max(0.0, timeout - (time.monotonic() - started)))

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
                raise LedgerError(f"a token named {token.name!r} already exists")
        self._write(work)

    def revoke_token(self, name: str) -> bool:
        return self._write(lambda db: db.execute(
            "DELETE FROM tokens WHERE name = %s", (name,)).rowcount > 0)

    # -- writing ---------------------------------------------------------

    def _write(self, work: Callable[[psycopg.Connection], T]) -> T:
        db = self._conn()
        try:
            with db.transaction():
                result = work(db)
        except psycopg.Error as exc:
            raise self._wrap(exc, writing=True) from None
        except UnicodeEncodeError as exc:
            raise _not_text(exc) from None
        PostgresStore.commits += 1
        return result

    def create(self, encounter: str, created: EncounterCreated, actor: str) -> Envelope:
        def work(db):
            at = utc_now()
            done = db.execute("INSERT INTO encounters VALUES (%s, %s, %s, 0, %s) "
                              "ON CONFLICT DO NOTHING", (encounter, created.title, at, GENESIS))
            if done.rowcount != 1:
                raise Refusal(f"encounter {encounter!r} already exists")
            return self._insert(db, encounter, 0, GENESIS, [[created]], actor, at)[0]
        return self._write(work)

    def _head_as_judged(self, db, encounter: str, expected_seq: int) -> tuple[int, str]:
        row = db.execute("SELECT head_seq, head_hash FROM encounters WHERE id = %s FOR UPDATE",
                         (encounter,)).fetchone()
        if row is None:
            raise UnknownEncounter(f"no encounter {encounter!r} in {self.where}")
        if row[0] != expected_seq:
            raise Conflict(f"another declaration was appended first "
                           f"(seq {row[0]}, expected {expected_seq})")
        return row

    def append(self, encounter: str, expected_seq: int, payloads: list[Payload],
               actor: str, snapshot: tuple[str, SnapshotMaker] | None = None) -> list[Envelope]:
        def work(db):
            head, digest = self._head_as_judged(db, encounter, expected_seq)
            return self._insert(db, encounter, head, digest, [payloads], actor, utc_now(),
                                snapshot)
        return self._write(work)

    def append_batches(self, encounter: str, expected_seq: int,
                       batches: list[list[Payload]], actor: str) -> int:
        def work(db):
            head, digest = self._head_as_judged(db, encounter, expected_seq)
            return self._insert(db, encounter, head, digest, batches, actor, utc_now())[-1].seq
        return self._write(work)

    def _insert(self, db, encounter, head_seq, head_hash, batches, actor, at,
                snapshot=None) -> list[Envelope]:
        """Insert `batches`, move the head, keep the snapshot, NOTIFY last."""
        check_actor(actor)  # the one door every declaration goes through
        envelopes: list[Envelope] = []
        seq, prev = head_seq, head_hash
        for payloads in batches:
            batch = seq + 1
            for payload in payloads:
                check_payload(payload)
                seq += 1
                name = type(payload).__name__
                digest = event_hash(seq, batch, name, at, actor, payload, prev)
                envelopes.append(Envelope(seq, batch, name, at, actor, payload, prev, digest))
                prev = digest
        with db.pipeline():
            db.cursor().executemany(
                "INSERT INTO events VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [(encounter, e.seq, e.batch, e.type, e.at, e.actor, encode_data(e.data),
                  e.prev_hash, e.hash, EVENT_VERSION) for e in envelopes])
            self._finish(db, encounter, seq, prev, snapshot)
        return envelopes

    def _finish(self, db, encounter: str, seq: int, digest: str,
                snapshot: tuple[str, SnapshotMaker] | None = None) -> None:
        db.execute("UPDATE encounters SET head_seq = %s, head_hash = %s WHERE id = %s",
                   (seq, digest, encounter))
        if snapshot is not None:
            version, maker = snapshot
            self._put_snapshot(db, encounter, seq, digest, version, maker(seq, digest))
        db.execute("SELECT pg_notify(%s, %s)", (pgschema.CHANNEL, f"{encounter}:{seq}"))

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

    def import_log(self, encounter: str, title: str, envelopes: Iterable[Envelope],
                   then: Callable[[Iterator[tuple]], T]) -> T:
        """Store `envelopes` verbatim as a new encounter, all or nothing: they
        are staged in a temporary table of this session, judged by `then`
        from there, and copied into the log in one short write transaction."""
        db = self._conn()
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
