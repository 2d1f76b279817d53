"""Shell completion: Tab on an ID or SLOT offers the current encounter's ids,
through the completion function and through click's completion protocol in a
real process; `--install-completion` installs a script bash can use."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli.complete import encounter_ids, encounter_names
from eventlog.events import CombatantJoined, GroupBonusSet
from eventlog.stores.sqlite import Store
from eventlog.userstate import set_current
from projections.ledger import Ledger

BIN = Path(sys.executable).parent


@pytest.fixture
def db(tmp_path, monkeypatch):
    """A store with `alley` (rook, vex, gangers of 2) and `docks` (cat), alley current."""
    path = tmp_path / "ledger.db"
    ledger = Ledger(Store(path))
    ledger.new("docks", "", "gm")
    ledger.declare("docks", lambda s: [CombatantJoined(id="cat", name="Cat")], "gm")
    ledger.new("alley", "", "gm")
    ledger.declare("alley", lambda s: [
        GroupBonusSet(group="gangers", bonus=1),
        CombatantJoined(id="rook", name="Rook", side="pc"),
        CombatantJoined(id="vex", name="Vex", side="pc"),
        CombatantJoined(id="ganger-1", name="Ganger 1", group="gangers"),
        CombatantJoined(id="ganger-2", name="Ganger 2", group="gangers")], "gm")
    set_current(ledger.store.identity, "alley")  # as `combat new alley` would
    ledger.store.close()
    monkeypatch.setenv("COMBAT_DB", str(path))
    monkeypatch.delenv("COMBAT_ENCOUNTER", raising=False)
    return path


def test_completion_offers_the_current_encounters_ids(db):
    assert encounter_ids(None, "") == ["rook", "vex", "ganger-1", "ganger-2", "gangers"]
    assert encounter_ids(None, "g", ("combatants",)) == ["ganger-1", "ganger-2"]
    assert encounter_ids(None, "g", ("groups",)) == ["gangers"]
    assert encounter_ids(None, "", ("slots",)) == ["rook", "vex", "gangers"]
    assert encounter_ids(None, "", typed=["vex"]) == ["rook", "ganger-1", "ganger-2", "gangers"]
    assert encounter_names(None, "d") == ["docks"]


def test_completion_follows_the_chosen_encounter(db, monkeypatch):
    monkeypatch.setenv("COMBAT_ENCOUNTER", "docks")
    assert encounter_ids(None, "") == ["cat"]


def test_completion_never_raises_nor_creates_a_store(tmp_path, monkeypatch):
    missing = tmp_path / "nowhere" / "ledger.db"
    monkeypatch.setenv("COMBAT_DB", str(missing))
    assert encounter_ids(None, "") == [] and encounter_names(None, "") == []
    assert not missing.parent.exists()
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not sqlite" * 100)
    monkeypatch.setenv("COMBAT_DB", str(garbage))
    assert encounter_ids(None, "") == []
    assert garbage.read_bytes() == b"not sqlite" * 100
    empty = tmp_path / "empty.db"
    Store(empty).close()  # a store without a current encounter
    monkeypatch.setenv("COMBAT_DB", str(empty))
    assert encounter_ids(None, "") == []
    monkeypatch.setenv("COMBAT_ENCOUNTER", "ghost")
    assert encounter_ids(None, "") == []


def complete(words: str, env: dict | None = None) -> list[str]:
    """What bash would offer for `words` (the last one being completed)."""
    parts = words.split(" ")
    done = subprocess.run(
        [sys.executable, "-m", "cli"], capture_output=True, text=True, timeout=60,
        env={**os.environ, **(env or {}), "_COMBAT_COMPLETE": "complete_bash",
             "COMP_WORDS": words, "COMP_CWORD": str(len(parts) - 1)})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.split()


def test_shell_completion_of_ids_in_a_real_process(db):
    assert complete("combat act r") == ["rook"]
    assert complete("combat seize ") == ["rook", "vex", "ganger-1", "ganger-2"]
    assert complete("combat roll ") == ["rook", "vex", "gangers"]  # slots (R7)
    assert complete("combat order vex ") == ["rook", "gangers"]
    assert complete("combat group ") == ["gangers"]
    assert complete("combat grit ganger-") == ["ganger-1", "ganger-2"]
    assert complete("combat set-initiative gang") == ["gangers"]
    assert complete("combat end-turn v") == ["vex"]
    assert complete("combat --encounter docks leave ") == ["cat"]
    assert sorted(complete("combat use ")) == ["alley", "docks"]


def test_shell_completion_with_db_option_and_no_store(db, tmp_path):
    assert complete(f"combat --db {db} --encounter docks rejoin ") == ["cat"]
    assert complete("combat act ", {"COMBAT_DB": str(tmp_path / "none.db")}) == []
    assert not (tmp_path / "none.db").exists()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_install_completion_works_in_bash(db, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "SHELL": "/bin/bash",
           "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", "combat --install-completion"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    script = home / ".bash_completions" / "combat.sh"
    assert "_COMBAT_COMPLETE=complete_bash" in script.read_text()
    assert str(script) in (home / ".bashrc").read_text()
    use = (f"source '{script}'; COMP_WORDS=(combat act v); COMP_CWORD=2; "
           '_combat_completion combat; printf "%s\\n" "${COMPREPLY[@]}"')
    done = subprocess.run(["bash", "-c", use], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.split() == ["vex"], done.stdout + done.stderr
