"""Concurrency: four players' terminals declaring into one encounter at once,
racing for the same turn; and a database another program holds locked.

Nothing acknowledged is lost or duplicated, every refusal is one clean
`error:` line that names the rule or the conflict, notes never fail (a
declaration that lost a race is judged again and retried), the log verifies
(R30) and still holds no illegal move; a lock gives a clear error after a
bounded wait, never a hang.
"""
from __future__ import annotations

import gc
import json
import os
import random
import re
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from eventlog.chain import verify_chain
from eventlog.stores import BUSY_TIMEOUT_S, busy_timeout
from eventlog.stores.sqlite import Store
from projections.ledger import Ledger
from projections.inputs.transfer import export_json, import_log, read_export
from projections.reports.views import status

import workers
from eventlog.stores import open_store
from helpers import pg_server

E = "brawl"
PLAYERS = 4
DECLARATIONS = 50  # per player
ROOT = Path(__file__).resolve().parent.parent
REFUSAL = re.compile(r"error: \S.*(\(R\d+[^()]*\)|another declaration was appended first"
                     r"|changing too fast.*)\n\Z")


def _table(db: str) -> None:
    runner = CliRunner()
    for args in (["new", E], ["add", "Rook", "--pc", "--bonus", "3"],
                 ["add", "Vex", "--pc", "--bonus", "2", "--ap", "4"],
                 ["add", "Boss", "--bonus", "1", "--ap", "5"],
                 ["add", "Ganger", "--count", "2", "--group", "gangers"],
                 ["roll", "rook", "--die", "7"], ["roll", "vex", "--die", "4"],
                 ["roll", "boss", "--die", "6"], ["roll", "gangers", "--die", "2"],
                 ["round"]):
        result = runner.invoke(app, ["--db", db, *args], env=workers.CLEAN_ENV)
        assert result.exit_code == 0, (args, result.output)
    del result
    gc.collect()  # the commands' connections are closed: only the test's own remain


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_four_players_declaring_at_once_lose_nothing_and_refuse_cleanly(kind, tmp_path):
    db = pg_server().fresh_url() if kind == "postgres" else str(tmp_path / "brawl.db")
    _table(db)
    store = open_store(db)
    setup = store.head(E)[0]
    ctx = workers.context()
    go = ctx.Event()
    names = [f"p{k}" for k in range(1, PLAYERS + 1)]
    seeds = [random.getrandbits(32) for _ in names]
    print(f"seeds {seeds}")  # shown if the test fails: the same choices again
    procs = [ctx.Process(target=workers.player,
                         args=(db, name, DECLARATIONS, str(tmp_path / f"{name}.report"),
                               seed, go)) for name, seed in zip(names, seeds)]
    for p in procs:
        p.start()
    go.set()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0] * PLAYERS

    rows = list(store.rows(E))
    events = Ledger(store).event_dicts(E)
    labels = Counter((e["actor"], e["data"].get("text") or e["data"].get("label"))
                     for e in events[setup:])
    kinds = Counter((e["actor"], e["type"]) for e in events[setup:])
    acknowledged = refused = conflicts = 0
    expected_kinds = Counter()
    for name in names:
        report = workers.read_report(tmp_path / f"{name}.report")
        did = [line[1:] for line in report if line[0] == "did"]
        conflicts += next(line[1] for line in report if line[0] == "conflicts")
        assert len(did) == DECLARATIONS
        for args, code, stderr, error in did:
            assert error is None, (args, error)  # never a crash
            label = args[-1] if args[0] in ("note", "act", "interrupt") else None
            if code == 0:
                acknowledged += 1
                assert stderr == "", (args, stderr)
                expected_kinds[(name, {"note": "NoteAdded", "act": "APSpent",
                                       "interrupt": "InterruptTaken", "end-turn": "TurnEnded",
                                       "round": "RoundStarted"}[args[0]])] += 1
                if label:  # stored once, by this player
                    assert labels[(name, label)] == 1, (args, labels[(name, label)])
            else:
                refused += 1
                assert args[0] != "note", (args, stderr)  # notes never fail
                assert code == 1 and REFUSAL.match(stderr), (args, code, stderr)
                assert "Traceback" not in stderr and "unexpected" not in stderr
                if label:
                    assert labels[(name, label)] == 0, (args, stderr)
    # one batch per acknowledged declaration, of the kind declared: nothing
    # lost, nothing duplicated, nothing stored for a refusal
    assert kinds == expected_kinds
    assert len(rows) == setup + acknowledged
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
    assert all(r[0] == r[1] for r in rows[setup:])
    assert verify_chain(rows, store.head(E)).ok

    # and the races left a legal log: an export of it is judged again on import
    copy = Ledger(Store(tmp_path / "copy.db"))
    state = import_log(copy, read_export(json.dumps(export_json(Ledger(store), E)).encode(),
                                         "brawl.json"), None)
    assert status(state) == status(Ledger(store).state(E))
    store.close()
    copy.store.close()
    assert acknowledged > PLAYERS * DECLARATIONS // 2 and refused > 0
    print(f"\nconcurrency ({kind}): {PLAYERS} players x {DECLARATIONS} declarations: {acknowledged} "
          f"acknowledged, {len(rows) - setup} stored, {refused} refused cleanly, "
          f"{conflicts} lost races judged again")


# -- another program holds the database ------------------------------------------

HOLDER = textwrap.dedent("""
    import sqlite3, sys
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    for statement in sys.argv[2:]:
        db.execute(statement).fetchall()
    print("holding", flush=True)
    sys.stdin.read()   # until the test lets go
    db.execute("ROLLBACK")
""")
WAIT = 0.5  # COMBAT_BUSY_TIMEOUT for these tests, in seconds


@pytest.fixture
def table(tmp_path):
    db = tmp_path / "held.db"
    _table(str(db))
    env = {**os.environ, "COMBAT_DB": str(db), "COMBAT_BUSY_TIMEOUT": str(WAIT),
           "NO_COLOR": "1", "COLUMNS": "120"}
    for key in ("COMBAT_ENCOUNTER", "COMBAT_ACTOR", "COMBAT_DEBUG"):
        env.pop(key, None)

    def combat(*args):
        """A real `combat` process: a hang fails the test instead of stalling it."""
        started = time.monotonic()
        result = subprocess.run([sys.executable, "-m", "cli", *args], env=env, cwd=ROOT,
                                capture_output=True, text=True, timeout=60)
        return result, time.monotonic() - started
    combat.db = db
    return combat


def _held(db: Path, *statements):
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(db), *statements],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    line = holder.stdout.readline()
    assert line == "holding\n", holder.stderr.read()
    return holder


def _release(holder) -> None:
    holder.stdin.close()
    holder.wait(30)


def _log(db: Path) -> list:
    store = Store(db)
    rows = list(store.rows(E))
    store.close()
    return rows


def test_long_read_transaction_of_another_program_blocks_nobody(table):
    holder = _held(table.db, "BEGIN", "SELECT count(*) FROM events")
    try:
        result, took = table("note", "declared while a report is read")
        assert result.returncode == 0, result.stderr
        read, _ = table("status", "--json")
        assert read.returncode == 0 and json.loads(read.stdout)["seq"] == len(_log(table.db))
    finally:
        _release(holder)
    assert took < WAIT + 10
    assert verify_chain(_log(table.db)).ok


def test_held_write_lock_is_a_clear_error_after_a_bounded_wait(table):
    before = _log(table.db)
    holder = _held(table.db, "BEGIN IMMEDIATE")
    try:
        result, took = table("note", "declared while another program writes")
        read, _ = table("status", "--json")  # the table can still look
    finally:
        _release(holder)
    assert result.returncode == 1
    assert result.stderr == (f"error: {table.db} is locked by another program; "
                             f"gave up after {WAIT:g} s\n")
    assert WAIT <= took < WAIT + 10
    assert read.returncode == 0 and json.loads(read.stdout)["seq"] == len(before)
    assert _log(table.db) == before  # nothing appended
    again, _ = table("note", "declared once the lock is gone")
    assert again.returncode == 0, again.stderr
    assert len(_log(table.db)) == len(before) + 1


def test_exclusive_lock_is_a_clear_error_for_every_command(table):
    before = _log(table.db)
    holder = _held(table.db, "PRAGMA locking_mode = EXCLUSIVE", "BEGIN EXCLUSIVE",
                   "SELECT count(*) FROM events")
    try:
        outcomes = [table(*args) for args in (["note", "x"], ["status"], ["verify"])]
    finally:
        _release(holder)
    for result, took in outcomes:
        assert result.returncode == 1
        assert result.stderr == (f"error: {table.db} is locked by another program; "
                                 f"gave up after {WAIT:g} s\n")
        assert "Traceback" not in result.stderr
        assert took < WAIT + 10
    assert _log(table.db) == before


@pytest.mark.parametrize("value,seconds", [
    (None, BUSY_TIMEOUT_S), ("0.25", 0.25), ("0", 0.0), ("12", 12.0),
    ("soon", BUSY_TIMEOUT_S), ("-1", BUSY_TIMEOUT_S), ("inf", BUSY_TIMEOUT_S),
    ("nan", BUSY_TIMEOUT_S), ("", BUSY_TIMEOUT_S),
])
def test_busy_timeout_from_the_environment(monkeypatch, value, seconds):
    if value is None:
        monkeypatch.delenv("COMBAT_BUSY_TIMEOUT", raising=False)
    else:
        monkeypatch.setenv("COMBAT_BUSY_TIMEOUT", value)
    assert busy_timeout() == seconds
