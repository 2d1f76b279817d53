"""Corrections keep the passes and rounds the table lived through (R28a),
and a turn moved by `amend --who` leaves the one it was taken from up in its
slot (R28b)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given as hypo, settings, strategies as st

from eventlog.errors import Refusal
from eventlog.events import APSpent, EncounterCreated, InterruptTaken, RoundStarted
from projections.domain.state import State
from projections.ledger import apply
from projections.reports.views import status
from projections.domain.commands import Amend, Interrupt, Retract

from helpers import end, interrupt, npc, pc, rolled, spend
from test_corrections_kept import (
    E, ROLLS, ROSTER, _session, ap_of, seen, table, undone,
)


def _where(ledger) -> tuple[int, int, bool]:
    s = seen(ledger)
    return s["round"], s["pass"], s["round_complete"]


# -- R28a: no pass begun that did not begin ------------------------------------------

DUEL = [pc("ash", ap=2), npc("brute", ap=2), rolled("ash", 9), rolled("brute", 5),
        RoundStarted(round=1)]


def test_r28a_a_round_that_ended_complete_stays_the_pass_it_was_after_a_retraction():
    ledger, seqs = table(*DUEL, spend("ash", 2), spend("brute", 2))
    assert _where(ledger) == (1, 1, True)
    ledger.execute(E, Retract(seq=seqs[5]))  # ash's 2 AP come back
    assert _where(ledger) == (1, 1, True)
    assert ap_of(ledger, "ash") == 2


def test_r28a_ap_given_back_to_a_complete_round_is_kept_for_interrupts():
    ledger, seqs = table(*DUEL, spend("ash", 2), spend("brute", 2))
    ledger.execute(E, Amend(seq=seqs[5], cost="minor"))
    assert _where(ledger) == (1, 1, True) and ap_of(ledger, "ash") == 1
    ledger.execute(E, Interrupt(id="ash", cost="minor"))  # the reserve, spent (R6, R19)
    assert ap_of(ledger, "ash") == 0 and _where(ledger) == (1, 1, True)


def test_r28a_ap_given_back_is_kept_for_the_passes_still_to_come():
    ledger, seqs = table(pc("ash", ap=3), npc("brute", ap=2), rolled("ash", 9),
                         rolled("brute", 5), RoundStarted(round=1),
                         spend("ash", 2), end("ash"), spend("brute", 2))  # pass 2 begins
    assert _where(ledger) == (1, 2, False)
    ledger.execute(E, Amend(seq=seqs[5], cost="minor"))
    assert _where(ledger) == (1, 2, False) and ap_of(ledger, "ash") == 2
    assert seen(ledger)["up"] == ["ash"]


def test_r28a_the_kept_pass_survives_a_refold_from_the_start():
    ledger, seqs = table(*DUEL, spend("ash", 2), spend("brute", 2))
    ledger.execute(E, Retract(seq=seqs[5]))
    head, _ = ledger.store.head(E)
    assert status(ledger.state(E, at=head)) == seen(ledger)  # folded from the start
    assert _where(ledger) == (1, 1, True)
    ledger.undo(E, "gm")
    assert undone(ledger) == set() and ap_of(ledger, "ash") == 0


# -- R28a: no pass removed that began ------------------------------------------------

def test_r28a_a_pass_that_began_stays_begun_when_a_correction_takes_ap_away():
    ledger, seqs = table(pc("ash", ap=3), npc("brute", ap=2), rolled("ash", 9),
                         rolled("brute", 5), RoundStarted(round=1),
                         spend("ash", 1), end("ash"), spend("brute", 1),
                         interrupt("ash", 1), spend("brute", 1))  # pass 2: ash, 1 AP
    assert _where(ledger) == (1, 2, False)
    ledger.execute(E, Amend(seq=seqs[8], cost="major"))  # ash had none left for pass 2
    assert undone(ledger) == set() and ap_of(ledger, "ash") == 0
    assert _where(ledger) == (1, 2, True)


# -- R28b: the one a turn is taken from is still up -----------------------------------

GOBLINS = [pc("ash"), npc("gob-1", ap=2, group="gobs"), npc("gob-3", group="gobs"),
           rolled("ash", 9), rolled("gobs", 5), RoundStarted(round=1),
           spend("ash", 1), end("ash")]


def test_r28b_the_combatant_a_turn_is_moved_from_is_still_up_in_its_slot():
    ledger, seqs = table(*GOBLINS, spend("gob-1", 2))  # 0 AP: the turn ended by itself
    ledger.execute(E, Amend(seq=seqs[8], who="gob-3"))
    assert undone(ledger) == set()
    assert seen(ledger)["up"] == ["gob-1"]  # no turn in this pass yet
    assert (ap_of(ledger, "gob-1"), ap_of(ledger, "gob-3")) == (2, 1)
    assert _where(ledger) == (1, 1, False)


def test_r28b_a_later_turn_of_the_one_moved_to_is_refused_naming_who_is_up():
    ledger, seqs = table(*GOBLINS, spend("gob-1", 2), spend("gob-3", 1), end("gob-3"))
    with pytest.raises(Refusal, match=r"seq 12: gob-3 .*up now: gob-1"):
        ledger.execute(E, Amend(seq=seqs[8], who="gob-3"))  # gob-3 had its turn in pass 1


# -- for every session -----------------------------------------------------------------

def _to_the_rounds_end(played: list) -> list:
    """Spending what is left, 1 AP at a time, until the round is complete."""
    state = apply(State(E), [EncounterCreated(encounter=E), *ROSTER, *ROLLS,
                             RoundStarted(round=1), *played])
    more: list = []
    while state.running and state.up():
        p = spend(state.up()[0], 1)
        state = apply(state, [p])
        more.append(p)
    return more


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@hypo(st.data())
def test_r28a_a_correction_that_only_gives_ap_back_keeps_the_round_and_pass(data):
    played = _session(data)
    if data.draw(st.booleans()):
        played += _to_the_rounds_end(played)  # where a pass could begin again
    ledger, seqs = table(*ROSTER, *ROLLS, RoundStarted(round=1), *played)
    first = len(ROSTER) + len(ROLLS) + 1
    costly = [(seq, p) for seq, p in zip(seqs[first:], played)
              if isinstance(p, (APSpent, InterruptTaken)) and p.cost > 0]
    if not costly:
        return
    before = _where(ledger)
    seq, p = data.draw(st.sampled_from(costly))
    if p.cost > 1 and data.draw(st.booleans()):
        ledger.execute(E, Amend(seq=seq, cost=str(data.draw(st.integers(0, p.cost - 1)))))
    else:
        ledger.execute(E, Retract(seq=seq))
    assert _where(ledger) == before  # the round, its pass, complete or not


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@hypo(st.integers(0, 3), st.integers(1, 3), st.sampled_from(["", "end", "spend"]),
      st.booleans())
def test_r28b_the_one_a_turn_moves_from_is_up_for_every_turn_moved(ash, cost, then, pass_2):
    played = [spend("ash", ash)] + ([] if ash == 3 else [end("ash")])
    if pass_2:  # the gangers' turn in pass 2 instead
        played += [spend("gob-1", 1), end("gob-1"), end("gob-3"), spend("ash", 0), end("ash")]
        if ash == 3:
            played = played[:4]
    try:  # (a session the rules refuse is not one the table could have lived)
        ledger, seqs = table(*GOBLINS[:6], *played, spend("gob-1", cost),
                             *([end("gob-1")] if then == "end" else
                               [spend("gob-1", 1)] if then == "spend" else []))
    except Refusal:
        assume(False)
    moved = seqs[6 + len(played)]
    head, lived = ledger.store.head(E), ledger.state(E)
    try:
        ledger.execute(E, Amend(seq=moved, who="gob-3"))
    except Refusal:
        assert ledger.store.head(E) == head
        return
    state = ledger.state(E)
    assert "gob-1" not in state.done  # no turn of its own in that pass (R28b)
    if lived.turn == "gob-1":  # the turn goes on: gob-3's now
        assert state.turn == "gob-3"
    else:  # it ended (by itself or declared): gob-1 is still up in the slot
        assert state.turn is None and "gob-1" in state.up()
