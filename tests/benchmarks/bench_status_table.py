"""`combat status`'s table at the roster bound (1,000 combatants), beside
rich's own layout of the same table (its floor before cli/quicktable.py:
1.9 s here). Both draw the same text and colours (tests/test_status_speed.py).

    python tests/benchmarks/bench_status_table.py
"""
from __future__ import annotations

import io
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402

import cli.render as render  # noqa: E402
from eventlog.events import CombatantJoined, InitiativeRolled, RoundStarted  # noqa: E402
from eventlog.stores.memory import MemoryStore  # noqa: E402
from projections.inputs.roster import MAX_COMBATANTS  # noqa: E402
from projections.ledger import Ledger  # noqa: E402


def army():
    """MAX_COMBATANTS combatants, rolled, a round running."""
    ledger = Ledger(MemoryStore())
    ledger.new("horde", "The horde", "gm")
    ids = [f"g{n // 100}-{n % 100}" for n in range(MAX_COMBATANTS)]
    ledger.declare("horde", lambda s: [
        CombatantJoined(id=i, name=i.title())
        for i in ids], "gm")
    ledger.declare("horde", lambda s: [
        InitiativeRolled(slot=i, die=1 + n % 10, bonus=0, total=1 + n % 10, manual=True)
        for n, i in enumerate(ids)], "gm")
    ledger.declare("horde", lambda s: [RoundStarted(round=1)], "gm")
    return ledger.state("horde")


def drawn_ms(renderable, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        out = Console(file=io.StringIO(), width=160, force_terminal=True)
        start = time.perf_counter()
        out.print(renderable)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def measure(repeat: int = 3) -> dict:
    quick = render.status_table(army())
    rich_table = getattr(quick, "table", quick)
    ours, floor = drawn_ms(quick, repeat), drawn_ms(rich_table, repeat)
    return {"status_table_ms": round(ours, 1), "rich_layout_ms": round(floor, 1),
            "ratio": round(ours / floor, 3)}


if __name__ == "__main__":
    got = measure()
    print(f"status table at {MAX_COMBATANTS:,} combatants: {got['status_table_ms']} ms; "
          f"rich's own layout of it: {got['rich_layout_ms']} ms ({got['ratio']}x)")
