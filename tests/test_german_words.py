"""The words of the fight in German: the log's wording and the lines after
a declaration, the status table, `replay`, play mode and the demo; ids,
names, labels, rule ids and the commands to type stay as they are, and
English reads as it always did."""
from __future__ import annotations

import pytest

from eventlog.events import EffectApplied, TrackChanged
from eventlog.language import speaking
from projections.domain.narrate import describe, describe_together

from test_play import SETUP, lines
from test_play import table as table  # noqa: F401  (play mode's fixture)


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
    fate and where it was said in the reader's words, its context (`setup`)
    as data."""
    from projections.ledger import Ledger
    from projections.reports.timeline import said, timeline
    from eventlog.stores import open_store
    ledger = Ledger(open_store(str(fight.db)))
    with speaking("de"):
        lines = [said(e) for e in timeline(ledger, "alley")]
    assert lines[0]["context"] == "setup" and lines[0]["text"] == "Begegnung alley angelegt"
    assert lines[0]["where"] == "Aufbau" and lines[8]["text"] == "Rückgängig: seq 8"
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
    with speaking("de"):
        said = fight("replay", "--delay", "1e9", code=1).stderr
    assert "--delay 1e+09: die Pause zwischen den Ereignissen ist 0 bis 3600 Sekunden" in said
    assert "--delay 1e+09: the pause between events is 0 to 3600 seconds" in \
        fight("replay", "--delay", "1e9", code=1).stderr


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


# -- play mode ---------------------------------------------------------------

def test_play_mode_speaks_german(table):
    with speaking("de"):
        played = table(lines(*SETUP), lines("?", "s rook", "m schießt", "l x", "l 2", "q"))
    assert "Befehle ohne `combat` tippen" in played.out
    assert "Kürzel" in played.out and "den Spielmodus verlassen (auch Strg-D)" in played.out
    assert "✓ rook ergreift den Moment (1 Grit)" in played.out
    assert "✓ rook gibt 2 AP aus (große Aktion): schießt" in played.out
    assert "Protokoll von alley" in played.out
    assert "Fehler: wie viele Zeilen? `l` oder `l 20`" in played.err
    assert "Kämpfer" in played.screen and "dran: rook" in played.screen
    assert "m/n/f handeln für sie" in played.screen


def test_play_mode_in_english_is_unchanged(table):
    played = table(lines(*SETUP), lines("s rook", "l x", "q"))
    assert "type commands without `combat`" in played.out
    assert "✓ rook seizes the moment (1 Grit)" in played.out
    assert "error: say how many lines: `l` or `l 20`" in played.err
    assert "up: rook" in played.screen and "m/n/f act for them" in played.screen


# -- the demo ------------------------------------------------------------------

def test_the_demo_plays_in_german(tmp_path):
    """`LANG=de_DE.UTF-8 combat demo`: the German script (its headings,
    title, labels and reasons) and every line the demo says, in German."""
    import os
    import subprocess
    import sys
    env = {**os.environ, "LANG": "de_DE.UTF-8", "COMBAT_DB": str(tmp_path / "d.db"),
           "NO_COLOR": "1", "COLUMNS": "100"}
    env.pop("COMBAT_LANG", None)
    done = subprocess.run([sys.executable, "-m", "cli", "demo"], env=env, text=True,
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    said = done.stdout
    assert "# Die Gruppe, der Boss, drei Gangster und ein Drohnenschwarm" in said
    assert "✓ Begegnung demo-1 angelegt: Überfall aufs Lagerhaus" in said
    assert "✓ rook gibt 2 AP aus (große Aktion): schießt auf den Boss" in said
    assert "✎ seq 20 lautet jetzt: drohnen hat am Tisch 1 gewürfelt, +2 = 3 für die " \
        "Initiative" in said
    assert "✗ zurückgenommen (seq 65): vex gibt 1 AP aus (kleine Aktion): deckt die Tür" in said
    assert "Die Vorführung ist die Begegnung demo-1, jetzt die aktuelle" in said
    for english in ("spends", "joins", "The demo is", "Warehouse", "round 1", "ends their turn"):
        assert english not in said


def test_the_demo_in_english_plays_the_english_script(combat):
    said = combat("demo").stdout
    assert "✓ Encounter demo-1 created: Warehouse raid" in said
    assert "✓ rook spends 2 AP (major): shoots the boss" in said


def test_the_german_demo_declares_what_the_english_one_does(combat):
    """The two scripts are one fight: the same kinds of events in the same
    order (so seq 20 and seq 65, which the scripts name, are the same)."""
    import json
    combat("demo")
    with speaking("de"):
        combat("demo")
    english, german = (json.loads(combat("--encounter", eid, "log", "--json").stdout)
                       for eid in ("demo-1", "demo-2"))
    assert [e["type"] for e in english] == [e["type"] for e in german]
    assert [e["undone"] for e in english] == [e["undone"] for e in german]


# -- the story and the party -------------------------------------------------

def test_the_story_is_told_in_german(fight):
    from eventlog.stores import open_store
    from projections.ledger import Ledger
    from projections.reports.story import Story
    from projections.reports.walk import steps
    ledger = Ledger(open_store(str(fight.db)))
    with speaking("de"):
        story = Story()
        for step in steps(ledger, "alley"):
            story.feed(step)
        chapters = story.chapters
    assert [c.title for c in chapters] == ["Aufbau", "Runde 1"]
    said = [line for c in chapters for p in c.passes for line in p.lines]
    assert any(x.text == "Rook gibt 2 AP aus (große Aktion): schießt (3 → 1 AP)" for x in said)
    assert any(x.struck and x.note == "rückgängig gemacht bei seq 9" for x in said)


def test_the_party_is_shown_in_german(combat):
    combat("party", "add", "Rook", "--bonus", "3")
    said = de(combat, "party")
    assert "Die Gruppe (seq 2)" in said and "rook  Rook  Bonus +3  AP 3  Grit 0" in said
    assert "Noch keine Sitzungen" in de(combat, "session")


def test_a_correction_that_does_not_fit_is_refused_in_german(fight):
    with speaking("de"):
        said = fight("amend", "7", "--die", "5", code=1).stderr
        cost = fight("act", "rook", "lots", code=1).stderr
    assert "--die korrigiert einen Initiativewurf; diese Ansage lautet „rook gibt 2 AP aus " \
        "(große Aktion): schießt“" in said
    assert "'lots' sind keine Kosten: möglich sind free, minor (1 AP), major (2 AP) oder eine " \
        "ganze Zahl AP (R16)" in cost
    assert "--die corrects an initiative roll; this one says “rook spends 2 AP (major): " \
        "schießt”" in fight("amend", "7", "--die", "5", code=1).stderr


def test_a_carry_into_the_party_is_said_in_german(combat):
    combat("party", "add", "Rook", "--grit", "1", "--track", "hp=20/20")
    combat("new", "alley", "--party")
    combat("track", "rook", "hp", "-5")
    combat("effect", "rook", "vergiftet", "--until-rest")
    said = de(combat, "end")
    assert "in die Gruppe übernommen (Gruppe seq 4, aus alley bei seq 6):" in said
    assert "  rook  hp 20/20 -> 15/20  jetzt vergiftet (bis zur Rast)\n" in said
    assert "rook  Rook  Bonus +0  AP 3  Grit 1  hp 15/20  [vergiftet (bis zur Rast)]" in \
        de(combat, "party")


def test_the_csv_export_keeps_its_english_words(fight, tmp_path):
    """An export is data: its description column reads the same for a
    German reader (the md export, told for people, is German)."""
    with speaking("de"):
        fight("export", "--format", "csv", "-o", str(tmp_path / "a.csv"))
        fight("export", "--format", "md", "-o", str(tmp_path / "a.md"))
    table = (tmp_path / "a.csv").read_text(encoding="utf-8")
    assert "rook spends 2 AP (major): schießt" in table and "gibt" not in table
    story = (tmp_path / "a.md").read_text(encoding="utf-8")
    assert "rook gibt 2 AP aus (große Aktion): schießt" in story.replace("Rook", "rook")
