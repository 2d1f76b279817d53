"""Served without `--encounter`, the table keeps the GM's last choice, and
with none the encounter current in the terminal that starts the server goes
on it (one deleted or archived since is passed over)."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import httpx

from serverkit import ROOT, serve_lan, stop


def combat(db, *args: str) -> None:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("COMBAT_")},
           "XDG_STATE_HOME": str(db.parent / "state")}
    done = subprocess.run([sys.executable, "-m", "cli", "--db", str(db), *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def on_table(db) -> str | None:
    lines, server = serve_lan(db)
    try:
        url = re.search(r" at (http://\S+?)/? ", "\n".join(lines)).group(1)
        secret = lines[-3].rsplit("?token=", 1)[1]
        answer = httpx.get(f"{url}/api/table", headers={"Authorization": f"Bearer {secret}"})
        assert answer.status_code == 200, answer.text
        return answer.json()["encounter"]
    finally:
        stop(server)


def test_served_without_a_choice_the_current_encounter_is_on_the_table(tmp_path):
    db = tmp_path / "ledger.db"
    combat(db, "new", "alley")
    combat(db, "new", "bay")  # (the current one now)
    assert on_table(db) == "bay"


def test_the_gms_last_choice_stays_on_the_table_across_a_restart(tmp_path):
    db = tmp_path / "ledger.db"
    combat(db, "new", "alley")
    combat(db, "new", "bay")
    lines, server = serve_lan(db, "--encounter", "alley")
    stop(server)
    assert on_table(db) == "alley"


def test_a_current_encounter_archived_is_not_put_on_the_table(tmp_path):
    db = tmp_path / "ledger.db"
    combat(db, "new", "alley")
    combat(db, "archive", "alley")
    assert on_table(db) is None
