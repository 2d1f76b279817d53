"""What a command did (`Outcome`), and declarations judged and applied to
a copy of a state (`apply`): the ledger's results, kept apart from how it
reads and appends."""
from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from eventlog.codec import Envelope
from eventlog.errors import Refusal
from eventlog.events import Payload
from projections import snapshot as snapshots
from projections.domain.evolve import evolve
from projections.domain.state import State


class Outcome(NamedTuple):
    """What a command did: the state after it, the events it appended, the
    events of the batches it undid, redid, retracted or amended, and the
    state it was decided on (to tell how the round moved on)."""
    state: State
    events: list[Envelope]
    touched: list[Envelope]
    before: State | None = None
    preview: list[str] | None = None  # `--dry-run`: what it would change; nothing appended
    # `end` of a fight from the party: what it carried; a correction to one
    # that ended: what the party would now differ by, and how to carry it
    carried: list[str] | None = None
    # a declaration of the party's (`party rest`, `session start`): what it did,
    # in words; `events` are then the party's, `state` the encounter's as it was
    party: list[str] | None = None


def apply(state: State, payloads: Iterable[Payload]) -> State:
    """Judge and apply declarations to a copy of `state`; the copy is returned."""
    from projections.domain.rules import judge  # here: a command that only reads never loads the rules
    trial = snapshots.clone(state)
    payloads = list(payloads)
    for payload in payloads:
        try:
            judge(trial, payload)
        except Refusal as refused:
            raise _naming(refused, payload, payloads) from None
        evolve(trial, payload)
    return trial


def _naming(refused: Refusal, payload: Payload, payloads: list[Payload]) -> Refusal:
    """A refusal of one target of a declaration about several
    (`track goblin-1,goblin-2 hp -3`) names the target it refuses."""
    import re
    cid = getattr(payload, "combatant", None)
    several = {getattr(p, "combatant", None) for p in payloads} - {None}
    said = str(refused)
    if not isinstance(cid, str) or len(several) < 2 or re.search(
            rf"(?<![\w-]){re.escape(cid)}(?![\w-])", said):
        return refused
    from eventlog.language import _
    return Refusal(_("{id}: {refusal}").format(id=cid, refusal=said))
