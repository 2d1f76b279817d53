"""What a player may declare for one of their combatants now (the `mine`
of a player's status, docs/server.md): each command is
decided and judged on the state exactly as the core would, without
appending anything. The pages enable their buttons from this and never
work the rules out themselves."""
from __future__ import annotations

from collections.abc import Sequence

from eventlog.errors import Refusal
from eventlog.events import Payload

from projections.domain import commands as c
from projections.domain.decide import decide
from projections.domain.rules import judge
from projections.domain.state import State

MAY = ("act", "interrupt", "end-turn", "seize", "roll", "order")


def _accepted(state: State, command: c.Command, actor: str) -> bool:
    try:
        payloads: list[Payload] = decide(state, command, lambda: 5, actor)
        if len(payloads) != 1:
            return False
        judge(state, payloads[0])
    except Refusal:
        return False
    return True


def _orders(state: State, cid: str) -> list[c.Order]:
    """The orders a player could declare that put `cid`'s slot first: in its
    unresolved tie (R3), or among its side's seizers (R12)."""
    slot = state.slot_of(cid)
    out = [c.Order(slots=[slot, *(x for x in tie if x != slot)])
           for tie in state.ties() if slot in tie]
    side = state.combatants[cid].side
    seizers = [x for x in state.seizers if state.combatants[x].side == side]
    if cid in seizers and len(seizers) > 1:
        out.append(c.Order(slots=[cid, *(x for x in seizers if x != cid)]))
    return out


def may(state: State, cid: str, actor: str = "player") -> list[str]:
    """The commands of MAY the rules accept for combatant `cid` now, as a
    player (`actor`, never the GM) would send them from the page."""
    comb = state.combatants.get(cid)
    if comb is None or state.ended or not comb.active:
        return []
    tries: dict[str, Sequence[c.Command]] = {
        "act": [c.Act(id=cid, cost="minor")],
        "interrupt": [c.Interrupt(id=cid, cost="minor")],
        "end-turn": [c.EndTurn(id=cid)],
        "seize": [c.Seize(id=cid)],
        "roll": [] if comb.group else [c.Roll(slots=[cid])],
        "order": _orders(state, cid),
    }
    return [name for name in MAY if any(_accepted(state, x, actor) for x in tries[name])]


def mine(state: State, owns: tuple[str, ...] | list[str], actor: str = "player") -> dict:
    """`{"ID": {"may": [...]}}` for each owned combatant of the encounter."""
    return {cid: {"may": may(state, cid, actor)} for cid in owns if cid in state.combatants}
