"""The core's refusals in German: the judge's (R10-R25), a correction's
casualties (R28c), a store's and its chain's, a join request's and the
party's, each one whole German sentence with the ids, rule ids and
commands to type left as they are; and the same refusals in English,
unchanged."""
from __future__ import annotations

import pytest

from eventlog.language import speaking


def refused(combat, *args) -> str:
    """What `combat ARGS` says on stderr in German, refused (exit 1)."""
    with speaking("de"):
        return combat(*args, code=1).stderr


def refused_en(combat, *args) -> str:
    return combat(*args, code=1).stderr


@pytest.fixture
def duel(combat):
    """alley, round 1 under way: Rook (pc, 3 AP, 1 Grit) is up, Vex (pc) next."""
    combat("new", "alley")
    combat("add", "Rook", "--pc", "--bonus", "3", "--grit", "1")
    combat("add", "Vex", "--pc")
    combat("roll", "rook", "--die", "7")
    combat("roll", "vex", "--die", "2")
    combat("round")
    return combat


def test_r17_more_ap_than_left_is_refused_in_german(duel):
    duel("act", "rook", "major", "shoots")
    assert refused(duel, "act", "rook", "major", "again") == (
        "Fehler: rook hat nur noch 1 AP, kann 2 nicht ausgeben (R17)\n")
    assert refused_en(duel, "act", "rook", "major", "again") == (
        "error: rook has 1 AP left, cannot spend 2 (R17)\n")


def test_r17_out_of_turn_and_r19_own_turn_in_german(duel):
    assert refused(duel, "act", "vex", "minor", "x") == (
        "Fehler: rook ist am Zug, nicht vex: außerhalb des eigenen Zugs sag eine "
        "Unterbrechung an (R17, R19)\n")
    assert refused(duel, "interrupt", "rook", "1", "dodge") == (
        "Fehler: rook ist selbst am Zug: handle, statt zu unterbrechen (R19)\n")


def test_r10_too_late_and_r13_seized_twice_in_german(duel):
    duel("seize", "rook")
    assert refused(duel, "seize", "rook") == (
        "Fehler: rook hat in dieser Runde schon den Moment ergriffen (R13)\n")
    duel("act", "rook", "minor", "aims")
    assert refused(duel, "seize", "vex") == (
        "Fehler: zu spät, um in Runde 1 den Moment zu ergreifen: der erste Kämpfer hat "
        "gehandelt (R10)\n")


def test_r25_an_ended_encounter_refuses_in_german(duel):
    duel("end")
    assert refused(duel, "act", "rook", "minor", "x") == (
        "Fehler: die Begegnung ist beendet: nur Notizen, Rückgängig, Wiederholen, "
        "Zurücknahme und Berichtigung können angesagt werden (R25)\n")


def test_an_unknown_id_is_refused_in_german_with_the_ids_it_may_mean(duel):
    assert refused(duel, "act", "rok", "minor", "x") == (
        "Fehler: kein Kämpfer 'rok' in dieser Begegnung: vielleicht rook?\n")
    assert refused_en(duel, "act", "rok", "minor", "x") == (
        "error: no combatant 'rok' in this encounter: did you mean rook?\n")
    assert refused(duel, "roll", "zed") == (
        "Fehler: kein Kämpfer oder Trupp 'zed' in dieser Begegnung\n")
