"""The library behind every command: fold an encounter from the store, judge
a declaration, append it (retrying on a concurrent writer), undo and redo.
"""
from __future__ import annotations

import copy

import msgspec
from typing import Callable, Iterable, Iterator

from eventlog.codec import DECODERS, Envelope, decode_data, envelope_dict
from eventlog.errors import Conflict, Refusal
from eventlog.events import (
    EVENT_TYPES, MARKERS, Amended, EncounterCreated, Payload, Redone, Undone,
)
from eventlog.store import Store
from eventlog.undo import Corrections, UndoBook

from . import snapshot as snapshots
from .rules import check_slug, judge
from .state import HANDLERS, State

MAX_ATTEMPTS = 50
# Events that change nothing in the folded state: a fold need not read them.
INERT = tuple(sorted(set(EVENT_TYPES) - set(HANDLERS)))
# For the rest: how to decode and evolve each, by type name.
STEPS = {name: (handler, DECODERS[name].decode) for name, handler in HANDLERS.items()}
Decide = Callable[[State], list[Payload]]


def envelope(row) -> Envelope:
    seq, batch, type_name, at, actor, data, prev_hash, digest = row
    return Envelope(seq, batch, type_name, at, actor, decode_data(type_name, data),
                    prev_hash, digest)


def fold(rows: Iterable, corrections: Corrections, state: State) -> State:
    """Evolve `state` by the effective events among stored (seq, batch, type,
    data) rows: undone batches are skipped (R26), amended ones replaced in
    their place."""
    undone, replaced = corrections.undone, corrections.replaced
    handlers, decoders = HANDLERS, DECODERS
    for seq, batch, type_name, data in rows:
        state.seq = seq
        if batch in undone or type_name in MARKERS:
            continue
        if batch in replaced:
            if seq == batch:
                for payload in replaced[batch]:
                    state.evolve(payload)
            continue
        handler = handlers.get(type_name)
        if handler is not None:
            handler(state, decoders[type_name].decode(data))
    return state


def fold_stored(store: Store, encounter: str, corrections: Corrections,
                state: State, upto: int | None = None, after: int = 0) -> State:
    """The hot path of every command: fold an encounter straight from the
    store. Events that change nothing in the state (notes, free actions,
    markers) are filtered out by SQLite and never decoded; only the columns
    the corrections call for are read."""
    if corrections.replaced:
        return fold(store.fold_rows(encounter, "seq, batch, type, data", upto,
                                    after=after), corrections, state)
    steps, undone = STEPS, corrections.undone
    if undone:
        for batch, type_name, data in store.fold_rows(
                encounter, "batch, type, data", upto, INERT, after):
            if batch not in undone:
                evolve, decode = steps[type_name]
                evolve(state, decode(data))
    else:
        for type_name, data in store.fold_rows(encounter, "type, data", upto, INERT, after):
            evolve, decode = steps[type_name]
            evolve(state, decode(data))
    return state


def apply(state: State, payloads: Iterable[Payload]) -> State:
    """Judge and apply declarations to a copy of `state`; the copy is returned."""
    trial = copy.deepcopy(state)
    for payload in payloads:
        judge(trial, payload)
        trial.evolve(payload)
    return trial


class Ledger:
    def __init__(self, store: Store):
        self.store = store

    # -- reading ---------------------------------------------------------

    def state(self, encounter: str, at: int | None = None) -> State:
        """The folded state, now or as it stood at seq `at` (R31)."""
        head, _ = self.store.head(encounter)
        if at is not None and not 1 <= at <= head:
            raise Refusal(f"seq {at} is not in the log of {encounter} (1 to {head})")
        if at is not None:  # a command's batch was shown whole: its last event
            at = self.store.batch_end(encounter, at)
        corrections = self.corrections(encounter, at)
        start = self._snapshot(encounter, head, corrections) if at is None else None
        if start is not None:
            state = fold_stored(self.store, encounter, corrections, start, after=start.seq)
        else:
            state = fold_stored(self.store, encounter, corrections, State(encounter), at)
        state.seq = head if at is None else at
        return state

    def _snapshot(self, encounter: str, head: int, corrections: Corrections) -> State | None:
        """The stored snapshot to fold on from, if it still holds."""
        snap = self.store.snapshot(encounter, snapshots.FOLD_VERSION)
        if not snap or snap[0] > head or snapshots.reaches_back(corrections.items, snap[0]):
            return None
        try:
            state = snapshots.decode(snap[1], encounter)
        except (msgspec.DecodeError, KeyError, TypeError, ValueError, RecursionError):
            return None  # unreadable: fold from the start instead
        state.seq = snap[0]
        return state

    def fresh_state(self, encounter: str) -> State:
        """The state after a correction (undo, retraction...): folded in full,
        and kept as the snapshot the next commands start from."""
        state = self.state(encounter)
        self.store.save_snapshot(encounter, state.seq, snapshots.FOLD_VERSION,
                                 snapshots.encode(state))
        return state

    def corrections(self, encounter: str, at: int | None = None) -> Corrections:
        return Corrections((r[0], envelope(r).data)
                           for r in self.store.markers(encounter, upto=at))

    def events(self, encounter: str) -> Iterator[tuple[Envelope, bool]]:
        """Every stored event with its derived `undone` flag."""
        undone = self.corrections(encounter).undone
        for row in self.store.rows(encounter):
            env = envelope(row)
            yield env, env.batch in undone and env.type not in MARKERS

    def event_dicts(self, encounter: str) -> list[dict]:
        return [envelope_dict(env, undone) for env, undone in self.events(encounter)]

    def batch(self, encounter: str, batch: int) -> list[Envelope]:
        rows = self.store.rows(encounter, after=batch - 1)
        out = []
        for row in rows:
            if row[1] != batch:
                break
            out.append(envelope(row))
        return out

    def book(self, encounter: str) -> tuple[UndoBook, list[tuple[int, str]]]:
        markers = {r[0]: envelope(r).data for r in self.store.markers(encounter)}
        heads = self.store.batch_heads(encounter)
        book = UndoBook()
        for batch, type_name in reversed(heads):
            book.record(batch, type_name, markers.get(batch))
        return book, heads

    # -- declaring -------------------------------------------------------

    def new(self, encounter: str, title: str, actor: str) -> State:
        created = EncounterCreated(encounter=encounter, title=title)
        check_slug(encounter, "encounter id")
        self.store.create(encounter, created, actor)
        return self.state(encounter)

    def declare(self, encounter: str, decide: Decide, actor: str) -> tuple[State, list[Envelope]]:
        """Judge what `decide` declares on the latest state and append it.

        If another writer appended first, re-read, re-judge and retry: the
        declaration is refused only when it is no longer legal.
        """
        for _ in range(MAX_ATTEMPTS):
            state = self.state(encounter)
            payloads = decide(state)
            after = apply(state, payloads)
            after.seq = state.seq + len(payloads)
            snap = (snapshots.FOLD_VERSION, snapshots.encode(after))
            try:
                envs = self.store.append(encounter, state.seq, payloads, actor, snap)
            except Conflict:
                continue
            return after, envs
        raise Conflict(f"{encounter} is changing too fast: gave up after "
                       f"{MAX_ATTEMPTS} attempts; try again")

    def undo(self, encounter: str, actor: str, reason: str = "") -> tuple[State, list[Envelope]]:
        """Mark the latest still-effective declaration undone (R26)."""
        for _ in range(MAX_ATTEMPTS):
            head, _ = self.store.head(encounter)
            book, heads = self.book(encounter)
            target = book.undo_target(heads)
            if target is None:
                raise Refusal("nothing to undo: creating the encounter cannot be "
                              "undone (R26)")
            try:
                self.store.append(encounter, head, [Undone([target], "undo", reason)], actor)
            except Conflict:
                continue
            return self.fresh_state(encounter), self.batch(encounter, target)
        raise Conflict(f"{encounter} is changing too fast: gave up; try again")

    def redo(self, encounter: str, actor: str) -> tuple[State, list[Envelope]]:
        """Re-apply the most recently undone declaration (R27), re-judged."""
        for _ in range(MAX_ATTEMPTS):
            book, _ = self.book(encounter)
            target = book.redo_target()
            if target is None:
                raise Refusal("nothing to redo: redo follows an undo, before anything "
                              "new is declared (R27)")
            state = self.state(encounter)
            envs = self.batch(encounter, target)
            apply(state, [e.data for e in envs])
            try:
                self.store.append(encounter, state.seq, [Redone(target)], actor)
            except Conflict:
                continue
            return self.fresh_state(encounter), envs
        raise Conflict(f"{encounter} is changing too fast: gave up; try again")

    def _target(self, encounter: str, seq: int, doing: str) -> tuple[int, str, UndoBook]:
        """The batch holding `seq`, checked as a declaration one can change."""
        head, _ = self.store.head(encounter)
        if not 1 <= seq <= head:
            raise Refusal(f"there is no seq {seq} in the log of {encounter} (1 to {head})")
        book, heads = self.book(encounter)
        target, kind = next((b, t) for b, t in heads if b <= seq)
        if kind in MARKERS:
            raise Refusal(f"seq {seq} is an undo, redo or retraction marker: it cannot "
                          f"be {doing} (R26-R28)")
        if kind == "EncounterCreated":
            raise Refusal(f"creating the encounter cannot be {doing} (R26)")
        if target in book.undone:
            raise Refusal(f"seq {seq} is already undone or retracted (R28)")
        return target, kind, book

    def _rejudge(self, encounter: str, target: int, replacement=None):
        from .retraction import casualties
        corrections = Corrections(
            (r[0], envelope(r).data) for r in self.store.markers(encounter) if r[0] != target)
        return casualties((envelope(r) for r in self.store.rows(encounter)),
                          corrections, target, encounter, replacement)

    def retract(self, encounter: str, seq: int, cascade: bool, actor: str,
                reason: str = "") -> tuple[State, list[int]]:
        """Retract the batch holding `seq` (R28); returns the batches retracted."""
        from .retraction import listing
        for _ in range(MAX_ATTEMPTS):
            head, _ = self.store.head(encounter)
            target, _, _ = self._target(encounter, seq, "retracted")
            lost = self._rejudge(encounter, target)
            if lost and not cascade:
                raise Refusal(f"retracting seq {target} would make {listing(lost)}. "
                              "Retract them too with --cascade (R28)")
            batches = [target] + [c.env.batch for c in lost]
            try:
                self.store.append(encounter, head, [Undone(batches, "retract", reason)], actor)
            except Conflict:
                continue
            return self.fresh_state(encounter), batches
        raise Conflict(f"{encounter} is changing too fast: gave up; try again")

    def amend(self, encounter: str, seq: int, change: Callable[[Payload], Payload],
              actor: str, reason: str = "") -> tuple[State, Amended]:
        """Correct the event at `seq` in place: `change` gives the corrected
        declaration; everything after it is re-judged (R28)."""
        from .retraction import listing
        for _ in range(MAX_ATTEMPTS):
            head, _ = self.store.head(encounter)
            target, kind, _ = self._target(encounter, seq, "amended")
            if kind == "Amended":
                raise Refusal(f"seq {seq} is an amendment: amend seq {target}'s "
                              "original declaration instead")
            current = self.corrections(encounter).replaced.get(target)
            envs = self.batch(encounter, target)
            payloads = current or [e.data for e in envs]
            offset = seq - target if not current or len(current) == len(envs) else 0
            fixed = list(payloads)
            fixed[offset] = change(payloads[offset])
            if fixed == list(payloads):
                raise Refusal(f"the correction changes nothing in seq {seq}")
            lost = self._rejudge(encounter, target, fixed)
            if lost:
                raise Refusal(f"amending seq {seq} would make {listing(lost)}. Retract "
                              "or amend those first (R28)")
            amendment = Amended(target, fixed, reason)
            try:
                self.store.append(encounter, head, [amendment], actor)
            except Conflict:
                continue
            return self.fresh_state(encounter), amendment
        raise Conflict(f"{encounter} is changing too fast: gave up; try again")
