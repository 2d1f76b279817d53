"""Replay: the encounter as it stood after each event, in order (R31).

Each frame's state is exactly `Ledger.state(encounter, at=seq)`: what the
table saw when that event was appended, before anything later undid,
retracted or amended it. The fold goes on event by event and starts again
from the log only at a correction marker, which changes the past."""
from __future__ import annotations

from collections.abc import Iterator

from eventlog.events import CORRECTIONS
from eventlog.language import _, clock
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


def heading(entry: Entry, end: int) -> str:
    """A frame's heading: `seq 7 of 40 · 21:07:45 UTC · gm · R1.1 rook`, in
    the reader's words and form of the time."""
    from datetime import UTC, datetime
    env = entry.env
    try:
        at = clock(datetime.fromisoformat(env.at.replace("Z", "+00:00")).astimezone(UTC))
    except ValueError:  # (a stored time is checked on the way in: never here)
        at = env.at[11:19]
    return _("seq {seq} of {end} · {time} UTC · {actor} · {where}").format(
        seq=env.seq, end=end, time=at, actor=env.actor, where=entry.where)


def later(entry: Entry) -> str:
    """What later took a frame's declaration out of force, or ""."""
    if entry.undone_by:
        seq, kind, reason = entry.undone_by
        if reason:
            said = (_("later undone at seq {seq}: {reason}") if kind == "undo"
                    else _("later retracted at seq {seq}: {reason}"))
            return said.format(seq=seq, reason=reason)
        said = _("later undone at seq {seq}") if kind == "undo" else _("later retracted at seq {seq}")
        return said.format(seq=seq)
    if entry.amended_by:
        return _("later amended at seq {seq}").format(seq=entry.amended_by)
    return ""
