"""examples/: every roster loads, and warehouse-raid.sh plays green, with
every rule on the way, into a log that verifies."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
BIN = Path(sys.executable).parent
ROSTERS = sorted(p for p in EXAMPLES.iterdir() if p.suffix in (".toml", ".yaml", ".yml", ".json"))


def run(*args: str, db: Path, encounter: str | None = None, code: int = 0) -> str:
    env = {**os.environ, "COMBAT_DB": str(db), "NO_COLOR": "1", "COLUMNS": "120",
           "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("COMBAT_ENCOUNTER", None)
    env.pop("COMBAT_ACTOR", None)
    if encounter:
        env["COMBAT_ENCOUNTER"] = encounter
    done = subprocess.run([sys.executable, "-m", "cli", *args], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    return done.stdout


def test_there_are_example_rosters():
    assert {"party.toml", "warehouse-raid.toml"} <= {p.name for p in ROSTERS}


@pytest.mark.parametrize("roster", ROSTERS, ids=[p.name for p in ROSTERS])
def test_every_example_roster_loads(roster, tmp_path):
    db = tmp_path / "ledger.db"
    run("new", "example", db=db)
    run("load", str(roster), db=db)
    s = json.loads(run("status", "--json", db=db))
    assert s["combatants"], roster.name
    run("new", "again", "--roster", str(roster), db=db)
    again = json.loads(run("status", "--json", db=db))
    assert [c["id"] for c in again["combatants"]] == [c["id"] for c in s["combatants"]]


def test_warehouse_roster_has_pcs_npcs_a_group_and_a_drone_swarm(tmp_path):
    db = tmp_path / "ledger.db"
    run("new", "warehouse", "--roster", str(EXAMPLES / "warehouse-raid.toml"), db=db)
    s = json.loads(run("status", "--json", db=db))
    assert {c["side"] for c in s["combatants"]} == {"pc", "npc"}
    groups = {g["id"]: g for g in s["groups"]}
    assert groups["gangers"]["members"] == ["ganger-1", "ganger-2", "ganger-3"]
    assert len(groups["drones"]["members"]) == 4 and groups["drones"]["bonus"] == 2


@pytest.fixture(scope="module")
def raid(tmp_path_factory):
    """The store after examples/warehouse-raid.sh, and what it printed."""
    if shutil.which("bash") is None:
        pytest.skip("needs bash")
    db = tmp_path_factory.mktemp("raid") / "ledger.db"
    env = {**os.environ, "COMBAT_DB": str(db), "NO_COLOR": "1", "COLUMNS": "120",
           "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", str(EXAMPLES / "warehouse-raid.sh")], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    return db, done.stdout


def test_warehouse_raid_runs_green_and_verifies(raid):
    db, out = raid
    assert "error:" not in out
    verdict = json.loads(run("verify", "--json", db=db, encounter="warehouse"))
    assert verdict["ok"] is True
    assert run("verify", db=db, encounter="warehouse").startswith("ok: ")


def test_warehouse_raid_plays_three_rounds_to_the_end(raid):
    db, _ = raid
    s = json.loads(run("status", "--json", db=db, encounter="warehouse"))
    assert s["phase"] == "ended" and s["round"] == 3
    rows = {c["id"]: c for c in s["combatants"]}
    assert {"guard-1", "guard-2"} <= set(rows)  # the reinforcements
    assert rows["ganger-3"]["active"]  # left, then rejoined (R22)
    assert rows["rook"]["seized"] and rows["vex"]["seized"]
    groups = {g["id"]: g for g in s["groups"]}
    assert groups["drones"]["initiative"] == 12  # the GM's override (R4)


def test_warehouse_raid_uses_every_kind_of_declaration(raid):
    db, _ = raid
    log = json.loads(run("log", "--json", db=db, encounter="warehouse"))
    types = {e["type"] for e in log}
    assert types >= {
        "EncounterCreated", "GroupBonusSet", "CombatantJoined", "InitiativeRolled",
        "OrderDeclared", "RoundStarted", "MomentSeized", "APSpent", "FreeActionTaken",
        "InterruptTaken", "TurnEnded", "CombatantLeft", "CombatantRejoined",
        "MaxAPChanged", "APAdjusted", "GritAdjusted", "InitiativeOverridden",
        "NoteAdded", "EncounterEnded", "Undone", "Redone", "Amended", "EffectApplied"}
    kinds = {e["data"]["kind"] for e in log if e["type"] == "Undone"}
    assert kinds == {"undo", "retract"}
    contexts = {e["data"]["context"] for e in log if e["type"] == "OrderDeclared"}
    assert contexts == {"tie", "seize"}
    assert any(e["data"]["group"] == "drones" for e in log if e["type"] == "CombatantJoined")


def test_warehouse_raid_reaches_a_second_pass_r23(raid):
    _, out = raid
    assert "round 1, pass 2" in out and "round 2, pass 2" in out


def test_party_carries_grit_over_from_the_raid(raid, tmp_path):
    db, _ = raid
    copy = tmp_path / "ledger.db"
    shutil.copy(db, copy)
    run("new", "docks", "--roster", str(EXAMPLES / "party.toml"), "--carry-grit", "warehouse",
        db=copy)
    raid_grit = {c["id"]: c["grit"] for c in json.loads(
        run("status", "--json", db=copy, encounter="warehouse"))["combatants"]}
    docks = json.loads(run("status", "--json", db=copy))
    assert docks["encounter"] == "docks"
    assert {c["id"]: c["grit"] for c in docks["combatants"]} == {
        cid: raid_grit[cid] for cid in ("rook", "vex", "mara")}


def test_warehouse_raid_times_effects_on_the_ap_maximum_r14(raid):
    db, _ = raid
    def who(*extra):
        s = json.loads(run("status", "--json", *extra, db=db, encounter="warehouse"))
        return {c["id"]: c for c in s["combatants"]}
    during = who("--at", "65")  # round 2: Vex stunned for this round only
    assert during["vex"]["max_ap"] == 2
    assert [e["name"] for e in during["vex"]["effects"] if e["active"]] == ["Stunned"]
    assert during["mara"]["max_ap"] == 4  # wired reflexes wait for round 3
    end = who()  # round 3: the stun ran out by itself; Mara had 5 AP
    assert end["vex"]["max_ap"] == 3 and end["vex"]["effects"] == []
    assert [e["name"] for e in end["mara"]["effects"] if e["active"]] == ["Wired reflexes"]


def test_combat_demo_plays_the_same_raid_as_the_shell_script(raid, tmp_path):
    """The README's demo command is the warehouse raid: `combat demo` and
    warehouse-raid.sh declare the very same events from the same script."""
    db, _ = raid
    demo_db = tmp_path / "demo.db"
    out = run("demo", db=demo_db)
    assert "# Round 3: two seizers" in out and "$ combat seize rook" in out
    assert "✓ vex gains effect Stunned" in out
    assert "The warehouse raid" not in out  # the script's preamble is not shown

    def declared(path, encounter):
        log = json.loads(run("log", "--json", db=path, encounter=encounter))
        return [(e["type"], e["actor"], {k: v for k, v in e["data"].items() if k != "encounter"})
                for e in log]
    assert declared(demo_db, "demo-1") == declared(db, "warehouse")


def test_a_broken_demo_script_plays_nothing(tmp_path):
    script = tmp_path / "broken.combat"
    script.write_text('add Rook --pc\nroll rook --die 7\nact rook "major\n')
    db = tmp_path / "ledger.db"
    env_err = subprocess.run([sys.executable, "-m", "cli", "demo", str(script)],
                             env={**os.environ, "COMBAT_DB": str(db)},
                             capture_output=True, text=True, timeout=60)
    assert env_err.returncode == 1
    assert env_err.stderr.startswith("error: broken.combat line 3: ")
    assert not db.exists() or "demo-1" not in run("list", db=db)
    script.write_text("add Rook --pc\nact rook major\n")  # refused: no round yet
    err = subprocess.run([sys.executable, "-m", "cli", "demo", str(script)],
                         env={**os.environ, "COMBAT_DB": str(db)},
                         capture_output=True, text=True, timeout=60)
    assert err.returncode == 1 and "the demo stopped at `combat act rook major`" in err.stderr
