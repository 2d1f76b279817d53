"""Ties R3-R3c: tied slots in join order, PCs before NPCs, orders declared
by the table (partial, competing, through others), ties of seizers, and who
may order which slots."""
from __future__ import annotations

import json

import pytest

from eventlog.errors import Refusal
from eventlog.events import (
    InitiativeOverridden, MomentSeized, OrderDeclared, RoundStarted,
)
from projections.domain.asks import declared_order
from projections.reports.flow import tie_hint
from projections.reports.views import status

from helpers import (
    acting, end, given, npc, order, pc, refused, rolled, spend, ties, turn, when,
)


# -- helpers -------------------------------------------------------------

def three_npcs_tied():
    return given(npc("a"), npc("b"), npc("c"),
                 rolled("a", 5), rolled("b", 5), rolled("c", 5))


def tie(*slots: str) -> OrderDeclared:
    return OrderDeclared(slots=list(slots), context="tie")


def override(slot: str, total: int) -> InitiativeOverridden:
    return InitiativeOverridden(slot=slot, total=total, reason="the GM says so")


# -- R3: ties --------------------------------------------------------------------

def test_r3_tied_pcs_act_before_tied_npcs():
    s = given(npc("x"), npc("y"), pc("rook"), pc("vex"),
              rolled("x", 6), rolled("y", 6), rolled("rook", 6), rolled("vex", 6))
    assert order(s) == ["rook", "vex", "x", "y"]
    s = when(s, RoundStarted(round=1))
    assert acting(s) == "rook"


def test_r3_pc_tied_with_npc_is_not_reported_as_tie():
    s = given(npc("x", bonus=1), pc("rook"), rolled("x", 5, 1), rolled("rook", 6))
    assert order(s) == ["rook", "x"]
    assert ties(s) == []


def test_r3_tied_npcs_keep_join_order_and_tie_reported_unresolved():
    s = given(npc("b"), npc("a"), rolled("a", 5), rolled("b", 5))
    assert order(s) == ["b", "a"]
    assert ties(s) == [["b", "a"]]


def test_r3_ties_reported_per_side_and_total():
    s = given(pc("p1"), pc("p2"), npc("n1"), npc("n2"), npc("n3"),
              rolled("p1", 7), rolled("p2", 7), rolled("n1", 7), rolled("n2", 3),
              rolled("n3", 3))
    assert order(s) == ["p1", "p2", "n1", "n2", "n3"]
    assert ties(s) == [["p1", "p2"], ["n2", "n3"]]


def test_r3_unresolved_tie_does_not_block_play():
    s = given(npc("a"), npc("b"), rolled("a", 5), rolled("b", 5), RoundStarted(round=1))
    assert ties(s) == [["a", "b"]]
    assert acting(s) == "a"
    s = turn(s, "a")
    assert acting(s) == "b"


def test_r3_declared_order_among_tied_npcs_resolves_tie():
    s = given(npc("a"), npc("b"), rolled("a", 5), rolled("b", 5))
    s = when(s, OrderDeclared(slots=["b", "a"], context="tie"))
    assert order(s) == ["b", "a"]
    assert ties(s) == []


def test_r3_declared_order_among_tied_pcs_resolves_tie():
    s = given(pc("rook"), pc("vex"), npc("x"), rolled("rook", 5), rolled("vex", 5),
              rolled("x", 5))
    s = when(s, OrderDeclared(slots=["vex", "rook"], context="tie"))
    assert order(s) == ["vex", "rook", "x"]
    assert ties(s) == []


def test_r3_declaring_same_order_as_join_order_still_resolves_tie():
    s = given(npc("a"), npc("b"), rolled("a", 5), rolled("b", 5))
    s = when(s, OrderDeclared(slots=["a", "b"]))
    assert order(s) == ["a", "b"]
    assert ties(s) == []


def test_r3_full_declaration_of_three_way_tie():
    s = when(three_npcs_tied(), OrderDeclared(slots=["c", "a", "b"]))
    assert order(s) == ["c", "a", "b"]
    assert ties(s) == []


def test_r3_partial_declaration_leaves_tie_unresolved():
    s = when(three_npcs_tied(), OrderDeclared(slots=["b", "a"]))
    assert order(s) == ["b", "a", "c"]
    assert ties(s) == [["b", "a", "c"]]


def test_r3_later_declaration_keeps_earlier_declared_order():
    # b before c, then c before a: the only order honouring both is b, c, a
    s = when(three_npcs_tied(), OrderDeclared(slots=["b", "c"]),
             OrderDeclared(slots=["c", "a"]))
    assert order(s) == ["b", "c", "a"]


def test_r3_chained_declarations_resolve_three_way_tie():
    # b before a, a before c: an order for all three has been declared
    s = when(three_npcs_tied(), OrderDeclared(slots=["b", "a"]),
             OrderDeclared(slots=["a", "c"]))
    assert order(s) == ["b", "a", "c"]
    assert ties(s) == []


def test_r3_tied_group_and_lone_npc_keep_join_order_and_can_be_ordered():
    s = given(npc("g1", group="gang"), npc("g2", group="gang"), npc("boss"),
              rolled("gang", 4), rolled("boss", 4))
    assert order(s) == ["gang", "boss"]
    assert ties(s) == [["gang", "boss"]]
    s = when(s, OrderDeclared(slots=["boss", "gang"]))
    assert order(s) == ["boss", "gang"]
    assert ties(s) == []


def test_r3_declared_order_mid_round_changes_who_acts_next():
    s = given(npc("a"), npc("b"), npc("c"), rolled("a", 5), rolled("b", 5),
              rolled("c", 5), RoundStarted(round=1))
    s = turn(s, "a")
    assert acting(s) == "b"
    s = when(s, OrderDeclared(slots=["c", "b"]))
    assert order(s) == ["a", "c", "b"]
    assert acting(s) == "c"


def test_r3_order_declaration_of_untied_slots_refused():
    s = given(npc("a"), npc("b"), rolled("a", 5), rolled("b", 6))
    refused(s, OrderDeclared(slots=["a", "b"]), "R3")


def test_r3_order_declaration_across_sides_refused():
    s = given(npc("x"), pc("rook"), rolled("x", 5), rolled("rook", 5))
    refused(s, OrderDeclared(slots=["x", "rook"]), "R3")
    assert order(s) == ["rook", "x"]


def test_r3_order_declaration_of_group_member_refused():
    s = given(npc("g1", group="gang"), npc("boss"), rolled("gang", 4), rolled("boss", 4))
    refused(s, OrderDeclared(slots=["boss", "g1"]), "R3")


def test_r3_order_declaration_of_unrolled_slot_refused():
    s = given(npc("a"), npc("b"), rolled("a", 5))
    refused(s, OrderDeclared(slots=["b", "a"]), "R3")


def test_r3_order_declaration_needs_two_different_slots():
    s = given(npc("a"), npc("b"), rolled("a", 5), rolled("b", 5))
    refused(s, OrderDeclared(slots=["a"]), "R3")
    refused(s, OrderDeclared(slots=["a", "a"]), "R3")


# -- R3a: partial and competing orders -------------------------------------------

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


def three(*orders: OrderDeclared):
    return given(npc("a"), npc("b"), npc("c"), rolled("a", 5), rolled("b", 5), rolled("c", 5),
                 *orders)


def test_r3a_the_latest_of_three_declarations_wins():
    s = three(tie("a", "b"), tie("b", "c"), tie("c", "a"))
    assert order(s) == ["b", "c", "a"] and s.ties() == []


def test_r3a_the_latest_of_many_declarations_wins_however_many_there_are():
    s = three(tie("a", "b"), tie("b", "c"), tie("c", "a"), tie("a", "c"), tie("c", "b"))
    # newest first: c<b, a<c; then c<a contradicts a<c, b<c contradicts c<b,
    # a<b agrees with a<c<b
    assert order(s) == ["a", "c", "b"]


def test_r3a_a_tie_is_resolved_through_a_slot_that_has_left_it():
    s = given(npc("a"), npc("b"), npc("c"), rolled("a", 5), rolled("b", 5), rolled("c", 5),
              tie("b", "c"), tie("c", "a"),
              InitiativeOverridden(slot="c", total=9, reason="haste"))
    assert order(s) == ["c", "b", "a"] and s.ties() == []  # b before a, through c


# -- R3b: a tie of seizers -------------------------------------------------------

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


def seize_order(*slots: str) -> OrderDeclared:
    return OrderDeclared(slots=list(slots), context="seize")


def test_r3b_an_order_of_seizers_only_is_a_seizer_order_while_others_of_the_tie_did_not_seize():
    from projections.domain.asks import declared_order
    s = given(pc("kai", grit=1), pc("lin", grit=1), pc("mo"), rolled("kai", 5),
              rolled("lin", 5), rolled("mo", 5), RoundStarted(round=1),
              MomentSeized(combatant="kai"), MomentSeized(combatant="lin"))
    p = declared_order(s, ["lin", "kai"], "players")
    assert p.context == "seize"
    assert order(when(s, p))[:2] == ["lin", "kai"]


# -- R3c: who orders what --------------------------------------------------------

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
