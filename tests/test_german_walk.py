"""No English is left in German: every command of `combat` is walked in
German (`--lang de`) through its help and through what it refuses or says
at a table with an ended fight and a running one, and every line it prints
is read for English words (tests/english.py). A command added without a
walk here fails the first test, so none is left out."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cli.registry import COMMANDS
from english import english_left
from helpers import real

pytestmark = pytest.mark.sqlite

# The table's own words: names, ids and titles the fixture's fights hold.
DATA = {"rook", "vex", "boss", "drone", "ganger", "gangers", "demo", "brawl", "kessa",
        "drogo", "nirgends", "street", "crew", "jumps", "runners", "shoots", "hacks",
        "door", "shouts", "warning", "returns", "fire", "swings", "pipe", "reloads",
        "ducks", "behind", "crate", "eine", "gasse", "two", "players", "invalid"}
NOWHERE = "/nonexistent/nirgends"

# Each command's walk: argument lists that refuse (an unknown id, an
# illegal move, a bad value) or say something at the table below.
WALKS: dict[str, list[list[str]]] = {
    "new": [["new", "brawl"], ["new", "x" * 300]],
    "use": [["use", "nirgends"]],
    "list": [["list"], ["list", "--all"]],
    "archive": [["archive", "nirgends"]],
    "unarchive": [["unarchive", "brawl"]],
    "rename": [["rename", "nirgends", "gasse"]],
    "delete": [["delete", "nirgends"], ["delete", "brawl"]],
    "add": [["add", "Kessa", "--pc"], ["add", "Neu", "--ap", "-1"]],
    "group": [["group", "nirgends", "kessa"]],
    "roll": [["roll", "kessa", "--die", "12"], ["roll", "nirgends"]],
    "order": [["order", "kessa", "drogo"]],
    "load": [["load", NOWHERE]],
    "round": [["--encounter", "demo-1", "round"]],
    "seize": [["seize", "drogo"], ["seize", "nirgends"]],
    "act": [["act", "kessa", "9"], ["act", "drogo", "major"], ["act", "nirgends", "major"]],
    "interrupt": [["interrupt", "kessa", "minor"], ["interrupt", "drogo", "9"]],
    "end-turn": [["end-turn", "nirgends"], ["end-turn", "drogo"]],
    "leave": [["leave", "nirgends"]],
    "rejoin": [["rejoin", "kessa"]],
    "max-ap": [["max-ap", "kessa", "-1"]],
    "adjust-ap": [["adjust-ap", "nirgends", "1"]],
    "grit": [["grit", "drogo", "-1"]],
    "set-initiative": [["set-initiative", "nirgends", "5"]],
    "note": [["--encounter", "demo-1", "note", "x" * 5000]],
    "end": [["--encounter", "demo-1", "end"]],
    "undo": [["undo", "--expect", "9999"], ["--encounter", "demo-1", "undo"]],
    "redo": [["redo"]],
    "retract": [["retract", "9999"], ["retract", "1"]],
    "amend": [["amend", "9999", "--cost", "2"], ["amend", "1", "--cost", "2"]],
    "fork": [["fork", "nirgends"]],
    "effect": [["effect", "nirgends", "poisoned"]],
    "end-effect": [["end-effect", "nirgends"]],
    "track": [["track", "nirgends", "hp", "5"]],
    "hide": [["hide", "nirgends"]],
    "reveal": [["reveal", "kessa"]],
    "status": [["status"], ["--encounter", "demo-1", "status"], ["status", "--at", "99999"]],
    "log": [["log"], ["--encounter", "demo-1", "log"]],
    "verify": [["verify"]],
    "head": [["head"]],
    "export": [["export", "--format", "nope"]],
    "import": [["import", NOWHERE]],
    "demo": [["demo", NOWHERE]],
    "stats": [["--encounter", "demo-1", "stats"], ["stats", "--session", "nirgends"]],
    "report": [["report", "--out", NOWHERE + "/r.html"], ["report", "--campaign"]],
    "replay": [["--encounter", "demo-1", "replay", "--speed", "0"]],
    "schema": [["schema", "nope"]],
    "diff": [["diff", "demo-1", "nirgends"], ["diff", "demo-1", "brawl"]],
    "copy": [["copy", NOWHERE + ".db"]],
    "play": [["play", "--script", NOWHERE]],
    "token": [["token", "list"], ["token", "revoke", "nirgends"], ["token", "lang", "x", "fr"],
              ["token", "add", "tv", "--view", "--player"]],
    "hook": [["hook", "list"], ["hook", "remove", "nirgends"], ["hook", "add", "ftp://x"]],
    "serve": [["serve", "--port", "0", "--host", "nirgends.invalid"]],
    "rules": [["rules", "R19"], ["rules", "R99"]],
    "party": [["party"], ["party", "set", "nirgends", "--hp", "3"], ["party", "rest"]],
    "session": [["session", "end"]],
}
# Every subcommand's help as well as its group's.
GROUPS = {"token": ("add", "list", "approve", "lang", "revoke"),
          "hook": ("add", "list", "remove"),
          "party": ("add", "import", "set", "remove", "rest", "undo", "redo", "carry"),
          "session": ("start", "end")}


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Path:
    """A store with the German demo's raid played to its end (demo-1) and a
    running brawl: Kessa (PC) and Drogo (NPC) rolled, in round 1."""
    db = tmp_path_factory.mktemp("walk") / "ledger.db"
    for line in (["--lang", "de", "demo"], ["new", "brawl"],
                 ["add", "Kessa", "--pc", "--bonus", "2"], ["add", "Drogo", "--bonus", "1"],
                 ["roll", "kessa", "--die", "8"], ["roll", "drogo", "--die", "3"], ["round"]):
        assert real(db, *line).returncode == 0, line
    return db


def said_in_german(table: Path, tmp_path: Path, args: list[str]) -> str:
    """What `combat --lang de ARGS` prints, on its own copy of the table."""
    db = tmp_path / "ledger.db"
    shutil.copy(table, db)
    done = real(db, "--lang", "de", *args, timeout=120,
                env={"XDG_STATE_HOME": str(tmp_path / "state"), "COMBAT_ENCOUNTER": "brawl"})
    text = done.stdout + done.stderr
    assert text.strip(), f"{args}: said nothing, so nothing was read"
    if done.returncode == 1:
        assert done.stderr.startswith("Fehler: "), (args, done.stderr)
    return text


def test_every_command_has_its_walk():
    assert sorted(WALKS) == sorted(COMMANDS)


@pytest.mark.parametrize("args", [args for walks in WALKS.values() for args in walks],
                         ids=lambda args: " ".join(a[:20] for a in args))
def test_a_command_says_no_english_in_german(table, tmp_path, args):
    assert english_left(said_in_german(table, tmp_path, args), DATA) == []


HELPS = [[], *([name] for name in COMMANDS),
         *([group, sub] for group, subs in GROUPS.items() for sub in subs)]


@pytest.mark.parametrize("words", HELPS, ids=lambda words: " ".join(words) or "combat")
def test_a_commands_help_is_german(table, tmp_path, words):
    assert english_left(said_in_german(table, tmp_path, [*words, "--help"]), DATA) == []


@pytest.mark.parametrize("args", [["act"], ["roll", "kessa", "--die", "zehn"], ["statsu"],
                                  ["status", "--nope"]])
def test_wrong_usage_is_told_in_german(table, tmp_path, args):
    assert english_left(said_in_german(table, tmp_path, args), DATA) == []


@pytest.mark.parametrize("args", [["status"], ["act", "kessa", "9"], ["act", "--help"]])
def test_the_walk_sees_english_where_there_is_english(table, tmp_path, args):
    db = tmp_path / "ledger.db"
    shutil.copy(table, db)
    done = real(db, "--lang", "en", *args, env={"COMBAT_ENCOUNTER": "brawl"})
    assert english_left(done.stdout + done.stderr, DATA) != []


@pytest.mark.parametrize("args", [["report"], ["report", "--for", "players"],
                                  ["report", "--all"]], ids=" ".join)
def test_a_german_report_reads_german(table, tmp_path, args):
    import html
    import re
    out = tmp_path / "report.html"
    said_in_german(table, tmp_path, ["--encounter", "demo-1", *args, "-o", str(out)])
    page = out.read_text(encoding="utf-8")
    assert '<html lang="de"' in page
    shown = re.sub(r"(?s)<(script|style|metadata)\b.*?</\1>", " ", page)
    shown = re.sub(r'(?s)<[^>]*?(?:title|aria-label|alt)="([^"]*)"[^>]*>', r" \1 ", shown)
    text = html.unescape(re.sub(r"(?s)<[^>]+>", "\n", shown))
    assert english_left(text, DATA) == []
