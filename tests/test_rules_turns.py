"""Turns: interrupts (R19), free actions (R20), the end of a turn and skipping
at 0 AP (R21), leaving and rejoining the encounter (R22)."""
import pytest

from eventlog.events import (
    APAdjusted, CombatantLeft, CombatantRejoined, FreeActionTaken, GritAdjusted,
    InitiativeOverridden, MaxAPChanged, MomentSeized, OrderDeclared, RoundStarted,
)
from projections.reports.views import status

from helpers import (  # noqa: F401
    ap, duel, end, given, interrupt, npc, pc, refused, rolled, spend, when, who,
)


def now(state) -> tuple:
    """(pass, acting, up) as `status --json` shows them."""
    view = status(state)
    return view["pass"], view["acting"], view["up"]


def trio(ash_ap: int = 3, brute_ap: int = 3, cog_ap: int = 3):
    """Ash (9), Brute (5), Cog (2); round 1 has started: Ash is acting."""
    return given(pc("ash", ap=ash_ap), npc("brute", ap=brute_ap), npc("cog", ap=cog_ap),
                 rolled("ash", 9), rolled("brute", 5), rolled("cog", 2),
                 RoundStarted(round=1))


def crew():
    """Group `crew` (g1, g2; 8) before Hero (4); round 1: the crew's slot is open."""
    return given(npc("g1", group="crew"), npc("g2", group="crew"), pc("hero"),
                 rolled("crew", 8), rolled("hero", 4), RoundStarted(round=1))


# -- R19: interrupts ---------------------------------------------------------

def test_r19_interrupt_during_other_turn_uses_pool_not_turn():
    s = when(duel(), spend("ash", 1), interrupt("brute", 2))
    assert ap(s, "brute") == 1
    assert who(s, "brute")["spent_this_turn"] == 0
    assert now(s)[1] == "ash" and who(s, "ash")["spent_this_turn"] == 1


def test_r19_interrupt_does_not_count_toward_four_ap_limit():
    s = when(duel(brute_ap=6), interrupt("brute", 1), end("ash"))
    assert now(s)[1] == "brute" and ap(s, "brute") == 5
    s = when(s, spend("brute", 2), spend("brute", 2))  # 4 in the turn: allowed
    assert ap(s, "brute") == 1


def test_r19_interrupt_costing_more_than_pool_refused():
    s = when(duel(), interrupt("brute", 2))
    refused(s, interrupt("brute", 2), "R19")
    assert ap(s, "brute") == 1


def test_r19_interrupt_by_lone_combatant_whose_slot_is_reached_refused():
    refused(duel(), interrupt("ash", 1), "R19")


def test_r19_interrupt_by_combatant_mid_turn_refused():
    s = when(duel(), spend("ash", 1))
    refused(s, interrupt("ash", 1), "R19")


def test_r19_interrupt_by_acting_group_member_refused():
    s = when(crew(), spend("g1", 1))
    refused(s, interrupt("g1", 1), "R19")


def test_r19_interrupt_before_first_round_refused():
    s = given(pc("ash"), npc("brute"), rolled("ash", 9), rolled("brute", 5))
    refused(s, interrupt("brute", 1), "R19")


def test_r19_interrupt_in_open_group_slot_with_no_turn_in_progress_allowed():
    s = crew()
    assert now(s) == (1, None, ["g1", "g2"])
    s = when(s, interrupt("g1", 1))
    assert ap(s, "g1") == 2
    assert now(s) == (1, None, ["g1", "g2"])  # g1 has not had its turn yet


def test_r19_interrupt_by_member_while_other_member_acts_allowed():
    s = when(crew(), spend("g2", 1), interrupt("g1", 2))
    assert (ap(s, "g1"), ap(s, "g2")) == (1, 2)
    assert now(s)[1] == "g2"


def test_r19_interrupt_by_combatant_who_already_had_turn_allowed():
    s = when(duel(), end("ash"), interrupt("ash", 2))
    assert ap(s, "ash") == 1 and now(s)[1] == "brute"


def test_r19_interrupt_after_round_complete_allowed():
    s = when(duel(), end("ash"), end("brute"))
    assert status(s)["round_complete"] is True
    s = when(s, interrupt("brute", 2))
    assert ap(s, "brute") == 1
    assert status(s)["round_complete"] is True and status(s)["up"] == []


# -- R20: free actions -------------------------------------------------------

def test_r20_free_action_in_setup_accepted():
    s = given(pc("ash"), FreeActionTaken(combatant="ash", label="draws a knife"))
    view = status(s)
    assert (view["phase"], view["round"], view["acting"], view["up"]) == ("setup", 0, None, [])
    assert ap(s, "ash") == 3


def test_r20_free_action_out_of_turn_changes_nothing():
    s = when(duel(), spend("ash", 1), FreeActionTaken(combatant="brute", label="shouts"))
    assert now(s) == (1, "ash", ["ash"])
    assert (ap(s, "brute"), who(s, "ash")["spent_this_turn"]) == (3, 1)


def test_r20_free_action_does_not_start_a_turn():
    s = when(duel(), FreeActionTaken(combatant="ash", label="gestures"))
    assert status(s)["seize_window"] is True  # no turn action yet (R10)
    s = when(crew(), FreeActionTaken(combatant="g1", label="points"))
    assert now(s) == (1, None, ["g1", "g2"])
    s = when(s, spend("g2", 1))  # g2 may still start: g1's turn never began
    assert now(s)[1] == "g2"


def test_r20_free_action_does_not_end_a_turn():
    s = when(duel(), spend("ash", 1), FreeActionTaken(combatant="ash", label="drops gun"))
    assert now(s)[1] == "ash" and who(s, "ash")["spent_this_turn"] == 1


def test_r20_free_actions_do_not_count_toward_turn_limit():
    s = when(duel(ash_ap=6), spend("ash", 3),
             *[FreeActionTaken(combatant="ash", label="quip") for _ in range(5)])
    assert who(s, "ash")["spent_this_turn"] == 3
    s = when(s, spend("ash", 1))
    assert ap(s, "ash") == 2


def test_r20_free_actions_not_limited_by_engine():
    s = when(duel(), *[FreeActionTaken(combatant="brute", label=f"taunt {i}") for i in range(30)])
    assert ap(s, "brute") == 3 and now(s)[1] == "ash"


def test_r20_free_action_after_round_complete_accepted():
    s = when(duel(), end("ash"), end("brute"), FreeActionTaken(combatant="ash", label="reloads"))
    view = status(s)
    assert view["round_complete"] is True and view["up"] == [] and ap(s, "ash") == 3


# -- R21: a turn ends, 0 AP is skipped ----------------------------------------

def test_r21_turn_ends_when_declared():
    s = when(duel(), spend("ash", 1), end("ash"))
    assert now(s) == (1, "brute", ["brute"])
    assert ap(s, "ash") == 2 and who(s, "ash")["spent_this_turn"] == 0


def test_r21_turn_ends_automatically_at_zero_ap():
    s = when(duel(), spend("ash", 2), spend("ash", 1))
    assert now(s) == (1, "brute", ["brute"])
    assert ap(s, "ash") == 0


def test_r21_turn_ends_automatically_after_four_ap_spent():
    s = when(duel(ash_ap=6), spend("ash", 2), spend("ash", 2))
    assert now(s) == (1, "brute", ["brute"])
    assert ap(s, "ash") == 2


def test_r21_combatant_with_zero_ap_skipped_in_later_pass():
    s = when(duel(), spend("ash", 2), spend("ash", 1), spend("brute", 1), end("brute"))
    assert now(s) == (2, "brute", ["brute"])  # ash, at 0 AP, is skipped


def test_r21_combatant_with_zero_max_ap_skipped_in_first_pass():
    s = duel(ash_ap=0)
    assert now(s) == (1, "brute", ["brute"])


def test_r21_group_slot_whose_members_have_zero_ap_skipped():
    s = given(npc("g1", group="crew", ap=0), npc("g2", group="crew", ap=0), pc("hero"),
              rolled("crew", 8), rolled("hero", 4), RoundStarted(round=1))
    assert status(s)["order"] == ["crew", "hero"]
    assert now(s) == (1, "hero", ["hero"])


def test_r21_reduced_to_zero_by_interrupt_is_skipped():
    s = when(trio(), interrupt("brute", 2), interrupt("brute", 1), spend("ash", 1), end("ash"))
    assert ap(s, "brute") == 0
    assert now(s) == (1, "cog", ["cog"])  # brute skipped


def test_r21_group_member_reduced_to_zero_by_interrupt_no_longer_up():
    s = when(crew(), interrupt("g1", 2), interrupt("g1", 1))
    assert now(s) == (1, None, ["g2"])


def test_r21_group_slot_finished_when_last_eligible_member_drops_to_zero():
    s = when(crew(), end("g2"), interrupt("g1", 3))
    assert now(s) == (1, "hero", ["hero"])


def test_r21_acting_combatant_adjusted_to_zero_ends_turn():
    s = when(duel(), spend("ash", 1), APAdjusted(combatant="ash", delta=-2, reason="stunned"))
    assert now(s) == (1, "brute", ["brute"])
    assert ap(s, "ash") == 0


def test_r21_acting_combatant_adjusted_to_zero_before_spending_ends_turn():
    s = when(duel(), APAdjusted(combatant="ash", delta=-3, reason="knocked out"))
    assert now(s) == (1, "brute", ["brute"])


def test_r21_combatant_adjusted_to_zero_before_their_slot_is_skipped():
    s = when(trio(), APAdjusted(combatant="brute", delta=-3, reason="webbed"),
             spend("ash", 1), end("ash"))
    assert now(s) == (1, "cog", ["cog"])


def test_r21_acting_group_member_adjusted_to_zero_ends_turn():
    s = when(crew(), spend("g1", 1), APAdjusted(combatant="g1", delta=-2, reason="shock"))
    assert now(s) == (1, None, ["g2"])


def test_r21_ending_someone_elses_turn_refused():
    refused(when(duel(), spend("ash", 1)), end("brute"), "R21")


def test_r21_no_spend_after_own_turn_ended_in_same_pass():
    s = when(duel(), spend("ash", 1), end("ash"))
    refused(s, spend("ash", 1), "R19")  # out of turn: only an interrupt
    assert ap(s, "ash") == 2


# -- R22: leaving and rejoining -----------------------------------------------

def test_r22_leaving_during_own_turn_ends_it():
    s = when(duel(), spend("ash", 1), CombatantLeft(combatant="ash", reason="fled"))
    assert now(s) == (1, "brute", ["brute"])
    assert who(s, "ash")["active"] is False
    assert status(s)["order"] == ["brute"]


def test_r22_left_combatant_is_skipped_and_absent_from_order():
    s = when(trio(), CombatantLeft(combatant="brute", reason="defeated"))
    assert status(s)["order"] == ["ash", "cog"]
    s = when(s, spend("ash", 1), end("ash"))
    assert now(s) == (1, "cog", ["cog"])
    s = when(s, end("cog"))
    assert now(s) == (2, "ash", ["ash"])  # brute, with 3 AP, skipped in pass 2 too


def test_r22_group_member_who_left_is_not_up():
    s = when(crew(), CombatantLeft(combatant="g1", reason="defeated"))
    assert now(s) == (1, None, ["g2"])


def test_r22_acting_group_member_leaving_ends_their_turn():
    s = when(crew(), spend("g1", 1), CombatantLeft(combatant="g1", reason="fled"))
    assert now(s) == (1, None, ["g2"])


def _gone():
    """Round 1, Ash acting; Brute has left."""
    return when(duel(), CombatantLeft(combatant="brute", reason="fled"))


@pytest.mark.parametrize("payload", [
    spend("brute", 1),
    interrupt("brute", 1),
    FreeActionTaken(combatant="brute", label="waves"),
    end("brute"),
    MomentSeized(combatant="brute"),
    APAdjusted(combatant="brute", delta=-1, reason="bleeding"),
    MaxAPChanged(combatant="brute", max_ap=4, reason="booster"),
    GritAdjusted(combatant="brute", delta=1, reason="rage"),
    InitiativeOverridden(slot="brute", total=12, reason="haste"),
    CombatantLeft(combatant="brute", reason="again"),
    OrderDeclared(slots=["brute", "ash"]),
], ids=lambda p: type(p).__name__)


def test_r22_nothing_declared_for_left_combatant_refused(payload):
    refused(_gone(), payload, "R22")


def test_r22_left_combatant_cannot_roll_initiative():
    s = given(pc("ash"), npc("brute"), CombatantLeft(combatant="brute", reason="fled"))
    refused(s, rolled("brute", 4), "R22")


def test_r22_rejoin_at_old_initiative_and_current_ap():
    s = when(duel(), interrupt("brute", 1), CombatantLeft(combatant="brute", reason="fled"),
             CombatantRejoined(combatant="brute"))
    brute = who(s, "brute")
    assert (brute["active"], brute["initiative"], brute["die"], brute["ap"]) == (True, 5, 5, 2)
    assert status(s)["order"] == ["ash", "brute"]


def test_r22_rejoin_in_later_round_keeps_ap_from_when_they_left():
    s = when(duel(), interrupt("brute", 2), CombatantLeft(combatant="brute", reason="fled"),
             RoundStarted(round=2))
    assert ap(s, "brute") == 1  # not restored while gone (R15: active only)
    s = when(s, CombatantRejoined(combatant="brute"))
    assert ap(s, "brute") == 1 and who(s, "brute")["initiative"] == 5
    s = when(s, end("ash"))
    assert now(s) == (1, "brute", ["brute"])


def test_r22_rejoining_an_active_combatant_refused():
    refused(duel(), CombatantRejoined(combatant="brute"), "R22")


def test_r22_rejoined_below_current_position_acts_in_this_pass():
    s = when(duel(), CombatantLeft(combatant="brute", reason="fled"),
             CombatantRejoined(combatant="brute"), end("ash"))
    assert now(s) == (1, "brute", ["brute"])


def test_r22_rejoined_above_current_position_waits_for_next_pass():
    s = when(duel(), spend("ash", 1), CombatantLeft(combatant="ash", reason="fled"))
    assert now(s)[1] == "brute"
    s = when(s, CombatantRejoined(combatant="ash"))
    assert now(s) == (1, "brute", ["brute"])
    s = when(s, spend("brute", 1), end("brute"))
    assert now(s) == (2, "ash", ["ash"]) and ap(s, "ash") == 2


def test_r22_group_member_rejoins_its_group_slot():
    s = when(crew(), CombatantLeft(combatant="g2", reason="down"),
             CombatantRejoined(combatant="g2"))
    assert now(s) == (1, None, ["g1", "g2"])
    assert who(s, "g2")["initiative"] == 8
