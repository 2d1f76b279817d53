"""The design floor of a status command: a process that imports
msgspec and sqlite3, opens the store, reads the kept snapshot and prints it
as the status JSON; with --table, as rich's table instead (the floor of
`status`). Run as `python -m statusfloor DB ENCOUNTER [--table]`, so that
its bytecode is cached like the command's.
"""
from __future__ import annotations

import sqlite3
import sys

import msgspec


def snapshot(db: str, encounter: str) -> dict:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    con.execute("SELECT head_seq, head_hash FROM encounters WHERE id = ?", (encounter,))
    row = con.execute(
        "SELECT s.state FROM snapshots s JOIN events e ON e.encounter = s.encounter "
        "AND e.seq = s.seq AND e.hash = s.hash WHERE s.encounter = ?", (encounter,)).fetchone()
    return msgspec.msgpack.decode(row[0][32:])  # (after the seal)


def table(state: dict) -> None:
    from rich.console import Console
    from rich.table import Table
    grid = Table("#", "combatant", "side", "init", "AP", "turn", "grit")
    for i, c in enumerate(state["combatants"].values(), 1):
        grid.add_row(str(i), c["name"], c["side"], str(c.get("bonus", "")),
                     "○" * c["ap"], str(c["spent_this_turn"]), str(c["grit"]))
    Console().print(grid)


def main() -> None:
    state = snapshot(sys.argv[1], sys.argv[2])
    if "--table" in sys.argv:
        table(state)
        return
    sys.stdout.write(msgspec.json.format(msgspec.json.encode(state), indent=2).decode() + "\n")


if __name__ == "__main__":
    main()
