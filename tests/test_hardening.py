"""Issue 13, "nothing lost, nothing forged, nothing injected": each attack of
the report, reproduced, and what the program now does about it. The store's
side (a foreign file, damage, messages) is in test_hardening_store.py."""
from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from eventlog.text import csv_cell, neutral

from conftest import contents, rechain

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = "\x1b[2J\x1b[31mred\x9b\u202egnp.exe\x07"


def real(db: Path, *args: str, stdout=subprocess.PIPE, env=None, timeout=60,
         cwd=None) -> subprocess.CompletedProcess:
    """`combat --db DB ARGS` in a real process (its streams as given)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("COMBAT_")}
    return subprocess.run([sys.executable, "-m", "cli", "--db", str(db), *args],
                          env={**base, "NO_COLOR": "1", **(env or {})}, cwd=cwd or ROOT,
                          stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=timeout)


def one_error_line(result) -> str:
    err = result.stderr
    assert result.returncode == 1, (result.returncode, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "unexpected failure" not in err and "Traceback" not in err, err
    return err


@pytest.fixture
def fight(combat):
    combat("new", "alley")
    combat("add", "Rook", "--pc", "--bonus", "3")
    combat("roll", "rook", "--die", "7")
    combat("round")
    return combat


def spent(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT count(*) FROM events WHERE type = 'APSpent'").fetchone()[0]
    finally:
        con.close()


# -- item 1: export -o never destroys the store --------------------------------

@pytest.mark.parametrize("suffix", ["", "-wal", "-shm", "-journal", ".history", ".snapshots"])
def test_export_onto_the_store_or_its_sidecars_refused(fight, suffix):
    before = contents(fight.db)
    target = f"{fight.db}{suffix}"
    existed = os.path.exists(target) and Path(target).read_bytes()
    result = fight("export", "--format", "html", "-o", target, code=1)
    assert "the ledger itself" in result.stderr and result.stderr.count("\n") == 1
    assert contents(fight.db) == before
    after = os.path.exists(target) and Path(target).read_bytes()
    if suffix in ("-wal", "-shm"):  # SQLite's own: it moves their bytes as it reads
        assert not after or b"<html" not in after.lower()
    elif suffix:
        assert after == existed


def test_export_through_a_symlink_to_the_store_refused(fight, tmp_path):
    link = tmp_path / "innocent.html"
    link.symlink_to(fight.db)
    before = contents(fight.db)
    fight("export", "--format", "html", "-o", link, code=1)
    assert contents(fight.db) == before and link.is_symlink()


def test_export_onto_a_sqlite_database_needs_force(fight, tmp_path):
    other = tmp_path / "campaign.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    result = fight("export", "-o", other, code=1)
    assert "is a SQLite database" in result.stderr and "--force" in result.stderr
    fight("export", "-o", other, "--force")
    assert json.loads(other.read_text())["format"] == "combat-ledger"


def test_export_to_an_empty_path_or_a_folder_is_one_line(fight, tmp_path):
    assert fight("export", "-o", "", code=1).stderr.startswith("error: -o is empty")
    assert "is a folder" in fight("export", "-o", tmp_path, code=1).stderr


def test_export_writes_through_a_symlink_and_keeps_it(fight, tmp_path):
    (tmp_path / "reports").mkdir()
    link = tmp_path / "latest.csv"
    link.symlink_to(tmp_path / "reports" / "alley.csv")
    fight("export", "--format", "csv", "-o", link)
    assert link.is_symlink() and (tmp_path / "reports" / "alley.csv").read_text().startswith("seq,")


def test_export_to_a_fifo_or_a_device_writes_through_it(fight, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    fight("export", "--format", "jsonl", "-o", fifo)
    reader.join(10)
    assert got and got[0].startswith("{") and stat.S_ISFIFO(os.stat(fifo).st_mode)
    fight("export", "-o", os.devnull)
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


# -- item 3: once committed, exit 0 whatever the output does ------------------

def test_r29_committed_action_exits_0_on_a_closed_pipe(fight):
    read_end, write_end = os.pipe()
    os.close(read_end)  # `| true`: the reader is gone before the first byte
    try:
        result = real(fight.db, "act", "rook", "minor", "shoots", stdout=write_end)
    finally:
        os.close(write_end)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert spent(fight.db) == 1


def test_committed_action_exits_0_on_a_full_disk(fight):
    with open("/dev/full", "w") as full:
        result = real(fight.db, "act", "rook", "minor", stdout=full)
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("warning: the declaration was recorded")
    assert spent(fight.db) == 1


def test_committed_action_exits_0_with_an_ascii_output(fight):
    result = real(fight.db, "act", "rook", "minor", env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert "? rook spends 1 AP" in result.stdout  # ✓ replaced, not fatal
    assert spent(fight.db) == 1


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


def test_reading_onto_a_full_disk_is_one_error_line(fight):
    with open("/dev/full", "w") as full:
        result = real(fight.db, "log", stdout=full)
    assert one_error_line(result) == "error: cannot write the output: No space left on device\n"


# -- item 5: a witness sees the tail cut off ------------------------------------

def _cut_the_tail(db: Path) -> None:
    """Delete the last event and set the head row back to the one before."""
    con = sqlite3.connect(db)
    (last,) = con.execute("SELECT max(seq) FROM events").fetchone()
    con.execute("DELETE FROM events WHERE seq = ?", (last,))
    (digest,) = con.execute("SELECT hash FROM events WHERE seq = ?", (last - 1,)).fetchone()
    con.execute("UPDATE encounters SET head_seq = ?, head_hash = ?", (last - 1, digest))
    con.commit()
    con.close()


def test_r30_truncated_tail_with_its_head_rewritten_seen_by_a_witness(fight, tmp_path):
    fight("act", "rook", "minor")
    head = fight("head").stdout
    seq, digest = head.split()
    assert seq.isdigit() and len(digest) == 64 and head.endswith("\n")
    (tmp_path / "alley.head").write_text(head)
    fight("export", "-o", tmp_path / "alley.json")
    fight("verify", "--against", tmp_path / "alley.head")
    fight("verify", "--against", tmp_path / "alley.json")
    _cut_the_tail(fight.db)
    fight("verify")  # no chain can see this alone
    for witness in ("alley.head", "alley.json"):
        err = fight("verify", "--against", tmp_path / witness, code=1).stderr
        assert f"the witness saw seq {seq}" in err and "(R30)" in err


def test_r30_witness_sees_a_rewritten_tail(fight, tmp_path):
    (tmp_path / "alley.head").write_text(fight("head").stdout)
    _cut_the_tail(fight.db)
    fight("note", "a different ending")  # the same seq, another event
    err = fight("verify", "--against", tmp_path / "alley.head", code=1).stderr
    assert "the log was rewritten (R30)" in err


# -- item 6: no terminal escapes, in or out -------------------------------------

@pytest.mark.parametrize("line", [
    ["note", HOSTILE], ["act", "rook", "minor", HOSTILE], ["new", "x", "--title", HOSTILE],
    ["add", HOSTILE, "--id", "x"], ["leave", "rook", "--reason", HOSTILE],
    ["--actor", HOSTILE, "note", "hi"], ["undo", "--reason", "\x1b]0;pwned\x07"],
    ["note", "a\x00b"], ["act", "rook", "minor", "tab\there"], ["add", "Vex\u202e", "--id", "vex"]])
def test_control_characters_refused_on_the_command_line(fight, line):
    before = contents(fight.db)
    err = fight(*line, code=1).stderr
    assert "control character" in err or "not a valid actor" in err, err
    assert "\x1b" not in err and "\u202e" not in err and contents(fight.db) == before


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
def test_control_characters_in_a_stored_log_are_neutralised(fight, line):
    fight("act", "rook", "minor", "shoots")
    fight("note", "a note")
    forge_hostile(fight.db)
    result = fight(*line)
    assert not raw_controls(result.stdout + result.stderr), line
    if "--json" in line or line[-1] in ("jsonl", "export"):
        assert "\\u202e" in result.stdout  # the same JSON string, escaped
    else:
        assert "\\x1b" in result.stdout  # shown, visibly


def test_import_with_a_control_character_refused(fight, tmp_path):
    fight("note", "clean")
    doc = json.loads(fight("export").stdout)
    doc["events"][-1]["data"]["text"] = HOSTILE
    (tmp_path / "x.json").write_text(json.dumps(rechain(doc)))
    err = fight("import", tmp_path / "x.json", "--as", "copy", code=1).stderr
    assert "control character" in err and "\x1b" not in err


# -- item 7: no formula in a csv cell -----------------------------------------

def test_csv_cells_starting_with_a_formula_character_are_neutralised(fight):
    for label in ("=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1)"):
        fight("act", "rook", "0", label)
    rows = list(csv.DictReader(io.StringIO(fight("export", "--format", "csv").stdout)))
    labels = [r["label"] for r in rows if r["type"] == "APSpent"]
    assert labels == ["'=cmd|' /C calc'!A0", "'+1+1", "'-2+3", "'@SUM(A1)"]
    assert all(not r["text"].startswith(("=", "+", "-", "@")) for r in rows)
    assert [csv_cell(v) for v in ("\tx", "\rx", 5, "ok")] == ["'\\x09x", "'\\x0dx", 5, "ok"]


# -- item 8: every envelope field of an import is checked ----------------------

@pytest.mark.parametrize("field, value, said", [
    ("at", "<script>alert(1)</script>", "is not a UTC timestamp"),
    ("at", "2026-13-45T99:00:00Z", "is not a UTC timestamp"),
    ("actor", "", "is not a valid actor"), ("actor", "gm\nforged", "is not a valid actor"),
    ("actor", "x" * 65, "is not a valid actor")])
def test_r29_import_refuses_a_forged_envelope(fight, tmp_path, field, value, said):
    doc = json.loads(fight("export").stdout)
    doc["events"][-1][field] = value
    (tmp_path / "forged.json").write_text(json.dumps(rechain(doc)))
    before = contents(fight.db)
    err = fight("import", tmp_path / "forged.json", "--as", "copy", code=1).stderr
    assert said in err and err.startswith(f"error: event {doc['events'][-1]['seq']}: ")
    assert contents(fight.db) == before
