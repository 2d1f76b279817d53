"""The SQLite store: many encounters in one file, append-only, one batch per
transaction (all or nothing), seq from 1 with no gaps per encounter.

Concurrency is optimistic: `append` names the seq its declaration was judged
against and raises Conflict when another writer got there first. Each write
runs under BEGIN IMMEDIATE, so two writers never interleave inside a batch.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
import sqlite3
from collections.abc import Iterator, Sequence

from eventlog.codec import GENESIS, Envelope, encode_data, utc_now
from eventlog.stores.shared import (
    chained, unknown,
    encounter_taken,
    EVENT_VERSION, busy_timeout, count_commit, judged_head, not_text)
from eventlog.stores.records import PARTY_STREAM, EncounterInfo, SnapshotMaker, StoredEvent
from eventlog.errors import StoreError
from eventlog.language import N_, _, reason
from eventlog.events import EncounterCreated, Payload
from eventlog.stores.sqlite.changes import ChangesMixin
from eventlog.stores.sqlite.connection import (
    check_path, folder_of, has_wal, plain, read_only)
from eventlog.stores.sqlite.foldreads import FoldReadsMixin
from eventlog.stores.sqlite.hooks import HooksMixin
from eventlog.stores.sqlite.imports import ROW as _ROW, ImportMixin
from eventlog.stores.sqlite.schema import (
    APPLICATION_ID, MADE, MIGRATIONS, SCHEMA, SCHEMA_VERSION, foreign_object, recognised,
    schema_version)
from eventlog.stores.sqlite.portraits import PortraitsMixin
from eventlog.stores.sqlite.snapshots import SnapshotsMixin
from eventlog.stores.sqlite.tidy import TidyMixin
from eventlog.stores.sqlite.seats import SeatsMixin
from eventlog.stores.sqlite.tokens import TokensMixin

DISK_FULL_BELOW = 1 << 20  # bytes free: an I/O error with less than this is a full disk

NOT_OURS = N_("{path} is not a combat-ledger database")


class Store(SnapshotsMixin, ImportMixin, TokensMixin, SeatsMixin, ChangesMixin, TidyMixin, HooksMixin,
            FoldReadsMixin, PortraitsMixin):
    """One ledger file (the EventStore contract, eventlog/stores/contract.py). Every
    method is one short transaction, or part of the one `reading()` holds."""


    def __init__(self, path: str | os.PathLike[str]):
        # (a string: pathlib costs every command ~4 ms of start-up; `path`
        # makes the Path a message or a caller wants)
        self.file = plain(path)
        self.timeout = busy_timeout()
        check_path(self.file, str(path))
        try:
            os.makedirs(folder_of(self.file), exist_ok=True)
            self.db = self._connect()
            self._prepare()
        except sqlite3.DatabaseError as exc:
            raise self._wrap(exc) from None
        except OSError as exc:
            raise StoreError(_("cannot open {path}: {reason}").format(
                path=self.path, reason=reason(exc))) from None

    @property
    def path(self):
        """The store file as a Path."""
        from pathlib import Path
        return Path(self.file)

    def _connect(self) -> sqlite3.Connection:
        if read_only(self.file) and not has_wal(self.file):
            # Read it as it is: a normal connection would leave -wal and -shm
            # files beside it, read-only too, that go on refusing every write
            # after the file is made writable again.
            uri = f"{self.path.resolve().as_uri()}?immutable=1"
            return sqlite3.connect(uri, uri=True, timeout=self.timeout,
                                   isolation_level=None)
        return sqlite3.connect(self.file, timeout=self.timeout, isolation_level=None)

    def _wrap(self, exc: Exception) -> StoreError:
        text = str(exc)
        if "locked" in text or "busy" in text:
            return StoreError(_("{path} is locked by another program; gave up after {s} s")
                              .format(path=self.path, s=f"{self.timeout:g}"))
        if "not a database" in text or "malformed" in text:
            return StoreError(_(NOT_OURS).format(path=self.path))
        if "readonly" in text or "read-only" in text:
            return StoreError(_("{path} is read-only").format(path=self.path))
        if "full" in text or ("I/O" in text and self._disk_full()):
            return StoreError(_("cannot write {path}: the disk is full").format(path=self.path))
        return StoreError(_("{path}: {problem}").format(path=self.path, problem=text))

    def _disk_full(self) -> bool:
        """SQLite reports a full disk as an I/O error when it cannot even
        size its shared-memory file: ask the file system."""
        import shutil  # here: only a failed write asks (bz2, lzma: ~3 ms of every command)
        try:
            return shutil.disk_usage(self.path.parent).free < DISK_FULL_BELOW
        except OSError:
            return False

    def _prepare(self) -> None:
        objects = self.db.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
        tables = {name for kind, name, _table, _sql in objects if kind == "table"}
        if not objects:
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("BEGIN IMMEDIATE")
            try:
                if not self.db.execute("SELECT 1 FROM sqlite_master").fetchone():
                    self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    for statement in SCHEMA.split(";"):
                        if statement.strip():
                            self.db.execute(statement)
                    self._create_current()
                    self.db.execute("INSERT INTO meta VALUES ('schema_version', ?)",
                                    (str(SCHEMA_VERSION),))
                    self.db.execute("INSERT INTO meta VALUES ('store_id', ?)",
                                    (os.urandom(16).hex(),))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
        elif not recognised(self.db, tables):  # before anything is written to it
            raise StoreError(_(NOT_OURS).format(path=self.path))
        elif doctored := foreign_object(objects, MADE):
            raise StoreError(_("{path} is not a combat-ledger store as this program made it: it "
                               "holds {object}; nothing was changed").format(
                                   path=self.path, object=doctored))
        row = self.db.execute(
            "SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        version = schema_version(row[0]) if row else None
        if version is None:
            raise StoreError(_("{path} is not a combat-ledger database (its schema version is "
                               "not a number)").format(path=self.path))
        if version > SCHEMA_VERSION:
            raise StoreError(_("{path} was written by a newer combat-ledger (schema {version}; "
                               "this one reads {reads})").format(
                                   path=self.path, version=version, reads=SCHEMA_VERSION))
        if version < SCHEMA_VERSION:
            self._migrate(version, SCHEMA_VERSION)
        if tables and "snapshots" not in tables:  # a store from before snapshots
            self._write(lambda: self.db.execute(SCHEMA[SCHEMA.index("CREATE TABLE snapshots"):]))
        self.indexed = not objects or any(name == "events_by_type" for _kind, name, _table, _sql in objects)
        self.db.execute("PRAGMA synchronous = FULL")
        # Names the store for the user's remembered current encounter: its
        # id and where it is (a copy of the file is another store).
        row = self.db.execute("SELECT value FROM meta WHERE key = 'store_id'").fetchone()
        self.identity = f"sqlite:{row[0] if row else ''}:{os.path.realpath(self.file)}"

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
        return read_only(self.file) and not has_wal(self.file)

    def close(self) -> None:
        self.close_watch()
        self.db.close()

    def probe(self) -> None:
        self._query("SELECT count(*) FROM encounters")
        self._write(lambda: None, count=False)

    # -- reading ---------------------------------------------------------

    def _has(self, table: str) -> bool:
        """Whether the store holds `table`: one read without the migration
        that makes it (a read-only file) has none of its records; once
        there, it stays."""
        known = self.__dict__.setdefault("_tables", set())
        if table not in known and self._query(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)):
            known.add(table)
        return table in known

    def _query(self, sql: str, args: Sequence = ()) -> list:
        try:
            return self.db.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise self._wrap(exc) from None
        except UnicodeEncodeError as exc:
            raise not_text(exc) from None

    @contextmanager
    def reading(self):
        """Every read inside sees one snapshot (a read transaction; WAL lets
        writers go on meanwhile). Re-entrant."""
        if self.db.in_transaction:
            yield
            return
        try:
            self.db.execute("BEGIN")
        except sqlite3.DatabaseError as exc:
            raise self._wrap(exc) from None
        try:
            yield
        finally:
            if self.db.in_transaction:
                self.db.execute("COMMIT")  # (it wrote nothing)

    def encounters(self) -> list[EncounterInfo]:
        return [EncounterInfo._make(r) for r in self._query(
            "SELECT id, title, created_at, head_seq FROM encounters WHERE id <> ? "
            "ORDER BY created_at, id", (PARTY_STREAM,))]

    def head(self, encounter: str) -> tuple[int, str]:
        row = self._query("SELECT head_seq, head_hash FROM encounters WHERE id = ?",
                          (encounter,))
        if not row:
            raise unknown(encounter, self.path)
        return row[0]

    def rows(self, encounter: str, after: int = 0, upto: int | None = None) -> Iterator[StoredEvent]:
        """Stored events in seq order, streamed (never loaded into one list)."""
        sql = f"SELECT {_ROW} FROM events WHERE encounter = ? AND seq > ?"
        args: list = [encounter, after]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        try:
            yield from map(StoredEvent._make, self.db.execute(sql + " ORDER BY seq", args))
        except sqlite3.DatabaseError as exc:
            raise self._wrap(exc) from None
        except UnicodeEncodeError as exc:
            raise not_text(exc) from None

    def batch_end(self, encounter: str, seq: int) -> int:
        """The last seq of the batch that holds `seq`: just before the next
        batch's first event (batches are runs of seq), else the log's head."""
        row = self._query(
            "SELECT min(seq) - 1 FROM events WHERE encounter = ? AND seq > ? AND seq = batch",
            (encounter, seq))
        if row and row[0][0] is not None:
            return row[0][0]
        head = self._query("SELECT max(seq) FROM events WHERE encounter = ?", (encounter,))
        return max(seq, head[0][0] or seq) if head else seq

    def batch_heads(self, encounter: str) -> list[tuple[int, str]]:
        """(batch, type of its first event) for every batch, oldest first."""
        return self._query(
            "SELECT seq, type FROM events WHERE encounter = ? AND seq = batch "
            "ORDER BY seq", (encounter,))

    def life(self, encounter: str) -> str | None:
        """The hash of the encounter's first event: this life of its id."""
        rows = self._query("SELECT hash FROM events WHERE encounter = ? AND seq = 1",
                           (encounter,))
        return rows[0][0] if rows else None

    # -- writing ---------------------------------------------------------

    def _write(self, work, count: bool = True):
        if self._deciding:  # (inside one: its transaction is this write's)
            return work()
        with self._immediate():
            result = work()
        if count:
            count_commit()
        return result

    @contextmanager
    def _immediate(self):
        """One write transaction, BEGIN IMMEDIATE (SQLite's one writer at a
        time, whatever the process): committed when the block ends, rolled
        back when it raises, a database's error said in one line."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as exc:
            raise self._wrap(exc) from None
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException as exc:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.DatabaseError:
                pass
            if isinstance(exc, sqlite3.DatabaseError):
                raise self._wrap(exc) from None
            if isinstance(exc, UnicodeEncodeError):
                raise not_text(exc) from None
            raise

    def create(self, encounter: str, created: EncounterCreated, actor: str) -> Envelope:
        """A new encounter whose first event is `created`."""
        def work():
            if self.db.execute("SELECT 1 FROM encounters WHERE id = ?",
                               (encounter,)).fetchone():
                raise encounter_taken(encounter)
            at = utc_now()
            self.db.execute("INSERT INTO encounters VALUES (?, ?, ?, 0, ?)",
                            (encounter, created.title, at, GENESIS))
            return self._insert(encounter, 0, GENESIS, [created], actor, at)[0]
        return self._write(work)

    def _head_as_judged(self, encounter: str, expected_seq: int) -> tuple[int, str]:
        row = self.db.execute("SELECT head_seq, head_hash FROM encounters WHERE id = ?",
                              (encounter,)).fetchone()
        return judged_head(row, encounter, self.path if row is None else self.file,
                           expected_seq)

    def append(self, encounter: str, expected_seq: int, payloads: list[Payload],
               actor: str, snapshot: tuple[str, SnapshotMaker] | None = None) -> list[Envelope]:
        """Append one batch atomically, if the log still ends at expected_seq;
        with it, a (version, maker) snapshot of the state after the batch."""
        def work():
            row = self._head_as_judged(encounter, expected_seq)
            envs = self._insert(encounter, row[0], row[1], payloads, actor, utc_now())
            if snapshot is not None:
                version, maker = snapshot
                last = envs[-1]
                self.db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?)",
                                (encounter, last.seq, last.hash, version,
                                 maker(last.seq, last.hash)))
            return envs
        return self._write(work)

    def append_batches(self, encounter: str, expected_seq: int,
                       batches: list[list[Payload]], actor: str) -> int:
        """Append many already-judged batches in one transaction (bulk loads,
        benchmarks); returns the new head seq."""
        def work():
            row = self._head_as_judged(encounter, expected_seq)
            head, digest, at = row[0], row[1], utc_now()
            for payloads in batches:
                last = self._insert(encounter, head, digest, payloads, actor, at)[-1]
                head, digest = last.seq, last.hash
            return head
        return self._write(work)

    def _insert(self, encounter, head_seq, head_hash, payloads, actor, at):
        envelopes = chained(head_seq, head_hash, [payloads], actor, at)
        self._insert_envelopes(encounter, envelopes)
        return envelopes

    def _insert_envelopes(self, encounter: str, envelopes: list[Envelope]) -> None:
        self.db.executemany(
            "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(encounter, e.seq, e.batch, e.type, e.at, e.actor, encode_data(e.data),
              e.prev_hash, e.hash, EVENT_VERSION) for e in envelopes])
        last = envelopes[-1]
        self.db.execute("UPDATE encounters SET head_seq = ?, head_hash = ? WHERE id = ?",
                        (last.seq, last.hash, encounter))
