"""Who is on deck: the combatants the rules put up once the slot in
progress is over, as the state stands now (R8, R23). A player's page warns
them with it ("you're on deck"); AP spent or given back before then can
still change it, so it is a forecast, never a rule that refuses."""
from __future__ import annotations

from projections.domain.state import State


def on_deck(state: State) -> list[str]:
    """The ids up next, in join order within their slot: the next slot of this
    pass with someone who has AP and no turn in it yet, else (when this pass
    saw AP spent and someone still has AP, R23) the first such slot of the
    next pass; [] when the round would be complete or no round runs. A
    group slot nobody has started is up as a whole: on deck is what follows."""
    if not state.running or state.current is None:
        return []
    finishing = state.current
    if state.turn is not None:  # in a group slot, its members still to go come next (R8)
        rest = [x for x in state.up_in(finishing) if x != state.turn]
        if rest:
            return rest
    order = state.order()
    after = order[order.index(finishing) + 1:] if finishing in order else order
    for key in after:
        if key in state.passed:
            continue
        ids = state.up_in(key)
        if ids:
            return ids
    if not state.spent_in_pass:
        return []
    for key in order:
        ids = [c.id for c in state.members(key) if c.ap > 0]
        if ids:
            return ids
    return []
