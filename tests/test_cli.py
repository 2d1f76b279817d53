"""The command line as a person uses it: exit codes, one-line refusals,
negative numbers, help text, the demo, and bad input files."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from cli.app import app

from helpers import one_error_line, real

ROOT = Path(__file__).resolve().parent.parent


def events(combat) -> list[dict]:
    return json.loads(combat("log", "--json").stdout)


def status(combat, *extra) -> dict:
    return json.loads(combat("status", "--json", *extra).stdout)


def duel(combat):
    combat("new", "duel")
    combat("add", "Ash", "--pc", "--bonus", "5", "--grit", "1")
    combat("add", "Brute")
    combat("roll", "ash", "--die", "5")
    combat("roll", "brute", "--die", "5")


def test_refusal_is_one_error_line_exit_1_and_appends_nothing(combat):
    duel(combat)
    combat("round")
    before = len(events(combat))
    result = combat("act", "ash", "9", code=1)
    assert result.stderr == "error: ash has 3 AP left, cannot spend 9 (R17)\n"
    assert result.stdout == ""
    assert len(events(combat)) == before


def test_negative_numbers_work_as_arguments(combat):
    duel(combat)
    combat("grit", "ash", "-1")
    combat("set-initiative", "brute", "-2", "--reason", "tripped")
    combat("round")
    combat("adjust-ap", "ash", "-1", "--reason", "stunned")
    s = status(combat)
    ash = s["combatants"][0]
    assert (ash["grit"], ash["ap"]) == (0, 2)
    assert s["combatants"][1]["initiative"] == -2


def test_negative_cost_is_refused_by_rule_r16(combat):
    duel(combat)
    combat("round")
    assert "(R16)" in combat("act", "ash", "-3", code=1).stderr


def test_unknown_cost_word_is_refused_with_the_choices(combat):
    duel(combat)
    combat("round")
    assert "free, minor" in combat("act", "ash", "huge", code=1).stderr


def test_free_action_through_act_records_a_free_action(combat):
    duel(combat)
    combat("act", "ash", "free", "calls", "a", "warning")
    last = events(combat)[-1]
    assert last["type"] == "FreeActionTaken"
    assert last["data"] == {"combatant": "ash", "label": "calls a warning"}


def test_missing_reason_is_a_usage_error_exit_2(combat):
    duel(combat)
    result = combat("max-ap", "ash", "4", code=2)
    assert "Traceback" not in result.stdout + result.stderr


def test_end_turn_in_an_open_group_slot_needs_the_member(combat):
    combat("new", "squad")
    combat("add", "Ganger", "--count", "2", "--group", "gangers")
    combat("roll", "gangers", "--die", "3")
    combat("round")
    assert "(R8)" in combat("end-turn", code=1).stderr
    combat("end-turn", "ganger-2")
    assert status(combat)["up"] == ["ganger-1"]


def test_actor_is_recorded_r29(combat):
    duel(combat)
    combat("--actor", "players", "note", "we", "hide")
    last = events(combat)[-1]
    assert last["actor"] == "players"
    assert last["at"].endswith("Z")


def test_status_at_shows_an_earlier_position_r31(combat):
    duel(combat)
    combat("round")
    combat("act", "ash", "major")
    at = status(combat, "--at", "5")
    assert at["seq"] == 5 and at["phase"] == "setup"
    assert combat("status", "--at", "99", code=1).stderr.startswith("error: ")


def test_encounters_are_listed_and_switched(combat):
    combat("new", "one")
    combat("new", "two")
    listed = json.loads(combat("list", "--json").stdout)
    assert [(e["id"], e["current"]) for e in listed] == [("one", False), ("two", True)]
    combat("use", "one")
    assert status(combat)["encounter"] == "one"
    assert combat("use", "nope", code=1).stderr.startswith("error: ")
    assert combat("new", "one", code=1).stderr.startswith("error: ")


def test_no_current_encounter_is_a_clear_error(combat):
    from eventlog.stores import open_store
    open_store(combat.db).close()  # a store, with no encounter in it
    assert combat("status", code=1).stderr == \
        "error: no current encounter: start one with `combat new ID`\n"


def test_undo_then_redo_from_the_command_line_r26_r27(combat):
    duel(combat)
    combat("round")
    combat("act", "ash", "major")
    assert "undone" in combat("undo").stdout
    assert status(combat)["combatants"][0]["ap"] == 3
    combat("redo")
    assert status(combat)["combatants"][0]["ap"] == 1
    assert "(R27)" in combat("redo", code=1).stderr


def test_export_import_round_trip_and_bad_files(combat, tmp_path):
    duel(combat)
    combat("round")
    out = tmp_path / "duel.json"
    combat("export", "--format", "json", "-o", out)
    doc = json.loads(out.read_text())
    assert doc["format"] == "combat-ledger" and doc["version"] == 1
    combat("import", out, "--as", "copy")
    assert status(combat)["encounter"] == "copy"
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\x00\xffnot json")
    assert combat("import", garbage, code=1).stderr.startswith("error: ")
    assert combat("import", tmp_path / "missing.json", code=1).stderr.startswith("error: ")
    assert combat("import", out, "--as", "copy", code=1).stderr.startswith("error: ")


def test_verify_reports_ok_and_json(combat):
    duel(combat)
    assert combat("verify").stdout.startswith("ok: 5 events")
    verdict = json.loads(combat("verify", "--json").stdout)
    assert verdict["ok"] is True and verdict["first_bad_seq"] is None


def test_garbage_database_is_refused_and_left_untouched(combat):
    combat.db.write_bytes(b"this is not sqlite" * 100)
    before = combat.db.read_bytes()
    result = combat("status", code=1)
    assert "not a combat-ledger database" in result.stderr
    assert combat.db.read_bytes() == before


def test_demo_plays_a_verifiable_encounter(combat):
    result = combat("demo")
    assert "demo-1" in result.stdout
    assert combat("verify").stdout.startswith("ok:")
    s = status(combat)
    assert s["encounter"] == "demo-1" and s["phase"] == "ended"
    combat("demo")
    assert status(combat)["encounter"] == "demo-2"


def test_unexpected_failure_is_one_line_not_a_traceback(combat, monkeypatch):
    import projections.reports.views

    def broken(state):
        raise RuntimeError("boom")
    monkeypatch.setattr(projections.reports.views, "status", broken)
    duel(combat)
    result = combat("status", "--json", code=1)
    assert result.stderr.startswith("error: unexpected failure")
    assert result.stderr.count("\n") == 1


def test_every_command_has_help_with_an_example_and_is_in_the_readme(combat):
    readme = (ROOT / "README.md").read_text() + (ROOT / "docs" / "commands.md").read_text()
    commands = typer.main.get_command(app).commands
    assert len(commands) >= 25
    for name, command in commands.items():
        result = combat(name, "--help")
        assert "Example" in result.stdout, name
        assert command.help and command.help.strip(), name
        assert f"`{name}" in readme or f" {name} " in readme, name


def test_a_real_process_never_shows_a_traceback(tmp_path):
    env = {**os.environ, "COMBAT_DB": str(tmp_path / "x.db")}
    env.pop("COMBAT_DEBUG", None)
    for args in (["act", "ghost", "minor"], ["roll", "--die", "11"], ["bogus"]):
        done = subprocess.run([sys.executable, "-m", "cli", *args], env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode in (1, 2), args
        assert "Traceback" not in done.stderr + done.stdout, args


def test_the_entry_point_knows_which_module_registers_each_command():
    from cli.main import COMMANDS
    registered = {c.name or c.callback.__name__.replace("_", "-"): c.callback.__module__
                  for c in app.registered_commands}
    registered.update({g.name: g.typer_instance.registered_commands[0].callback.__module__
                       for g in app.registered_groups})  # `combat token ...`
    assert {name: f"cli.{module}" for name, module in COMMANDS.items()} == registered


@pytest.mark.parametrize("argv, at", [
    ([], 0), (["status"], 0), (["--db", "x.db", "status"], 2), (["--db=x.db", "act"], 1),
    (["--actor", "vex", "--encounter", "e", "log", "--json"], 4), (["--db"], None),
    (["--actor", "vex"], 2), (["--help"], 0)])
def test_the_command_is_found_after_the_global_options(argv, at):
    from cli.main import command_at
    assert command_at(argv) == at


def test_a_shell_command_loads_only_its_own_module(tmp_path):
    """`combat status` must not pay for building every other command."""
    code = ("import sys; from cli.main import main; sys.argv = ['combat', 'list']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('cli.')), file=sys.stderr)")
    env = {**os.environ, "COMBAT_DB": str(tmp_path / "x.db")}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=60)
    loaded = done.stderr.strip().splitlines()[-1]
    assert "cli.setup_cmds" in loaded and "cli.app" not in loaded
    assert "cli.declare_cmds" not in loaded and "cli.play_cmds" not in loaded


def test_markup_and_emoji_codes_typed_at_the_table_are_shown_as_typed(combat):
    """A name, label, title or actor with [brackets] is text, not rich markup:
    it neither breaks the table nor loses the declaration (which is stored)."""
    combat("new", "t", "--title", "[red]Night :fire:")
    out = combat("add", "Vex [/bold]", "--pc").stdout
    assert "Vex [/bold]" in out and "[red]Night :fire:" in out
    combat("--actor", "[/b]", "note", "hi [/] there [bold]x :smile:")
    log = combat("log").stdout
    assert "hi [/] there [bold]x :smile:" in log and "[/b]" in log
    assert "[red]Night :fire:" in combat("list").stdout
    combat("effect", "vex-bold", "Hex [/i]", "--max-ap", "-1", "--rounds", "1")
    assert "Hex [/i]" in combat("status").stdout


def test_the_table_shows_a_gm_set_initiative_as_set_not_as_rolled_r4(combat):
    duel(combat)
    assert "10 (5+5)" in combat("status").stdout
    combat("set-initiative", "ash", "12", "--reason", "ambush")
    table = combat("status").stdout
    assert "12 (GM)" in table and "12 (5+5)" not in table


def _status_at(db: Path, columns: str) -> str:
    done = subprocess.run([sys.executable, "-m", "cli", "--db", str(db), "--encounter",
                           "street", "status"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "COLUMNS": columns, "NO_COLOR": "1"})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


def test_a_narrow_terminal_keeps_ids_totals_pips_and_words_whole(combat):
    """A split pane or a phone's terminal (under 64 columns): every id, the
    initiative total, the pips and who is acting stay whole within the
    width, the grit and AP spent this turn said in words."""
    from rich.cells import cell_len
    combat("new", "street")
    combat("add", "Rook", "--pc", "--bonus", "2", "--grit", "1")
    combat("add", "Drone", "--count", "2", "--group", "drones")
    combat("add", "Vex", "--pc")
    for slot, die in (("rook", 9), ("drones", 6), ("vex", 4)):
        combat("roll", slot, "--die", die)
    combat("round")
    combat("act", "rook", "minor", "shoots")
    out = _status_at(combat.db, "40")
    assert all(cell_len(line) <= 40 for line in out.splitlines()), out
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if "│" in line}
    assert {"rook", "drones", "drone-1", "drone-2", "vex"} <= set(rows), out
    assert "│   11 │ ●●○ │ acting," in rows["rook"] and "│    6 │" in rows["drones"]
    assert "spent 1" in out and "grit 1" in out and "…" not in out
    wide = _status_at(combat.db, "120")
    assert "side" in wide and "11 (9+2)" in wide  # the full table from 64 columns on


def test_columns_0_still_prints_the_table(combat):
    """COLUMNS=0 (some CI runners, sudo) is no terminal width at all: lay out
    for 80 columns rather than print nothing."""
    combat("new", "street")
    combat("add", "Rook", "--pc")
    out = _status_at(combat.db, "0")
    assert out.startswith("street — setting up") and "rook" in out


def test_stats_fit_80_columns_with_headers_whole_and_a_narrow_pane_in_lines(combat):
    """`combat stats` piped or in an 80-column terminal shows every header
    whole; under 64 columns each combatant and round is a line of words."""
    from rich.cells import cell_len
    combat("demo")
    run = lambda columns: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "cli", "--db", str(combat.db), "--encounter", "demo-1", "stats"],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "COLUMNS": columns, "NO_COLOR": "1"}).stdout
    wide = run("80")
    assert all(cell_len(line) <= 80 for line in wide.splitlines()) and "…" not in wide, wide
    for header in ("combatant", "turns", "intr.", "seizes", "gained", "per pass", "unspent"):
        assert header in wide
    campaign = subprocess.run(
        [sys.executable, "-m", "cli", "--db", str(combat.db), "stats", "--all"],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "COLUMNS": "80", "NO_COLOR": "1"}).stdout
    assert all(cell_len(line) <= 80 for line in campaign.splitlines()), campaign
    assert "…" not in campaign and "fights" in campaign and "seizes" in campaign
    narrow = run("40")
    assert all(cell_len(line) <= 40 for line in narrow.splitlines()) and "…" not in narrow
    words = " ".join(narrow.split())  # (wrapped where the width says)
    assert "Rook: 4 turns, AP 7 in turns, 0 on intr., 2 left;" in words  # the demo's figures, by name
    assert "round 3: 1 pass (5 turns), 11 AP spent" in words


# -- once committed, exit 0 whatever the output does -----------------------------

def spent(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT count(*) FROM events WHERE type = 'APSpent'").fetchone()[0]
    finally:
        con.close()


def test_r29_committed_action_exits_0_on_a_closed_pipe(alley):
    read_end, write_end = os.pipe()
    os.close(read_end)  # `| true`: the reader is gone before the first byte
    try:
        result = real(alley.db, "act", "rook", "minor", "shoots", stdout=write_end)
    finally:
        os.close(write_end)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert spent(alley.db) == 1


def test_committed_action_exits_0_on_a_full_disk(alley):
    with open("/dev/full", "w") as full:
        result = real(alley.db, "act", "rook", "minor", stdout=full)
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("warning: the declaration was recorded")
    assert spent(alley.db) == 1


def test_committed_action_exits_0_with_an_ascii_output(alley):
    result = real(alley.db, "act", "rook", "minor", env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert "? rook spends 1 AP" in result.stdout  # ✓ replaced, not fatal
    assert spent(alley.db) == 1


@pytest.mark.parametrize("line", [["stats"], ["replay"], ["status"], ["log"],
                                  ["export", "--format", "csv"], ["log", "--json"]])
def test_reading_into_a_closed_pipe_is_silent(line, tmp_path):
    db = tmp_path / "ledger.db"
    assert real(db, "demo", stdout=subprocess.DEVNULL).returncode == 0
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = real(db, *line, stdout=write_end)
    finally:
        os.close(write_end)
    assert (result.returncode, result.stderr) == (0, "")


def test_reading_onto_a_full_disk_is_one_error_line(alley):
    with open("/dev/full", "w") as full:
        result = real(alley.db, "log", stdout=full)
    assert one_error_line(result) == "error: cannot write the output: No space left on device\n"


# -- scripts and files that never end --------------------------------------------

def test_demo_of_an_endless_device_stops_at_the_limit(tmp_path):
    result = real(tmp_path / "ledger.db", "demo", "/dev/zero", timeout=20)
    assert one_error_line(result) == ("error: /dev/zero is larger than 1 MiB, "
                                      "the most a script may be\n")


def test_demo_script_that_runs_itself_is_refused(combat, tmp_path):
    script = tmp_path / "loop.combat"
    script.write_text("new loop\nnote once\ndemo loop.combat\n")
    combat("new", "first")
    err = combat("demo", script, code=1).stderr
    assert err == "error: loop.combat line 3: a script cannot run `combat demo`\n"
    assert "loop" not in combat("list").stdout  # refused before anything was played


def test_version_prints_the_installed_version(combat):
    from importlib.metadata import version
    expected = f"combat-ledger {version('combat-ledger')}\n"
    assert combat("--version").stdout == expected
    done = subprocess.run([sys.executable, "-m", "cli", "--version"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == expected


# -- log --who, an empty filter, local time --------------------------------------

def test_log_who_lists_an_amended_action_under_whom_it_now_names(combat):
    for args in (["new", "x"], ["add", "Ann", "--pc"], ["add", "Bob", "--pc"],
                 ["add", "Cid"], ["roll", "ann", "--die", "9"], ["roll", "bob", "--die", "3"],
                 ["roll", "cid", "--die", "2"], ["round"], ["interrupt", "cid", "1", "parries"]):
        combat(*args)
    combat("amend", "9", "--who", "bob")
    assert "parries" in combat("log", "--who", "bob").stdout
    assert "parries" not in combat("log", "--who", "cid").stdout
    assert "parries" in combat("log", "--who", "Bo").stdout  # a prefix, as everywhere


def test_log_with_a_filter_that_matches_nothing_says_so_in_one_line(combat):
    combat("new", "x")
    combat("add", "Ann", "--pc")
    out = combat("log", "--round", "7").stdout
    assert out.strip() == "nothing in the log of x matches"


def test_log_shows_local_time_and_utc_on_asking(combat, monkeypatch):
    import time
    monkeypatch.setenv("TZ", "Asia/Kolkata")  # +05:30: never the same clock as UTC
    time.tzset()
    try:
        combat("new", "x")
        entry = __import__("json").loads(combat("log", "--json").stdout)[0]
        local = combat("log").stdout
        utc = combat("log", "--utc").stdout
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    from datetime import datetime, timedelta
    stored = datetime.fromisoformat(entry["at"].replace("Z", "+00:00"))
    assert stored.strftime("%H:%M:%S") in utc and "UTC" in utc
    assert (stored + timedelta(hours=5, minutes=30)).strftime("%H:%M:%S") in local
    assert "time" in local


# -- archive, rename, delete (docs/commands.md) --------------------------------------------

def test_archive_hides_an_encounter_from_list_until_unarchived(combat):
    import json
    for eid in ("demo-1", "real"):
        combat("new", eid)
    combat("archive", "demo-1")
    assert [r["id"] for r in json.loads(combat("list", "--json").stdout)] == ["real"]
    every = json.loads(combat("list", "--all", "--json").stdout)
    assert [(r["id"], r.get("archived", False)) for r in every] == [("demo-1", True),
                                                                    ("real", False)]
    assert "Encounter demo-1 created" in combat("--encounter", "demo-1", "log").stdout
    combat("unarchive", "demo-1")
    assert len(json.loads(combat("list", "--json").stdout)) == 2


def test_rename_is_an_event_and_the_list_shows_the_new_title(combat):
    import json
    combat("new", "x", "--title", "Old")
    combat("end")
    combat("rename", "x", "--title", "Warehouse, part 1")  # the record's own: after the end too
    log = json.loads(combat("log", "--json").stdout)
    assert log[-1]["type"] == "EncounterRenamed" and log[-1]["data"] == {
        "title": "Warehouse, part 1"}
    assert json.loads(combat("list", "--json").stdout)[0]["title"] == "Warehouse, part 1"
    assert json.loads(combat("status", "--json").stdout)["title"] == "Warehouse, part 1"
    assert combat("rename", "x", "--title", "two\nlines", code=1).stderr.startswith("error: ")


def test_delete_needs_the_id_twice_and_removes_the_whole_encounter(combat):
    import json
    combat("new", "scratch")
    combat("new", "keep")
    err = combat("delete", "scratch", code=1).stderr
    assert err.strip() == ("error: delete removes the whole log of scratch from the store: "
                           "confirm with --confirm scratch")
    combat("delete", "scratch", "--confirm", "scratch")
    assert [r["id"] for r in json.loads(combat("list", "--all", "--json").stdout)] == ["keep"]
    combat("--encounter", "scratch", "status", code=1)
