"""Initiative rules R1-R6: rolls, order, overrides, round start and
reinforcements, AP in reserve (docs/rules.md); ties and declared
orders (R3-R3c) are tests/test_rules_ties.py."""
from __future__ import annotations

from hypothesis import given as for_all, settings, strategies as st

from eventlog.events import (
    CombatantLeft, InitiativeOverridden, InitiativeRolled, RoundStarted,
)
from projections.reports.views import status

from helpers import (  # noqa: F401
    acting, end, given, npc, order, pc, refused, rolled, row, spend, ties, turn, up,
    when,
)


# -- helpers -------------------------------------------------------------

def override(slot: str, total: int, reason: str = "blessed by the GM") -> InitiativeOverridden:
    return InitiativeOverridden(slot=slot, total=total, reason=reason)


# -- R1: one roll per slot, 1d10 + bonus, the die is recorded -------------

def test_r1_roll_records_die_and_total_die_plus_bonus():
    s = given(pc("rook", bonus=3), rolled("rook", 7, 3))
    assert row(s, "rook")["die"] == 7
    assert row(s, "rook")["initiative"] == 10


def test_r1_negative_bonus_lowers_total():
    s = given(npc("slug", bonus=-2), rolled("slug", 1, -2))
    assert row(s, "slug")["initiative"] == -1
    assert order(s) == ["slug"]


def test_r1_unrolled_combatant_has_no_die_nor_initiative():
    s = given(pc("rook", bonus=3))
    assert (row(s, "rook")["die"], row(s, "rook")["initiative"]) == (None, None)
    assert order(s) == []


@for_all(die=st.one_of(st.integers(max_value=0), st.integers(min_value=11)))
def test_r1_die_outside_1_to_10_refused(die):
    s = given(pc("rook"))
    refused(s, InitiativeRolled(slot="rook", die=die, bonus=0, total=die), "R1")


def test_r1_total_not_die_plus_bonus_refused():
    s = given(pc("rook", bonus=2))
    refused(s, InitiativeRolled(slot="rook", die=5, bonus=2, total=9), "R1")


def test_r1_bonus_other_than_combatants_refused():
    s = given(pc("rook", bonus=2))
    refused(s, rolled("rook", 5, 3), "R1")


def test_r1_second_roll_for_same_slot_refused():
    s = given(pc("rook"), rolled("rook", 5))
    refused(s, rolled("rook", 9), "R1")
    assert row(s, "rook")["die"] == 5


def test_r1_second_roll_refused_in_later_round():
    s = given(pc("rook"), npc("x"), rolled("rook", 5), rolled("x", 3),
              RoundStarted(round=1), RoundStarted(round=2))
    refused(s, rolled("rook", 9), "R1")


# -- R2: descending total, fixed order -----------------------------------

def test_r2_higher_total_acts_first():
    s = given(npc("x"), pc("rook"), npc("y"),
              rolled("x", 4), rolled("rook", 6), rolled("y", 9))
    assert order(s) == ["y", "rook", "x"]
    s = when(s, RoundStarted(round=1))
    assert (acting(s), up(s)) == ("y", ["y"])


def test_r2_roll_order_does_not_matter_only_totals():
    s = given(npc("x"), npc("y"), rolled("y", 2), rolled("x", 8))
    assert order(s) == ["x", "y"]


def test_r2_turns_follow_order_through_a_pass():
    s = given(npc("x"), pc("rook"), npc("y"),
              rolled("x", 4), rolled("rook", 6), rolled("y", 9), RoundStarted(round=1))
    seen = []
    for _ in range(3):
        seen.append(acting(s))
        s = turn(s, acting(s))
    assert seen == ["y", "rook", "x"]


def test_r2_order_stays_fixed_across_passes_and_rounds():
    s = given(npc("x"), pc("rook"), npc("y"),
              rolled("x", 4), rolled("rook", 6), rolled("y", 9), RoundStarted(round=1))
    before = order(s)
    for cid in ["y", "rook", "x"]:
        s = turn(s, cid)
    assert status(s)["pass"] == 2
    assert order(s) == before and acting(s) == "y"
    s = when(s, RoundStarted(round=2))
    assert order(s) == before and acting(s) == "y"


@settings(max_examples=60, deadline=None)
@for_all(specs=st.lists(st.tuples(st.sampled_from(["pc", "npc"]),
                                  st.integers(1, 10), st.integers(-3, 4)),
                        min_size=1, max_size=7),
         data=st.data())
def test_r2_r3_order_sorted_by_total_then_pc_first_then_join_order(specs, data):
    ids = [f"c{i}" for i in range(len(specs))]
    joins = [(pc if side == "pc" else npc)(cid, bonus=bonus)
             for cid, (side, _die, bonus) in zip(ids, specs)]
    roll_order = data.draw(st.permutations(range(len(specs))))  # rolls come in any order
    rolls = [rolled(ids[i], specs[i][1], specs[i][2]) for i in roll_order]
    s = given(*joins, *rolls)

    def key(i):
        side, die, bonus = specs[i]
        return (-(die + bonus), 0 if side == "pc" else 1, i)

    assert order(s) == [ids[i] for i in sorted(range(len(specs)), key=key)]
    # R3: only same-side ties are reported, each in its current order
    runs: dict = {}
    for i in sorted(range(len(specs)), key=key):
        side, die, bonus = specs[i]
        runs.setdefault((die + bonus, side), []).append(ids[i])
    assert ties(s) == [run for run in runs.values() if len(run) > 1]


# -- R4: GM override -----------------------------------------------------

def test_r4_override_moves_slot_and_keeps_recorded_die():
    s = given(npc("x"), pc("rook", bonus=1), rolled("x", 8), rolled("rook", 2, 1))
    assert order(s) == ["x", "rook"]
    s = when(s, override("rook", 12))
    assert order(s) == ["rook", "x"]
    assert (row(s, "rook")["initiative"], row(s, "rook")["die"]) == (12, 2)


def test_r4_override_of_group_moves_whole_group():
    s = given(npc("g1", group="gang"), npc("g2", group="gang"), pc("rook"),
              rolled("gang", 3), rolled("rook", 6))
    s = when(s, override("gang", 9))
    assert order(s) == ["gang", "rook"]
    assert [row(s, m)["initiative"] for m in ("g1", "g2")] == [9, 9]
    assert [row(s, m)["die"] for m in ("g1", "g2")] == [3, 3]


def test_r4_override_of_group_member_alone_refused():
    s = given(npc("g1", group="gang"), npc("g2", group="gang"), rolled("gang", 3))
    refused(s, override("g1", 9), "R4")
    assert row(s, "g1")["initiative"] == 3


def test_r4_override_of_unrolled_group_member_refused():
    s = given(npc("g1", group="gang"))
    refused(s, override("g1", 9), "R4")


def test_r4_override_of_unrolled_slot_gives_initiative_without_die():
    s = given(pc("rook"), npc("x"), rolled("x", 5))
    refused(s, RoundStarted(round=1), "R5")
    s = when(s, override("rook", 7))
    assert (row(s, "rook")["initiative"], row(s, "rook")["die"]) == (7, None)
    s = when(s, RoundStarted(round=1))
    assert acting(s) == "rook"


def test_r4_override_needs_a_reason():
    s = given(pc("rook"), rolled("rook", 5))
    refused(s, override("rook", 9, reason="  "), "R29")


def test_r4_override_into_a_tie_places_by_join_order():
    s = given(npc("a"), npc("b"), rolled("a", 2), rolled("b", 7))
    s = when(s, override("a", 7))
    assert order(s) == ["a", "b"]
    assert ties(s) == [["a", "b"]]


def test_r4_override_can_be_repeated():
    s = given(npc("a"), npc("b"), rolled("a", 2), rolled("b", 7))
    s = when(s, override("a", 9), override("a", 1))
    assert order(s) == ["b", "a"]
    assert row(s, "a")["initiative"] == 1


def test_r4_override_of_current_slot_keeps_its_turn():
    s = given(npc("a"), npc("b"), npc("c"), rolled("a", 9), rolled("b", 6),
              rolled("c", 3), RoundStarted(round=1))
    s = turn(s, "a")
    s = turn(s, "b")
    assert acting(s) == "c"
    s = when(s, override("c", 10))  # moves above the cursor, c is the current slot
    assert order(s) == ["c", "a", "b"]
    assert acting(s) == "c"


# -- R5: round start and reinforcements ----------------------------------

def test_r5_round_refused_while_active_combatant_has_no_initiative():
    s = given(pc("rook"), npc("x"), rolled("x", 5))
    message = refused(s, RoundStarted(round=1), "R5")
    assert "rook" in message


def test_r5_round_refused_while_group_has_no_initiative():
    s = given(pc("rook"), npc("g1", group="gang"), rolled("rook", 5))
    message = refused(s, RoundStarted(round=1), "R5")
    assert "gang" in message


def test_r5_round_refused_with_nobody_in_encounter():
    refused(given(), RoundStarted(round=1), "R5")


def test_r5_combatant_who_left_unrolled_does_not_block_round():
    s = given(pc("rook"), npc("x"), rolled("rook", 5), CombatantLeft(combatant="x"))
    s = when(s, RoundStarted(round=1))
    assert (status(s)["round"], order(s), acting(s)) == (1, ["rook"], "rook")


def test_r5_first_round_starts_combat_with_top_slot_up():
    s = given(pc("rook"), npc("x"), rolled("rook", 5), rolled("x", 7))
    assert (status(s)["phase"], status(s)["round"], status(s)["pass"]) == ("setup", 0, 0)
    assert up(s) == [] and acting(s) is None
    s = when(s, RoundStarted(round=1))
    assert (status(s)["phase"], status(s)["round"], status(s)["pass"]) == ("combat", 1, 1)
    assert (acting(s), up(s)) == ("x", ["x"])


def test_r5_no_turn_action_before_first_round():
    s = given(pc("rook"), rolled("rook", 5))
    refused(s, spend("rook"), "R5")
    refused(s, end("rook"), "R5")


def test_r5_unrolled_reinforcement_blocks_next_round_not_play():
    s = given(pc("rook"), rolled("rook", 5), RoundStarted(round=1))
    s = when(s, npc("x"))
    assert order(s) == ["rook"] and acting(s) == "rook"
    refused(s, RoundStarted(round=2), "R5")
    s = when(s, rolled("x", 3), RoundStarted(round=2))
    assert order(s) == ["rook", "x"]


def test_r5_reinforcement_starts_with_full_ap():
    s = given(pc("rook"), rolled("rook", 5), RoundStarted(round=1),
              spend("rook", 2))
    s = when(s, npc("brute", ap=5), rolled("brute", 1))
    assert (row(s, "brute")["ap"], row(s, "brute")["max_ap"]) == (5, 5)


def test_r5_reinforcement_below_cursor_is_visited_this_pass():
    s = given(npc("a"), npc("b"), rolled("a", 9), rolled("b", 6), RoundStarted(round=1))
    s = turn(s, "a")
    assert acting(s) == "b"
    s = when(s, npc("r"), rolled("r", 2))
    assert order(s) == ["a", "b", "r"]
    s = turn(s, "b")
    assert (status(s)["pass"], acting(s)) == (1, "r")


def test_r5_reinforcement_above_cursor_waits_for_next_pass():
    s = given(npc("a"), npc("b"), rolled("a", 9), rolled("b", 6), RoundStarted(round=1))
    s = turn(s, "a")
    s = when(s, npc("r"), rolled("r", 8))
    assert order(s) == ["a", "r", "b"]
    assert acting(s) == "b"
    refused(s, spend("r"), "R17")  # b's turn; r is not up in this pass
    s = turn(s, "b")
    # pass 1 is over (AP was spent): pass 2 visits r in its place
    assert (status(s)["pass"], acting(s)) == (2, "a")
    s = turn(s, "a")
    assert acting(s) == "r"


def test_r5_reinforcing_pc_tied_with_current_npc_waits_for_next_pass():
    s = given(npc("a"), npc("b"), rolled("a", 9), rolled("b", 6), RoundStarted(round=1))
    s = turn(s, "a")
    s = when(s, pc("rook"), rolled("rook", 6))  # R3: placed above b, behind the cursor
    assert order(s) == ["a", "rook", "b"]
    assert acting(s) == "b"
    s = turn(s, "b")
    assert (status(s)["pass"], acting(s)) == (2, "a")


def test_r5_reinforcement_placed_above_last_slot_waits_and_round_may_complete():
    s = given(npc("a"), rolled("a", 5), RoundStarted(round=1))
    s = when(s, npc("r"), rolled("r", 9))  # above a, whose turn is in progress
    s = when(s, end("a"))  # no AP spent in pass 1: no second pass (R23)
    assert status(s)["round_complete"] is True
    assert up(s) == []
    s = when(s, RoundStarted(round=2))
    assert acting(s) == "r"


def test_r5_reinforcement_joining_group_below_cursor_is_up_this_pass():
    s = given(npc("a"), npc("g1", group="gang"), rolled("a", 9), rolled("gang", 3),
              RoundStarted(round=1))
    assert acting(s) == "a"
    s = when(s, npc("g2", group="gang"))
    s = turn(s, "a")
    assert up(s) == ["g1", "g2"]


@settings(max_examples=40, deadline=None)
@for_all(die=st.integers(1, 10), side=st.sampled_from(["pc", "npc"]))
def test_r5_reinforcement_visited_this_pass_only_if_placed_below_cursor(die, side):
    # a (npc 10) has had its turn, b (npc 5) is the current slot
    s = given(npc("a"), npc("b"), rolled("a", 10), rolled("b", 5), RoundStarted(round=1))
    s = turn(s, "a")
    s = when(s, (pc if side == "pc" else npc)("r"), rolled("r", die))
    above = die > 5 or (die == 5 and side == "pc")
    assert order(s).index("r") < order(s).index("b") if above else \
        order(s).index("r") > order(s).index("b")
    assert acting(s) == "b"
    s = turn(s, "b")
    if above:
        assert status(s)["pass"] == 2 and acting(s) == order(s)[0]
    else:
        assert status(s)["pass"] == 1 and acting(s) == "r"


# -- R6: AP in reserve never moves a combatant ---------------------------

def test_r6_reserve_ap_does_not_move_combatant():
    s = given(npc("a"), pc("rook"), npc("c"), rolled("a", 9), rolled("rook", 6),
              rolled("c", 3), RoundStarted(round=1))
    before = order(s)
    s = turn(s, "a", cost=2)
    s = turn(s, "rook", cost=0)   # rook keeps all 3 AP in reserve
    s = turn(s, "c", cost=1)
    assert status(s)["pass"] == 2
    assert order(s) == before
    assert acting(s) == "a"
    s = turn(s, "a", cost=1)      # a's pool is now 0
    assert acting(s) == "rook"
    assert row(s, "rook")["ap"] == 3


def test_r6_combatant_acts_again_at_same_place_in_every_later_pass():
    s = given(npc("a"), pc("rook"), npc("c"), rolled("a", 9), rolled("rook", 6),
              rolled("c", 3), RoundStarted(round=1))
    seen = []
    while not status(s)["round_complete"]:
        cid = acting(s)
        seen.append((status(s)["pass"], cid))
        s = turn(s, cid, cost=1)
    assert seen == [(p, cid) for p in (1, 2, 3) for cid in ("a", "rook", "c")]
    assert order(s) == ["a", "rook", "c"]


def test_r6_only_combatant_with_reserve_acts_in_later_pass():
    s = given(npc("a"), pc("rook"), npc("c"), rolled("a", 9), rolled("rook", 6),
              rolled("c", 3), RoundStarted(round=1))
    s = turn(s, "a", cost=3)
    s = turn(s, "rook", cost=1)
    s = turn(s, "c", cost=3)
    assert (status(s)["pass"], acting(s)) == (2, "rook")
    assert order(s) == ["a", "rook", "c"]


@settings(max_examples=40, deadline=None)
@for_all(costs=st.lists(st.integers(0, 3), min_size=3, max_size=12))
def test_r6_any_spending_pattern_leaves_order_and_turn_sequence_unchanged(costs):
    s = given(npc("a"), pc("rook"), npc("c"), rolled("a", 9), rolled("rook", 6),
              rolled("c", 3), RoundStarted(round=1))
    before = order(s)
    seen: dict[int, list[str]] = {}
    for cost in costs:
        if status(s)["round_complete"]:
            break
        cid = acting(s)
        seen.setdefault(status(s)["pass"], []).append(cid)
        s = turn(s, cid, cost=min(cost, row(s, cid)["ap"]))
        assert order(s) == before
    # in every pass, turns come in initiative order, whatever AP was kept back
    for turns in seen.values():
        assert turns == sorted(turns, key=before.index)
        assert len(set(turns)) == len(turns)
