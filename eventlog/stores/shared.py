"""What every store shares: the commit count, the lock wait, the refusal of
text that is not UTF-8, the optimistic-concurrency check of a head, the
refusals of a name or id taken, the import mark's reading, what goes with
a deleted encounter, and the fold's narrower reads made from `fold_rows`
(`DerivedFoldReads`). A back end keeps only its storage code: what it
refuses and how it words it is said here once."""
from __future__ import annotations

import math
import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

from eventlog.errors import Conflict, Refusal, UnknownEncounter
from eventlog.language import _

if TYPE_CHECKING:
    from eventlog.codec import Envelope
    from eventlog.events import Payload
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
    return Refusal(_("'{text}' is not valid UTF-8 text (check the encoding of the terminal "
                     "or the file it came from)").format(text=shown))


def judged_head(row, encounter: str, where, expected_seq: int) -> tuple[int, str]:
    """The head (seq, hash) read inside a write, if it is still the one the
    declaration was judged against; else Conflict (optimistic concurrency)."""
    if row is None:
        raise unknown(encounter, where)
    if row[0] != expected_seq:
        raise conflict(row[0], expected_seq)
    return row


def conflict(now: int, expected: int) -> Conflict:
    return Conflict(_("another declaration was appended first (seq {now}, expected {expected})")
                    .format(now=now, expected=expected))


def moved(encounter: str) -> Conflict:
    """A copy's head that another writer moved meanwhile (`extend_log`)."""
    return Conflict(_("the head of {encounter} moved while it was copied").format(
        encounter=encounter))


def unknown(encounter: str, where: object) -> UnknownEncounter:
    return UnknownEncounter(_("no encounter {encounter!r} in {where}").format(
        encounter=encounter, where=where))


def chained(head_seq: int, head_hash: str, batches: list[list[Payload]], actor: str,
            at: str) -> list[Envelope]:
    """The batches as events chained on from the head (seq, hash), each
    batch numbered by its first seq; the actor and every payload checked
    first (the one door every declaration goes through, R29), so a refusal
    comes before anything is written."""
    from eventlog.codec import Envelope, event_hash
    from eventlog.text import check_actor, check_payload
    check_actor(actor)
    for payloads in batches:
        for payload in payloads:
            check_payload(payload)
    envelopes: list[Envelope] = []
    seq, prev = head_seq, head_hash
    for payloads in batches:
        batch = seq + 1
        for payload in payloads:
            seq += 1
            name = type(payload).__name__
            digest = event_hash(seq, batch, name, at, actor, payload, prev)
            envelopes.append(Envelope(seq, batch, name, at, actor, payload, prev, digest))
            prev = digest
    return envelopes


# -- the refusals of a name or id taken (the same words from every store) --

def encounter_taken(encounter: str) -> Refusal:
    return Refusal(_("encounter {encounter!r} already exists").format(encounter=encounter))


def token_taken(name: str) -> Refusal:
    return Refusal(_("a token named {name!r} exists already: revoke it first or choose "
                     "another name").format(name=name))


def join_taken(name: str) -> Refusal:
    return Refusal(_("a join request named {name!r} is waiting already: choose another name")
                   .format(name=name))


def hook_taken(hook_id: str) -> Refusal:
    return Refusal(_("a hook to that URL is there already ({hook})").format(hook=hook_id))


# -- the import mark -------------------------------------------------------

def import_mark(imported: bool | int, head_seq: int) -> int:
    """The seq to mark as imported: `import_log`'s `imported` (True: the
    whole log, whose last seq is `head_seq`; a seq; 0 or False: none)."""
    return head_seq if imported is True else max(int(imported), 0)


def read_mark(value: object) -> int:
    """A kept import mark as a seq; a mark that is not a short number (a
    damaged store) marks nothing, rather than every entry of the log."""
    if isinstance(value, int):
        return max(value, 0)
    text = "" if value is None else str(value)
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else 0


# What a deleted encounter takes with it, as (table, column naming it) of
# the SQL stores: its log, snapshot and marks, and the table's records that
# belong to this life of its id alone (its tokens, its join requests, its
# place on the table, the hooks' delivery marks for it). Its row goes last.
DELETED_WITH_AN_ENCOUNTER = (
    ("events", "encounter"), ("snapshots", "encounter"), ("archived", "encounter"),
    ("imported", "encounter"), ("hook_marks", "encounter"), ("tokens", "encounter"),
    ("joins", "encounter"), ("on_table", "encounter"), ("encounters", "id"))


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
