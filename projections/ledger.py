"""The library behind every command: fold an encounter from the store, judge
a declaration, append it (retrying on a concurrent writer), undo and redo.
"""
from __future__ import annotations

import copy
from typing import Callable, Iterable, Iterator

from eventlog.codec import Envelope, decode_data, envelope_dict
from eventlog.errors import Conflict, Refusal
from eventlog.events import MARKERS, EncounterCreated, Payload, Redone, Undone
from eventlog.store import Store
from eventlog.undo import UndoBook, undone_batches

from .rules import check_slug, judge
from .state import State

MAX_ATTEMPTS = 50
Decide = Callable[[State], list[Payload]]


def envelope(row) -> Envelope:
    seq, batch, type_name, at, actor, data, prev_hash, digest = row
    return Envelope(seq, batch, type_name, at, actor, decode_data(type_name, data),
                    prev_hash, digest)


def fold(rows: Iterable, undone: set[int], state: State) -> State:
    """Evolve `state` by the effective events among stored rows (R26)."""
    for seq, batch, type_name, _at, _actor, data, _prev, _hash in rows:
        state.seq = seq
        if batch in undone or type_name in MARKERS:
            continue
        state.evolve(decode_data(type_name, data))
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
        markers = (envelope(r).data for r in self.store.markers(encounter, upto=at))
        return fold(self.store.rows(encounter, upto=at), undone_batches(markers),
                    State(encounter))

    def events(self, encounter: str) -> Iterator[tuple[Envelope, bool]]:
        """Every stored event with its derived `undone` flag."""
        undone = undone_batches(envelope(r).data for r in self.store.markers(encounter))
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
            try:
                envs = self.store.append(encounter, state.seq, payloads, actor)
            except Conflict:
                continue
            after.seq = envs[-1].seq
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
            return self.state(encounter), self.batch(encounter, target)
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
            return self.state(encounter), envs
        raise Conflict(f"{encounter} is changing too fast: gave up; try again")
