"""The event log: the part of the store contract that keeps the encounters'
logs, whatever keeps the bytes (SQLite, PostgreSQL, memory). Its suite is
contract_log.py (`LogContract`); the table server's records are the other
part (tablerecords.py), and `EventStore` (contract.py) is both.

Guarantees an implementation gives:
- `append` stores one batch all or nothing, with seq gap-free from 1 per
  encounter, and only if the log still ends at `expected_seq`; otherwise it
  raises `Conflict` (optimistic concurrency: the caller re-reads, re-judges).
- every read between entering and leaving `reading()` sees one snapshot of
  the store, so a check and the append judged on it never see two states.
- reads stream in seq order; rows are `StoredEvent`s with the exact bytes
  that were hashed.
- `head` names the last seq and hash; truncation of the events under it is
  detected by verification (eventlog/chain.py).

What belongs here: everything keyed by an encounter and checked against it.
The archive and import marks are marks on an encounter of this log: setting
one refuses an unknown encounter, `list` reads them with `encounters()`,
the server asks `is_archived` with every read of the log, and a deletion
takes them along; a store of records alone could not check any of that.
Portraits are here too: events name them by digest, a copy of the logs
carries them (`copy`), and, like events, they are content-addressed and
never removed, so a log without its portraits would be a copy with holes.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol, TypeVar

from eventlog.codec import Envelope
from eventlog.events import EncounterCreated, Payload
from eventlog.stores.records import (
    EncounterInfo, Portrait, Snapshot, SnapshotMaker, StoredEvent)

if TYPE_CHECKING:
    from pathlib import Path

T = TypeVar("T")


class EventLog(Protocol):
    identity: str  # names the store for the user's remembered current encounter

    @property
    def path(self) -> Path | None:
        """The store's file (None: it has none); an export never overwrites it."""

    def close(self) -> None: ...

    def reading(self) -> AbstractContextManager[None]:
        """One consistent snapshot for every read inside (re-entrant)."""

    def probe(self) -> None:
        """Raise StoreError unless the store can be read and written now
        (a write transaction begun and rolled back; the table server's
        GET /health). Writes nothing."""

    # -- reading ---------------------------------------------------------

    def encounters(self) -> list[EncounterInfo]: ...

    def head(self, encounter: str) -> tuple[int, str]:
        """(seq, hash) of the last event; UnknownEncounter if there is none."""

    def rows(self, encounter: str, after: int = 0,
             upto: int | None = None) -> Iterator[StoredEvent]: ...

    def fold_rows(self, encounter: str, after: int = 0, upto: int | None = None,
                  skip: Sequence[str] = ()) -> Iterator[tuple[int, int, str, bytes]]:
        """FoldRow-shaped tuples, less the event types in `skip`."""

    def fold_data(self, encounter: str, after: int = 0, upto: int | None = None,
                  skip: Sequence[str] = ()) -> Iterator[tuple[str, bytes]]:
        """(type, data) of the same events: the fold's hot path when no
        correction is in force."""

    def fold_batched(self, encounter: str, after: int = 0, upto: int | None = None,
                     skip: Sequence[str] = ()) -> Iterator[tuple[int, str, bytes]]:
        """(batch, type, data) of the same events: the fold's path when a
        correction is in force (it needs no seq: see `types_at`)."""

    def types_at(self, encounter: str, seqs: Iterable[int]) -> dict[int, str]:
        """The type of the stored event at each of `seqs` (seqs not stored
        are left out)."""

    def markers(self, encounter: str, upto: int | None = None,
                after: int = 0) -> list[StoredEvent]:
        """The Undone, Redone and Amended events after seq `after`, in seq
        order (read by index: a snapshot's reader pays for the markers since
        it, not for the whole log's)."""

    def fold_markers(self, encounter: str, upto: int | None = None,
                     after: int = 0) -> list[tuple[int, str, bytes]]:
        """(seq, type, data) of the same markers: what a fold's corrections read."""

    def batch_end(self, encounter: str, seq: int) -> int:
        """The last seq of the batch holding `seq`."""

    def batch_heads(self, encounter: str) -> list[tuple[int, str]]:
        """(batch, type of its first event) of every batch, oldest first."""

    def snapshot(self, encounter: str, version: str) -> Snapshot | None:
        """The kept snapshot if taken by fold `version` and the event at its
        seq still has the hash it was taken at."""

    def wait_changes(self, timeout: float) -> set[str] | None:
        """Return once any writer, in this process or another, may have
        appended to this store, or after `timeout` seconds. A hint only:
        the encounters known to have changed, or None when that is not
        known (callers then re-read `encounters()` and `tokens()` to learn what
        changed); TOKENS_CHANGED among them: the table's records changed
        (tablerecords.py). (SQLite polls
        `PRAGMA data_version` on its own connection; PostgreSQL LISTENs on the
        store's channel (`combat_ledger_` and its id), payload `encounter:seq`, and wakes by the
        timeout when a notification is lost; memory waits on a condition.)"""

    def life(self, encounter: str) -> str | None:
        """The hash of the encounter's first event: which life of its id
        this is (a delete and a `new` of the same id make another); None
        when there is no such encounter."""

    # -- portraits (content-addressed images) ------------------------------

    def portrait(self, digest: str) -> Portrait | None:
        """The portrait whose bytes hash to `digest` (SHA-256 hex), if kept."""

    def portraits(self) -> list[str]:
        """The digest of every portrait kept, sorted (what `copy` carries)."""

    def add_portrait(self, media: str, data: bytes) -> str:
        """Keep `data` (checked as an image of type `media` by the caller)
        under its SHA-256, which it returns; keeping the same bytes again
        changes nothing. Never removed: an event names it."""

    # -- writing ---------------------------------------------------------

    def create(self, encounter: str, created: EncounterCreated, actor: str) -> Envelope: ...

    def append(self, encounter: str, expected_seq: int, payloads: list[Payload],
               actor: str, snapshot: tuple[str, SnapshotMaker] | None = None) -> list[Envelope]:
        """One batch; with `(version, maker)`, the snapshot after it too."""

    def append_batches(self, encounter: str, expected_seq: int,
                       batches: list[list[Payload]], actor: str) -> int: ...

    def save_snapshot(self, encounter: str, seq: int, version: str,
                      maker: SnapshotMaker) -> None: ...

    def drop_snapshot(self, encounter: str) -> None: ...

    def import_log(self, encounter: str, title: str, envelopes: Iterable[Envelope],
                   then: Callable[[Iterator[tuple[int, int, str, bytes]]], T],
                   imported: bool | int = True) -> T:
        """Store `envelopes` verbatim as a new encounter, all or nothing;
        `then(rows)` judges the staged FoldRow tuples before anything is kept.
        The store remembers, with the log, up to which seq it came from a
        file (`combat import`: its actors are the file's claim, not a
        witnessed declaration): True, the whole log; a seq, up to there (a
        copy carries its source's mark); 0 or False, none of it."""

    def imported(self, encounter: str) -> int:
        """The seq up to which the encounter's log was imported; 0 for none."""

    def extend_log(self, encounter: str, head: tuple[int, str],
                   envelopes: Iterable[Envelope]) -> None:
        """Append `envelopes` verbatim after the encounter's `head` (seq,
        hash), all or nothing; Conflict if the head is another."""

    # -- keeping the list tidy (the docs: archive, rename, delete) ---

    def archived(self) -> set[str]:
        """The encounters set aside by `archive` (their logs are kept)."""

    def is_archived(self, encounter: str) -> bool:
        """Whether `encounter` is archived (one indexed lookup: the table
        server asks on every request; an unknown encounter is not)."""

    def set_archived(self, encounter: str, archived: bool) -> None:
        """Archive or unarchive an existing encounter."""

    def retitle(self, encounter: str, title: str) -> None:
        """The title `encounters()` lists (the rename itself is an event)."""

    def delete(self, encounter: str) -> None:
        """Remove a whole encounter: its events, snapshot, archive and
        import marks (the only deletion; never part of a log). A store that
        keeps the table's records too drops with it those of this life of
        its id: the tokens that reach it alone, its join requests, its
        place on the table, the hooks' marks for it (contract.py)."""
