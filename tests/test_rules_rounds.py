"""Passes and rounds: when another pass begins or the round is complete (R23),
starting a round early (R24), ending the encounter (R25)."""
import json

import pytest
from hypothesis import HealthCheck, given as hgiven, settings, strategies as st

from eventlog.events import (
    APAdjusted, APSpent, CombatantJoined, CombatantLeft, CombatantRejoined,
    EncounterEnded, FreeActionTaken, GritAdjusted, GroupBonusSet,
    InitiativeOverridden, MaxAPChanged, MomentSeized, NoteAdded, OrderDeclared,
    RoundStarted, TurnEnded,
)
from projections.reports.views import status

from helpers import (  # noqa: F401
    ap, duel, end, given, interrupt, npc, order, pc, refused, rolled, spend, up, when, who,
)


def now(state) -> tuple:
    """(pass, acting, up, round_complete) as `status --json` shows them."""
    view = status(state)
    return view["pass"], view["acting"], view["up"], view["round_complete"]


# -- R23: passes --------------------------------------------------------------

def test_r23_pass_one_visits_every_slot_in_order():
    s = given(pc("ash"), npc("brute"), npc("cog"),
              rolled("cog", 10), rolled("ash", 6), rolled("brute", 3), RoundStarted(round=1))
    seen = []
    for _ in range(3):
        seen.append(status(s)["acting"])
        s = when(s, end(seen[-1]))
    assert seen == ["cog", "ash", "brute"]


def test_r23_further_pass_when_ap_spent_in_turns_and_ap_left():
    s = when(duel(), spend("ash", 1), end("ash"))
    assert now(s) == (1, "brute", ["brute"], False)
    s = when(s, end("brute"))
    assert now(s) == (2, "ash", ["ash"], False)


def test_r23_third_pass_when_ap_spent_in_second():
    s = when(duel(), spend("ash", 1), end("ash"), end("brute"), spend("ash", 1), end("ash"))
    assert now(s) == (2, "brute", ["brute"], False)
    s = when(s, end("brute"))
    assert now(s) == (3, "ash", ["ash"], False)


def test_r23_round_complete_when_nobody_spent_in_pass():
    s = when(duel(), spend("ash", 1), end("ash"), end("brute"), end("ash"), end("brute"))
    assert now(s) == (2, None, [], True)
    assert (ap(s, "ash"), ap(s, "brute")) == (2, 3)


def test_r23_round_complete_when_nobody_spent_in_first_pass():
    s = when(duel(), end("ash"), end("brute"))
    assert now(s) == (1, None, [], True)


def test_r23_round_complete_when_ap_spent_but_nobody_has_ap_left():
    s = when(duel(), spend("ash", 2), spend("ash", 1), spend("brute", 2), spend("brute", 1))
    assert now(s) == (1, None, [], True)


def test_r23_interrupts_do_not_count_as_ap_spent_in_turns():
    s = when(duel(), interrupt("brute", 2), end("ash"), interrupt("ash", 1), end("brute"))
    assert (ap(s, "ash"), ap(s, "brute")) == (2, 1)
    assert now(s) == (1, None, [], True)


def test_r23_zero_cost_actions_do_not_count_as_ap_spent():
    s = when(duel(), spend("ash", 0), end("ash"),
             FreeActionTaken(combatant="brute", label="taunts"), spend("brute", 0), end("brute"))
    assert now(s) == (1, None, [], True)


def test_r23_ap_held_only_by_combatant_without_initiative_does_not_start_pass():
    s = when(duel(), CombatantJoined(id="rat", name="Rat", side="npc"),
             spend("ash", 2), spend("ash", 1), spend("brute", 2), spend("brute", 1))
    assert ap(s, "rat") == 3
    assert now(s) == (1, None, [], True)


def test_r23_ap_held_only_by_left_combatant_does_not_start_pass():
    s = when(duel(), CombatantLeft(combatant="brute", reason="fled"), spend("ash", 2),
             spend("ash", 1))
    assert ap(s, "brute") == 3
    assert now(s) == (1, None, [], True)


def test_r23_combatant_with_ap_left_starts_pass_even_if_spender_is_out():
    s = when(duel(), spend("ash", 2), spend("ash", 1), end("brute"))
    assert now(s) == (2, "brute", ["brute"], False)


def test_r23_complete_round_has_nobody_up_and_turn_actions_refused():
    s = when(duel(), end("ash"), end("brute"))
    view = status(s)
    assert (view["acting"], view["up"], view["round_complete"]) == (None, [], True)
    assert view["round"] == 1 and view["phase"] == "combat"
    refused(s, spend("ash", 1), "R23")
    refused(s, end("brute"), "R23")


def test_r23_slot_joining_above_current_position_first_visited_next_pass():
    s = when(duel(), spend("ash", 1), end("ash"))
    assert now(s)[1] == "brute"
    s = when(s, CombatantJoined(id="rat", name="Rat", side="npc"), rolled("rat", 10))
    assert status(s)["order"] == ["rat", "ash", "brute"]
    assert now(s) == (1, "brute", ["brute"], False)
    s = when(s, end("brute"))
    assert now(s) == (2, "rat", ["rat"], False) and ap(s, "rat") == 3


def test_r23_slot_joining_below_current_position_visited_this_pass():
    s = when(duel(), CombatantJoined(id="rat", name="Rat", side="npc"), rolled("rat", 7))
    assert status(s)["order"] == ["ash", "rat", "brute"]
    s = when(s, end("ash"))
    assert now(s) == (1, "rat", ["rat"], False)


def override(slot: str, total: int) -> InitiativeOverridden:
    return InitiativeOverridden(slot=slot, total=total, reason="the GM says so")


def test_r23b_override_bringing_an_unrolled_slot_in_above_the_cursor_waits():
    s = given(pc("a"), npc("b"), npc("d"), rolled("a", 9), rolled("b", 5), rolled("d", 3),
              RoundStarted(round=1), spend("a", 1), end("a"), npc("late"))
    assert up(s) == ["b"]
    s = when(s, override("late", 20))  # it enters the order above the cursor
    assert order(s)[0] == "late" and up(s) == ["b"]
    s = when(s, end("b"), end("d"))
    assert (s.pass_, up(s)) == (2, ["late"])  # first visited in the next pass


def test_r23b_override_moving_an_unvisited_slot_above_an_untouched_turn_goes_first():
    s = given(pc("a"), npc("b"), npc("d"), rolled("a", 9), rolled("b", 5), rolled("d", 3),
              RoundStarted(round=1), spend("a", 1), end("a"))
    s = when(s, override("d", 20))  # d was in the order when the pass began
    assert up(s) == ["d"]  # up first; b, reached, waits its turn
    s = when(s, end("d"))
    assert up(s) == ["b"]
    s = when(s, end("b"))
    assert s.pass_ == 2 and up(s) == ["d"]  # d had its turn: not another in pass 1


@settings(max_examples=80, deadline=None)
@hgiven(plan=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 4)), min_size=1, max_size=4))
def test_r23_second_pass_iff_ap_spent_in_turns_and_someone_has_ap(plan):
    """Each combatant (max AP, AP to spend in its pass-1 turn) spends, then ends."""
    ids = [f"c{i}" for i in range(len(plan))]
    s = given(*[npc(cid, ap=m) for cid, (m, _) in zip(ids, plan)],
              *[rolled(cid, 10 - i) for i, cid in enumerate(ids)], RoundStarted(round=1))
    spent = left = 0
    for cid, (max_ap, want) in zip(ids, plan):
        cost = min(max_ap, want)
        spent += cost
        left += max_ap - cost
        if max_ap == 0:
            continue  # skipped (R21)
        assert status(s)["acting"] == cid
        s = when(s, spend(cid, cost))
        if status(s)["acting"] == cid and status(s)["pass"] == 1:
            s = when(s, end(cid))
    if spent and left:
        assert status(s)["pass"] == 2 and status(s)["round_complete"] is False
        assert status(s)["acting"] == next(
            cid for cid, (m, w) in zip(ids, plan) if m - min(m, w) > 0)
    else:
        assert now(s) == (1, None, [], True)


def _moves(s, data):
    """Every legal declaration in the state, for hypothesis to choose from."""
    view = status(s)
    by_id = {c["id"]: c for c in view["combatants"]}
    active = [c for c in view["combatants"] if c["active"]]
    moves = []
    for cid in [view["acting"]] if view["acting"] else view["up"]:
        c = by_id[cid]
        room = min(c["ap"], 4 - c["spent_this_turn"])
        moves += [spend(cid, cost) for cost in range(room + 1)] + [end(cid)]
    for c in active:
        if c["ap"] > 0 and c["id"] != view["acting"]:
            moves.append(interrupt(c["id"], data.draw(st.integers(1, c["ap"]))))
        if c["ap"] > 0:
            moves.append(APAdjusted(combatant=c["id"], delta=-data.draw(st.integers(1, c["ap"])),
                                    reason="hit"))
        moves.append(FreeActionTaken(combatant=c["id"], label="shout"))
        moves.append(CombatantLeft(combatant=c["id"], reason="down"))
    moves += [CombatantRejoined(combatant=c["id"])
              for c in view["combatants"] if not c["active"]]
    if active and (view["round_complete"] or data.draw(st.integers(0, 9)) == 0):
        moves.append(RoundStarted(round=view["round"] + 1))  # R24: may come early
    return moves


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@hgiven(maxes=st.lists(st.integers(0, 6), min_size=1, max_size=5),
        grouped=st.integers(0, 3), data=st.data())
def test_r23_every_pass_ends_exactly_as_r23_says(maxes, grouped, data):
    """Random legal play: each pass visits every eligible combatant once, and a
    further pass begins exactly when (a) AP was spent in turns and (b) someone
    with initiative still has AP; otherwise the round is complete."""
    ids = [f"c{i}" for i in range(len(maxes))]
    grouped = min(grouped, len(ids) - 1) if len(ids) > 2 else 0
    members = set(ids[len(ids) - grouped:]) if grouped >= 2 else set()
    joins = [npc(cid, ap=m, group="crew" if cid in members else None)
             for cid, m in zip(ids, maxes)]
    slots = [cid for cid in ids if cid not in members] + (["crew"] if members else [])
    s = given(*joins, *[rolled(slot, 10 - i) for i, slot in enumerate(slots)],
              RoundStarted(round=1))
    had_turn: set[tuple] = set()      # (round, pass, combatant)
    rejoined: set[tuple] = set()      # (round, pass, combatant)
    spent_in_turns: dict[tuple, int] = {}  # (round, pass) -> AP
    first = status(s)
    turn_key = (1, 1, first["acting"]) if first["acting"] else None
    if turn_key:
        had_turn.add(turn_key)
    for _ in range(40):
        before = status(s)
        move = data.draw(st.sampled_from(_moves(s, data)))
        s = when(s, move)
        after = status(s)
        here = (before["round"], before["pass"])
        if isinstance(move, (APSpent, TurnEnded)) and before["acting"] is None:
            turn_key = (*here, move.combatant)  # a group member starts its turn
            assert turn_key not in had_turn, "two turns in one pass (R8, R23)"
            had_turn.add(turn_key)
        if isinstance(move, CombatantRejoined):
            rejoined.add((*here, move.combatant))
        if isinstance(move, APSpent):
            spent_in_turns[here] = spent_in_turns.get(here, 0) + move.cost
        if after["acting"] is not None:
            key = (after["round"], after["pass"], after["acting"])
            if key != turn_key:
                assert key not in had_turn, "two turns in one pass (R8, R23)"
                had_turn.add(key)
                turn_key = key
        for c in after["combatants"]:
            assert c["ap"] >= 0
            if c["id"] == after["acting"]:  # R21: at 0 AP or 4 spent, the turn ends
                assert c["ap"] > 0 and c["spent_this_turn"] < 4
        if isinstance(move, RoundStarted):
            assert (after["round"], after["pass"]) == (move.round, 1)
            assert all(c["ap"] == c["max_ap"] for c in after["combatants"] if c["active"])  # R15
            continue
        holders = [c["id"] for c in after["combatants"] if c["active"] and c["ap"] > 0]
        pass_ended = after["pass"] != before["pass"] or (
            after["round_complete"] and not before["round_complete"])
        if pass_ended:
            # every combatant that still has AP had its turn in the pass, but
            # one who rejoined in it may have been placed behind the cursor
            assert {(*here, cid) for cid in holders} - rejoined <= had_turn
        if after["pass"] != before["pass"]:
            assert after["pass"] == before["pass"] + 1
            assert spent_in_turns.get(here, 0) > 0 and holders  # (a) and (b)
        if after["round_complete"] and not before["round_complete"]:
            assert after["pass"] == before["pass"]
            assert spent_in_turns.get(here, 0) == 0 or not holders
        if after["round_complete"]:
            assert after["up"] == [] and after["acting"] is None
        else:
            assert after["up"], "a running round always has someone up"


# -- R24: starting a round early ----------------------------------------------

def test_r24_round_started_early_mid_turn():
    s = when(duel(), spend("ash", 1), RoundStarted(round=2))
    view = status(s)
    assert (view["round"], view["pass"], view["acting"], view["up"]) == (2, 1, "ash", ["ash"])
    assert view["round_complete"] is False and view["seize_window"] is True
    assert who(s, "ash")["spent_this_turn"] == 0


def test_r24_round_started_early_unspent_ap_lost():
    s = when(duel(ash_ap=5), spend("ash", 1), RoundStarted(round=2))
    assert (ap(s, "ash"), ap(s, "brute")) == (5, 3)


def test_r24_round_started_early_in_a_later_pass_resets_pass_to_one():
    s = when(duel(), spend("ash", 1), end("ash"), spend("brute", 1), end("brute"),
             spend("ash", 1), end("ash"))
    assert now(s)[:2] == (2, "brute")
    s = when(s, RoundStarted(round=2))
    assert now(s) == (1, "ash", ["ash"], False)
    assert (ap(s, "ash"), ap(s, "brute")) == (3, 3)


def test_r24_combatant_who_already_acted_acts_again_in_new_round():
    s = when(duel(), spend("ash", 1), end("ash"))
    assert now(s)[1] == "brute"
    s = when(s, RoundStarted(round=2))
    assert now(s)[1] == "ash"
    s = when(s, spend("ash", 2))
    assert ap(s, "ash") == 1


def test_r24_next_round_after_complete_round():
    s = when(duel(), end("ash"), end("brute"), RoundStarted(round=2))
    assert (status(s)["round"],) + now(s) == (2, 1, "ash", ["ash"], False)


def test_r24_round_number_must_be_the_next_one():
    s = duel()
    refused(s, RoundStarted(round=3), "R24")
    refused(s, RoundStarted(round=1), "R24")


# -- R25: ending the encounter ------------------------------------------------

def _ended():
    return when(duel(), spend("ash", 1), EncounterEnded())


def test_r25_ended_encounter_shows_nobody_up():
    view = status(_ended())
    assert view["phase"] == "ended"
    assert (view["acting"], view["up"], view["round_complete"], view["seize_window"]) == \
        (None, [], False, False)


def test_r25_note_after_end_accepted():
    s = when(_ended(), NoteAdded(text="the gangers scatter"))
    assert status(s)["phase"] == "ended"


@pytest.mark.parametrize("payload", [
    spend("ash", 1),
    interrupt("brute", 1),
    FreeActionTaken(combatant="brute", label="waves"),
    end("ash"),
    RoundStarted(round=2),
    MomentSeized(combatant="ash"),
    APAdjusted(combatant="ash", delta=-1, reason="bleeding"),
    MaxAPChanged(combatant="ash", max_ap=4, reason="booster"),
    GritAdjusted(combatant="ash", delta=1, reason="hero"),
    InitiativeOverridden(slot="brute", total=12, reason="haste"),
    OrderDeclared(slots=["ash", "brute"]),
    CombatantJoined(id="rat", name="Rat"),
    GroupBonusSet(group="pack", bonus=1),
    CombatantLeft(combatant="brute", reason="fled"),
    EncounterEnded(),
], ids=lambda p: type(p).__name__)


def test_r25_anything_but_notes_after_end_refused(payload):
    refused(_ended(), payload, "R25")


def test_r25_rejoin_after_end_refused():
    s = when(duel(), CombatantLeft(combatant="brute", reason="fled"), EncounterEnded())
    refused(s, CombatantRejoined(combatant="brute"), "R25")


def test_r25_encounter_can_end_in_setup():
    s = given(pc("ash"), EncounterEnded())
    assert status(s)["phase"] == "ended"
    refused(s, rolled("ash", 4), "R25")


def test_r25_undo_after_end_reopens_the_encounter(ledger):
    ledger.new("raid", "", "gm")
    for payloads in ([pc("ash")], [rolled("ash", 6)], [RoundStarted(round=1)],
                     [EncounterEnded()], [NoteAdded(text="over")]):
        ledger.declare("raid", lambda s, p=payloads: p, "gm")
    assert status(ledger.state("raid"))["phase"] == "ended"
    ledger.undo("raid", "gm")  # the note
    ledger.undo("raid", "gm")  # the end
    s = ledger.state("raid")
    assert status(s)["phase"] == "combat" and status(s)["acting"] == "ash"
    ledger.redo("raid", "gm")
    assert status(ledger.state("raid"))["phase"] == "ended"


def test_r25_after_end_only_notes_and_corrections(combat):
    combat("new", "e")
    combat("add", "Ash", "--pc")
    combat("roll", "ash", "--die", "5")
    combat("round")
    combat("act", "ash", "1", "swings")   # seq 5
    combat("act", "ash", "1", "parries")  # seq 6
    combat("end")
    result = combat("act", "ash", "1", code=1)
    assert "only notes, undo, redo, retraction and amendment can be declared (R25)" in result.stderr
    combat("note", "the dust settles")
    combat("amend", "5", "--label", "lunges")
    combat("retract", "6")
    s = json.loads(combat("status", "--json").stdout)
    assert s["phase"] == "ended" and s["combatants"][0]["ap"] == 2


def test_r25_judge_refuses_a_declaration_after_the_end():
    s = when(duel(), EncounterEnded())
    when(s, NoteAdded(text="after"))
    refused(s, spend("ash", 1), "R25")
