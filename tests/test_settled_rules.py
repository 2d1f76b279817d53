"""The settled text of RULES.md that issue 14 brought the engine in line
with: orders through others (R3a), ties of seizers (R3b), who orders NPCs
(R3c), slots entering the order mid-pass (R23b), the seize window (R10), a
0-cost act (R15, R16), adjust-ap's bounds (R14), `status --at` inside a
batch (R31), corrections after the end (R25)."""
from __future__ import annotations

import json

import pytest

from eventlog.errors import Refusal
from eventlog.events import (
    APAdjusted, EncounterEnded, InitiativeOverridden, MaxAPChanged, MomentSeized,
    NoteAdded, OrderDeclared, RoundStarted,
)
from projections.reports.flow import tie_hint
from projections.ledger import apply
from projections.domain.asks import declared_order

from conftest import ap, duel, end, given, npc, order, pc, refused, rolled, spend, up, when


def tie(*slots: str) -> OrderDeclared:
    return OrderDeclared(slots=list(slots), context="tie")


def override(slot: str, total: int) -> InitiativeOverridden:
    return InitiativeOverridden(slot=slot, total=total, reason="the GM says so")


# -- R3a: partial and competing orders ------------------------------------------

def test_r3a_partial_order_through_another_keeps_holding_after_an_override():
    # c joined first; `order a b` and `order b c` put a before c through b
    s = given(npc("c"), npc("a"), npc("b"), rolled("c", 5), rolled("a", 5), rolled("b", 5),
              tie("a", "b"), tie("b", "c"))
    assert order(s) == ["a", "b", "c"] and s.ties() == []
    s = when(s, override("b", 9))  # b leaves the tie: a before c still holds
    assert order(s) == ["b", "a", "c"] and s.ties() == []


def test_r3a_partial_order_places_the_earliest_joined_slot_first():
    s = given(npc("a"), npc("b"), npc("c"), rolled("a", 5), rolled("b", 5), rolled("c", 5),
              tie("c", "b"))
    assert order(s) == ["a", "c", "b"]  # a: no declared order puts it after anyone
    assert s.ties() == [["a", "c", "b"]]  # a's place against c and b is not declared


def test_r3a_later_declaration_wins_where_it_contradicts():
    s = given(npc("a"), npc("b"), npc("c"), rolled("a", 5), rolled("b", 5), rolled("c", 5),
              tie("a", "b"), tie("b", "c"), tie("c", "a"))
    assert order(s) == ["b", "c", "a"]  # c before a and b before c drop a before b


# -- R3b: a tie of seizers -----------------------------------------------------------

def seized_tie():
    return given(pc("kai", grit=1), pc("lin", grit=1), rolled("kai", 5), rolled("lin", 5),
                 RoundStarted(round=1), MomentSeized(combatant="kai"),
                 MomentSeized(combatant="lin"))


def test_r3b_tie_hint_names_the_seizer_order_while_every_tied_slot_seized():
    s = seized_tie()
    assert s.ties() == [["kai", "lin"]]  # the tie stands while they seized (R3b)
    hint = tie_hint(s, ["kai", "lin"])
    assert "`combat order kai lin` orders them as seizers (R12)" in hint
    assert "order the tie once this round is over (R3b)" in hint
    p = declared_order(s, ["lin", "kai"], "players")
    assert p.context == "seize"  # what the hint says the command does
    s = when(s, p)
    assert order(s) == ["lin", "kai"]


def test_r3b_tie_hint_outside_a_seize_names_the_tie_order():
    s = given(pc("kai"), pc("lin"), rolled("kai", 5), rolled("lin", 5))
    assert tie_hint(s, ["kai", "lin"]) == "declare with `combat order kai lin`"
    assert declared_order(s, ["kai", "lin"], "gm").context == "tie"


def test_r3b_cli_status_of_two_tied_seizers(combat):
    combat("new", "t")
    combat("add", "Kai", "--pc", "--grit", "1")
    combat("add", "Lin", "--pc", "--grit", "1")
    combat("roll", "kai", "--die", "5")
    combat("roll", "lin", "--die", "5")
    combat("round")
    combat("seize", "kai")
    out = combat("seize", "lin").stdout
    assert "orders them as seizers (R12)" in out


# -- R3c: who orders what ----------------------------------------------------------

def test_r3c_a_player_orders_pc_slots_only(combat):
    combat("new", "t")
    for name in ("Vex", "Rook"):
        combat("add", name, "--pc")
    for name in ("Boss", "Guard"):
        combat("add", name)
    for slot in ("vex", "rook", "boss", "guard"):
        combat("roll", slot, "--die", "5")
    result = combat("--actor", "players", "order", "guard", "boss", code=1)
    assert result.stderr == ("error: guard, boss are NPC slots: only the GM orders NPCs; "
                             "players may order PC slots only (R3c)\n")
    combat("--actor", "players", "order", "rook", "vex")
    combat("order", "guard", "boss")  # the GM orders anything
    combat("order", "vex", "rook")
    assert json.loads(combat("status", "--json").stdout)["order"] == [
        "vex", "rook", "guard", "boss"]


def test_r3c_a_player_cannot_order_npc_seizers():
    s = given(npc("a", grit=1), npc("b", grit=1), rolled("a", 5), rolled("b", 4),
              RoundStarted(round=1), MomentSeized(combatant="a"), MomentSeized(combatant="b"))
    with pytest.raises(Refusal, match=r"\(R3c\)"):
        declared_order(s, ["b", "a"], "lin")
    assert declared_order(s, ["b", "a"], "gm").context == "seize"


# -- R23b: reorders during a pass ---------------------------------------------------

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


# -- R10, R15, R16: the seize window and a 0-cost act ------------------------------

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


def test_r15_zero_cost_act_starts_the_turn_closes_the_window_not_a_pass():
    s = given(pc("ash", grit=1), npc("brute"), rolled("ash", 9), rolled("brute", 5),
              RoundStarted(round=1), spend("ash", 0, "custom"))
    assert not s.window and s.turn_started and ap(s, "ash") == 3
    refused(s, MomentSeized(combatant="ash"), "R10")
    s = when(s, end("ash"), end("brute"))
    assert s.round_complete  # 0 AP spent in turns: no second pass (R23a)


# -- R14: adjust-ap between 0 and the maximum in force -----------------------------

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


# -- R31: status --at inside a batch -----------------------------------------------

def test_r31_status_at_inside_a_batch_shows_the_whole_batch(combat):
    combat("new", "b")
    combat("add", "Ganger", "--count", "3")  # one batch: seq 2-4
    for at in ("2", "3", "4"):
        s = json.loads(combat("status", "--json", "--at", at).stdout)
        assert s["seq"] == 4 and len(s["combatants"]) == 3
    assert "seq 4" in combat("status", "--at", "3").stdout


# -- R25: after the end ------------------------------------------------------------

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
