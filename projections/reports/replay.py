"""Replay: the encounter as it stood after each event, in order (R31).

Each frame's state is exactly `Ledger.state(encounter, at=seq)`: what the
table saw when that event was appended, before anything later undid,
retracted or amended it. The fold goes on event by event and starts again
from the log only at a correction marker, which changes the past."""
from __future__ import annotations

from collections.abc import Iterator

from eventlog.events import CORRECTIONS
from projections.domain.evolve import evolve
from projections.domain.state import State
from projections.ledger import Ledger
from projections.reports.timeline import Entry, timeline


def frames(ledger: Ledger, encounter: str, upto: int | None = None) -> Iterator[tuple[Entry, State]]:
    """(entry, state after it) for every event up to seq `upto`. The entry's
    context is the round, pass and turn as they stood when it was declared.
    The state is live: copy it to keep it past the next frame."""
    state = State(encounter)
    for later in timeline(ledger, encounter):
        env = later.env
        if upto is not None and env.seq > upto:
            return
        # Its context as it stood then; what later undid or amended it, too.
        entry = Entry(env, state.round, state.pass_, state.turn if state.running else None,
                      later.undone_by, later.amended_by)
        if env.type in CORRECTIONS:
            state = ledger.state(encounter, at=env.seq)
        else:
            evolve(state, env.data)
            state.seq = env.seq
        yield entry, state
