"""Ids and texts at the table: ids from any script are transliterated, a
mistyped id is answered with the id it is close to, play mode never guesses
an id into a label, texts have length limits, and no control character gets
in (refused on the command line and in an import) or out (a stored one is
shown neutralised, never sent to the terminal)."""
from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given as hypothesis_given, strategies as st

from eventlog.errors import Refusal
from eventlog.events import RoundStarted
from eventlog.text import neutral
from projections.domain.names import close_to, distance
from projections.domain.phrases import slugify

from helpers import contents, given, npc, pc, rechain, rolled

SLUG = re.compile(r"[a-z0-9][a-z0-9-]*\Z")


def log_size(combat) -> int:
    return len(json.loads(combat("log", "--json").stdout))


# -- ids from names ------------------------------------------------------------

@pytest.mark.parametrize("name, slug", [
    ("Ærwyn Þórsdóttir", "aerwyn-thorsdottir"), ("Big Ganger", "big-ganger"),
    ("Zoë", "zoe"), ("Łukasz Żółw", "lukasz-zolw"), ("!!!", ""),
    # an emoji is no word of the id (anyascii would spell 🐉 `:dragon:`)
    ("Zoë 🐉 Dragonkin", "zoe-dragonkin"), ("🔥Pyra🔥", "pyra"),
    ("Ash 👍🏽", "ash"), ("Rook ❤️ Vex", "rook-vex"), ("🐉", "")])
def test_slugify_transliterates_non_ascii_names(name, slug):
    assert slugify(name) == slug


@hypothesis_given(st.text(max_size=40))
def test_slugify_gives_a_valid_id_or_nothing_for_every_name(name):
    slug = slugify(name)
    assert slug == "" or SLUG.match(slug)


def test_add_non_ascii_name_gets_a_transliterated_id(combat):
    combat("new", "saga")
    combat("add", "Ærwyn Þórsdóttir", "--pc")
    row = json.loads(combat("status", "--json").stdout)["combatants"][0]
    assert row["id"] == "aerwyn-thorsdottir"
    # the name differs from its id: the table shows it beside the id
    assert "aerwyn-thorsdottir Ærwyn Þórsdóttir" in combat("status").stdout


def test_add_name_without_letters_or_digits_is_refused_suggesting_id(combat):
    combat("new", "saga")
    result = combat("add", "!!!", code=1)
    assert result.stderr == ("error: '!!!' has no letters or digits to make an id "
                             "from: give one with --id\n")
    combat("add", "!!!", "--id", "bang")


# -- a mistyped id ---------------------------------------------------------------

def test_close_to_finds_swaps_edits_and_prefixes():
    ids = ["kai", "aria", "rook", "ganger-1", "ganger-2"]
    assert close_to("kia", ids) == ["kai"]
    assert close_to("arai", ids) == ["aria"]
    assert close_to("rok", ids) == ["rook"]
    assert close_to("gang", ids) == ["ganger-1", "ganger-2"]
    assert close_to("shoots", ids) == [] and close_to("kai", ids) == []


@hypothesis_given(st.text("abcd", max_size=6), st.text("abcd", max_size=6))
def test_edit_distance_is_symmetric_and_zero_only_for_equal_words(a, b):
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


def test_unknown_ids_everywhere_suggest_a_close_one(combat):
    combat("new", "raid")
    combat("add", "Aria", "--pc")
    combat("add", "Rook", "--pc")
    assert combat("roll", "arai", code=1).stderr == (
        "error: no combatant or group 'arai' in this encounter: did you mean aria?\n")
    combat("roll")
    combat("round")
    assert combat("act", "rok", "1", code=1).stderr == (
        "error: no combatant 'rok' in this encounter: did you mean rook?\n")
    assert "did you mean" not in combat("act", "zed", "1", code=1).stderr


def test_play_m_with_a_slip_for_an_id_is_refused_not_labelled():
    from cli.play import expand
    s = given(pc("kai"), npc("drone", bonus=5), rolled("kai", 2), rolled("drone", 9, 5),
              RoundStarted(round=1))
    with pytest.raises(Refusal, match=r"'kia' is not an id here: did you mean kai\?"):
        expand(["m", "kia", "shoots"], s)
    assert expand(["m", "shoots", "kai"], s) == ["act", "drone", "major", "shoots", "kai"]
    assert expand(["m", "drone", "kia"], s) == ["act", "drone", "major", "kia"]


def test_ids_a_unique_prefix_or_an_exact_name_stands_for_the_id(combat):
    for args in (["new", "x"], ["add", "Okafor Dibe", "--pc"], ["add", "Brute"],
                 ["roll", "oka", "--die", "9"], ["roll", "BRUTE", "--die", "3"], ["round"],
                 ["act", "okafor", "major"], ["act", "Okafor Dibe", "minor"],
                 ["act", "br", "minor"]):
        combat(*args)
    import json
    s = json.loads(combat("status", "--json").stdout)
    assert [c["ap"] for c in s["combatants"]] == [0, 2]


def test_ids_an_ambiguous_prefix_is_refused_naming_the_candidates(combat):
    for args in (["new", "x"], ["add", "Gob", "--count", "2"]):
        combat(*args)
    err = combat("roll", "gob", code=1).stderr
    assert err.startswith("error: 'gob' could be gob-1, gob-2") and len(err.splitlines()) == 1


def test_ids_a_second_goblin_joins_as_goblin_2_and_an_explicit_taken_id_is_refused(combat):
    combat("new", "x")
    combat("add", "Goblin")
    out = combat("add", "Goblin").stdout
    assert "goblin-2" in out
    assert "goblin-3" in combat("add", "Goblin").stdout
    assert "already taken" in combat("add", "Goblin", "--id", "goblin", code=1).stderr


def test_ids_amend_who_takes_a_prefix(combat):
    for args in (["new", "x"], ["add", "Ash", "--pc"], ["add", "Hound", "--count", "2",
                                                         "--group", "h"],
                 ["roll", "ash", "--die", "9"], ["roll", "h", "--die", "3"], ["round"],
                 ["end-turn"], ["act", "hound-1", "minor"]):
        combat(*args)
    combat("amend", "9", "--who", "hound-2")
    combat("amend", "9", "--who", "hound-1", "--reason", "no, the first")


# -- length limits -----------------------------------------------------------------

def test_text_limits_a_long_label_is_refused_in_one_line(combat):
    combat("new", "raid")
    combat("add", "Rook", "--pc")
    combat("roll", "rook", "--die", "4")
    combat("round")
    before = log_size(combat)
    result = combat("act", "rook", "1", "x" * 3000, code=1)
    assert result.stderr == "error: a label holds at most 200 characters, not 3,000\n"
    assert log_size(combat) == before


@pytest.mark.parametrize("args, message", [
    (("note", "n" * 2001), "a note holds at most 2,000 characters"),
    (("add", "N" * 65, "--id", "n"), "a name holds at most 64 characters"),
    (("add", "Rook", "--id", "r" * 65), "an id holds at most 64 characters"),
    (("grit", "rook", "1", "--reason", "r" * 201), "a reason holds at most 200 characters"),
])
def test_text_limits_notes_names_ids_reasons(combat, args, message):
    combat("new", "raid")
    combat("add", "Rook", "--pc")
    result = combat(*args, code=1)
    assert result.stderr.startswith(f"error: {message}") and result.stderr.count("\n") == 1


def test_text_limits_titles_and_encounter_ids(combat):
    assert "a title holds at most 120" in combat("new", "raid", "--title", "t" * 121,
                                                 code=1).stderr
    assert "at most 64 characters" in combat("new", "e" * 65, code=1).stderr
    combat("new", "raid", "--title", "t" * 120)


def test_encounter_id_of_10000_characters_refused(combat):
    err = combat("new", "a" * 10_000, code=1).stderr
    assert "at most 64" in err and len(err) < 300


def test_notes_and_reasons_span_lines_names_stay_on_one(combat, tmp_path):
    import csv
    import io
    import json
    combat("new", "x")
    combat("add", "Ash", "--pc")
    combat("note", "first line\nsecond\tline")
    combat("leave", "ash", "--reason", "fled\nby the back door")
    err = combat("add", "Bad\nName", code=1).stderr
    assert "control character (\\x0a" in err and "on one line" in err
    log = json.loads(combat("log", "--json").stdout)
    assert log[2]["data"]["text"] == "first line\nsecond\tline"
    assert log[3]["data"]["reason"] == "fled\nby the back door"
    md = combat("export", "--format", "md").stdout
    assert "- Note: first line\\\n  second\tline _(#3)_" in md  # one list item, two lines
    html = combat("export", "--format", "html").stdout
    assert "Note: first line\nsecond\tline</li>" in html
    csv_rows = list(csv.DictReader(io.StringIO(combat("export", "--format", "csv").stdout)))
    assert [r["text"] for r in csv_rows if r["type"] == "NoteAdded"] == [
        "Note: first line\nsecond\tline"]  # one cell, with its line break
    assert "first line\\x0asecond" in combat("log").stdout  # shown, never a forged line
    dump = tmp_path / "x.json"
    combat("export", "--format", "json", "-o", dump)
    combat("import", dump, "--as", "y")
    assert json.loads(combat("--encounter", "y", "log", "--json").stdout)[2]["data"]["text"] \
        == "first line\nsecond\tline"


# -- control characters, in and out ----------------------------------------------

HOSTILE = "\x1b[2J\x1b[31mred\x9b\u202egnp.exe\x07"


@pytest.mark.parametrize("line", [
    ["note", HOSTILE], ["act", "rook", "minor", HOSTILE], ["new", "x", "--title", HOSTILE],
    ["add", HOSTILE, "--id", "x"], ["leave", "rook", "--reason", HOSTILE],
    ["--actor", HOSTILE, "note", "hi"], ["undo", "--reason", "\x1b]0;pwned\x07"],
    ["note", "a\x00b"], ["act", "rook", "minor", "tab\there"], ["add", "Vex\u202e", "--id", "vex"]])
def test_control_characters_refused_on_the_command_line(alley, line):
    before = contents(alley.db)
    err = alley(*line, code=1).stderr
    assert "control character" in err or "not a valid actor" in err, err
    assert "\x1b" not in err and "\u202e" not in err and contents(alley.db) == before


def forge_hostile(db: Path) -> None:
    """Every text field of a stored log made hostile behind the program's
    back, as a log written before the check (or edited) would be."""
    con = sqlite3.connect(db)
    for seq, data in con.execute("SELECT seq, data FROM events").fetchall():
        body = json.loads(data)
        for key in ("text", "name", "label", "title", "reason"):
            if key in body:
                body[key] = HOSTILE
        con.execute("UPDATE events SET data = ?, actor = ? WHERE seq = ?",
                    (json.dumps(body).encode(), HOSTILE, seq))
    con.execute("UPDATE encounters SET title = ?", (HOSTILE,))
    con.execute("DELETE FROM snapshots")  # folded again, from the hostile events
    con.commit()
    con.close()


def raw_controls(text: str) -> set[str]:
    return {c for c in text if c not in "\n" and neutral(c) != c}


@pytest.mark.parametrize("line", [["status"], ["log"], ["log", "--audit"], ["list"],
                                  ["stats"], ["replay"], ["log", "--json"], ["list", "--json"],
                                  ["export", "--format", "md"], ["export", "--format", "csv"],
                                  ["export", "--format", "jsonl"], ["export"]])
def test_control_characters_in_a_stored_log_are_neutralised(alley, line):
    alley("act", "rook", "minor", "shoots")
    alley("note", "a note")
    forge_hostile(alley.db)
    result = alley(*line)
    assert not raw_controls(result.stdout + result.stderr), line
    if "--json" in line or line[-1] in ("jsonl", "export"):
        assert "\\u202e" in result.stdout  # the same JSON string, escaped
    else:
        assert "\\x1b" in result.stdout  # shown, visibly


def test_import_with_a_control_character_refused(alley, tmp_path):
    alley("note", "clean")
    doc = json.loads(alley("export").stdout)
    doc["events"][-1]["data"]["text"] = HOSTILE
    (tmp_path / "x.json").write_text(json.dumps(rechain(doc)))
    err = alley("import", tmp_path / "x.json", "--as", "copy", code=1).stderr
    assert "control character" in err and "\x1b" not in err
