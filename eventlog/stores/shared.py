"""What every store shares: the commit count, the lock wait, the refusal of
text that is not UTF-8, the optimistic-concurrency check of a head, and the
fold's narrower reads made from `fold_rows` (`DerivedFoldReads`)."""
from __future__ import annotations

import math
import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

from eventlog.errors import Conflict, Refusal, UnknownEncounter

if TYPE_CHECKING:
    from eventlog.stores.records import StoredEvent

BUSY_TIMEOUT_S = 5.0  # how long a write waits for another writer's lock
EVENT_VERSION = 1  # of the stored event rows (the events table's last column)


# Write transactions committed in this process, by any store: once one is,
# a command succeeds whatever happens to its output (cli/base.py).
_commits = 0


def count_commit() -> None:
    global _commits
    _commits += 1


def commits() -> int:
    return _commits


def busy_timeout() -> float:
    """Seconds to wait for another program's lock before giving up with a
    clear error: $COMBAT_BUSY_TIMEOUT, else BUSY_TIMEOUT_S (a value that is
    not a number of seconds is ignored: a typo must not stop the table)."""
    try:
        seconds = float(os.environ.get("COMBAT_BUSY_TIMEOUT", BUSY_TIMEOUT_S))
    except ValueError:
        return BUSY_TIMEOUT_S
    return seconds if math.isfinite(seconds) and seconds >= 0 else BUSY_TIMEOUT_S


def not_text(exc: UnicodeEncodeError) -> Refusal:
    """Text a store cannot take (an argument in another encoding than UTF-8),
    shown with its bad bytes escaped so that the message itself prints."""
    text = exc.object if isinstance(exc.object, str) else ""
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeError:
        raw = text.encode("utf-8", "backslashreplace")
    shown = raw.decode("utf-8", "backslashreplace")
    return Refusal(f"'{shown}' is not valid UTF-8 text (check the encoding "
                   "of the terminal or the file it came from)")


def judged_head(row, encounter: str, where, expected_seq: int) -> tuple[int, str]:
    """The head (seq, hash) read inside a write, if it is still the one the
    declaration was judged against; else Conflict (optimistic concurrency)."""
    if row is None:
        raise UnknownEncounter(f"no encounter {encounter!r} in {where}")
    if row[0] != expected_seq:
        raise conflict(row[0], expected_seq)
    return row


def conflict(now: int, expected: int) -> Conflict:
    return Conflict(f"another declaration was appended first (seq {now}, expected {expected})")


class _FoldRows(Protocol):
    def fold_rows(self, encounter: str, after: int = 0, upto: int | None = None,
                  skip: Sequence[str] = ()) -> Iterator[tuple[int, int, str, bytes]]: ...

    def markers(self, encounter: str, upto: int | None = None,
                after: int = 0) -> list[StoredEvent]: ...


class DerivedFoldReads:
    """`fold_data` and `fold_batched` as columns of `fold_rows`, and
    `fold_markers` of `markers`: for a store
    whose rows cost the same whatever their columns (memory), or that pages
    its reads by seq (PostgreSQL)."""

    def fold_data(self: _FoldRows, encounter: str, after: int = 0, upto: int | None = None,
                  skip: Sequence[str] = ()) -> Iterator[tuple[str, bytes]]:
        return ((row[2], row[3]) for row in self.fold_rows(encounter, after, upto, skip))

    def fold_batched(self: _FoldRows, encounter: str, after: int = 0, upto: int | None = None,
                     skip: Sequence[str] = ()) -> Iterator[tuple[int, str, bytes]]:
        return ((row[1], row[2], row[3]) for row in self.fold_rows(encounter, after, upto, skip))

    def fold_markers(self: _FoldRows, encounter: str, upto: int | None = None,
                     after: int = 0) -> list[tuple[int, str, bytes]]:
        return [(r.seq, r.type, r.data) for r in self.markers(encounter, upto, after)]
