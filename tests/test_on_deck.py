"""Who is on deck (projections/domain/deck.py): the combatants the rules put
up once the slot in progress is over (R8, R23), what a player's phone
warns with "you're on deck"."""
from __future__ import annotations

from eventlog.events import RoundStarted
from projections.domain.deck import on_deck

from helpers import acting, duel, end, given, npc, pc, rolled, spend, up, when


def gang():
    """Ash (pc, 9), the gangers g1 and g2 (a group, 6), Bo (pc, 3); round 1."""
    return given(pc("ash"), npc("g1", group="gangers"), npc("g2", group="gangers"), pc("bo"),
                 rolled("ash", 9), rolled("gangers", 6), rolled("bo", 3), RoundStarted(round=1))


def test_on_deck_is_nobody_before_the_first_round():
    assert on_deck(given(pc("ash"), npc("brute"), rolled("ash", 9), rolled("brute", 5))) == []


def test_on_deck_is_the_next_slot_of_the_pass():
    s = duel()
    assert acting(s) == "ash" and on_deck(s) == ["brute"]


def test_r23_on_deck_is_the_next_pass_first_when_the_pass_saw_ap_spent():
    s = when(duel(), spend("ash", 1), end("ash"))
    assert acting(s) == "brute" and on_deck(s) == ["ash"]


def test_r23_on_deck_is_nobody_when_the_round_would_be_complete():
    s = when(duel(), end("ash"))  # nothing spent in this pass: it is the last
    assert acting(s) == "brute" and on_deck(s) == []


def test_r8_a_group_slot_nobody_started_is_followed_by_the_next_slot():
    s = when(gang(), spend("ash", 1), end("ash"))
    assert up(s) == ["g1", "g2"] and on_deck(s) == ["bo"]


def test_r8_the_group_members_still_to_go_are_on_deck_in_a_members_turn():
    s = when(gang(), spend("ash", 1), end("ash"), spend("g2", 1))
    assert acting(s) == "g2" and on_deck(s) == ["g1"]


def test_on_deck_is_who_ending_the_turn_in_progress_puts_up():
    # A fight played turn by turn: at every turn in progress the forecast is
    # exactly who is up once that turn ends (nothing more spent).
    s = gang()
    costs = iter([1, 2, 1, 1, 2, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    checked = 0
    while up(s):
        if acting(s) is None:  # a group slot: its first member starts
            s = when(s, spend(up(s)[0], 1))
        who = acting(s)
        assert up(when(s, end(who))) == on_deck(s), (who, s.pass_)
        checked += 1
        cost = min(next(costs, 1), s.combatants[who].ap)
        s = when(s, *([spend(who, cost)] if cost and acting(s) == who else []))
        if acting(s) == who:
            s = when(s, end(who))
    assert checked >= 8 and s.round_complete
