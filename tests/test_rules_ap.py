"""Action Points: maximum and adjustments (R14), restore (R15), action costs
(R16), the 4 AP turn limit (R17) and keeping AP in reserve (R18)."""
from hypothesis import HealthCheck, given as hgiven, settings, strategies as st

from eventlog.events import (
    APAdjusted, APSpent, FreeActionTaken, InterruptTaken, MaxAPChanged, MomentSeized,
    RoundStarted, TurnEnded,
)
from projections.reports.views import status

from helpers import (  # noqa: F401
    ap, duel, end, given, interrupt, npc, pc, refused, rolled, spend, when, who,
)


# -- R14: maximum AP and direct adjustments ----------------------------------

def test_r14_default_max_ap_is_three():
    s = duel()
    assert (who(s, "ash")["max_ap"], ap(s, "ash")) == (3, 3)


def test_r14_max_ap_raised_mid_round_takes_effect_at_next_restore():
    s = when(duel(), spend("ash", 1),
             MaxAPChanged(combatant="ash", max_ap=5, reason="adrenal booster"))
    assert who(s, "ash")["max_ap"] == 5
    assert ap(s, "ash") == 2  # not yet: the change waits for the restore
    s = when(s, RoundStarted(round=2))
    assert ap(s, "ash") == 5


def test_r14_max_ap_lowered_mid_round_keeps_current_ap_until_restore():
    s = when(duel(), MaxAPChanged(combatant="brute", max_ap=1, reason="stunned"))
    assert (ap(s, "brute"), who(s, "brute")["max_ap"]) == (3, 1)
    s = when(s, RoundStarted(round=2))
    assert ap(s, "brute") == 1


def test_r14_max_ap_changed_in_setup_applies_at_round_one():
    s = given(pc("ash"), rolled("ash", 9),
              MaxAPChanged(combatant="ash", max_ap=6, reason="cyberware"))
    assert (ap(s, "ash"), who(s, "ash")["max_ap"]) == (3, 6)
    s = when(s, RoundStarted(round=1))
    assert ap(s, "ash") == 6


def test_r14_max_ap_change_without_reason_refused():
    s = duel()
    refused(s, MaxAPChanged(combatant="ash", max_ap=4, reason=""), "R29")
    refused(s, MaxAPChanged(combatant="ash", max_ap=4, reason="   "), "R29")


def test_r14_negative_max_ap_refused():
    refused(duel(), MaxAPChanged(combatant="ash", max_ap=-1, reason="curse"), "R14")


def test_r14_adjust_ap_lowers_current_ap_not_max():
    s = when(duel(), APAdjusted(combatant="brute", delta=-2, reason="stunned"))
    assert (ap(s, "brute"), who(s, "brute")["max_ap"]) == (1, 3)


def test_r14_adjust_ap_to_exactly_zero_accepted():
    s = when(duel(), APAdjusted(combatant="brute", delta=-3, reason="knocked down"))
    assert ap(s, "brute") == 0


def test_r14_adjust_ap_below_zero_refused():
    s = when(duel(), spend("ash", 2))
    message = refused(s, APAdjusted(combatant="ash", delta=-2, reason="stunned"), "R14")
    assert "ash" in message
    assert ap(s, "ash") == 1


def test_r14_adjust_ap_without_reason_refused():
    s = duel()
    refused(s, APAdjusted(combatant="brute", delta=-1, reason=""), "R29")
    refused(s, APAdjusted(combatant="brute", delta=-1, reason="  "), "R29")


def test_r14_adjust_ap_raises_current_ap():
    s = when(duel(), spend("ash", 2), APAdjusted(combatant="ash", delta=1, reason="stim"))
    assert ap(s, "ash") == 2


def test_r14_adjust_ap_above_max_refused():
    # R14: AP has a *maximum*; raising it is a max-ap change, applied at the
    # next restore. A direct adjustment stays within [0, max].
    refused(duel(), APAdjusted(combatant="brute", delta=1, reason="haste spell"), "R14")
    s = when(duel(), APAdjusted(combatant="brute", delta=-2, reason="stunned"))
    s = when(s, APAdjusted(combatant="brute", delta=1, reason="shakes it off"))
    assert (ap(s, "brute"), who(s, "brute")["max_ap"]) == (2, 3)


def test_r14_adjust_ap_above_the_maximum_in_force_refused_after_max_ap_raised():
    s = duel()
    s = when(s, MaxAPChanged(combatant="ash", max_ap=5, reason="cyberware"))
    message = refused(s, APAdjusted(combatant="ash", delta=2, reason="boost"), "R14")
    assert "3 of 3 AP" in message
    s = when(s, RoundStarted(round=2))
    assert ap(s, "ash") == 5


def test_r14_adjust_ap_up_to_the_maximum_in_force_after_max_ap_lowered():
    s = when(duel(), spend("ash", 2),
             MaxAPChanged(combatant="ash", max_ap=1, reason="wounded"))
    s = when(s, APAdjusted(combatant="ash", delta=2, reason="second wind"))
    assert ap(s, "ash") == 3  # the maximum in force this round is still 3
    refused(s, APAdjusted(combatant="ash", delta=1, reason="more"), "R14")
    refused(s, APAdjusted(combatant="ash", delta=-4, reason="less"), "R14")


@settings(max_examples=60, deadline=None)
@hgiven(spent=st.integers(0, 3), delta=st.integers(-8, -1))
def test_r14_adjust_never_below_zero_for_any_delta(spent, delta):
    s = duel()
    if spent:
        s = when(s, spend("ash", spent))
    left = 3 - spent
    adjust = APAdjusted(combatant="ash", delta=delta, reason="hit")
    if left + delta < 0:
        refused(s, adjust, "R14")
    else:
        assert ap(when(s, adjust), "ash") == left + delta


# -- R15: restore at the start of each round ---------------------------------

def test_r15_round_start_restores_every_active_combatant_to_max():
    s = when(duel(), spend("ash", 2), TurnEnded(combatant="ash"), spend("brute", 1))
    assert (ap(s, "ash"), ap(s, "brute")) == (1, 2)
    s = when(s, RoundStarted(round=2))
    assert (ap(s, "ash"), ap(s, "brute")) == (3, 3)


def test_r15_unspent_ap_lost_not_carried_over():
    s = when(duel(ash_ap=6), spend("ash", 1), TurnEnded(combatant="ash"))
    assert (ap(s, "ash"), ap(s, "brute")) == (5, 3)
    s = when(s, RoundStarted(round=2))
    assert (ap(s, "ash"), ap(s, "brute")) == (6, 3)  # not 11 and 6


def test_r15_round_start_clears_spent_this_turn():
    s = when(duel(), spend("ash", 2))
    assert who(s, "ash")["spent_this_turn"] == 2
    s = when(s, RoundStarted(round=2))
    assert who(s, "ash")["spent_this_turn"] == 0
    assert status(s)["acting"] == "ash"


def test_r15_zero_cost_act_starts_the_turn_closes_the_window_not_a_pass():
    s = given(pc("ash", grit=1), npc("brute"), rolled("ash", 9), rolled("brute", 5),
              RoundStarted(round=1), spend("ash", 0, "custom"))
    assert not s.window and s.turn_started and ap(s, "ash") == 3
    refused(s, MomentSeized(combatant="ash"), "R10")
    s = when(s, end("ash"), end("brute"))
    assert s.round_complete  # 0 AP spent in turns: no second pass (R23a)


@settings(max_examples=60, deadline=None)
@hgiven(maxes=st.lists(st.integers(0, 6), min_size=1, max_size=4),
        drains=st.lists(st.integers(0, 6), min_size=4, max_size=4))
def test_r15_restore_sets_exactly_max_whatever_was_spent(maxes, drains):
    ids = [f"c{i}" for i in range(len(maxes))]
    s = given(*[npc(cid, ap=m) for cid, m in zip(ids, maxes)],
              *[rolled(cid, 10 - i) for i, cid in enumerate(ids)], RoundStarted(round=1))
    for cid, m, drain in zip(ids, maxes, drains):
        if min(m, drain):
            s = when(s, APAdjusted(combatant=cid, delta=-min(m, drain), reason="drain"))
    s = when(s, RoundStarted(round=2))
    assert [ap(s, cid) for cid in ids] == maxes


# -- R16: action costs --------------------------------------------------------

def test_r16_minor_costs_one_ap():
    s = when(duel(), spend("ash", 1, "minor"))
    assert (ap(s, "ash"), who(s, "ash")["spent_this_turn"]) == (2, 1)


def test_r16_major_costs_two_ap():
    s = when(duel(), spend("ash", 2, "major"))
    assert (ap(s, "ash"), who(s, "ash")["spent_this_turn"]) == (1, 2)


def test_r16_custom_cost_spends_stated_ap():
    s = when(duel(ash_ap=6), spend("ash", 3, "custom"))
    assert (ap(s, "ash"), who(s, "ash")["spent_this_turn"]) == (3, 3)


def test_r16_free_action_costs_nothing():
    s = when(duel(), FreeActionTaken(combatant="ash", label="shouts a warning"))
    assert (ap(s, "ash"), who(s, "ash")["spent_this_turn"]) == (3, 0)


def test_r16_normal_movement_costs_zero_ap():
    s = when(duel(), APSpent(combatant="ash", cost=0, category="custom", label="moves"))
    assert (ap(s, "ash"), who(s, "ash")["spent_this_turn"]) == (3, 0)
    assert status(s)["acting"] == "ash"


def test_r16_negative_cost_refused():
    s = duel()
    refused(s, APSpent(combatant="ash", cost=-1, category="custom"), "R16")
    refused(s, InterruptTaken(combatant="brute", cost=-2, category="custom"), "R16")


def test_r16_minor_action_costing_two_refused():
    refused(duel(), APSpent(combatant="ash", cost=2, category="minor"), "R16")


def test_r16_major_action_costing_one_refused():
    refused(duel(), APSpent(combatant="ash", cost=1, category="major"), "R16")


@settings(max_examples=30, deadline=None)
@hgiven(cost=st.integers(0, 4))
def test_r16_any_stated_cost_up_to_the_limits_is_spent_exactly(cost):
    s = when(duel(ash_ap=6), spend("ash", cost, "custom"))
    assert ap(s, "ash") == 6 - cost


def test_r16_full_width_digit_is_not_a_cost(noted):
    noted("roll", "rook", "--die", "4")
    noted("round")
    err = noted("act", "rook", "２", code=1).stderr
    assert err.startswith("error: '２' is not a cost") and "(R16)" in err


# -- R17: at most 4 AP per turn, never more than they have --------------------

def test_r17_fifth_ap_in_one_turn_refused():
    s = when(duel(ash_ap=6), spend("ash", 3))
    message = refused(s, spend("ash", 2), "R17")
    assert "4 AP per turn" in message
    s = when(s, spend("ash", 1))  # the fourth AP is still fine
    assert ap(s, "ash") == 2


def test_r17_single_action_over_four_ap_refused_even_with_six_ap():
    refused(duel(ash_ap=6), spend("ash", 5), "R17")


def test_r17_four_ap_in_one_action_accepted_with_six_ap():
    s = when(duel(ash_ap=6), spend("ash", 4))
    assert ap(s, "ash") == 2


def test_r17_more_than_left_refused():
    s = when(duel(), spend("ash", 2))
    assert refused(s, spend("ash", 2), "R17") == "ash has 1 AP left, cannot spend 2 (R17)"


def test_r17_limit_counts_again_from_zero_in_next_turn():
    s = when(duel(ash_ap=6), spend("ash", 4), TurnEnded(combatant="brute"))
    st_ = status(s)
    assert (st_["pass"], st_["acting"], ap(s, "ash")) == (2, "ash", 2)
    s = when(s, spend("ash", 2))
    assert ap(s, "ash") == 0


def test_r17_spending_in_someone_elses_turn_refused():
    refused(duel(), spend("brute", 1), "R17")


def test_r17_spending_more_than_left_refused():
    s = given(pc("rook"), rolled("rook", 5), RoundStarted(round=1))
    s = when(s, APSpent(combatant="rook", cost=2, category="major"))
    message = refused(s, APSpent(combatant="rook", cost=2, category="major"), "R17")
    assert "rook has 1 AP left, cannot spend 2 (R17)" == message


# -- R18: AP kept in reserve --------------------------------------------------

def test_r18_unspent_ap_kept_for_a_later_pass():
    s = when(duel(), spend("ash", 1), TurnEnded(combatant="ash"),
             spend("brute", 1), TurnEnded(combatant="brute"))
    st_ = status(s)
    assert (st_["pass"], st_["acting"], ap(s, "ash")) == (2, "ash", 2)
    s = when(s, spend("ash", 2))
    assert ap(s, "ash") == 0


def test_r18_unspent_ap_kept_for_an_interrupt():
    s = when(duel(), TurnEnded(combatant="ash"))
    assert status(s)["acting"] == "brute"
    s = when(s, interrupt("ash", 2))
    assert ap(s, "ash") == 1


def test_r18_ending_a_turn_early_keeps_all_remaining_ap():
    s = when(duel(), spend("ash", 1), TurnEnded(combatant="ash"))
    assert ap(s, "ash") == 2 and status(s)["acting"] == "brute"


# -- R17/R21 for every sequence of legal declarations -------------------------

def _turn_moves(s, data):
    """Every legal declaration now, drawn by hypothesis; plus over-limit probes."""
    view = status(s)
    by_id = {c["id"]: c for c in view["combatants"]}
    moves = []
    turn_takers = [view["acting"]] if view["acting"] else view["up"]
    for cid in turn_takers:
        c = by_id[cid]
        room = min(c["ap"], 4 - c["spent_this_turn"])
        moves += [spend(cid, cost) for cost in range(room + 1)]
        moves.append(TurnEnded(combatant=cid))
    for c in view["combatants"]:
        if c["id"] != view["acting"] and c["ap"] > 0:
            moves.append(interrupt(c["id"], data.draw(st.integers(1, c["ap"]))))
    if view["round_complete"]:
        moves.append(RoundStarted(round=view["round"] + 1))
    return moves


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@hgiven(maxes=st.lists(st.integers(0, 6), min_size=1, max_size=4), data=st.data())
def test_r17_no_turn_ever_exceeds_four_ap_and_ap_never_negative(maxes, data):
    ids = [f"c{i}" for i in range(len(maxes))]
    s = given(*[pc(cid, ap=m) for cid, m in zip(ids, maxes)],
              *[rolled(cid, 10 - i) for i, cid in enumerate(ids)], RoundStarted(round=1))
    in_turn = {}  # AP spent by each combatant in its turn in progress
    for _ in range(40):
        moves = _turn_moves(s, data)
        if not moves:
            break
        move = data.draw(st.sampled_from(moves))
        before = status(s)
        s = when(s, move)
        after = status(s)
        if isinstance(move, APSpent):
            key = (before["round"], before["pass"], move.combatant)
            in_turn[key] = in_turn.get(key, 0) + move.cost
            assert in_turn[key] <= 4
        for c in after["combatants"]:
            assert c["ap"] >= 0
            assert 0 <= c["spent_this_turn"] <= 4
        acting = after["acting"]
        if acting:
            c = next(c for c in after["combatants"] if c["id"] == acting)
            assert c["ap"] > 0 and c["spent_this_turn"] < 4  # R21: else it ended
            over = min(c["ap"], 4 - c["spent_this_turn"]) + 1
            refused(s, spend(acting, over), "R17")
