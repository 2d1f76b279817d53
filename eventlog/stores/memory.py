"""An event store in memory: the store contract with nothing on disk, for
fast tests and for scripts that need no record. One lock makes each append
atomic and each `reading()` one snapshot (the log only grows, so a reader
that remembers the heads it saw sees exactly that). This module is the
event log; the table's records are memrecords.py's mixin."""
from __future__ import annotations

import threading
from hashlib import sha256
from contextlib import contextmanager
from itertools import islice
from typing import TypeVar
from collections.abc import Callable, Iterable, Iterator, Sequence

from eventlog.codec import GENESIS, Envelope, encode_data, utc_now
from eventlog.stores.memrecords import RecordsMixin
from eventlog.stores.shared import (
    DerivedFoldReads, chained, count_commit, encounter_taken, import_mark,
    judged_head, moved, unknown)
from eventlog.stores.contract import (
    EncounterInfo, Hook, Portrait, Snapshot, SnapshotMaker, StoredEvent, Token)
from eventlog.events import CORRECTIONS, EncounterCreated, Payload
from eventlog.stores.records import PARTY_STREAM, JoinRequest, TableChoice

T = TypeVar("T")


class _Log:
    def __init__(self, title: str, created_at: str):
        self.title, self.created_at = title, created_at
        self.events: list[StoredEvent] = []
        self.snapshot: tuple[str, Snapshot] | None = None  # (version, snapshot)

    @property
    def head(self) -> tuple[int, str]:
        last = self.events[-1] if self.events else None
        return (last.seq, last.hash) if last else (0, GENESIS)


class MemoryStore(RecordsMixin, DerivedFoldReads):
    path = None  # no file: nothing an export could overwrite

    def __init__(self, name: str = "memory") -> None:
        self.identity = f"memory:{name}:{id(self)}"
        self._logs: dict[str, _Log] = {}
        self._lock = threading.RLock()
        self._local = threading.local()  # the heads a reading() pinned
        self._tokens: dict[str, Token] = {}
        self._joins: dict[str, JoinRequest] = {}
        self._table: TableChoice | None = None
        self._hooks: dict[str, Hook] = {}
        self._marks: dict[tuple[str, str], int] = {}
        self._changed = threading.Condition(self._lock)
        self._version = 0  # writes so far: wait_changes wakes when it moves
        self._archived: set[str] = set()
        self._imported: dict[str, int] = {}
        self._portraits: dict[str, Portrait] = {}

    def close(self) -> None:
        pass

    def probe(self) -> None:
        pass  # (memory is always there)

    @contextmanager
    def reading(self):
        if getattr(self._local, "pinned", None) is not None:
            yield
            return
        with self._lock:
            self._local.pinned = {eid: log.head[0] for eid, log in self._logs.items()}
        try:
            yield
        finally:
            self._local.pinned = None

    def _log(self, encounter: str) -> _Log:
        log = self._logs.get(encounter)
        pinned = getattr(self._local, "pinned", None)
        if log is None or (pinned is not None and encounter not in pinned):
            raise unknown(encounter, self.identity)
        return log

    def _visible(self, encounter: str) -> list[StoredEvent]:
        """The events as this reader's snapshot has them."""
        log = self._log(encounter)
        pinned = getattr(self._local, "pinned", None)
        return log.events if pinned is None else log.events[:pinned[encounter]]

    # -- reading ---------------------------------------------------------

    def encounters(self) -> list[EncounterInfo]:
        pinned = getattr(self._local, "pinned", None)
        with self._lock:
            found = [EncounterInfo(eid, log.title, log.created_at,
                                   len(self._visible(eid)))
                     for eid, log in self._logs.items()
                     if eid != PARTY_STREAM and (pinned is None or eid in pinned)]
        return sorted(found, key=lambda e: (e.created_at, e.id))

    def head(self, encounter: str) -> tuple[int, str]:
        events = self._visible(encounter)
        return (events[-1].seq, events[-1].hash) if events else (0, GENESIS)

    def rows(self, encounter: str, after: int = 0,
             upto: int | None = None) -> Iterator[StoredEvent]:
        events = self._visible(encounter)
        return iter(events[after:upto])

    def fold_rows(self, encounter: str, after: int = 0, upto: int | None = None,
                  skip: Sequence[str] = ()) -> Iterator[tuple[int, int, str, bytes]]:
        skipped = set(skip)
        return ((e.seq, e.batch, e.type, e.data) for e in self.rows(encounter, after, upto)
                if e.type not in skipped)

    def types_at(self, encounter: str, seqs: Iterable[int]) -> dict[int, str]:
        events = self._visible(encounter)
        return {seq: events[seq - 1].type for seq in seqs if 1 <= seq <= len(events)}

    def markers(self, encounter: str, upto: int | None = None,
                after: int = 0) -> list[StoredEvent]:
        return [e for e in self.rows(encounter, after, upto) if e.type in CORRECTIONS]

    def life(self, encounter: str) -> str | None:
        with self._lock:
            log = self._logs.get(encounter)
            return log.events[0].hash if log is not None and log.events else None

    def batch_end(self, encounter: str, seq: int) -> int:
        events = self._visible(encounter)
        end = seq
        for e in events[seq:]:
            if e.seq == e.batch:
                break
            end = e.seq
        return end

    def batch_heads(self, encounter: str) -> list[tuple[int, str]]:
        return [(e.seq, e.type) for e in self._visible(encounter) if e.seq == e.batch]

    def snapshot(self, encounter: str, version: str) -> Snapshot | None:
        log, events = self._log(encounter), self._visible(encounter)
        if log.snapshot is None or log.snapshot[0] != version:
            return None
        snap = log.snapshot[1]
        if snap.seq > len(events) or events[snap.seq - 1].hash != snap.hash:
            return None
        return snap

    def wait_changes(self, timeout: float) -> None:
        """Return when a write happened since this thread last asked (at
        once if one did meanwhile), or after `timeout` seconds."""
        with self._changed:
            seen = getattr(self._local, "seen", None)
            seen = self._version if seen is None else seen
            self._changed.wait_for(lambda: self._version != seen, timeout)
            self._local.seen = self._version

    def _wrote(self) -> None:
        count_commit()
        with self._changed:
            self._version += 1
            self._changed.notify_all()

    # -- portraits -------------------------------------------------------

    def portrait(self, digest: str) -> Portrait | None:
        with self._lock:
            return self._portraits.get(digest)

    def portraits(self) -> list[str]:
        with self._lock:
            return sorted(self._portraits)

    def add_portrait(self, media: str, data: bytes) -> str:
        digest = sha256(data).hexdigest()
        with self._lock:
            self._portraits.setdefault(digest, Portrait(digest, media, bytes(data)))
        self._wrote()
        return digest

    # -- writing ---------------------------------------------------------

    def archived(self) -> set[str]:
        with self._lock:
            return set(self._archived)

    def is_archived(self, encounter: str) -> bool:
        with self._lock:
            return encounter in self._archived

    def set_archived(self, encounter: str, archived: bool) -> None:
        with self._lock:
            self._log(encounter)
            (self._archived.add if archived else self._archived.discard)(encounter)
            self._wrote()

    def retitle(self, encounter: str, title: str) -> None:
        with self._lock:
            self._log(encounter).title = title
            self._wrote()

    def delete(self, encounter: str) -> None:
        with self._lock:
            self._log(encounter)
            del self._logs[encounter]
            self._archived.discard(encounter)
            self._tokens = {n: t for n, t in self._tokens.items() if t.encounter != encounter}
            self._joins = {n: j for n, j in self._joins.items() if j.encounter != encounter}
            if self._table is not None and self._table.encounter == encounter:
                self._table = None
            self._imported.pop(encounter, None)
            self._marks = {k: v for k, v in self._marks.items() if k[1] != encounter}
            self._wrote()

    def create(self, encounter: str, created: EncounterCreated, actor: str) -> Envelope:
        with self._lock:
            if encounter in self._logs:
                raise encounter_taken(encounter)
            at = utc_now()
            log = _Log(created.title, at)
            first = self._insert(log, [created], actor, at)[0]  # (checked before it is kept)
            self._logs[encounter] = log
            return first

    def append(self, encounter: str, expected_seq: int, payloads: list[Payload],
               actor: str, snapshot: tuple[str, SnapshotMaker] | None = None) -> list[Envelope]:
        with self._lock:
            log = self._judged_against(encounter, expected_seq)
            envs = self._insert(log, payloads, actor, utc_now())
            if snapshot is not None:
                version, maker = snapshot
                last = envs[-1]
                log.snapshot = (version, Snapshot(last.seq, last.hash, maker(last.seq, last.hash)))
            return envs

    def append_batches(self, encounter: str, expected_seq: int,
                       batches: list[list[Payload]], actor: str) -> int:
        with self._lock:
            log = self._judged_against(encounter, expected_seq)
            at = utc_now()
            for payloads in batches:
                self._insert(log, payloads, actor, at)
            return log.head[0]

    def save_snapshot(self, encounter: str, seq: int, version: str,
                      maker: SnapshotMaker) -> None:
        with self._lock:
            log = self._log(encounter)
            if 1 <= seq <= len(log.events):
                digest = log.events[seq - 1].hash
                log.snapshot = (version, Snapshot(seq, digest, maker(seq, digest)))

    def drop_snapshot(self, encounter: str) -> None:
        with self._lock:
            self._log(encounter).snapshot = None

    def import_log(self, encounter: str, title: str, envelopes: Iterable[Envelope],
                   then: Callable[[Iterator[tuple[int, int, str, bytes]]], T],
                   imported: bool | int = True) -> T:
        if encounter in self._logs:
            raise encounter_taken(encounter)
        staged: list[StoredEvent] = []
        events = iter(envelopes)
        while chunk := list(islice(events, 1000)):
            staged.extend(StoredEvent(e.seq, e.batch, e.type, e.at, e.actor,
                                      encode_data(e.data), e.prev_hash, e.hash) for e in chunk)
        result = then(iter([(e.seq, e.batch, e.type, e.data) for e in staged]))
        with self._lock:
            if encounter in self._logs:
                raise encounter_taken(encounter)
            log = self._logs[encounter] = _Log(title, utc_now())
            log.events = staged
            upto = import_mark(imported, staged[-1].seq if staged else 0)
            if upto > 0:
                self._imported[encounter] = upto
            self._wrote()
        return result

    def imported(self, encounter: str) -> int:
        with self._lock:
            return self._imported.get(encounter, 0)

    def extend_log(self, encounter: str, head: tuple[int, str],
                   envelopes: Iterable[Envelope]) -> None:
        staged = [StoredEvent(e.seq, e.batch, e.type, e.at, e.actor, encode_data(e.data),
                              e.prev_hash, e.hash) for e in envelopes]
        with self._lock:
            log = self._judged_against(encounter, head[0])
            if log.head != tuple(head):
                raise moved(encounter)
            log.events.extend(staged)
            self._wrote()

    def _judged_against(self, encounter: str, expected_seq: int) -> _Log:
        log = self._logs.get(encounter)
        judged_head(log and log.head, encounter, self.identity, expected_seq)
        assert log is not None  # (judged_head refused an unknown encounter)
        return log

    def _insert(self, log: _Log, payloads: list[Payload], actor: str, at: str) -> list[Envelope]:
        envs = chained(*log.head, [payloads], actor, at)
        log.events.extend(StoredEvent(e.seq, e.batch, e.type, e.at, e.actor,
                                      encode_data(e.data), e.prev_hash, e.hash) for e in envs)
        self._wrote()
        return envs
