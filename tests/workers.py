"""Writer processes for the crash and concurrency tests (test_crash.py,
test_concurrency.py), started from a fork server that has already imported
the library and the command line, so a fresh writer starts in milliseconds.

Each writer reports what it did on a file of its own, one line per os.write
(a write the kernel has taken survives a SIGKILL of the writer): the parent
reads them after the writer is dead.
"""
from __future__ import annotations

import json
import multiprocessing
import os
import random

from typer.testing import CliRunner

from cli.app import app
from eventlog.errors import Conflict, LedgerError
from eventlog.events import NoteAdded
from eventlog.stores import is_url, open_store
from eventlog.stores.sqlite import Store
from projections.ledger import Ledger

CLEAN_ENV = {"COMBAT_DB": None, "COMBAT_ENCOUNTER": None, "COMBAT_ACTOR": None,
             "COMBAT_DEBUG": None, "NO_COLOR": "1", "COLUMNS": "120"}


def context():
    """Processes forked from a server that preloaded this module (started
    and warmed up here, so the first writer starts as fast as the rest)."""
    ctx = multiprocessing.get_context("forkserver")
    # pytest: each child runs the parent's main script (pytest's) again. This
    # module last: the server does not see tests/ on its path (its children
    # do), so each child imports it, on top of what is already imported.
    ctx.set_forkserver_preload(["pytest", "cli.app", "typer.testing", "projections.ledger",
                                "eventlog.stores.sqlite", "eventlog.stores.postgres",
                                "projections.reports.views", __name__])
    warm = ctx.Process(target=_nothing)
    warm.start()
    warm.join(60)
    return ctx


def _nothing() -> None:
    pass


def _say(fd: int, *fields) -> None:
    os.write(fd, (json.dumps(fields) + "\n").encode())


def read_report(path) -> list[list]:
    """The complete lines of a writer's report (a torn last line cannot
    happen with one small write per line, but is ignored all the same)."""
    lines = []
    if not os.path.exists(path):  # killed before it began
        return lines
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.endswith("\n"):
                lines.append(json.loads(line))
    return lines


# -- crash: append in a loop until killed ------------------------------------

def crash_writer(db: str, encounter: str, life: int, report: str, seed: int) -> None:
    """Append batches of 1-8 notes (with an occasional undo and redo) for as
    long as it lives. Before each declaration: ("begin", tag, size); after
    the store acknowledged it: ("ack", tag, first seq, last seq)."""
    fd = os.open(report, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    rng = random.Random(seed)
    actor = f"life-{life}"
    store = open_store(db)
    ledger = Ledger(store)
    _say(fd, "open")
    n = 0
    while True:
        n += 1
        tag = f"L{life}.{n}"
        if rng.random() < 0.12:
            _say(fd, "begin", tag, "undo")
            try:
                _, envs = ledger.undo(encounter, actor)
                _say(fd, "ack", tag, "undo", envs[0].batch)
                _, envs = ledger.redo(encounter, actor)
                _say(fd, "ack", tag, "redo", envs[0].batch)
            except LedgerError as exc:  # another writer declared in between (R27)
                _say(fd, "refused", tag, str(exc))
            continue
        size = rng.randint(1, 8)
        notes = [NoteAdded(text=f"{tag}/{i}/{size}") for i in range(1, size + 1)]
        _say(fd, "begin", tag, size)
        _, envs = ledger.declare(encounter, lambda state: notes, actor)
        _say(fd, "ack", tag, envs[0].seq, envs[-1].seq)


# -- concurrency: players declaring at the same table ------------------------

def player(db: str, name: str, count: int, report: str, seed: int, go) -> None:
    """Declare `count` commands through the command line (in this process):
    every other one a note, the rest turn actions for whoever is up now,
    racing the other players for the same turn. Each command's outcome is
    reported: (args, exit code, stderr, exception)."""
    from helpers import build_commands_once
    build_commands_once()
    fd = os.open(report, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    rng = random.Random(seed)
    runner = CliRunner()
    conflicts = []
    if is_url(db):
        from eventlog.stores.postgres import PostgresStore as kind
    else:
        kind = Store
    append = kind.append

    def counting_append(self, *args, **kwargs):  # how often a writer lost a race
        try:
            return append(self, *args, **kwargs)
        except Conflict:
            conflicts.append(1)
            raise
    kind.append = counting_append

    def combat(*args):
        return runner.invoke(app, ["--db", db, "--actor", name, *args], env=CLEAN_ENV)

    go.wait(60)
    for i in range(count):
        label = f"{name}:{i}"
        if i % 2 == 0:
            args = ["note", label]
        else:
            args = _turn_action(rng, json.loads(combat("status", "--json").stdout), label)
        result = combat(*args)
        error = None if result.exception is None or isinstance(result.exception, SystemExit) \
            else repr(result.exception)
        _say(fd, "did", args, result.exit_code, result.stderr, error)
    _say(fd, "conflicts", len(conflicts))


def _turn_action(rng: random.Random, status: dict, label: str) -> list[str]:
    """What a player at the table would declare now, as every other player
    sees the same turn: act, end it, interrupt it, or start the next round."""
    up = status["up"]
    if status["phase"] != "combat" or not up:
        return ["round"]
    who = rng.choice(up)
    others = [c["id"] for c in status["combatants"] if c["id"] != who and c["active"]]
    choice = rng.random()
    if choice < 0.35:
        return ["act", who, "minor", label]
    if choice < 0.6:
        return ["act", who, "major", label]
    if choice < 0.85:
        return ["end-turn", who]
    return ["interrupt", rng.choice(others), "minor", label]
