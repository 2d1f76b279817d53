"""Long encounters for the report's tests: the benchmarks' table (10
combatants, passes, seizes, interrupts, undos) played for a number of
rounds, one of them with a very long name."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "benchmarks"))

from generate import CAST, Builder  # noqa: E402

from eventlog.events import CombatantJoined, InitiativeRolled  # noqa: E402

LONG_NAME = "Medic of the Long Night Who Never Stops Talking About Her Cousin"


def play_rounds(store, encounter: str, rounds: int, seed: int = 7) -> None:
    """`rounds` rounds of the benchmarks' table into `store` (SQLite)."""
    b = Builder(store, encounter, seed)
    b.declare(*[CombatantJoined(id=c, name=LONG_NAME if c == "medic" else c.title(),
                                side=side, bonus=bonus, max_ap=ap, grit=grit, group=g or None)
                for c, side, bonus, ap, g, grit in CAST])
    for slot in ("rook", "vex", "boss", "drone", "gangers", "sniper", "medic"):
        bonus = 1 if slot == "gangers" else b.state.combatants[slot].bonus
        die = b.rng.randint(1, 10)
        b.declare(InitiativeRolled(slot=slot, die=die, bonus=bonus, total=die + bonus,
                                   manual=False))
    for _ in range(rounds):
        b.play_round()
    b.flush()
