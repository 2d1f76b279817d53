"""Roster files: `load FILE` and `new ID --roster FILE [--carry-grit FROM]`.

A roster is one declaration (one batch, one `undo`); a file with any wrong
entry is refused whole, in one `error:` line that names the entry, the key
and what was expected, and nothing of it is added."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import contents

ROOT = Path(__file__).resolve().parent.parent

PARTY = """
[[combatant]]
name = "Rook"
side = "pc"
bonus = 3
grit = 1

[[combatant]]
name = "Vex"
side = "pc"
bonus = 2
"""

SQUAD = """
[[combatant]]
name = "Ganger"
count = 4
group = "gangers"

[[group]]
id = "gangers"
bonus = 1
"""


@pytest.fixture
def write(tmp_path):
    def write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path
    return write


def events(combat, encounter: str | None = None) -> list[dict]:
    args = ["--encounter", encounter] if encounter else []
    return json.loads(combat(*args, "log", "--json").stdout)


def status(combat, encounter: str | None = None) -> dict:
    args = ["--encounter", encounter] if encounter else []
    return json.loads(combat(*args, "status", "--json").stdout)


def ids(combat, encounter: str | None = None) -> list[str]:
    return [c["id"] for c in status(combat, encounter)["combatants"]]


# -- loading ----------------------------------------------------------------

def test_load_toml_is_one_batch_group_bonus_first(combat, write):
    combat("new", "alley")
    combat("load", write("crew.toml", PARTY + SQUAD))
    added = events(combat)[1:]
    assert {e["batch"] for e in added} == {2}
    assert [e["type"] for e in added] == ["GroupBonusSet"] + ["CombatantJoined"] * 6
    assert added[0]["data"] == {"group": "gangers", "bonus": 1}
    rook = added[1]["data"]
    assert rook == {"id": "rook", "name": "Rook", "side": "pc", "bonus": 3,
                    "max_ap": 3, "grit": 1, "group": None}


def test_load_count_names_members_like_add_count(combat, write):
    combat("new", "alley")
    combat("load", write("squad.toml", SQUAD))
    s = status(combat)
    assert [(c["id"], c["name"]) for c in s["combatants"]] == [
        (f"ganger-{i}", f"Ganger {i}") for i in range(1, 5)]
    assert s["groups"][0]["bonus"] == 1 and s["groups"][0]["members"] == [
        "ganger-1", "ganger-2", "ganger-3", "ganger-4"]


def test_load_yaml_and_json_read_the_same_keys(combat, write):
    yaml_text = ("combatant:\n"
                 "  - {name: Rook, side: pc, bonus: 3, grit: 1}\n"
                 "  - name: Vex\n    side: pc\n    bonus: 2\n"
                 "  - {name: Ganger, count: 4, group: gangers}\n"
                 "group:\n  - {id: gangers, bonus: 1}\n")
    json_text = json.dumps({
        "combatant": [{"name": "Rook", "side": "pc", "bonus": 3, "grit": 1},
                      {"name": "Vex", "side": "pc", "bonus": 2},
                      {"name": "Ganger", "count": 4, "group": "gangers"}],
        "group": [{"id": "gangers", "bonus": 1}]})
    loaded = []
    for eid, path in (("t", write("crew.toml", PARTY + SQUAD)),
                      ("y", write("crew.yaml", yaml_text)),
                      ("j", write("crew.json", json_text))):
        combat("new", eid)
        combat("load", path)
        loaded.append([e["data"] for e in events(combat)[1:]])
    assert loaded[0] == loaded[1] == loaded[2]


def test_load_is_undone_by_one_undo_r26(combat, write):
    combat("new", "alley")
    combat("load", write("crew.toml", PARTY + SQUAD))
    combat("undo")
    assert status(combat)["combatants"] == [] and status(combat)["groups"] == []


def test_load_into_a_running_encounter_adds_reinforcements_who_roll_r5(combat, write):
    combat("new", "alley")
    combat("load", write("party.toml", PARTY))
    combat("roll", "rook", "--die", "5")
    combat("roll", "vex", "--die", "5")
    combat("round")
    combat("act", "rook", "major")
    combat("load", write("squad.toml", SQUAD))
    s = status(combat)
    assert s["round"] == 1 and s["order"] == ["rook", "vex"]  # not in the order yet
    combat("roll", "gangers", "--die", "4")
    assert status(combat)["order"] == ["rook", "vex", "gangers"]
    rows = {c["id"]: c for c in status(combat)["combatants"]}
    assert rows["ganger-1"]["ap"] == 3  # full AP on joining (R5)


def test_load_into_an_ended_encounter_is_refused_r25(combat, write):
    combat("new", "alley")
    combat("end")
    assert "(R25)" in combat("load", write("party.toml", PARTY), code=1).stderr


def test_load_joins_an_existing_group_of_the_same_side(combat, write):
    combat("new", "alley")
    combat("add", "Ganger", "--count", "2", "--group", "gangers")
    combat("load", write("more.toml", '[[combatant]]\nname = "Ganger"\nid = "late"\n'
                                      'group = "gangers"\n'))
    assert status(combat)["groups"][0]["members"] == ["ganger-1", "ganger-2", "late"]


# -- the table of bad rosters -----------------------------------------------

BAD = [
    ("unknown key", "r.toml", PARTY + 'hp = 12\n',
     ["combatant 2 (Vex)", "unknown key 'hp'", "expected one of: name, id, side"]),
    ("unknown top-level key", "r.toml", '[[combatants]]\nname = "Rook"\n',
     ["unknown key 'combatants'", "combatant, group"]),
    ("wrong type", "r.toml", PARTY.replace("bonus = 2", 'bonus = "two"'),
     ["combatant 2 (Vex)", "key 'bonus'", "expected a whole number", '"two"']),
    ("a bool is not a number", "r.toml", PARTY.replace("bonus = 2", "bonus = true"),
     ["combatant 2 (Vex)", "key 'bonus'", "got true"]),
    ("wrong side", "r.toml", PARTY.replace('side = "pc"\nbonus = 2', 'side = "ally"\nbonus = 2'),
     ["combatant 2 (Vex)", "key 'side'", 'expected "pc" or "npc"', '"ally"']),
    ("missing name", "r.toml", PARTY + '\n[[combatant]]\nbonus = 1\n',
     ["combatant 3:", "key 'name' is missing"]),
    ("a list, not a table", "r.yaml", "combatant:\n  name: Rook\n",
     ["key 'combatant'", "expected a list of entries"]),
    ("duplicate id", "r.toml", PARTY + '\n[[combatant]]\nname = "Vex"\n',
     ["combatant 3 (Vex)", '"vex"', "already used by combatant 2 (Vex)"]),
    ("duplicate id made by count", "r.toml", SQUAD + '\n[[combatant]]\nname = "G"\nid = "ganger-3"\n',
     ["combatant 2 (G)", '"ganger-3"', "combatant 1 (Ganger)"]),
    ("group with mixed sides", "r.toml",
     PARTY.replace('bonus = 2', 'bonus = 2\ngroup = "crew"')
     + '\n[[combatant]]\nname = "Ganger"\ngroup = "crew"\n',
     ["combatant 3 (Ganger)", "key 'group'", '"crew" is pc', "combatant 2 (Vex)", "(R7)"]),
    ("negative AP", "r.toml", PARTY.replace("bonus = 2", "bonus = 2\nap = -1"),
     ["combatant 2 (Vex)", "key 'ap'", "0 or more", "got -1"]),
    ("negative Grit", "r.toml", PARTY.replace("grit = 1", "grit = -2"),
     ["combatant 1 (Rook)", "key 'grit'", "0 or more"]),
    ("count of zero", "r.toml", SQUAD.replace("count = 4", "count = 0"),
     ["combatant 1 (Ganger)", "key 'count'", "1 or more"]),
    ("count too large", "r.toml", SQUAD.replace("count = 4", "count = 1000000"),
     ["combatant 1 (Ganger)", "key 'count'", "100 or less"]),
    ("bad id", "r.toml", '[[combatant]]\nname = "Rook"\nid = "Big Rook"\n',
     ["combatant 1 (Rook)", "key 'id'", "lowercase"]),
    ("group without members", "r.toml", PARTY + '\n[[group]]\nid = "drones"\nbonus = 2\n',
     ["group 1 (drones)", "no combatant is in this group"]),
    ("duplicate group", "r.toml", SQUAD + '\n[[group]]\nid = "gangers"\nbonus = 2\n',
     ["group 2 (gangers)", "already used by group 1 (gangers)"]),
    ("group named like a combatant", "r.toml", PARTY + '\n[[group]]\nid = "rook"\n',
     ["group 1 (rook)", "a combatant's id"]),
    ("empty file", "r.toml", "", ["r.toml is empty"]),
    ("only comments", "r.yaml", "# nothing yet\n", ["r.yaml is empty"]),
    ("only groups", "r.toml", '[[group]]\nid = "gangers"\nbonus = 1\n', ["no combatant entry"]),
    ("binary garbage", "r.toml", b"\x00\xff\xfe\x89PNG\r\n\x1a\n\x00\x00binary",
     ["r.toml is not a text file"]),
    ("latin-1 text", "r.json", b'{"combatant": [{"name": "Jos\xe9"}]}', ["not a text file"]),
    ("broken TOML", "r.toml", '[[combatant]\nname = "Rook"\n', ["r.toml is not valid TOML"]),
    ("broken YAML", "r.yaml", "combatant:\n  - name: [Rook\n", ["r.yaml is not valid YAML", "line"]),
    ("broken JSON", "r.json", '{"combatant": [', ["r.json is not valid JSON"]),
    ("JSON list at the top", "r.json", '[{"name": "Rook"}]', ["expected combatant and group entries"]),
    ("not a roster format", "r.txt", PARTY, [".toml, .yaml, .yml or .json"]),
]


@pytest.mark.parametrize("name,content,expected", [case[1:] for case in BAD],
                         ids=[case[0] for case in BAD])
def test_bad_roster_is_refused_whole_in_one_line(combat, write, name, content, expected):
    combat("new", "alley")
    combat("add", "Brute")
    before = events(combat)
    result = combat("load", write(name, content), code=1)
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    for text in expected:
        assert text in result.stderr, (text, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr
    assert events(combat) == before


def test_missing_roster_file_is_one_error_line(combat, tmp_path):
    combat("new", "alley")
    result = combat("load", tmp_path / "nope.toml", code=1)
    assert result.stderr.startswith("error: cannot read") and result.stderr.count("\n") == 1


def test_duplicate_id_against_the_encounter_is_refused(combat, write):
    combat("new", "alley")
    combat("add", "Vex", "--pc")
    before = events(combat)
    err = combat("load", write("party.toml", PARTY), code=1).stderr
    assert "combatant 2 (Vex)" in err and "already taken in encounter alley" in err
    assert events(combat) == before


def test_group_mixing_sides_with_the_encounter_is_refused_r7(combat, write):
    combat("new", "alley")
    combat("add", "Ganger", "--count", "2", "--group", "gangers")
    err = combat("load", write("turncoat.toml", '[[combatant]]\nname = "Rook"\nside = "pc"\n'
                                                'group = "gangers"\n'), code=1).stderr
    assert "combatant 1 (Rook)" in err and "its members in encounter alley" in err
    assert ids(combat) == ["ganger-1", "ganger-2"]


def test_several_problems_are_listed_on_one_line(combat, write):
    combat("new", "alley")
    text = PARTY.replace("bonus = 2", 'bonus = "x"\nap = -3\nhp = 1')
    err = combat("load", write("r.toml", text), code=1).stderr
    assert err.count("\n") == 1
    assert all(key in err for key in ("'bonus'", "'ap'", "'hp'"))


@pytest.mark.parametrize("name, text", [
    ("crew.yaml", "combatant:\n  - name: Rook\n    bonus: 1\n    bonus: 2\n"),
    ("crew.json", '{"combatant": [{"name": "Rook", "name": "Vex"}]}'),
    ("crew.toml", '[[combatant]]\nname = "Rook"\nname = "Vex"\n')])
def test_roster_with_a_duplicate_key_refused_in_every_format(noted, tmp_path, name, text):
    (tmp_path / name).write_text(text)
    before = contents(noted.db)
    err = noted("load", tmp_path / name, code=1).stderr
    assert err.startswith(f"error: {name} is not valid ") and err.count("\n") == 1
    assert contents(noted.db) == before


@pytest.mark.parametrize("name, text", [
    ("big.toml", '[[combatant]]\nname = "Rook"\nbonus = ' + "9" * 5000 + "\n"),
    ("big.json", '{"combatant": [{"name": "Rook", "bonus": ' + "9" * 5000 + "}]}"),
    ("big.yaml", "combatant:\n  - name: Rook\n    bonus: " + "9" * 5000 + "\n")])
def test_roster_with_a_huge_number_said_plainly(noted, tmp_path, name, text):
    (tmp_path / name).write_text(text)
    err = noted("load", tmp_path / name, code=1).stderr
    assert "more than 4300 digits" in err and "set_int_max_str_digits" not in err


def test_roster_name_with_nul_refused_naming_the_entry(noted, tmp_path):
    (tmp_path / "nul.json").write_text('{"combatant": [{"name": "Ro\\u0000ok"}]}')
    err = noted("load", tmp_path / "nul.json", code=1).stderr
    assert "combatant 1 (Ro\\x00ok): the name holds a control character" in err
    assert "\x00" not in err


# -- new --roster, --carry-grit -----------------------------------------------

def test_new_with_a_roster_starts_with_it_in(combat, write):
    combat("new", "alley", "--title", "Alley", "--roster", write("party.toml", PARTY))
    s = status(combat)
    assert s["encounter"] == "alley" and s["title"] == "Alley"
    assert ids(combat) == ["rook", "vex"]
    assert [e["batch"] for e in events(combat)] == [1, 2, 2]


def test_new_with_a_bad_roster_creates_nothing(combat, write):
    err = combat("new", "alley", "--roster", write("r.toml", PARTY + "hp = 1\n"), code=1).stderr
    assert "combatant 2 (Vex)" in err
    assert not combat.db.exists()  # not even the store


def test_carry_grit_copies_current_grit_as_an_audited_declaration(combat, write):
    party = write("party.toml", PARTY + '\n[[combatant]]\nname = "Newbie"\nside = "pc"\n')
    combat("new", "warehouse", "--roster", write("old.toml", PARTY))
    combat("grit", "rook", "2")      # rook: 1 -> 3
    combat("grit", "vex", "1")       # vex: 0 -> 1
    combat("new", "docks", "--roster", party, "--carry-grit", "warehouse")
    grit = {c["id"]: c["grit"] for c in status(combat)["combatants"]}
    assert grit == {"rook": 3, "vex": 1, "newbie": 0}
    carried = [e for e in events(combat) if e["type"] == "GritAdjusted"]
    assert [(e["data"]["combatant"], e["data"]["delta"]) for e in carried] == [("rook", 2), ("vex", 1)]
    assert {e["data"]["reason"] for e in carried} == {"carried over from warehouse"}
    assert carried[0]["batch"] != events(combat)[1]["batch"]  # its own declaration
    assert "carried over from warehouse" in combat("log", "--audit").stdout
    combat("undo")  # the carry alone is taken back
    assert {c["id"]: c["grit"] for c in status(combat)["combatants"]}["rook"] == 1


def test_carry_grit_from_an_unknown_encounter_is_refused_and_creates_nothing(combat, write):
    err = combat("new", "docks", "--roster", write("party.toml", PARTY),
                 "--carry-grit", "nowhere", code=1).stderr
    assert "no encounter 'nowhere'" in err
    assert json.loads(combat("list", "--json").stdout) == []


def test_carry_grit_needs_a_roster(combat):
    combat("new", "warehouse")
    assert "--roster" in combat("new", "docks", "--carry-grit", "warehouse", code=2).stderr


def test_carry_grit_with_nothing_to_carry_declares_nothing_more(combat, write):
    party = write("party.toml", PARTY)
    combat("new", "warehouse", "--roster", party)
    combat("new", "docks", "--roster", party, "--carry-grit", "warehouse")
    assert [e["type"] for e in events(combat)][-1] == "CombatantJoined"


# -- start-up stays light ---------------------------------------------------

def test_status_does_not_import_pydantic_or_yaml(tmp_path):
    env = {**os.environ, "COMBAT_DB": str(tmp_path / "x.db")}
    code = ("import sys\nfrom cli.app import main\nsys.argv = ['combat', 'list']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('pydantic', 'yaml', 'projections.inputs.roster') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout + done.stderr


def test_a_roster_entry_with_hidden_true_joins_hidden_from_the_players(combat, write):
    # `hidden = true` is `add --hidden`: every combatant of the entry (each of
    # its count) joins unseen by players, in the same one declaration.
    roster = write("ambush.toml", PARTY + '\n[[combatant]]\nname = "Sniper"\nhidden = true\n'
                   'count = 2\ntracks = {hp = 6}\n')
    combat("new", "ambush")
    combat("load", str(roster))
    log = events(combat)
    hid = [e["data"]["combatant"] for e in log if e["type"] == "CombatantHidden"]
    assert hid == ["sniper-hidden-1", "sniper-hidden-2"]  # (no visible number taken)
    assert len({e["batch"] for e in log[1:]}) == 1  # one declaration, one undo
    people = {c["id"]: c for c in json.loads(combat("status", "--json").stdout)["combatants"]}
    assert people["sniper-hidden-1"]["hidden"] and people["sniper-hidden-2"]["hidden"]
    assert not people["rook"]["hidden"]
    combat("undo")
    assert [c["id"] for c in json.loads(combat("status", "--json").stdout)["combatants"]] == []


def test_a_roster_hidden_key_takes_true_or_false_only(combat, write):
    roster = write("bad.toml", '[[combatant]]\nname = "Sniper"\nhidden = "yes"\n')
    combat("new", "ambush")
    error = combat("load", str(roster), code=1).stderr
    assert error.startswith("error: bad.toml: combatant 1 (Sniper): key 'hidden': expected")
    assert error.count("\n") == 1
