"""A hidden combatant's default id (docs/server.md, "What the players
see"): `add Goblin --hidden` joins as `goblin-hidden`, so the ids the
players see are numbered as if it were not there: a visible `add Goblin`
beside it is `goblin`, as in the fight without it, and every player's and
view's read of the two fights is the same."""
from __future__ import annotations

from hiddenkit import fresh, reads
from projections.domain import commands as c

E = "raid"


def played(*commands: c.Command):
    ledger = fresh(E)
    for command in commands:
        ledger.execute(E, command, "gm")
    return ledger


def ids(ledger) -> list[str]:
    return list(ledger.state(E).combatants)


def test_a_visible_goblin_beside_a_hidden_one_is_numbered_as_if_alone():
    ledger = played(c.Add(name="Ash", pc=True), c.Add(name="Goblin", hidden=True),
                    c.Add(name="Goblin"), c.Add(name="Goblin"))
    assert ids(ledger) == ["ash", "goblin-hidden", "goblin", "goblin-2"]
    twin = played(c.Add(name="Ash", pc=True), c.Add(name="Goblin"), c.Add(name="Goblin"))
    assert reads(ledger, E, ("ash",), True) == reads(twin, E, ("ash",), True)


def test_hidden_goblins_beside_visible_ones_take_no_visible_number():
    ledger = played(c.Add(name="Goblin"), c.Add(name="Goblin", hidden=True),
                    c.Add(name="Goblin", hidden=True), c.Add(name="Orc", count=2, hidden=True),
                    c.Add(name="Goblin"), c.Add(name="Orc", count=2))
    assert ids(ledger) == ["goblin", "goblin-hidden", "goblin-hidden-2", "orc-hidden-1",
                           "orc-hidden-2", "goblin-2", "orc-1", "orc-2"]
    twin = played(c.Add(name="Goblin"), c.Add(name="Goblin"), c.Add(name="Orc", count=2))
    assert reads(ledger, E) == reads(twin, E)


def test_a_hidden_combatant_given_an_id_keeps_it():
    assert ids(played(c.Add(name="Goblin", id="lurker", hidden=True))) == ["lurker"]


def test_a_roster_entry_that_joins_hidden_takes_no_visible_number():
    roster = c.Load(combatant=[c.RosterCombatant(name="Sniper", hidden=True),
                               c.RosterCombatant(name="Goblin", hidden=True, count=2)])
    ledger = played(roster, c.Add(name="Sniper"), c.Add(name="Goblin", count=2))
    assert ids(ledger) == ["sniper-hidden", "goblin-hidden-1", "goblin-hidden-2", "sniper",
                           "goblin-1", "goblin-2"]
    twin = played(c.Add(name="Sniper"), c.Add(name="Goblin", count=2))
    assert reads(ledger, E) == reads(twin, E)
