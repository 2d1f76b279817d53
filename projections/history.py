"""The one history: an encounter's batches as they are in force. Undone and
retracted batches are skipped, amended ones read as amended (R26-R28).
Every projection reads the log through here: the fold of every command
(`fold`, the lean hot path), and `batches` for the timeline, the log's
context, replay, the review, retraction's re-judging and import.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import groupby
from typing import TYPE_CHECKING, NamedTuple

from eventlog.codec import DECODERS, Envelope, decode_data
from eventlog.events import CORRECTIONS, EVENT_TYPES, Payload
from eventlog.stores.records import StoredEvent
from eventlog.undo import Corrections
from projections.domain.evolve import HANDLERS, evolve, shown_by_itself
from projections.domain.state import State, Step

if TYPE_CHECKING:  # the Protocol, for annotations only (typing's machinery: ~1 ms)
    from eventlog.stores.log import EventLog

# Events that change nothing in the folded state: a fold need not read them.
INERT = tuple(sorted(set(EVENT_TYPES) - set(HANDLERS)))


# How to decode and evolve each of the rest, by type name, each made the first
# time its type is folded (as codec.DECODERS are) by `_step`. A plain dict,
# not one with __missing__: a subclass's look-up is the slower, at every row.
STEPS: dict[str, tuple[Step, Callable[[bytes], Payload]]] = {}


def _step(name: str) -> tuple[Step, Callable[[bytes], Payload]]:
    step = STEPS[name] = (HANDLERS[name], DECODERS[name].decode)
    return step


def envelope(row: StoredEvent | tuple) -> Envelope:
    seq, batch, type_name, at, actor, data, prev_hash, digest = row
    return Envelope(seq, batch, type_name, at, actor, decode_data(type_name, data),
                    prev_hash, digest)


def corrections(store: EventLog, encounter: str, upto: int | None = None,
                after: int = 0) -> Corrections:
    """What the markers up to `upto` say. With `after`, only the markers after
    it: enough to fold on from a snapshot taken at `after`, as long as none
    of them `reaches_back(after)` (a marker after a snapshot that touches no
    batch at or before it only ever names later batches)."""
    return Corrections((seq, decode_data(type_name, data))
                       for seq, type_name, data in store.fold_markers(encounter, upto=upto, after=after))


def fold(store: EventLog, encounter: str, fixes: Corrections, state: State,
         upto: int | None = None, after: int = 0) -> State:
    """Evolve `state` by the events in force after seq `after` (up to `upto`),
    straight from the store: the hot path of every command. Events that
    change nothing in the state (notes, free actions, markers) are left out
    by the store and never decoded."""
    steps, undone, kept, replaced = STEPS, fixes.undone, fixes.kept, fixes.replaced
    hidden = state.hidden  # (changed in place: while it holds anyone, as `evolve` does,
    # a hidden combatant whose turn starts, or who interrupts or seizes, shows itself)
    if not undone and not kept and not replaced:
        for type_name, data in store.fold_data(encounter, after, upto, INERT):
            try:
                step, decode = steps[type_name]
            except KeyError:
                step, decode = _step(type_name)
            payload = decode(data)
            step(state, payload)
            if hidden:
                shown_by_itself(state, payload)
        return state
    # (the loop above again, with the marks: each row's step is written out in
    # both, the fold's hot path, rather than paid for as a call per row)
    marks = _Marks(state, undone, kept, replaced, after)
    marks.heads = _read_heads(store, encounter, marks.fixed, after, upto)
    due = marks.due
    for batch, type_name, data in store.fold_batched(encounter, after, upto, INERT):
        if batch >= due:  # (rare: the rest of the rows cost one comparison)
            due, skip = marks.reach(batch)
            if skip:
                continue
        try:
            step, decode = steps[type_name]
        except KeyError:
            step, decode = _step(type_name)
        payload = decode(data)
        step(state, payload)
        if hidden:
            shown_by_itself(state, payload)
    marks.finish(upto)
    return state


_NEVER = 2**63  # `due` when no mark is left: past any batch


class _Marks:
    """Where a fold with corrections in force does more than a row's step:
    the batches undone or amended (`fixed`: an undone one reads as None, as
    undone wins over an amendment) and the batches a kept turn ends before
    (R28a). The fold compares each row's batch with `due`, the next of them
    (batches only grow), and hands a row at or past it to `reach`."""

    def __init__(self, state: State, undone: set[int], kept: dict[int, list[str]],
                 replaced: dict[int, list[Payload]], after: int) -> None:
        self.state, self.kept = state, kept
        self.fixed: dict[int, list[Payload] | None] = {**replaced, **dict.fromkeys(undone)}
        self.heads: set[int] = set()  # see _read_heads
        self.ends = sorted(b for b in self.kept if b > after)
        self.marks = sorted({*self.fixed, *self.ends})
        self.next = 0  # the index in `marks` of `due`
        self.due = self.marks[0] if self.marks else _NEVER

    def reach(self, batch: int) -> tuple[int, bool]:
        """Before a row of `batch`: keep the turns ended before it; the next
        `due`, and whether the row is left out (its batch is undone or amended:
        an amendment reads in place of the batch's first event)."""
        ends = self.ends
        while ends and ends[0] <= batch:
            keep(self.state, self.kept[ends.pop(0)])
        marks = self.marks
        while self.next < len(marks) and marks[self.next] < batch:
            self.next += 1
        due = marks[self.next] if self.next < len(marks) else _NEVER
        if batch not in self.fixed:
            return due, False
        payloads = self.fixed[batch]
        if payloads is not None and batch in self.heads:
            self.heads.discard(batch)
            for payload in payloads:
                evolve(self.state, payload)
        return due, True

    def finish(self, upto: int | None) -> None:
        """The turns kept ended before batches the fold did not read (inert
        ones, or none left): they fall due by `upto`."""
        for b in self.ends:
            if upto is None or b <= upto:
                keep(self.state, self.kept[b])


def _read_heads(store: EventLog, encounter: str, fixed: dict[int, list[Payload] | None],
                after: int, upto: int | None) -> set[int]:
    """The amended batches whose first event the fold reads (not inert,
    after `after`, up to `upto`): an amendment reads in that event's place.
    The rows carry no seq to tell it (a column fewer: a tenth of the read)."""
    amended = [b for b, payloads in fixed.items()
               if payloads is not None and b > after and (upto is None or b <= upto)]
    if not amended:
        return set()
    return {seq for seq, type_name in store.types_at(encounter, amended).items()
            if type_name not in INERT}


def keep(state: State, cids: Iterable[str]) -> None:
    """The turns a correction keeps ended just before a batch (R28a)."""
    for cid in cids:
        state.keep_ended(cid)


class Batch(NamedTuple):
    """One batch of the log: its stored events, and the declarations it puts
    in force (`payloads`: as amended; None when it is not in force: undone,
    retracted, or a correction marker)."""
    batch: int
    events: list[Envelope]
    payloads: list[Payload] | None
    amended: bool = False
    kept: list[str] = []  # turns kept ended just before it (R28a): see `keep`


def batches(rows: Iterable[StoredEvent | Envelope], fixes: Corrections) -> Iterator[Batch]:
    """Every batch of the log in seq order, with what it puts in force."""
    undone, replaced, kept = fixes.undone, fixes.replaced, fixes.kept
    envs = (row if isinstance(row, Envelope) else envelope(row) for row in rows)
    for batch, group in groupby(envs, key=lambda e: e.batch):
        events = list(group)
        ends = kept.get(batch, [])
        if batch in undone or events[0].type in CORRECTIONS:
            yield Batch(batch, events, None, False, ends)
        else:
            fixed = replaced.get(batch)
            yield Batch(batch, events, fixed or [e.data for e in events], fixed is not None,
                        ends)


def in_force(rows: Iterable[StoredEvent | Envelope], fixes: Corrections) -> Iterator[Payload]:
    """The declarations in force, in order."""
    for b in batches(rows, fixes):
        if b.payloads is not None:
            yield from b.payloads
