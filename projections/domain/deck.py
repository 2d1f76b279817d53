"""Who is on deck: the combatants the rules put up once the slot in
progress is over, as the state stands now (R8, R21, R23). It walks the
order exactly as the fold's `State.advance` does, on copies of the pass's
bookkeeping, so a slot with nobody left with AP, a combatant who left, a
seizer's place and a pass that ends (or begins anew) are all as the rules
will have them. Every client shows this answer (a player's "you're on
deck", the TV, play mode); AP spent or given back before then can still
change it, so it is a forecast, never a rule that refuses."""
from __future__ import annotations

from projections.domain.state import State


def on_deck(state: State, unseen: frozenset[str] = frozenset()) -> list[str]:
    """The ids up next, in join order within their slot: who is up once the
    turn in progress ends with nothing more spent (in a group slot nobody
    has started, once every member still up has passed); [] when the round
    would then be complete, or no round runs. `unseen`: combatants and
    groups a player does not see (projections/visible.py): the forecast is
    the one of the fight without them, so it never points at a gap."""
    if not state.running or state.current is None:
        return []
    done = set(state.done)
    if state.turn is not None:
        done.add(state.turn)
    else:  # a group slot nobody has started is up as a whole: what follows it
        done.update(state.up_in(state.current))
    passed = set(state.passed)
    spent = state.spent_in_pass
    lineup = [(key, [c for c in state.members(key) if c.id not in unseen])
              for key in state.order() if key not in unseen]
    while True:
        for key, members in lineup:
            if key in passed:
                continue
            ids = [c.id for c in members if c.ap > 0 and c.id not in done]
            if ids:
                # a slot of one is up as itself; a group's members still to go are up together (R8)
                return ids if key in state.groups else [key]
            passed.add(key)
        if spent and any_with_ap(state, unseen):  # R23 (a) and (b): a new pass begins
            passed.clear()
            done.clear()
            spent = 0
            continue
        return []


def any_with_ap(state: State, unseen: frozenset[str] = frozenset()) -> bool:
    """Someone in the order has AP left (what lets a new pass begin, R23b)."""
    return any(c.active and c.ap > 0 and (c.group or c.id) in state.slots
               and c.id not in unseen for c in state.combatants.values())
