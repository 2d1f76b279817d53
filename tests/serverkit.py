"""The table server for tests: a real uvicorn on 127.0.0.1 (port 0) in a
thread over a SQLite file, its tokens, and an httpx client per token."""
from __future__ import annotations

from contextlib import contextmanager
import os
import re
import resource
import select
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from cli.server.run import Running
from projections.access import make
from eventlog.stores import open_store
from projections.domain import commands as c
from projections.ledger import Ledger

E = "raid"


def token(db: Path, name: str, role: str, owns: str | None = None,
          encounter: str | None = None) -> str:
    """A new token's secret; a player or view token reaches E unless told."""
    if encounter is None and role != "gm":
        encounter = E
    store = open_store(db)
    try:
        secret, kept = make(name, [role], owns, encounter)
        store.add_token(kept)
    finally:
        store.close()
    return secret


def table(db: Path, encounter: str = E) -> None:
    """Ash and Bo (PCs, Ash with Grit), a lone NPC boss and two gangers in a
    group; nothing rolled yet."""
    ledger = Ledger(open_store(db))
    for command in (c.New(id=encounter, title="Warehouse raid"),
                    c.Add(name="Ash", pc=True, bonus=2, grit=2),
                    c.Add(name="Bo", pc=True, bonus=2, grit=1),
                    c.Add(name="Boss", bonus=1),
                    c.Add(name="Ganger", group="gangers", count=2)):
        ledger.execute(None if isinstance(command, c.New) else encounter, command, "gm")
    ledger.store.close()


@contextmanager
def served(db: Path, pool: int | None = None):
    """A table server over `db` (PostgreSQL: on a pool of `pool` connections)."""
    with Running(lambda: open_store(db, pool=pool)) as running:
        yield running


@contextmanager
def served_table(db: Path, players: dict[str, tuple[str, str]] | None = None):
    """`table(db)` served, with its tokens in `running.secrets`: "gm", a view
    "tv", and a player token per key of `players` (its name, the id it owns;
    by default Ana's, owning ash, as "ash"). `running.db` is `db`."""
    table(db)
    players = {"ash": ("ana", "ash")} if players is None else players
    secrets = {"gm": token(db, "gm", "gm"), **{
        key: token(db, name, "player", owns) for key, (name, owns) in players.items()},
        "tv": token(db, "tv", "view")}
    with served(db) as running:
        running.db, running.secrets = db, secrets
        yield running


ROLLS = (("ash", 9), ("bo", 5), ("boss", 3), ("gangers", 2))  # Ash, Bo, Boss, the gangers


def rolled(http: httpx.Client, start: bool = True) -> None:
    """`table()`'s slots rolled through the server in the order ROLLS names
    (each roll refused is a failed test), and round 1 started unless not."""
    for slot, die in ROLLS:
        assert post(http, {"command": "roll", "slots": [slot], "die": die}).status_code == 200
    if start:
        assert post(http, {"command": "round"}).status_code == 200


def client(running: Running, secret: str | None, **kw) -> httpx.Client:
    headers = {"Authorization": f"Bearer {secret}"} if secret else {}
    return httpx.Client(base_url=running.url, headers=headers, timeout=10, **kw)


def post(http: httpx.Client, command: dict, encounter: str = E) -> httpx.Response:
    return http.post(f"/api/encounters/{encounter}/commands", json=command)


def log(db: Path, encounter: str = E) -> list[dict]:
    ledger = Ledger(open_store(db))
    try:
        return ledger.event_dicts(encounter)
    finally:
        ledger.store.close()


def messages(source):
    """The real messages of a stream. (httpx-sse dispatches an empty event,
    under the last id, after each keep-alive comment, unlike a browser's
    EventSource: those are left out.)"""
    for message in source.iter_sse():
        if message.data or message.event not in ("message", ""):
            yield message


# -- combat serve in a process of its own (tests of its limits) ----------------

ROOT = Path(__file__).resolve().parent.parent


def _low_file_limit() -> None:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))


@contextmanager
def serving(db: Path, with_pid: bool = False):
    """`combat serve --port 0` in its own process, with a 1,024-file soft limit."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMBAT_")}
    proc = subprocess.Popen([sys.executable, "-m", "cli", "--db", str(db), "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=ROOT, preexec_fn=_low_file_limit)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "the server did not start within 60 s"
        line = proc.stdout.readline()
        url = re.search(r"at (http://\S+?)/? ", line)
        assert url, (line, proc.poll())
        yield (url.group(1), proc.pid) if with_pid else url.group(1)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)




def serve_lan(db: Path, *args: str) -> tuple[list[str], subprocess.Popen]:
    """`combat serve --lan` over `db` in its own process, on 127.0.0.1 (a test
    contacts no other address; `--lan` picks this machine's network address
    otherwise), and its output up to the GM console's QR code (or an error)."""
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("COMBAT_")},
           "XDG_STATE_HOME": str(db.parent / "state")}
    server = subprocess.Popen([sys.executable, "-m", "cli", "--db", str(db), "serve", "--lan",
                               "--host", "127.0.0.1", "--port", "0", *args], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines: list[str] = []
    while not lines or not lines[-1].startswith(("GM console:", "error:")):
        line = server.stdout.readline()
        assert line, lines
        lines.append(line.rstrip("\n"))
    if lines[-1].startswith("GM console:"):
        lines += [server.stdout.readline().rstrip("\n") for _ in range(2)]  # a word, the QR
    return lines, server


def stop(server: subprocess.Popen) -> None:
    server.terminate()
    server.wait(15)
