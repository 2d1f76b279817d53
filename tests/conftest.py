"""Given/when/then helpers for the rules, and a ledger on a fresh database.

    s = given(pc("rook", bonus=3), rolled("rook", 7, 3), RoundStarted(round=1))
    when(s, APSpent(combatant="rook", cost=2, category="major"))  # accepted: returns new state
    refused(s, APSpent(combatant="rook", cost=5, category="custom"), "R17")  # refused, citing the rule
"""
from __future__ import annotations

import pytest

from eventlog.errors import Refusal
from eventlog.events import (
    CombatantJoined, EncounterCreated, InitiativeRolled, Payload,
)
from eventlog.store import Store
from projections.ledger import Ledger, apply
from projections.state import State


def pc(cid: str, bonus: int = 0, ap: int = 3, grit: int = 0, group: str | None = None) -> CombatantJoined:
    return CombatantJoined(id=cid, name=cid.title(), side="pc", bonus=bonus,
                           max_ap=ap, grit=grit, group=group)


def npc(cid: str, bonus: int = 0, ap: int = 3, grit: int = 0, group: str | None = None) -> CombatantJoined:
    return CombatantJoined(id=cid, name=cid.title(), side="npc", bonus=bonus,
                           max_ap=ap, grit=grit, group=group)


def rolled(slot: str, die: int, bonus: int = 0) -> InitiativeRolled:
    """A physical roll for `slot`; pass the slot's bonus (R1)."""
    return InitiativeRolled(slot=slot, die=die, bonus=bonus, total=die + bonus, manual=True)


def given(*payloads: Payload) -> State:
    """The state after these declarations, each judged in turn."""
    return apply(State("test"), [EncounterCreated(encounter="test"), *payloads])


def when(state: State, *payloads: Payload) -> State:
    """Judge and apply declarations; the given state is left untouched."""
    return apply(state, payloads)


def refused(state: State, payload: Payload, rule: str) -> str:
    """Assert that the judge refuses `payload`, citing `rule`; the message."""
    with pytest.raises(Refusal) as caught:
        apply(state, [payload])
    message = str(caught.value)
    assert f"{rule})" in message or f"{rule}," in message, message
    return message


@pytest.fixture
def ledger(tmp_path) -> Ledger:
    store = Store(tmp_path / "ledger.db")
    yield Ledger(store)
    store.close()
