"""A combatant's portrait in the log (docs/formats.md): `CombatantJoined`
gained `portrait`, an added field, so every event stored before it keeps the
hash it was written with; a portrait is named by a SHA-256 digest or not at
all."""
from __future__ import annotations

import pytest

from eventlog.codec import encode_data, event_hash
from eventlog.errors import LedgerError
from eventlog.events import CombatantJoined
from eventlog.stores.memory import MemoryStore
from projections.domain import commands as c
from projections.ledger import Ledger

DIGEST = "ab" * 32


def test_portrait_left_out_of_an_old_event_keeps_its_hash():
    old = CombatantJoined(id="rook", name="Rook", side="pc")
    assert b"portrait" not in encode_data(old)
    body = {"id": "rook", "name": "Rook", "side": "pc", "bonus": 0, "max_ap": 3, "grit": 0,
            "group": None}  # the data as it was written before the field existed
    args = (1, 1, "CombatantJoined", "2026-12-01T20:00:00.000000Z", "gm")
    assert event_hash(*args, old, "0" * 64) == event_hash(*args, body, "0" * 64)
    assert b'"portrait":"' + DIGEST.encode() in encode_data(
        CombatantJoined(id="rook", name="Rook", portrait=DIGEST))


def test_portrait_joins_with_the_combatant():
    ledger = Ledger(MemoryStore())
    ledger.execute(None, c.New(id="alley"), "gm")
    ledger.execute("alley", c.Load(combatant=[
        c.RosterCombatant(name="Rook", side="pc", portrait=DIGEST),
        c.RosterCombatant(name="Goon", count=2)]), "gm")
    state = ledger.state("alley")
    assert state.combatants["rook"].portrait == DIGEST
    assert state.combatants["goon-1"].portrait is None


@pytest.mark.parametrize("portrait", ["rook.png", "AB" * 32, "ab" * 33, "../x", ""])
def test_portrait_that_is_no_digest_is_refused(portrait):
    ledger = Ledger(MemoryStore())
    ledger.execute(None, c.New(id="alley"), "gm")
    with pytest.raises(LedgerError, match="a portrait is named by the SHA-256 of its image"):
        ledger.execute("alley", c.Load(combatant=[
            c.RosterCombatant(name="Rook", portrait=portrait)]), "gm")
    assert ledger.store.head("alley")[0] == 1
