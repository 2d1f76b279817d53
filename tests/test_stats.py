"""`stats`: the post-game numbers, checked against a hand count of the example
encounter (examples/street-fight.combat) and against small encounters built here."""
from __future__ import annotations

import json


import pytest
from typer.testing import CliRunner

from cli.app import app
from eventlog.events import (
    APAdjusted, APSpent, CombatantLeft, EncounterEnded, FreeActionTaken,
    GritAdjusted, InterruptTaken, MomentSeized, RoundStarted, TurnEnded,
)
from eventlog.stores.sqlite import Store
from projections.domain.commands import Amend
from projections.ledger import Ledger
from projections.reports.stats import stats

from helpers import npc, pc, rolled, street_fight


@pytest.fixture
def demo(tmp_path):
    """examples/street-fight.combat played into a fresh store, by `combat demo`."""
    env = street_fight(tmp_path)
    store = Store(env["COMBAT_DB"])
    yield Ledger(store), "demo-1", env
    store.close()


def _combatant(numbers, cid):
    return next(c for c in numbers["combatants"] if c["id"] == cid)


def acts(free=0, minor=0, major=0, custom=0):
    return {"free": free, "minor": minor, "major": major, "custom": custom}


# The example encounter, counted by hand from examples/street-fight.combat:
#
# Round 1, pass 1: rook seizes (Grit 1 -> 0), spends 2 (major), boss
#   interrupts for 1 (minor), rook ends; vex 2 (major) + a free action, ends;
#   boss 2 (major), ends; ganger-2 2 (major), ends; ganger-1 ends having spent
#   nothing: 5 turns, one of them empty.
# Pass 2: rook 1 (minor) and is out of AP (turn over, R21); vex ends, empty;
#   boss 1 (minor), out of AP; ganger-1 2 (major), ends; ganger-2 ends, empty:
#   5 turns. Pass 3 starts (AP was spent in pass 2) but the GM starts round 2:
#   nobody acts in it. AP left when round 1 ends: vex 1, ganger-1 1, ganger-2 1.
# Round 2, pass 1: vex 2 (major), ends; rook's 2 AP shot is undone (does not
#   count), rook 1 (minor), ends; the GM takes 2 of boss's 4 AP, boss 1 (minor),
#   ends; ganger-2 leaves; ganger-1 2 (major), ends: 4 turns. Pass 2: the drone,
#   placed above the cursor in pass 1, spends 2 (major); the encounter ends in
#   its turn: 1 turn. AP left: rook 2, vex 1, boss 1, ganger-1 1, drone 1
#   (ganger-2 has left and is not counted).
HAND_COUNTED = {
    "rook": dict(turns=3, empty_turns=0, ap_spent=4, ap_in_turns=4, ap_on_interrupts=0,
                 actions=acts(minor=2, major=1), interrupts=0, ap_unspent=2, seizes=1,
                 grit_spent=1, grit_gained=0, active=True),
    "vex": dict(turns=3, empty_turns=1, ap_spent=4, ap_in_turns=4, ap_on_interrupts=0,
                actions=acts(free=1, major=2), interrupts=0, ap_unspent=2, seizes=0,
                grit_spent=0, grit_gained=0, active=True),
    "boss": dict(turns=3, empty_turns=0, ap_spent=5, ap_in_turns=4, ap_on_interrupts=1,
                 actions=acts(minor=3, major=1), interrupts=1, ap_unspent=1, seizes=0,
                 grit_spent=0, grit_gained=0, active=True),
    "ganger-1": dict(turns=3, empty_turns=1, ap_spent=4, ap_in_turns=4, ap_on_interrupts=0,
                     actions=acts(major=2), interrupts=0, ap_unspent=2, seizes=0,
                     grit_spent=0, grit_gained=0, active=True),
    "ganger-2": dict(turns=2, empty_turns=1, ap_spent=2, ap_in_turns=2, ap_on_interrupts=0,
                     actions=acts(major=1), interrupts=0, ap_unspent=1, seizes=0,
                     grit_spent=0, grit_gained=0, active=False),
    "drone": dict(turns=1, empty_turns=0, ap_spent=2, ap_in_turns=2, ap_on_interrupts=0,
                  actions=acts(major=1), interrupts=0, ap_unspent=1, seizes=0,
                  grit_spent=0, grit_gained=0, active=True),
}
HAND_COUNTED_ROUNDS = [
    {"round": 1, "passes": 3, "turns": 10, "turns_per_pass": [5, 5, 0], "ap_spent": 13,
     "ap_in_turns": 12, "ap_on_interrupts": 1, "actions": acts(free=1, minor=3, major=5),
     "interrupts": 1, "seizes": ["rook"], "ap_unspent": 3,
     "ap_by_combatant": {"rook": 3, "vex": 2, "boss": 4, "ganger-1": 2, "ganger-2": 2}},
    {"round": 2, "passes": 2, "turns": 5, "turns_per_pass": [4, 1], "ap_spent": 8,
     "ap_in_turns": 8, "ap_on_interrupts": 0, "actions": acts(minor=2, major=3),
     "interrupts": 0, "seizes": [], "ap_unspent": 6,
     "ap_by_combatant": {"rook": 1, "vex": 2, "boss": 1, "ganger-1": 2, "ganger-2": 0,
                         "drone": 2}},
]


def test_stats_of_the_example_encounter_match_the_hand_count(demo):
    ledger, eid, _ = demo
    numbers = stats(ledger, eid)
    assert [c["id"] for c in numbers["combatants"]] == list(HAND_COUNTED)
    for cid, expected in HAND_COUNTED.items():
        got = _combatant(numbers, cid)
        assert {k: got[k] for k in expected} == expected, cid
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in numbers["rounds"]] \
        == HAND_COUNTED_ROUNDS  # the time is checked with chosen timestamps (test_timing.py)
    totals = numbers["totals"]
    assert {k: v for k, v in totals.items()
            if not k.endswith(("_at", "_seconds"))} == {
        "rounds": 2, "passes": 5, "turns": 15, "empty_turns": 3, "ap_spent": 21,
        "ap_in_turns": 20, "ap_on_interrupts": 1, "actions": acts(free=1, minor=5, major=8),
        "interrupts": 1, "ap_unspent": 9, "seizes": 1, "grit_spent": 1, "grit_gained": 0,
        "events": 48, "undone": 1, "amended": 0}
    assert totals["first_at"] <= totals["last_at"]
    assert (numbers["encounter"], numbers["seq"], numbers["phase"]) == (eid, 48, "ended")


def test_stats_json_command_prints_the_same_numbers(demo):
    ledger, eid, env = demo
    result = CliRunner().invoke(app, ["stats", "--json"], env=env)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == stats(ledger, eid)


def test_stats_table_for_people_names_everyone(demo):
    _, _, env = demo
    result = CliRunner().invoke(app, ["stats"], env=env)
    assert result.exit_code == 0, result.output
    names = {c["id"]: c["name"] for c in stats(demo[0], demo[1])["combatants"]}
    # The names the report prints, never the ids (Ganger 1, not ganger-1)
    for cid in HAND_COUNTED:
        assert names[cid] in result.stdout
    assert "Ganger 2" in result.stdout
    assert "ganger-1" not in result.stdout and "ganger-2" not in result.stdout
    assert "2 rounds, 5 passes, 15 turns, 21 AP spent" in result.stdout
    assert f"left the encounter: {names['ganger-2']}" in result.stdout


# -- small encounters ---------------------------------------------------------

E = "duel"


def _play(ledger, *batches):
    ledger.new(E, "A duel", "gm")
    for batch in batches:
        payloads = list(batch) if isinstance(batch, tuple) else [batch]
        ledger.declare(E, lambda s, p=payloads: p, "gm")


def _duel(ledger, *more):
    _play(ledger, (pc("ash", bonus=5, ap=5, grit=2), npc("brute", ap=3)),
          (rolled("ash", 5, 5), rolled("brute", 3)), RoundStarted(round=1), *more)


def test_r17_r21_a_turn_ends_by_itself_at_4_ap_and_counts_once(ledger):
    _duel(ledger, APSpent(combatant="ash", cost=2, category="major"),
          APSpent(combatant="ash", cost=2, category="major"))  # 4 AP: turn over (R21)
    numbers = stats(ledger, E)
    ash = _combatant(numbers, "ash")
    assert (ash["turns"], ash["empty_turns"], ash["ap_in_turns"]) == (1, 0, 4)
    assert numbers["rounds"][0]["turns_per_pass"] == [1]


def test_r19_interrupts_count_apart_from_turns(ledger):
    _duel(ledger, InterruptTaken(combatant="brute", cost=1, category="minor"),
          APSpent(combatant="ash", cost=3, category="custom", label="burst"),
          InterruptTaken(combatant="brute", cost=2, category="major"))
    brute = _combatant(stats(ledger, E), "brute")
    assert (brute["interrupts"], brute["ap_on_interrupts"], brute["ap_in_turns"]) == (2, 3, 0)
    assert brute["actions"] == acts(minor=1, major=1)
    assert brute["turns"] == 0
    ash = _combatant(stats(ledger, E), "ash")
    assert ash["actions"] == acts(custom=1)


def test_r24_a_turn_cut_short_by_the_next_round_counts_and_ap_left_is_lost(ledger):
    _duel(ledger, APSpent(combatant="ash", cost=1, category="minor"),
          RoundStarted(round=2))  # ash's turn was in progress, 4 AP unspent
    numbers = stats(ledger, E)
    ash, brute = _combatant(numbers, "ash"), _combatant(numbers, "brute")
    assert (ash["turns"], ash["ap_unspent"]) == (1, 4)
    assert brute["ap_unspent"] == 3
    assert [r["ap_unspent"] for r in numbers["rounds"]] == [7, None]  # round 2 runs on


def test_r10_seizes_and_grit(ledger):
    _duel(ledger, MomentSeized(combatant="ash"),
          GritAdjusted(combatant="ash", delta=-1, reason="rerolls"),
          GritAdjusted(combatant="brute", delta=2, reason="a rousing speech"),
          FreeActionTaken(combatant="brute", label="shouts"))
    numbers = stats(ledger, E)
    ash, brute = _combatant(numbers, "ash"), _combatant(numbers, "brute")
    assert (ash["seizes"], ash["grit_spent"], ash["grit_gained"]) == (1, 2, 0)
    assert (brute["grit_gained"], brute["actions"]["free"]) == (2, 1)
    assert numbers["rounds"][0]["seizes"] == ["ash"]
    assert numbers["totals"]["grit_spent"] == 2


def test_r22_leaving_mid_turn_ends_the_turn_and_drops_out_of_unspent_ap(ledger):
    _duel(ledger, APSpent(combatant="ash", cost=1, category="minor"),
          CombatantLeft(combatant="ash", reason="flees"),
          APSpent(combatant="brute", cost=2, category="major"), TurnEnded(combatant="brute"),
          EncounterEnded())
    numbers = stats(ledger, E)
    ash, brute = _combatant(numbers, "ash"), _combatant(numbers, "brute")
    assert (ash["turns"], ash["active"], ash["ap_unspent"]) == (1, False, 0)
    assert (brute["turns"], brute["ap_unspent"]) == (1, 1)
    assert numbers["phase"] == "ended"


def test_r26_r28_undone_and_retracted_declarations_do_not_count(ledger):
    _duel(ledger, APSpent(combatant="ash", cost=2, category="major"),
          APSpent(combatant="ash", cost=1, category="minor"))
    ledger.undo(E, "gm")
    numbers = stats(ledger, E)
    ash = _combatant(numbers, "ash")
    assert (ash["ap_in_turns"], ash["actions"]) == (2, acts(major=1))
    assert numbers["totals"]["undone"] == 1
    head = ledger.store.head(E)[0]
    ledger.retract(E, head - 2, cascade=False, actor="gm")  # the 2 AP major
    ash = _combatant(stats(ledger, E), "ash")
    assert (ash["ap_in_turns"], ash["turns"]) == (0, 0)


def test_r28_an_amended_declaration_counts_as_amended(ledger):
    from projections.domain.phrases import correction
    _duel(ledger, APSpent(combatant="ash", cost=2, category="major", label="reloads"),
          TurnEnded(combatant="ash"))
    seq = ledger.store.head(E)[0] - 1
    ledger.execute(E, Amend(seq=seq, cost="minor", reason="a reload is minor"))
    numbers = stats(ledger, E)
    ash = _combatant(numbers, "ash")
    assert (ash["ap_in_turns"], ash["actions"], ash["turns"]) == (1, acts(minor=1), 1)
    assert numbers["totals"]["amended"] == 1
    assert numbers["totals"]["events"] == ledger.store.head(E)[0]


def test_r14_gm_taking_ap_ends_the_turn_at_zero(ledger):
    _duel(ledger, APSpent(combatant="ash", cost=1, category="minor"),
          APAdjusted(combatant="ash", delta=-4, reason="stunned"))
    ash = _combatant(stats(ledger, E), "ash")
    assert (ash["turns"], ash["ap_in_turns"], ash["empty_turns"]) == (1, 1, 0)


def test_stats_before_the_first_round_are_zero(ledger):
    _play(ledger, pc("ash"))
    numbers = stats(ledger, E)
    assert numbers["rounds"] == []
    assert numbers["totals"]["turns"] == 0 and numbers["totals"]["rounds"] == 0
    assert numbers["phase"] == "setup"
    assert _combatant(numbers, "ash")["ap_unspent"] == 0
