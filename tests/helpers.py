"""Shared test helpers (never fixtures, never imported from conftest):
given/when/then for the rules, the stores every contract and
store-independent test runs against, and `combat` run in this process.

    s = given(pc("rook", bonus=3), rolled("rook", 7, 3), RoundStarted(round=1))
    when(s, APSpent(combatant="rook", cost=2, category="major"))  # accepted: returns new state
    refused(s, APSpent(combatant="rook", cost=5, category="custom"), "R17")  # refused, citing the rule
"""
from __future__ import annotations

import atexit
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from eventlog.errors import Refusal
from eventlog.events import (
    APSpent, CombatantJoined, EncounterCreated, InitiativeRolled, InterruptTaken,
    Payload, RoundStarted, TurnEnded,
)
from projections.ledger import Ledger, apply
from projections.domain.state import State
from projections.reports.views import status

# -- given/when/then for the rules ------------------------------------------


def pc(cid: str, bonus: int = 0, ap: int = 3, grit: int = 0, group: str | None = None) -> CombatantJoined:
    return CombatantJoined(id=cid, name=cid.title(), side="pc", bonus=bonus,
                           max_ap=ap, grit=grit, group=group)


def npc(cid: str, bonus: int = 0, ap: int = 3, grit: int = 0, group: str | None = None) -> CombatantJoined:
    return CombatantJoined(id=cid, name=cid.title(), side="npc", bonus=bonus,
                           max_ap=ap, grit=grit, group=group)


def rolled(slot: str, die: int, bonus: int = 0) -> InitiativeRolled:
    """A physical roll for `slot`; pass the slot's bonus (R1)."""
    return InitiativeRolled(slot=slot, die=die, bonus=bonus, total=die + bonus, manual=True)


def given(*payloads: Payload) -> State:
    """The state after these declarations, each judged in turn."""
    return apply(State("test"), [EncounterCreated(encounter="test"), *payloads])


def when(state: State, *payloads: Payload) -> State:
    """Judge and apply declarations; the given state is left untouched."""
    return apply(state, payloads)


def refused(state: State, payload: Payload, rule: str) -> str:
    """Assert that the judge refuses `payload`, citing `rule`; the message."""
    with pytest.raises(Refusal) as caught:
        apply(state, [payload])
    message = str(caught.value)
    assert f"{rule})" in message or f"{rule}," in message, message
    return message


CATEGORY = {1: "minor", 2: "major"}  # R16; any other cost is custom


def spend(cid: str, cost: int = 1, category: str | None = None) -> APSpent:
    return APSpent(combatant=cid, cost=cost, category=category or CATEGORY.get(cost, "custom"))


def interrupt(cid: str, cost: int) -> InterruptTaken:
    return InterruptTaken(combatant=cid, cost=cost, category=CATEGORY.get(cost, "custom"))


def end(cid: str) -> TurnEnded:
    return TurnEnded(combatant=cid)


def duel(ash_ap: int = 3, brute_ap: int = 3) -> State:
    """Ash (pc, 9) acts before Brute (npc, 5); round 1 has started: Ash is acting."""
    return given(pc("ash", ap=ash_ap), npc("brute", ap=brute_ap),
                 rolled("ash", 9), rolled("brute", 5), RoundStarted(round=1))


# What `status --json` shows of a state.
def who(state: State, cid: str) -> dict:
    return next(c for c in status(state)["combatants"] if c["id"] == cid)


row = who


def ap(state: State, cid: str) -> int:
    return who(state, cid)["ap"]


def order(state: State) -> list[str]:
    return status(state)["order"]


def up(state: State) -> list[str]:
    return status(state)["up"]


def acting(state: State) -> str | None:
    return status(state)["acting"]


def ties(s) -> list[list[str]]:
    return status(s)["ties"]


def turn(s, cid: str, cost: int = 1):
    """`cid` spends `cost` AP in its turn, then ends the turn if still in it."""
    assert acting(s) == cid, status(s)
    if cost:
        s = when(s, spend(cid, cost))
    if acting(s) == cid:
        s = when(s, end(cid))
    return s


def said_at_the_table(ledger: Ledger, title: str, label: str) -> None:
    """Encounter `raid` titled `title`, where rook spends 1 AP labelled
    `label`: what people typed, for the exports to escape."""
    ledger.new("raid", title, "gm")
    ledger.declare("raid", lambda s: [pc("rook"), rolled("rook", 4)], "gm")
    ledger.declare("raid", lambda s: [RoundStarted(round=1)], "gm")
    ledger.declare("raid", lambda s: [APSpent(combatant="rook", cost=1, category="minor",
                                              label=label)], "gm")


def tied_round(ledger):
    """Guards (9) act, then Kai is reached and `order lin kai` puts Lin first."""
    ledger.new("r", "", "gm")
    ledger.declare("r", lambda s: [npc("guards"), pc("kai"), pc("lin"), rolled("guards", 9),
                                   rolled("kai", 5), rolled("lin", 5)], "gm")
    ledger.declare("r", lambda s: [RoundStarted(round=1)], "gm")
    ledger.declare("r", lambda s: [spend("guards", 1)], "gm")
    ledger.declare("r", lambda s: [end("guards")], "gm")
    from projections.domain.asks import declared_order
    ledger.declare("r", lambda s: [declared_order(s, ["lin", "kai"], "gm")], "gm")
    for cid in ("lin", "kai"):
        ledger.declare("r", lambda s, cid=cid: [spend(cid, 1)], "gm")
        ledger.declare("r", lambda s, cid=cid: [end(cid)], "gm")


# -- the stores -------------------------------------------------------------

STORES = ["sqlite", "memory", "postgres"]
_server = None


def pg_server():
    """The PostgreSQL server of this test run (tests/pgserver.py), started on
    first use and stopped when the run ends; skips the test, in one line,
    when there is none."""
    global _server
    if _server is None:
        from pgserver import Server
        _server = Server()
        atexit.register(_server.close)
    if _server.url is None:
        pytest.skip(_server.why)
    return _server


def fresh_db(kind: str, folder: Path, name: str = "table.db"):
    """Where a fresh store of `kind` is: a SQLite file `name` in `folder`, or
    on PostgreSQL ("postgres" or "pg") the URL of a schema of its own."""
    return pg_server().fresh_url() if kind in ("postgres", "pg") else folder / name


def make_store(kind: str, folder: Path):
    """A fresh, empty store of `kind` (the file lives in `folder`; on
    PostgreSQL, a schema of its own)."""
    if kind == "sqlite":
        from eventlog.stores.sqlite import Store
        return Store(folder / f"contract-{len(list(folder.glob('contract-*')))}.db")
    if kind in ("postgres", "postgres-pool"):  # (the pool: the table server's, shared by threads)
        from eventlog.stores.postgres import PostgresStore
        return PostgresStore(pg_server().fresh_url(), pool=3 if kind == "postgres-pool" else None)
    from eventlog.stores.memory import MemoryStore
    return MemoryStore()


def another_handle(store):
    """The same store as another program would reach it (its own connection)."""
    url = getattr(store, "url", None)
    if url is not None:
        from eventlog.stores.postgres import PostgresStore
        return PostgresStore(url)
    path = getattr(store, "path", None)
    if path is None:
        return store  # one process: the store is the handle
    from eventlog.stores.sqlite import Store
    return Store(path)


# -- the command line in-process ------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def cli_env(db: Path, columns: int = 120) -> dict:
    """The environment of a `combat` run in a test: this store, no current
    encounter or actor from the shell, plain text at a fixed width."""
    return {"COMBAT_DB": str(db), "COMBAT_ENCOUNTER": None, "COMBAT_ACTOR": None,
            "NO_COLOR": "1", "COLUMNS": str(columns)}


def build_commands_once() -> None:
    """typer's CliRunner builds the click command from the app again on every
    `invoke`, reading every option of every command from its function's
    signature: most of a quick command's time in process. What a function's
    signature says is read once per process instead (the click command is
    still built afresh each time: typer's keeps the last run's arguments,
    the store among them, for as long as it lives)."""
    import functools

    import typer.main
    if hasattr(typer.main.get_params_from_function, "cache_info"):
        return
    typer.main.get_params_from_function = functools.cache(typer.main.get_params_from_function)


build_commands_once()  # (every CliRunner of a test process: conftest imports this module)


def in_process(env: dict):
    """`combat ARGS` run in this process with `env`, its exit code checked
    (`code=`); `.db` is the store it reaches."""
    from typer.testing import CliRunner

    from cli.app import app
    runner = CliRunner()

    def combat(*args, code=0, input=None):
        result = runner.invoke(app, [str(a) for a in args], env=env, input=input)
        assert result.exit_code == code, (args, result.stdout, result.stderr,
                                          result.exception)
        return result
    combat.db, combat.env = Path(env["COMBAT_DB"]), env
    return combat


def street_fight(tmp_path: Path, columns: int = 120) -> dict:
    """examples/street-fight.combat played by `combat demo` into a fresh
    store in tmp_path (encounter demo-1); returns the environment reaching it."""
    env = cli_env(tmp_path / "ledger.db", columns)
    in_process(env)("demo", EXAMPLES / "street-fight.combat")
    return env


def contents(db: Path) -> tuple:
    """Everything a command or an import could have stored or changed in the
    store `db`: its events, encounters (with their heads) and meta."""
    con = sqlite3.connect(db)
    try:
        return (con.execute("SELECT * FROM events ORDER BY encounter, seq").fetchall(),
                con.execute("SELECT id, head_seq, head_hash FROM encounters "
                            "ORDER BY id").fetchall(),
                con.execute("SELECT * FROM meta ORDER BY key").fetchall())
    finally:
        con.close()


def rechain(doc: dict, start: int = 0) -> dict:
    """Hash a json export's events again from index `start`, and its header's
    head, as a careful forger would, so that it passes the chain (R30) and
    reaches the judge."""
    from eventlog.codec import GENESIS, event_hash
    events = doc["events"]
    prev = events[start - 1]["hash"] if start else GENESIS
    for ev in events[start:]:
        ev["prev_hash"] = prev
        ev["hash"] = prev = event_hash(ev["seq"], ev["batch"], ev["type"], ev["at"],
                                       ev["actor"], ev["data"], prev)
    if isinstance(doc.get("encounter"), dict) and events:
        doc["encounter"].update(events=events[-1]["seq"], head_hash=events[-1]["hash"])
    return doc


def real(db: Path, *args: str, stdout=subprocess.PIPE, env=None, timeout=60,
         cwd=None) -> subprocess.CompletedProcess:
    """`combat --db DB ARGS` in a real process (its streams as given)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("COMBAT_")}
    return subprocess.run([sys.executable, "-m", "cli", "--db", str(db), *args],
                          env={**base, "NO_COLOR": "1", **(env or {})}, cwd=cwd or ROOT,
                          stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=timeout)


def one_error_line(result) -> str:
    """The stderr of a real process that refused in one clean line (exit 1)."""
    err = result.stderr
    assert result.returncode == 1, (result.returncode, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "unexpected failure" not in err and "Traceback" not in err, err
    return err


def damage(db: Path, sql: str, *args) -> None:
    """Run `sql` on the SQLite store `db` behind the program's back."""
    con = sqlite3.connect(db)
    con.execute(sql, args)
    con.commit()
    con.close()


def as_logged_at_the_source(imported: list[dict]) -> list[dict]:
    """`log --json` of an imported encounter as its source logged it: the
    import marks every event `imported` (R29) and changes nothing else, so
    the events of a file that predates the mark compare equal too."""
    assert all(e["imported"] for e in imported), "an import marks every event it brings"
    return [{k: v for k, v in e.items() if k != "imported"} for e in imported]


def unmarked(events: list[dict]) -> list[dict]:
    """Events without the derived `imported` (an export written before it)."""
    return [{k: v for k, v in e.items() if k != "imported"} for e in events]

