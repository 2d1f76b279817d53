"""Seize the Moment R10-R13: the seize window, seizers at the top of the
order for one round, several seizers, once per round, Grit never below 0."""
from __future__ import annotations

import pytest
from hypothesis import given as for_all, settings, strategies as st

from eventlog.events import (
    APAdjusted, CombatantJoined, FreeActionTaken, GritAdjusted, InterruptTaken,
    MomentSeized, NoteAdded, OrderDeclared, RoundStarted,
)
from projections.reports.views import status

from helpers import (  # noqa: F401
    acting, end, given, npc, order, pc, refused, rolled, row, spend, up, when,
)


# -- helpers -------------------------------------------------------------

def window(s) -> bool:
    return status(s)["seize_window"]


def seize(cid: str) -> MomentSeized:
    return MomentSeized(combatant=cid)


def turn(s, cid: str, cost: int = 1):
    assert acting(s) == cid, status(s)
    s = when(s, spend(cid, cost))
    return when(s, end(cid)) if acting(s) == cid else s


def table(*, round_started: bool = True):
    """boss (npc 9), rook (pc 6, 1 Grit), vex (pc 4, 2 Grit), mook (npc 2, 1 Grit)."""
    s = given(npc("boss"), pc("rook", grit=1), pc("vex", grit=2), npc("mook", grit=1),
              rolled("boss", 9), rolled("rook", 6), rolled("vex", 4), rolled("mook", 2))
    return when(s, RoundStarted(round=1)) if round_started else s


# -- R10: the seize window -----------------------------------------------

def test_r10_seize_spends_one_grit_and_puts_seizer_on_top():
    s = when(table(), seize("vex"))
    assert row(s, "vex")["grit"] == 1
    assert row(s, "vex")["seized"] is True
    assert order(s) == ["vex", "boss", "rook", "mook"]
    assert (acting(s), up(s)) == ("vex", ["vex"])


def test_r10_window_open_at_round_start_even_while_top_slot_is_up():
    s = table()
    assert window(s) is True and acting(s) == "boss"
    s = when(s, seize("mook"))
    assert acting(s) == "mook"


def test_r10_seize_refused_before_first_round():
    s = table(round_started=False)
    assert window(s) is False
    refused(s, seize("rook"), "R10")


@pytest.mark.parametrize("first", [spend("boss"), spend("boss", 0), end("boss")],
                         ids=["ap-spent-in-a-turn", "zero-cost-turn-action", "a-turn-ended"])
def test_r10_seize_refused_after_the_first_turn_action(first):
    s = when(table(), first)
    assert window(s) is False
    refused(s, seize("rook"), "R10")


def test_r10_seize_refused_after_group_member_passes_its_turn():
    s = given(npc("g1", group="gang"), npc("g2", group="gang"), pc("rook", grit=1),
              rolled("gang", 8), rolled("rook", 3), RoundStarted(round=1))
    assert acting(s) is None
    s = when(s, end("g1"))
    refused(s, seize("rook"), "R10")


def test_r10_free_action_does_not_close_window():
    s = when(table(), FreeActionTaken(combatant="boss", label="shouts"),
             FreeActionTaken(combatant="rook", label="draws"))
    assert window(s) is True
    s = when(s, seize("rook"))
    assert order(s)[0] == "rook"


def test_r10_interrupt_does_not_close_window():
    s = when(table(), InterruptTaken(combatant="vex", cost=1, category="minor",
                                     label="dives for cover"))
    assert window(s) is True
    s = when(s, seize("vex"))
    assert order(s)[0] == "vex"
    assert (row(s, "vex")["ap"], row(s, "vex")["grit"]) == (2, 1)


def test_r10_notes_and_ap_adjustments_do_not_close_window():
    s = when(table(), NoteAdded(text="lights go out"),
             APAdjusted(combatant="boss", delta=-1, reason="dazed"))
    assert window(s) is True
    when(s, seize("rook"))


def test_r10_seizing_does_not_close_window():
    s = when(table(), seize("rook"))
    assert window(s) is True
    s = when(s, seize("mook"))
    assert order(s)[:2] == ["rook", "mook"]


def test_r10_window_reopens_at_next_round():
    s = when(table(), spend("boss"))
    refused(s, seize("rook"), "R10")
    s = when(s, RoundStarted(round=2))
    assert window(s) is True
    s = when(s, seize("rook"))
    assert order(s)[0] == "rook"


def test_r10_seize_refused_when_round_is_complete():
    s = given(pc("rook", grit=1), rolled("rook", 5), RoundStarted(round=1), end("rook"))
    assert status(s)["round_complete"] is True
    assert window(s) is False
    refused(s, seize("rook"), "R10")


def test_r10_seize_refused_without_grit():
    s = given(pc("rook"), npc("x"), rolled("rook", 5), rolled("x", 8), RoundStarted(round=1))
    refused(s, seize("rook"), "R10")
    refused(s, seize("rook"), "R13")
    assert order(s) == ["x", "rook"]


def test_r10_window_stays_open_when_adjust_ap_ends_the_turn():
    s = given(pc("ash", grit=1), npc("brute", grit=1), rolled("ash", 9), rolled("brute", 5),
              RoundStarted(round=1), APAdjusted(combatant="ash", delta=-3, reason="stunned"))
    assert s.window and up(s) == ["brute"]
    s = when(s, MomentSeized(combatant="brute"))
    assert order(s)[0] == "brute"


def test_r10_a_complete_round_has_no_open_window():
    s = given(pc("ash", grit=1), rolled("ash", 9), RoundStarted(round=1),
              APAdjusted(combatant="ash", delta=-3, reason="stunned"))
    assert s.round_complete
    refused(s, MomentSeized(combatant="ash"), "R10")


# -- R11: the seizer's place for the round --------------------------------

def test_r11_seizer_acts_first_in_every_pass_of_the_round():
    s = when(table(), seize("mook"))
    for p in (1, 2):
        assert (status(s)["pass"], acting(s)) == (p, "mook")
        for cid in ("mook", "boss", "rook", "vex"):
            s = turn(s, cid)
    assert (status(s)["pass"], acting(s)) == (3, "mook")


def test_r11_seizer_initiative_total_unchanged():
    s = when(table(), seize("mook"))
    assert (row(s, "mook")["initiative"], row(s, "mook")["die"]) == (2, 2)


def test_r11_seizer_back_in_usual_place_next_round():
    s = when(table(), seize("mook"), spend("mook"))
    s = when(s, RoundStarted(round=2))
    assert order(s) == ["boss", "rook", "vex", "mook"]
    assert row(s, "mook")["seized"] is False
    assert acting(s) == "boss"


def test_r11_seized_group_member_stands_alone_and_group_keeps_its_place():
    s = given(npc("boss"), npc("g1", grit=1, group="gang"), npc("g2", group="gang"),
              pc("rook"), rolled("boss", 9), rolled("gang", 5), rolled("rook", 2),
              RoundStarted(round=1), seize("g1"))
    assert order(s) == ["g1", "boss", "gang", "rook"]
    assert (acting(s), up(s)) == ("g1", ["g1"])
    assert row(s, "g1")["initiative"] == 5
    s = turn(s, "g1")
    s = turn(s, "boss")
    assert (acting(s), up(s)) == (None, ["g2"])  # g1 left the group's slot
    refused(s, spend("g1"), "R8")


def test_r11_seized_group_member_back_in_group_next_round():
    s = given(npc("boss"), npc("g1", grit=1, group="gang"), npc("g2", group="gang"),
              rolled("boss", 9), rolled("gang", 5), RoundStarted(round=1), seize("g1"),
              spend("g1"), RoundStarted(round=2))
    assert order(s) == ["boss", "gang"]
    s = turn(s, "boss")
    assert up(s) == ["g1", "g2"]


def test_r11_seizure_of_top_group_member_leaves_rest_of_group_up_after():
    s = given(npc("g1", grit=1, group="gang"), npc("g2", group="gang"), pc("rook"),
              rolled("gang", 9), rolled("rook", 2), RoundStarted(round=1))
    assert up(s) == ["g1", "g2"]
    s = when(s, seize("g1"))
    assert order(s) == ["g1", "gang", "rook"]
    s = turn(s, "g1")
    assert (acting(s), up(s)) == (None, ["g2"])


def test_r11_reinforcement_seizing_in_window_acts_first_this_round():
    # r joins at the round's start above the top slot (R23: waits for pass 2),
    # then seizes before anyone acted: a seizer acts at the top in every pass
    s = given(npc("boss"), rolled("boss", 5), RoundStarted(round=1),
              pc("r", grit=1), rolled("r", 9))
    s = when(s, seize("r"))
    assert order(s) == ["r", "boss"]
    assert (status(s)["pass"], acting(s), up(s)) == (1, "r", ["r"])


def test_r11_seize_leaves_order_before_seizer_unchanged_for_everyone_else():
    s = when(table(), seize("rook"))
    assert order(s)[1:] == ["boss", "vex", "mook"]


# -- R12: several seizers --------------------------------------------------

def test_r12_several_seizers_act_before_everyone_else():
    s = when(table(), seize("vex"), seize("rook"))
    assert order(s) == ["vex", "rook", "boss", "mook"]


def test_r12_pc_seizers_act_before_npc_seizers():
    s = when(table(), seize("mook"), seize("vex"))
    assert order(s) == ["vex", "mook", "boss", "rook"]
    assert acting(s) == "vex"


def test_r12_same_side_seizers_in_declaration_order_not_initiative():
    s = when(table(), seize("vex"), seize("rook"))
    assert order(s)[:2] == ["vex", "rook"]
    s = when(table(), seize("rook"), seize("vex"))
    assert order(s)[:2] == ["rook", "vex"]


def test_r12_players_reorder_pc_seizers():
    s = when(table(), seize("vex"), seize("rook"), seize("mook"))
    assert order(s) == ["vex", "rook", "mook", "boss"]
    s = when(s, OrderDeclared(slots=["rook", "vex"], context="seize"))
    assert order(s) == ["rook", "vex", "mook", "boss"]
    assert acting(s) == "rook"


def test_r12_gm_reorders_npc_seizers():
    s = given(npc("a", grit=1), npc("b", grit=1), npc("c"), rolled("a", 9), rolled("b", 5),
              rolled("c", 7), RoundStarted(round=1), seize("a"), seize("b"))
    assert order(s) == ["a", "b", "c"]
    s = when(s, OrderDeclared(slots=["b", "a"], context="seize"))
    assert order(s) == ["b", "a", "c"]


def test_r12_reorder_of_seizers_across_sides_refused():
    s = when(table(), seize("mook"), seize("rook"))
    refused(s, OrderDeclared(slots=["mook", "rook"], context="seize"), "R12")
    assert order(s)[:2] == ["rook", "mook"]


def test_r12_reorder_naming_a_non_seizer_refused():
    s = when(table(), seize("rook"))
    refused(s, OrderDeclared(slots=["vex", "rook"], context="seize"), "R12")


def test_r12_seize_reorder_refused_outside_a_running_round():
    s = table(round_started=False)
    refused(s, OrderDeclared(slots=["vex", "rook"], context="seize"), "R12")


def test_r12_seize_order_forgotten_next_round():
    s = when(table(), GritAdjusted(combatant="rook", delta=1, reason="inspired"),
             seize("vex"), seize("rook"),
             OrderDeclared(slots=["rook", "vex"], context="seize"), RoundStarted(round=2))
    assert order(s) == ["boss", "rook", "vex", "mook"]
    s = when(s, seize("vex"), seize("rook"))
    assert order(s)[:2] == ["vex", "rook"]


@settings(max_examples=60, deadline=None)
@for_all(sides=st.lists(st.sampled_from(["pc", "npc"]), min_size=2, max_size=6),
         dice=st.data())
def test_r12_seizers_pcs_first_then_declaration_order(sides, dice):
    ids = [f"c{i}" for i in range(len(sides))]
    joins = [(pc if side == "pc" else npc)(cid, grit=1) for cid, side in zip(ids, sides)]
    rolls = [rolled(cid, dice.draw(st.integers(1, 10))) for cid in ids]
    s = given(npc("other"), *joins, rolled("other", 10), *rolls, RoundStarted(round=1))
    seizers = dice.draw(st.lists(st.sampled_from(ids), unique=True, min_size=1))
    s = when(s, *[seize(cid) for cid in seizers])
    side = dict(zip(ids, sides))
    expected = [c for c in seizers if side[c] == "pc"] + \
        [c for c in seizers if side[c] == "npc"]
    assert order(s)[:len(seizers)] == expected
    assert acting(s) == expected[0]
    assert set(order(s)[len(seizers):]) == {"other", *ids} - set(seizers)


# -- R13: once per round, Grit never below zero ----------------------------

def test_r13_second_seize_in_same_round_refused():
    s = when(table(), seize("vex"))
    assert row(s, "vex")["grit"] == 1
    refused(s, seize("vex"), "R13")


def test_r13_seize_again_in_next_round_allowed():
    s = when(table(), seize("vex"), spend("vex"), RoundStarted(round=2), seize("vex"))
    assert row(s, "vex")["grit"] == 0
    assert order(s)[0] == "vex"


def test_r13_last_grit_spent_then_seize_refused():
    s = when(table(), seize("rook"), spend("rook"), RoundStarted(round=2))
    assert row(s, "rook")["grit"] == 0
    refused(s, seize("rook"), "R13")
    assert row(s, "rook")["grit"] == 0


def test_r13_grit_adjustment_below_zero_refused():
    s = table()
    refused(s, GritAdjusted(combatant="rook", delta=-2, reason="bad luck"), "R13")
    s = when(s, GritAdjusted(combatant="rook", delta=-1, reason="bad luck"))
    assert row(s, "rook")["grit"] == 0
    refused(s, seize("rook"), "R13")


def test_r13_combatant_cannot_join_with_negative_grit():
    refused(given(), CombatantJoined(id="rook", name="Rook", side="pc", grit=-1), "R13")


def test_r13_grit_gained_mid_round_allows_seize_within_window():
    s = given(pc("rook"), npc("x"), rolled("rook", 5), rolled("x", 8), RoundStarted(round=1))
    s = when(s, GritAdjusted(combatant="rook", delta=1, reason="inspired"), seize("rook"))
    assert (row(s, "rook")["grit"], order(s)) == (0, ["rook", "x"])
