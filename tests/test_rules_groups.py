"""Group initiative R7-R9: one roll per group, members act in any order when
the group's slot comes up, each keeps its own AP, turn limit and Grit."""
from __future__ import annotations

from hypothesis import given as for_all, settings, strategies as st

from eventlog.events import (
    APAdjusted, CombatantLeft, GroupBonusSet, InitiativeRolled, MomentSeized,
    RoundStarted,
)
from projections.reports.views import status

from helpers import (  # noqa: F401
    acting, end, given, npc, order, pc, refused, rolled, row, spend, up, when,
)


# -- helpers -------------------------------------------------------------

def group_row(s, gid: str) -> dict:
    return next(g for g in status(s)["groups"] if g["id"] == gid)


def gang_round(*extra):
    """boss (npc 9) above the gang g1, g2, g3 (npc, rolled 5), rook (pc 2) last;
    round 1 started, boss's turn ended: the gang's slot is reached."""
    s = given(npc("boss"), npc("g1", group="gang"), npc("g2", group="gang"),
              npc("g3", group="gang"), pc("rook"), *extra,
              rolled("boss", 9), rolled("gang", 5), rolled("rook", 2),
              RoundStarted(round=1), spend("boss"), end("boss"))
    assert acting(s) is None and up(s)[:3] == ["g1", "g2", "g3"]
    return s


# -- R7: one roll for the group ------------------------------------------

def test_r7_group_rolls_once_and_members_share_its_initiative():
    s = given(npc("g1", bonus=1, group="gang"), npc("g2", bonus=1, group="gang"),
              rolled("gang", 6, 1))
    assert [row(s, m)["initiative"] for m in ("g1", "g2")] == [7, 7]
    assert [row(s, m)["die"] for m in ("g1", "g2")] == [6, 6]
    assert group_row(s, "gang")["initiative"] == 7
    assert order(s) == ["gang"]


def test_r7_group_is_one_slot_in_the_order():
    s = given(npc("g1", group="gang"), npc("g2", group="gang"), pc("rook"),
              rolled("gang", 4), rolled("rook", 8))
    assert order(s) == ["rook", "gang"]


def test_r7_member_cannot_roll_alone():
    s = given(npc("g1", group="gang"), npc("g2", group="gang"))
    message = refused(s, rolled("g1", 6), "R7")
    assert "gang" in message
    assert row(s, "g1")["initiative"] is None


def test_r7_member_cannot_roll_alone_after_group_rolled():
    s = given(npc("g1", group="gang"), rolled("gang", 6))
    refused(s, rolled("g1", 9), "R7")


def test_r7_common_bonus_is_the_group_bonus():
    s = given(npc("g1", bonus=2, group="gang"), npc("g2", bonus=2, group="gang"))
    assert group_row(s, "gang")["bonus"] == 2
    refused(s, rolled("gang", 6, 0), "R1")
    s = when(s, rolled("gang", 6, 2))
    assert group_row(s, "gang")["initiative"] == 8


def test_r7_differing_bonuses_roll_refused_asking_for_group_bonus():
    s = given(npc("g1", bonus=1, group="gang"), npc("g2", bonus=3, group="gang"))
    for bonus in (1, 3, 0):
        message = refused(s, rolled("gang", 6, bonus), "R7")
        assert "group gang --bonus" in message
    assert group_row(s, "gang")["initiative"] is None


def test_r7_differing_bonuses_roll_accepted_with_group_bonus():
    s = given(npc("g1", bonus=1, group="gang"), npc("g2", bonus=3, group="gang"),
              GroupBonusSet(group="gang", bonus=2))
    refused(s, rolled("gang", 6, 1), "R1")
    s = when(s, rolled("gang", 6, 2))
    assert group_row(s, "gang")["initiative"] == 8
    assert [row(s, m)["initiative"] for m in ("g1", "g2")] == [8, 8]
    assert [row(s, m)["bonus"] for m in ("g1", "g2")] == [1, 3]  # own bonuses kept


def test_r7_group_bonus_set_before_members_join():
    s = given(GroupBonusSet(group="gang", bonus=-1),
              npc("g1", bonus=2, group="gang"), npc("g2", bonus=4, group="gang"),
              rolled("gang", 5, -1))
    assert group_row(s, "gang")["initiative"] == 4


def test_r7_set_group_bonus_wins_over_common_bonus():
    s = given(npc("g1", bonus=2, group="gang"), npc("g2", bonus=2, group="gang"),
              GroupBonusSet(group="gang", bonus=0))
    refused(s, rolled("gang", 6, 2), "R1")
    s = when(s, rolled("gang", 6, 0))
    assert group_row(s, "gang")["initiative"] == 6


def test_r7_member_joining_later_with_other_bonus_blocks_unrolled_group():
    s = given(npc("g1", bonus=1, group="gang"))
    s = when(s, npc("g2", bonus=2, group="gang"))
    refused(s, rolled("gang", 6, 1), "R7")


def test_r7_group_bonus_after_roll_refused():
    s = given(npc("g1", group="gang"), rolled("gang", 6))
    refused(s, GroupBonusSet(group="gang", bonus=3), "R4")


def test_r7_group_rolls_once_per_encounter():
    s = given(npc("g1", group="gang"), rolled("gang", 6))
    refused(s, rolled("gang", 2), "R1")


def test_r7_members_of_a_group_are_on_one_side():
    s = given(npc("g1", group="gang"))
    refused(s, pc("rook", group="gang"), "R7")


@settings(max_examples=60, deadline=None)
@for_all(bonuses=st.lists(st.integers(-3, 5), min_size=1, max_size=5),
         die=st.integers(1, 10))
def test_r7_group_roll_accepted_iff_members_share_a_bonus(bonuses, die):
    s = given(*[npc(f"g{i}", bonus=b, group="gang") for i, b in enumerate(bonuses)])
    roll = InitiativeRolled(slot="gang", die=die, bonus=bonuses[0],
                            total=die + bonuses[0])
    if len(set(bonuses)) == 1:
        s = when(s, roll)
        assert {row(s, f"g{i}")["initiative"] for i in range(len(bonuses))} == \
            {die + bonuses[0]}
    else:
        refused(s, roll, "R7")
        s = when(s, GroupBonusSet(group="gang", bonus=bonuses[-1]),
                 rolled("gang", die, bonuses[-1]))
        assert group_row(s, "gang")["initiative"] == die + bonuses[-1]


# -- R8: members take their turns in any order ---------------------------

def test_r8_group_slot_reached_nobody_acting_every_eligible_member_up():
    s = gang_round()
    assert acting(s) is None
    assert up(s) == ["g1", "g2", "g3"]


def test_r8_group_slot_at_top_of_round_nobody_acting():
    s = given(npc("g1", group="gang"), npc("g2", group="gang"), rolled("gang", 5),
              RoundStarted(round=1))
    assert (acting(s), up(s)) == (None, ["g1", "g2"])


def test_r8_whoever_declares_first_takes_the_turn():
    s = when(gang_round(), spend("g3"))
    assert (acting(s), up(s)) == ("g3", ["g3"])


def test_r8_other_members_wait_while_a_member_turn_is_in_progress():
    s = when(gang_round(), spend("g2"))
    message = refused(s, spend("g1"), "R19")
    assert "g2's turn" in message
    refused(s, end("g1"), "R21")
    s = when(s, end("g2"))
    assert (acting(s), up(s)) == (None, ["g1", "g3"])


def test_r8_slot_finished_when_every_eligible_member_had_its_turn():
    s = gang_round()
    for cid in ("g2", "g3", "g1"):
        assert acting(s) is None
        s = when(s, spend(cid), end(cid))
    assert (acting(s), up(s)) == ("rook", ["rook"])


def test_r8_member_who_had_its_turn_cannot_act_again_this_pass():
    s = when(gang_round(), spend("g1"), end("g1"))
    assert up(s) == ["g2", "g3"]
    refused(s, spend("g1"), "R8")
    refused(s, end("g1"), "R8")


def test_r8_member_may_pass_its_turn_with_no_turn_in_progress():
    s = when(gang_round(), end("g2"))
    assert up(s) == ["g1", "g3"]
    assert row(s, "g2")["ap"] == 3


def test_r8_member_with_no_ap_is_not_eligible():
    s = given(npc("boss"), npc("g1", group="gang"), npc("g2", group="gang"), pc("rook"),
              rolled("boss", 9), rolled("gang", 5), rolled("rook", 2),
              RoundStarted(round=1),
              APAdjusted(combatant="g1", delta=-3, reason="stunned"),
              spend("boss"), end("boss"))
    assert up(s) == ["g2"]
    refused(s, spend("g1"), "R8")  # 0 AP: not eligible
    s = when(s, spend("g2"), end("g2"))
    assert acting(s) == "rook"


def test_r8_member_who_left_is_not_up():
    s = when(gang_round(), CombatantLeft(combatant="g2"))
    assert up(s) == ["g1", "g3"]


def test_r8_member_ending_with_zero_ap_ends_turn_automatically():
    s = when(gang_round(), spend("g1", 3))
    assert (acting(s), up(s)) == (None, ["g2", "g3"])


def test_r8_group_members_act_again_in_next_pass():
    s = gang_round()
    for cid in ("g1", "g2", "g3"):
        s = when(s, spend(cid), end(cid))
    s = when(s, spend("rook"), end("rook"))
    assert status(s)["pass"] == 2
    s = when(s, end("boss"))
    assert (acting(s), up(s)) == (None, ["g1", "g2", "g3"])


def test_r8_member_not_up_before_group_slot_is_reached():
    s = given(npc("boss"), npc("g1", group="gang"), rolled("boss", 9), rolled("gang", 5),
              RoundStarted(round=1))
    assert acting(s) == "boss"
    refused(s, spend("g1"), "R17")  # boss's turn: out of turn


@settings(max_examples=40, deadline=None)
@for_all(turns=st.permutations(["g1", "g2", "g3"]),
         costs=st.lists(st.integers(0, 3), min_size=3, max_size=3))
def test_r8_members_in_any_order_each_take_one_turn_then_slot_moves_on(turns, costs):
    s = gang_round()
    for i, (cid, cost) in enumerate(zip(turns, costs)):
        remaining = [m for m in ("g1", "g2", "g3") if m not in turns[:i]]
        assert up(s) == remaining and acting(s) is None
        if cost:
            s = when(s, spend(cid, cost))
        if acting(s) == cid or not cost:  # end the turn, or pass it (cost 0)
            s = when(s, end(cid))
    assert acting(s) == "rook"
    assert [row(s, m)["ap"] for m in turns] == [3 - c for c in costs]


# -- R9: own AP pool, own turn limit, own Grit ----------------------------

def test_r9_each_member_keeps_its_own_ap_pool():
    s = when(gang_round(), spend("g1", 2), end("g1"), spend("g3", 1))
    assert [row(s, m)["ap"] for m in ("g1", "g2", "g3")] == [1, 3, 2]


def test_r9_each_member_has_its_own_turn_limit():
    s = gang_round(npc("g4", ap=6, group="gang"), npc("g5", ap=6, group="gang"))
    s = when(s, spend("g4", 3), spend("g4", 1))  # 4 AP: g4's turn ends (R21)
    assert row(s, "g4")["ap"] == 2 and acting(s) is None
    s = when(s, spend("g5", 4))  # g4's spending does not count for g5
    assert row(s, "g5")["ap"] == 2
    refused(when(gang_round(npc("g4", ap=6, group="gang")), spend("g4", 3)),
            spend("g4", 2), "R17")


def test_r9_member_max_ap_is_its_own():
    s = gang_round(npc("g4", ap=5, group="gang"))
    assert [row(s, m)["max_ap"] for m in ("g1", "g4")] == [3, 5]
    s = when(s, RoundStarted(round=2))
    assert [row(s, m)["ap"] for m in ("g1", "g4")] == [3, 5]


def test_r9_each_member_keeps_its_own_grit():
    s = given(npc("g1", grit=1, group="gang"), npc("g2", grit=2, group="gang"),
              rolled("gang", 5), RoundStarted(round=1),
              MomentSeized(combatant="g1"))
    assert [row(s, m)["grit"] for m in ("g1", "g2")] == [0, 2]
    refused(when(given(npc("g1", grit=1, group="gang"), npc("g2", group="gang"),
                       rolled("gang", 5), RoundStarted(round=1))),
            MomentSeized(combatant="g2"), "R10")


def test_r9_member_out_of_ap_leaves_others_eligible_in_later_passes():
    s = gang_round()
    s = when(s, spend("g1", 3), spend("g2", 1), end("g2"), end("g3"))
    s = when(s, spend("rook"), end("rook"), end("boss"))
    assert status(s)["pass"] == 2
    assert up(s) == ["g2", "g3"]
