"""Crash safety: writers appending in a loop are killed with SIGKILL at
random moments, again and again. Whatever a writer was told had been
stored is in the log, no batch is half written, seq has no gaps and the
hash chain verifies (R30): a battery dying mid-command loses nothing the
table saw acknowledged.
"""
from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from eventlog.chain import verify_chain
from eventlog.stores import open_store
from projections.ledger import Ledger
from projections.reports.views import status

import workers
from helpers import pg_server

E = "siege"
LANES = 2          # writers alive at once, on the same encounter
KILLS = 60         # writers killed, over all lanes
ROOT = Path(__file__).resolve().parent.parent


def _kill_writers_again_and_again(db: str, tmp_path: Path, seed: int) -> list[dict]:
    """Start LANES writers, SIGKILL each at a random moment, start new ones,
    until KILLS writers have died; returns what each life reported."""
    ctx = workers.context()
    rng = random.Random(seed)
    lives = []
    while len(lives) < KILLS:
        batch = []
        for _ in range(LANES):
            life = len(lives) + len(batch)
            report = tmp_path / f"life-{life}.report"
            proc = ctx.Process(target=workers.crash_writer,
                               args=(db, E, life, str(report), rng.getrandbits(32)))
            proc.start()
            batch.append({"life": life, "proc": proc, "report": report,
                          "after": rng.uniform(0.03, 0.15)})
        _kill_while_writing(batch)
        for entry in batch:
            entry["proc"].join(10)
            assert entry["proc"].exitcode == -signal.SIGKILL, entry
            entry["lines"] = workers.read_report(entry["report"])
        lives.extend(batch)
    return lives


def _writing(report: Path) -> bool:
    """The writer has opened the store and had a declaration acknowledged."""
    return any(line[0] == "ack" for line in workers.read_report(report))


def _kill_while_writing(batch: list[dict]) -> None:
    """SIGKILL each writer `after` seconds once it is writing (its first
    declaration acknowledged), so the kill falls among its writes however
    slowly a busy machine starts it; one that never writes is killed after 30 s."""
    deadline = time.monotonic() + 30
    opened_at: dict[int, float] = {}
    alive = list(batch)
    while alive:
        now = time.monotonic()
        for entry in list(alive):
            if entry["life"] not in opened_at and (now > deadline or _writing(entry["report"])):
                opened_at[entry["life"]] = now
            if entry["life"] in opened_at and now >= opened_at[entry["life"]] + entry["after"]:
                entry["proc"].kill()
                alive.remove(entry)
        time.sleep(0.005)


def _marker(row) -> tuple[str, str, int]:
    """(actor, type, the batch it undid or redid) of an Undone or Redone row."""
    data = json.loads(row[5])
    return row[4], row[2], data["batches"][0] if row[2] == "Undone" else data["batch"]


def _note_batches(rows) -> dict[str, list[tuple]]:
    """Stored notes by the tag of the declaration that wrote them:
    tag -> [(seq, batch, actor, index, size)]."""
    found = defaultdict(list)
    for seq, batch, type_name, at, actor, data, prev_hash, digest in rows:
        if type_name == "NoteAdded":
            tag, index, size = json.loads(data)["text"].split("/")
            found[tag].append((seq, batch, actor, int(index), int(size)))
    return found


def _target(kind: str, tmp_path: Path, name: str) -> str:
    """A fresh store of `kind`: a SQLite file, or a PostgreSQL schema's URL."""
    return pg_server().fresh_url() if kind == "postgres" else str(tmp_path / name)


@pytest.mark.parametrize("store_kind", ["sqlite", "postgres"])
def test_sigkilled_writers_lose_nothing_acknowledged_and_leave_no_half_batch(store_kind, tmp_path):
    db = _target(store_kind, tmp_path, "siege.db")
    store = open_store(db)
    Ledger(store).new(E, "Killed again and again", "gm")
    store.close()  # the writers alone hold the file while they are killed

    seed = random.getrandbits(32)
    print(f"seed {seed}")  # shown if the test fails: the same kills again
    lives = _kill_writers_again_and_again(db, tmp_path, seed)

    # the file is sound, the chain verifies and seq has no gaps (R30)
    if store_kind == "sqlite":
        check = sqlite3.connect(db)
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        check.close()
    store = open_store(db)
    rows = list(store.rows(E))
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
    verdict = verify_chain(rows, store.head(E))
    assert verdict.ok, verdict

    # every batch is whole: each declaration's notes, all of them, in one batch
    stored = _note_batches(rows)
    for tag, notes in stored.items():
        seqs = [n[0] for n in notes]
        assert [n[3] for n in notes] == list(range(1, notes[0][4] + 1)), (tag, notes)
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), (tag, notes)
        assert {n[1] for n in notes} == {seqs[0]}, (tag, notes)
    batches = defaultdict(set)
    for seq, batch, type_name, *_ in rows:
        batches[batch].add(type_name)
    assert all(len(types) == 1 for types in batches.values())

    # every acknowledged declaration is stored where the writer was told;
    # at most the one in flight when the writer died is stored unacknowledged
    markers = {_marker(r) for r in rows if r[2] in ("Undone", "Redone")}
    acknowledged = in_flight = opened = 0
    for life in lives:
        actor = f"life-{life['life']}"
        lines = life["lines"]
        begun = [line[1] for line in lines if line[0] == "begin"]
        acks = [line for line in lines if line[0] == "ack"]
        opened += ["open"] in lines
        last = lines[-1] if lines else ["none"]
        in_flight += last[0] == "begin" or (last[0] == "ack" and last[2] == "undo")
        for _, tag, first, last in acks:
            acknowledged += 1
            if first in ("undo", "redo"):
                kind = "Undone" if first == "undo" else "Redone"
                assert (actor, kind, last) in markers, (tag, first, last)
                continue
            notes = stored[tag]
            assert (notes[0][0], notes[-1][0]) == (first, last), (tag, notes)
            assert {n[2] for n in notes} == {actor}, (tag, notes)
        mine = {tag for tag, notes in stored.items() if notes[0][2] == actor}
        assert mine <= set(begun)  # nothing appears that was never declared
        unacknowledged = mine - {line[1] for line in acks}
        assert unacknowledged <= set(begun[-1:]), (life["life"], unacknowledged)

    # the state the writers left folds the same from its snapshot as from seq 1
    ledger = Ledger(store)
    head = store.head(E)[0]
    assert status(ledger.state(E)) == status(ledger.state(E, at=head))
    store.close()
    result = CliRunner().invoke(app, ["--db", db, "--encounter", E, "verify"],
                                env=workers.CLEAN_ENV)
    assert result.exit_code == 0 and result.stdout.startswith("ok: "), result.output

    assert len(lives) >= 50
    assert opened >= len(lives) // 2  # most writers got to write before they died
    assert acknowledged >= len(lives)
    print(f"\ncrash ({store_kind}): {len(lives)} writers killed ({in_flight} with a declaration in "
          f"flight), {acknowledged} acknowledged declarations all stored, {head} events "
          "verify")


@pytest.mark.parametrize("store_kind", ["sqlite", "postgres"])
def test_sigkilled_combat_commands_store_whole_batches_or_nothing(store_kind, tmp_path):
    """Real `combat` processes (python -m cli), each adding a squad of 30 in
    one batch, killed at random moments around their write: a command that
    exited 0 has its squad stored; a killed one has all of it or none."""
    db = _target(store_kind, tmp_path, "squads.db")
    env = {**os.environ, "COMBAT_DB": db, "NO_COLOR": "1"}
    for key in ("COMBAT_ENCOUNTER", "COMBAT_ACTOR", "COMBAT_DEBUG"):
        env.pop(key, None)
    subprocess.run([sys.executable, "-m", "cli", "new", E], env=env, cwd=ROOT,
                   check=True, capture_output=True)

    def add_squad(squad: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "cli", "add", "Squad", "--id", squad, "--count", "30"],
            env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    # how long one such command takes on this machine, so that the kills land
    # around its write however fast or slow the machine is
    started = time.monotonic()
    assert add_squad("timed").wait(timeout=30) == 0
    took = time.monotonic() - started
    rng = random.Random()
    outcomes = {}
    round_ = 0
    while round_ < 4 or (not any(c == -signal.SIGKILL for c, _ in outcomes.values())
                         and round_ < 20):
        procs = {f"s{round_}x{lane}": None for lane in range(2)}
        for squad in procs:
            procs[squad] = add_squad(squad)
        time.sleep(rng.uniform(0.15, 0.9) * took)  # before, during or just after the write
        for squad, proc in procs.items():
            if rng.random() < 0.75:
                proc.send_signal(signal.SIGKILL)
            _, err = proc.communicate(timeout=30)
            outcomes[squad] = (proc.returncode, err.decode())
        round_ += 1

    store = open_store(db)
    rows = list(store.rows(E))
    assert verify_chain(rows, store.head(E)).ok
    members = defaultdict(list)
    for seq, batch, type_name, at, actor, data, *_ in rows:
        if type_name == "CombatantJoined":
            members[json.loads(data)["id"].rsplit("-", 1)[0]].append(batch)
    store.close()
    for squad, (code, err) in outcomes.items():
        assert code in (0, -signal.SIGKILL), (squad, code, err)
        if code == 0:
            assert len(members[squad]) == 30, squad
        assert len(members[squad]) in (0, 30), squad
        assert len(set(members[squad])) <= 1, squad  # one batch
    killed = sum(code == -signal.SIGKILL for code, _ in outcomes.values())
    assert killed >= 1
    stored = sum(len(members[squad]) == 30 for squad in outcomes)
    print(f"\nsquads ({store_kind}): one command takes {took:.2f} s; {len(outcomes)} started, "
          f"{killed} killed, {stored} stored whole, none in part")
