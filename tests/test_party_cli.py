"""The party from the command line: fights started from it carry back to it
(docs/rules.md, "The party"), refusals are one line and append nothing."""
from __future__ import annotations

import json
import sqlite3

import pytest
from helpers import cli_env, contents, in_process, pg_server


@pytest.fixture
def combat(tmp_path):
    return with_party(in_process(cli_env(tmp_path / "ledger.db")))


@pytest.fixture(params=["sqlite", "postgres"])
def anywhere(request, tmp_path):
    """The party on SQLite and on PostgreSQL (a schema of its own)."""
    if request.param == "sqlite":
        return with_party(in_process(cli_env(tmp_path / "ledger.db")))
    return with_party(in_process({**cli_env(tmp_path / "unused.db"),
                                  "COMBAT_DB": pg_server().fresh_url()}))


def with_party(run):
    run("party", "add", "Rook", "--bonus", "5", "--grit", "1", "--track", "hp=20/20")
    run("party", "add", "Vex", "--track", "hp=12/15", "--track", "stun=0/5")
    return run


def party(combat, *at) -> dict:
    out = json.loads(combat("party", "--json", *at).stdout)
    return {ch["id"]: ch for ch in out["characters"]} | {"seq": out["seq"]}


def hp(ch: dict) -> int:
    return next(t["value"] for t in ch["tracks"] if t["track"] == "hp")


def test_party_takes_what_each_of_three_fights_left(anywhere):
    combat = anywhere
    combat("new", "alley", "--party")
    combat("track", "rook", "hp", "-5")
    combat("grit", "rook", "1")
    out = combat("end").stdout
    assert "carried into the party" in out and "from alley at seq" in out
    p = party(combat)
    assert (hp(p["rook"]), p["rook"]["grit"], hp(p["vex"])) == (15, 2, 12)
    combat("new", "docks", "--party", "vex")
    combat("track", "vex", "hp", "-4")
    combat("end")
    combat("new", "roof", "--party")
    assert "hp 15/20" in combat("status").stdout  # Rook comes in as the party holds him
    combat("track", "rook", "hp", "-20")
    combat("end")
    p = party(combat)
    assert (hp(p["rook"]), p["rook"]["grit"], hp(p["vex"])) == (0, 2, 8)


def test_party_undo_of_a_carry_restores_the_party(anywhere):
    combat = anywhere
    before = party(combat)
    combat("new", "alley", "--party")
    combat("track", "rook", "hp", "-5")
    combat("end")
    combat("party", "undo")
    after = party(combat)
    assert (after["rook"], after["vex"]) == (before["rook"], before["vex"])


def test_party_end_no_carry_leaves_the_party_and_carry_takes_it_later(combat):
    combat("new", "alley", "--party")
    combat("track", "rook", "hp", "-5")
    assert "left as it was" in combat("end", "--no-carry").stdout
    assert hp(party(combat)["rook"]) == 20
    assert "`combat party carry alley` carries it" in combat("party").stdout
    combat("party", "carry", "alley")
    assert hp(party(combat)["rook"]) == 15


def test_party_correction_after_the_carry_carries_the_difference(combat):
    combat("new", "alley", "--party")
    combat("track", "rook", "hp", "-5")
    shot = json.loads(combat("status", "--json").stdout)["seq"]
    combat("end")
    combat("party", "set", "rook", "--track", "hp=10")  # between fights: hurt again
    combat("retract", str(shot), "--reason", "the shot missed")
    assert "`combat party carry alley` carries it" in combat("party").stdout
    out = combat("party", "carry", "alley").stdout
    assert "  rook  hp 10/20 -> 15/20\n" in out  # the 5 hp the fight gave back, on top of 10
    assert hp(party(combat)["rook"]) == 15
    assert "nothing new to carry" in combat("party", "carry", "alley").stdout


def test_party_at_a_seq_answers_what_it_was_then(combat):
    combat("party", "set", "rook", "--grit", "4")
    assert party(combat, "--at", "2")["rook"]["grit"] == 1
    assert party(combat)["rook"]["grit"] == 4


def test_verify_party_passes_and_catches_a_doctored_event(combat):
    assert "hash chain intact" in combat("verify", "--party").stdout
    con = sqlite3.connect(combat.db)
    con.execute("UPDATE events SET data = replace(data, '20', '99') "
                "WHERE encounter = '~party' AND seq = 2")
    con.commit()
    con.close()
    out = combat("verify", "--party", code=1)
    assert "the party's log is broken at seq 2" in out.stderr


@pytest.mark.parametrize("args, said", [
    (("party", "add", "Rook"), "'rook' is already in the party"),
    (("party", "set", "nobody", "--grit", "1"), "no character 'nobody' in the party"),
    (("party", "add", "Zed", "--track", "hp=ten"), "is not NAME=VALUE"),
    (("party", "add", "Zed", "--track", "hp=30/20"), "over its maximum"),
    (("party", "add", "Zed", "--grit", "99999999999"), "Grit runs from"),
    (("party", "add", "Z\x1bd"), "control"),
    (("new", "alley", "--party", "rook,nobody"), "no character 'nobody'"),
    (("party", "remove", "ghost"), "no character 'ghost'"),
])
def test_party_refuses_bad_input_in_one_line_and_appends_nothing(combat, args, said):
    before = contents(combat.db)
    out = combat(*args, code=1)
    assert said in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert contents(combat.db) == before


def test_party_member_in_two_running_fights_is_refused_by_name(combat):
    combat("new", "alley", "--party", "rook")
    before = contents(combat.db)
    out = combat("new", "docks", "--party", code=1)
    assert "rook is in fight alley" in out.stderr
    assert "rook is in fight alley" in combat("party", "set", "rook", "--grit", "3",
                                              code=1).stderr
    assert contents(combat.db) == before


def test_party_carry_into_a_removed_member_says_so(combat):
    combat("new", "alley", "--party", "vex")
    combat("track", "vex", "hp", "-3")
    combat("end", "--no-carry")
    combat("party", "remove", "vex", "--reason", "retired")
    out = combat("party", "carry", "alley").stdout
    assert "vex is no longer in the party: not carried" in out


def test_session_groups_the_fights_started_while_it_is_open(combat):
    combat("session", "start", "Night one")
    combat("new", "alley", "--party")
    combat("end")
    combat("session", "end")
    combat("new", "later")
    sessions = json.loads(combat("session", "--json").stdout)["sessions"]
    assert [(x["id"], x["title"], x["fights"]) for x in sessions] == [
        ("s1", "Night one", ["alley"])]


def test_party_stream_is_not_listed(combat):
    combat("new", "alley", "--party")
    assert "~party" not in combat("list").stdout


def test_copy_carries_the_party_and_its_chain(combat, tmp_path):
    combat("party", "set", "rook", "--grit", "4")
    out = combat("copy", "--to", tmp_path / "copy.db").stdout
    assert "the party: copied 4 events" in out and "and the party's log" in out
    there = in_process(cli_env(tmp_path / "copy.db"))
    assert party(there) == party(combat)
    assert "hash chain intact" in there("verify", "--party").stdout


@pytest.mark.parametrize("args", [("use", "~party"), ("--encounter", "~party", "log"),
                                  ("--encounter", "~party", "note", "hi"),
                                  ("--encounter", "~party", "status")])
def test_party_log_is_no_encounter(combat, args):
    before = contents(combat.db)
    assert "no encounter '~party'" in combat(*args, code=1).stderr
    assert contents(combat.db) == before


def test_party_correction_to_an_ended_fight_offers_the_carry(combat):
    combat("new", "alley", "--party")
    combat("track", "rook", "hp", "-5")
    shot = json.loads(combat("status", "--json").stdout)["seq"]
    combat("effect", "rook", "poisoned", "--until-rest")
    combat("end")
    out = combat("retract", str(shot), "--reason", "the shot missed").stdout
    assert "the party would now differ by what alley left" in out
    assert "  rook  hp 15/20 -> 20/20\n" in out
    assert "`combat party carry alley` carries it into the party" in out
    combat("party", "carry", "alley", "--reason", "the shot missed")
    assert hp(party(combat)["rook"]) == 20
    events = contents(combat.db)[0]
    assert any("PartyCarried" in row and '"reason":"the shot missed"' in str(row)
               for row in events)


def test_party_correction_to_a_fight_not_from_the_party_offers_nothing(combat):
    combat("new", "alley")
    combat("add", "Ganger")
    combat("end")
    assert "party" not in combat("undo").stdout


def test_party_lasting_condition_carried_shown_and_brought_back(combat):
    combat("new", "alley", "--party", "rook")
    out = combat("effect", "rook", "poisoned", "--until-rest").stdout
    assert "rook is poisoned until the party rests" in out
    assert "poisoned (until rest)" in combat("status").stdout
    assert "  rook  now poisoned (until rest)\n" in combat("end").stdout
    assert party(combat)["rook"]["conditions"] == [
        {"name": "poisoned", "until_rest": True, "fights": None}]
    combat("new", "docks", "--party", "rook")
    rook = json.loads(combat("status", "--json").stdout)["combatants"][0]
    assert [(e["id"], e["until_rest"]) for e in rook["effects"]] == [("poisoned", True)]
    combat("end")
    combat("party", "rest")
    assert party(combat)["rook"]["conditions"] == []


def test_party_lasting_condition_on_an_npc_is_refused_by_name(combat):
    combat("new", "alley", "--party", "rook")
    combat("add", "Ganger")
    before = contents(combat.db)
    out = combat("effect", "ganger", "poisoned", "--until-rest", code=1)
    assert out.stderr.startswith("error: ganger is not one of the party's characters in "
                                 "this fight")
    assert contents(combat.db) == before


def test_party_shell_commands_take_the_grammars_options():
    """The shell's `party ...` and `session ...` subcommands and the grammar
    the GM's command box and play mode read take the same options."""
    import typer

    from cli.app import app
    from cli.grammar import PARTY_BY_NAME
    tree = typer.main.get_command(app)
    for name, spec in PARTY_BY_NAME.items():
        group, sub = name.split()
        command = tree.commands[group].commands[sub]
        flags = {o for p in command.params for o in getattr(p, "opts", ()) if o.startswith("--")}
        assert flags - {"--help"} == set(spec.options), name
        assert [p.name for p in command.params if not getattr(p, "opts", ["--"])[0]
                .startswith("--")] == [a.field for a in spec.args], name


@pytest.mark.parametrize("text", [
    "party add Rook --bonus 5 --track hp=20/20 --track stun=0/5 --reason joins",
    "party set rook --grit 2 --track hp=12", "party remove vex --reason retired",
    "party rest --full", "party carry alley --reason fixed", "party undo", "party redo",
    'session start "Night two"', "session end"])
def test_party_line_reads_as_the_shell_declares(text):
    from cli.grammar import parse_line
    command = parse_line(text).command
    assert command.__struct_config__.tag == "-".join(text.split()[:2])


def test_party_carry_at_end_names_the_conditions_it_ended(combat):
    combat("new", "alley", "--party", "rook")
    combat("effect", "rook", "poisoned", "--until-rest")
    combat("effect", "rook", "cursed", "--fights", "2")
    combat("end")
    combat("new", "docks", "--party", "rook")
    combat("end-effect", "poisoned", "--reason", "antidote")
    out = combat("end").stdout
    assert "  rook  poisoned ends  cursed ends\n" in out


def test_party_add_with_a_mistyped_track_makes_no_store(tmp_path):
    combat = in_process(cli_env(tmp_path / "new.db"))
    out = combat("party", "add", "Rook", "--track", "hp:20", code=1)
    assert "is not NAME=VALUE or NAME=VALUE/MAX" in out.stderr
    assert not (tmp_path / "new.db").exists()


def test_party_fight_whose_end_is_undone_holds_its_characters_again(anywhere):
    """The carry at `end` lets the characters go; `undo` of that end puts the
    fight back in play, and with it its characters: no second fight takes
    them, and the next `end` carries only what changed since the carry."""
    combat = anywhere
    combat("new", "alley", "--party", "rook")
    combat("track", "rook", "hp", "-5")
    combat("end")
    combat("undo")
    assert "(in fight alley)" in combat("party").stdout
    refused = combat("new", "docks", "--party", "rook", code=1)
    assert refused.stderr == ("error: rook is in fight alley, which has not ended: "
                              "change rook there, or end it first\n")
    refused = combat("party", "set", "rook", "--grit", "3", code=1)
    assert "rook is in fight alley" in refused.stderr
    combat("use", "alley")
    combat("track", "rook", "hp", "-2")
    assert "  rook  hp 15/20 -> 13/20\n" in combat("end").stdout
    assert hp(party(combat)["rook"]) == 13
    assert "(in fight" not in combat("party").stdout
    combat("new", "docks", "--party", "rook")  # (free again once that fight has ended)
