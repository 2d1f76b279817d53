"""The fold, one declaration at a time, for the post-game projections.

`steps` walks an encounter's log in order and folds it exactly as
`Ledger.state` does (undone batches skipped, amended ones read as amended),
yielding a `Step` per declaration in effect with a snapshot of the state just
before it and the live state just after it. The stats, the narrative, the
exports and the report all read these steps, so they can never disagree with
`status` about what happened.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from eventlog.events import (
    APSpent,
    EncounterEnded,
    Payload,
    RoundStarted,
    TurnEnded,
)
from projections.domain.evolve import evolve
from projections.domain.state import Combatant, State
from projections.history import batches, keep
from projections.ledger import Ledger
from projections.reports.timeline import Entry, annotate

T = TypeVar("T")
# track(items, total, what): the items, reporting progress as they pass.
Track = Callable[[Iterable[T], int, str], Iterable[T]]


def no_track(items: Iterable[T], total: int, what: str) -> Iterable[T]:
    return items


@dataclass(frozen=True)
class Pool:
    ap: int
    spent_this_turn: int
    grit: int
    active: bool


@dataclass(frozen=True)
class Before:
    """What a projection needs of the state just before a declaration.
    `pools`: every combatant's before a round starts or the encounter ends
    (the AP those lose, R15), otherwise only the one the declaration is
    about (copying every pool at every step was most of a long report's
    fold)."""
    round: int
    pass_: int
    running: bool
    ended: bool
    window: bool
    holder: str | None   # whose turn the pass has reached (nothing declared yet, maybe)
    turn: str | None     # whose turn is in progress with something declared in it
    pools: dict[str, Pool]

    @classmethod
    def of(cls, s: State, payload: Payload) -> Before:
        running = s.running
        if isinstance(payload, (RoundStarted, EncounterEnded)):
            people: Iterable[Combatant] = s.combatants.values()
        else:
            one = s.combatants.get(getattr(payload, "combatant", ""))
            people = (one,) if one is not None else ()
        return cls(s.round, s.pass_, running, s.ended, running and s.window,
                   s.turn if running else None,
                   s.turn if running and s.turn_started else None,
                   {c.id: Pool(c.ap, c.spent_this_turn, c.grit, c.active) for c in people})


@dataclass
class Step:
    """One stored event, or one declaration of an amended batch.

    `payload` is None when the event is not in effect: undone or retracted,
    a correction marker, or the original reading of an amended declaration
    (then `entry.amended_by` is set and the amended reading follows as steps
    with `amended=True`)."""
    entry: Entry
    payload: Payload | None
    before: Before | None
    state: State
    amended: bool = False


def in_turn(s: State) -> str | None:
    """Whose turn is in progress with something declared in it."""
    return s.turn if s.running and s.turn_started else None


def where(step: Step) -> tuple[int, int, str | None]:
    """The round, pass and turn holder a declaration belongs to. A round's
    start opens that round; AP spent in a turn, or a turn ended, belong to
    the turn of whoever declared them (the first action in a group slot
    starts the member's turn)."""
    data = step.payload if step.payload is not None else step.entry.env.data
    if isinstance(data, RoundStarted):
        return data.round, 1, None
    turn = step.entry.turn
    if isinstance(data, (APSpent, TurnEnded)):
        turn = data.combatant
    return step.entry.round, step.entry.pass_, turn


def steps(ledger: Ledger, encounter: str, track: Track = no_track,
          what: str = "reading") -> Iterator[Step]:
    """Every stored event of `encounter` as steps of the fold (see Step);
    `track` sees the stored rows go by, under the name `what`."""
    head, _ = ledger.store.head(encounter)  # the log only grows: read up to here
    corrections, undone_by, amended_by = annotate(ledger.store.fold_markers(encounter, head))
    rows = track(ledger.store.rows(encounter, upto=head), head, what)
    state = State(encounter)

    def entry(env) -> Entry:
        return Entry(env, state.round, state.pass_, state.turn if state.running else None,
                     undone_by.get(env.batch), amended_by.get(env.batch))

    for b in batches(rows, corrections):
        keep(state, b.kept)  # R28a
        envs = b.events
        if b.payloads is None or b.amended:
            entries = [entry(env) for env in envs]
            for env, e in zip(envs, entries):
                state.seq = env.seq
                yield Step(e, None, None, state)
            if b.amended and b.payloads is not None:
                state.seq = envs[0].seq
                same = len(b.payloads) == len(entries)  # each reading in its own seq
                for i, payload in enumerate(b.payloads):
                    before = Before.of(state, payload)
                    evolve(state, payload)
                    yield Step(entries[i if same else 0], payload, before, state,
                               amended=True)
                state.seq = envs[-1].seq
            continue
        for env in envs:
            e = entry(env)
            before = Before.of(state, env.data)
            state.seq = env.seq
            evolve(state, env.data)
            yield Step(e, env.data, before, state)
