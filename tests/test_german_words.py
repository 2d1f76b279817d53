"""The words of the fight in German: the log's wording and the lines after
a declaration, the status table, `replay`, play mode and the demo; ids,
names, labels, rule ids and the commands to type stay as they are, and
English reads as it always did."""
from __future__ import annotations

import pytest

from eventlog.events import EffectApplied, TrackChanged
from eventlog.language import speaking
from projections.domain.narrate import describe, describe_together


def de(combat, *args) -> str:
    """What `combat ARGS` says in German (in this process, `--lang de` is
    the entry point's: tests/test_german_words.py::test_the_demo_plays_in_german
    runs the real command)."""
    with speaking("de"):
        return combat(*args).stdout


@pytest.fixture
def fight(combat):
    """alley in round 1: Rook (pc, +3, 1 Grit) spent 2 AP shooting, a minor
    action undone, Vex (pc) prone for 2 rounds."""
    combat("new", "alley")
    combat("add", "Rook", "--pc", "--bonus", "3", "--grit", "1")
    combat("add", "Vex", "--pc")
    combat("roll", "rook", "--die", "7")
    combat("roll", "vex", "--die", "2")
    combat("round")
    combat("act", "rook", "major", "schießt")
    combat("act", "rook", "minor")
    combat("undo")
    combat("effect", "vex", "Liegend", "--rounds", "2")
    return combat


def test_log_is_worded_in_german(fight):
    said = de(fight, "log")
    assert "Protokoll von alley" in said
    for heading in ("seq", "Zeit", "Akteur", "Wann", "Ansage"):
        assert heading in said.splitlines()[1]
    assert "Begegnung alley angelegt" in said
    assert "Rook (rook, SC) kommt dazu: Bonus +3, 3 AP, 1 Grit" in said
    assert "rook hat am Tisch 7 gewürfelt, +3 = 10 für die Initiative" in said
    assert "Runde 1 beginnt: AP aufgefüllt" in said
    assert "rook gibt 2 AP aus (große Aktion): schießt" in said  # the label as typed
    assert "rook gibt 1 AP aus (kleine Aktion) (rückgängig gemacht bei seq 9)" in said
    assert "Rückgängig: seq 8" in said
    assert "vex ist Liegend für 2 Runden" in said
    assert "│ Aufbau " in said and "│ R1.1 rook " in said


def test_log_in_english_is_unchanged(fight):
    said = fight("log").stdout
    assert "log of alley" in said
    assert "Rook (rook, pc) joins: bonus +3, 3 AP, 1 Grit" in said
    assert "rook rolled 7 at the table, +3 = 10 for initiative" in said
    assert "rook spends 1 AP (minor) (undone at seq 9)" in said
    assert "Undo of seq 8" in said
    assert "vex is Liegend for 2 rounds" in said
    assert "│ setup " in said


def test_the_pages_lines_keep_their_data_words(fight):
    """A line of the log as the table server serves it: its sentence and
    fate in the reader's words, its context (`setup`) and kinds as data."""
    from projections.ledger import Ledger
    from projections.reports.timeline import said, timeline
    from eventlog.stores import open_store
    ledger = Ledger(open_store(str(fight.db)))
    with speaking("de"):
        lines = [said(e) for e in timeline(ledger, "alley")]
    assert lines[0]["context"] == "setup" and lines[0]["text"] == "Begegnung alley angelegt"
    assert lines[7]["fate"] == "rückgängig gemacht bei seq 9"
    assert lines[7]["undone_by"]["kind"] == "undo"


def test_status_is_german(fight):
    said = de(fight, "status")
    assert "alley — Runde 1, Durchgang 1 · seq 10" in said
    header = said.splitlines()[1]
    for word in ("Kämpfer", "Seite", "Init", "AP", "Zug", "Grit"):
        assert word in header
    assert "handelt" in said and "Liegend (bis Runde 3)" in said
    assert "dran: rook" in said
    english = fight("status").stdout
    assert "alley — round 1, pass 1 · seq 10" in english
    assert "acting" in english and "Liegend (to round 3)" in english and "up: rook" in english


def test_status_narrow_and_before_the_first_round_is_german(combat):
    combat("new", "alley")
    assert "noch niemand da: Kämpfer mit `combat add NAME` hinzufügen" in de(combat, "status")
    combat("add", "Rook", "--pc", "--grit", "1")
    said = de(combat, "status")
    assert "im Aufbau: Initiative würfeln, dann `combat round`" in said
    assert "keine Initiative" in said


def test_the_lines_after_a_declaration_are_german(fight):
    said = de(fight, "act", "rook", "minor", "lädt nach")
    assert "✓ rook gibt 1 AP aus (kleine Aktion): lädt nach" in said
    assert "↪ der Zug von rook endete von selbst: keine AP mehr (R21)" in said
    assert "↪ jetzt dran: vex" in said
    said = de(fight, "undo")
    assert "↶ rückgängig (seq 11): rook gibt 1 AP aus (kleine Aktion): lädt nach" in said
    said = de(fight, "redo")
    assert "↷ wiederholt (seq 11): rook gibt 1 AP aus (kleine Aktion): lädt nach" in said
    said = de(fight, "amend", "7", "--label", "zielt")
    assert "✎ seq 7 lautet jetzt: rook gibt 2 AP aus (große Aktion): zielt" in said


def test_a_round_that_throws_ap_away_says_so_in_german(fight):
    said = de(fight, "round")
    assert "Runde 1 lief noch: nicht ausgegebene AP verfallen: rook 1 AP, vex 3 AP (R15, R24)" \
        in said
    assert "✓ Runde 2 beginnt: AP aufgefüllt" in said


def test_replay_is_german(fight):
    said = de(fight, "replay", "--to", "7", "--delay", "0")
    assert "seq 1 of" not in said
    assert "seq 1 von 7 · " in said and " UTC · gm · Aufbau" in said
    assert "▸ Begegnung alley angelegt" in said
    assert "▸ rook gibt 2 AP aus (große Aktion): schießt" in said
    assert "seq 7 von 7" in said and "R1.1 rook" in said
    english = fight("replay", "--to", "8", "--delay", "0").stdout
    assert "seq 8 of 8 · " in english
    assert "(later undone at seq 9)" in english
    assert "(später rückgängig gemacht bei seq 9)" in de(fight, "replay", "--from", "8",
                                                          "--to", "8", "--delay", "0")


def test_replay_refusals_are_german(fight):
    with speaking("de"):
        said = fight("replay", "--to", "99", code=1).stderr
    assert "--to 99: das Protokoll von alley endet bei seq 10" in said


def test_tracks_and_effects_are_worded_in_german():
    hit = TrackChanged(combatant="juno", track="hp", delta=-3, reason="Schuss", by="ganger",
                       max=10, public=False)
    both = [hit, TrackChanged(combatant="kai", track="hp", delta=-3, reason="Schuss",
                              by="ganger", max=10, public=False)]
    stunned = [EffectApplied(combatant=c, effect=e, name="stunned", max_ap=0,
                             rounds=1)
               for c, e in (("goblin-1", "stunned"), ("goblin-2", "stunned-2"))]
    with speaking("de"):
        assert describe(hit) == ("hp von juno -3, Maximum 10, vor den Spielern verborgen "
                                 "(Schuss, durch ganger)")
        assert describe_together(both) == ("hp von juno und kai -3, Maximum 10, vor den "
                                           "Spielern verborgen (Schuss, durch ganger)")
        assert describe_together(stunned) == ("goblin-1 und goblin-2 sind stunned "
                                              "(stunned, stunned-2) für 1 Runde")
    assert describe(hit) == "juno's hp -3, maximum 10, hidden from players (Schuss, by ganger)"
    assert describe_together(both) == ("juno's and kai's hp -3, maximum 10, hidden from "
                                       "players (Schuss, by ganger)")
    assert describe_together(stunned) == ("goblin-1 and goblin-2 are stunned "
                                          "(stunned, stunned-2) for 1 round")
