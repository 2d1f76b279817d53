"""Who is on deck (projections/domain/deck.py): the combatants the rules put
up once the slot in progress is over (R8, R23), what a player's phone
warns with "you're on deck"."""
from __future__ import annotations

from hypothesis import HealthCheck, given as hypothesis_given, settings, strategies as st

from eventlog.errors import Refusal
from eventlog.events import (
    APAdjusted, CombatantLeft, CombatantRejoined, InitiativeOverridden, MomentSeized,
    RoundStarted,
)
from projections.domain.deck import on_deck

from helpers import acting, duel, end, given, interrupt, npc, pc, rolled, spend, up, when


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


# -- over random fights ---------------------------------------------------

PEOPLE = ["ash", "bo", "g1", "g2", "g3", "brute"]
SLOTS = ["ash", "bo", "gangers", "brute"]


def crowd():
    """Two PCs, a group of three gangers and a brute, with unequal AP; round 1."""
    return given(pc("ash", ap=3, grit=2), pc("bo", ap=1, grit=1),
                 npc("g1", group="gangers", ap=2), npc("g2", group="gangers", ap=1),
                 npc("g3", group="gangers", ap=3), npc("brute", ap=4, grit=1),
                 rolled("ash", 9), rolled("gangers", 6), rolled("bo", 3), rolled("brute", 5),
                 RoundStarted(round=1))


def declaration(data, s):
    """One declaration a table could make now (the judge may still refuse it)."""
    who = data.draw(st.sampled_from(PEOPLE), label="who")
    kind = data.draw(st.sampled_from(["spend", "spend", "spend", "end", "end", "interrupt",
                                      "adjust", "leave", "rejoin", "seize", "override",
                                      "round"]), label="kind")
    if kind == "spend":
        who = acting(s) or (up(s) or [who])[0]
        return spend(who, data.draw(st.integers(1, 3), label="cost"))
    if kind == "end":
        return end(acting(s) or (up(s) or [who])[0])
    if kind == "interrupt":
        return interrupt(who, 1)
    if kind == "adjust":
        return APAdjusted(combatant=who, delta=data.draw(st.integers(-2, 2), label="delta"),
                          reason="the GM says so")
    if kind == "leave":
        return CombatantLeft(combatant=who)
    if kind == "rejoin":
        return CombatantRejoined(combatant=who)
    if kind == "seize":
        return MomentSeized(combatant=who)
    if kind == "override":
        return InitiativeOverridden(slot=data.draw(st.sampled_from(SLOTS), label="slot"),
                                    total=data.draw(st.integers(0, 12), label="total"),
                                    reason="the GM says so")
    return RoundStarted(round=s.round + 1)


def slot_over(s):
    """The state once the slot in progress is over: the turn in progress
    ended, or (in a group slot nobody has started) every member still up
    passed, one by one, in join order."""
    if acting(s) is not None:
        return when(s, end(acting(s)))
    for member in up(s):
        s = when(s, end(member))
    return s


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@hypothesis_given(st.data())
def test_r8_r21_r23_on_deck_is_who_is_up_once_the_slot_in_progress_is_over(data):
    # Random fights (AP given and taken, combatants leaving and coming back,
    # seizes, initiative changed mid-pass, new rounds): at every step with
    # someone up, on deck is exactly who the rules put up next.
    s = crowd()
    checked = 0
    for _ in range(data.draw(st.integers(5, 40), label="steps")):
        if up(s):
            after = slot_over(s)
            assert on_deck(s) == up(after), (up(s), s.pass_, s.round)
            checked += 1
        try:
            s = when(s, declaration(data, s))
        except Refusal:
            pass
    assert checked or not up(crowd())
