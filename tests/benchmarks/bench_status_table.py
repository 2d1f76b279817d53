"""`combat status`'s table at the roster bound (1,000 combatants), written
by cli/ink.py as the command writes it, beside cli/quicktable.py (what play
mode draws it with) and rich's own layout of the same table (the floor
before either: 1.9 s here). All three draw the same text and colours
(tests/test_ink.py, tests/test_status_speed.py). And `combat log`'s table
of 1,000 lines the same ways (ink's, rich's).

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


def inked_ms(grid, repeat: int) -> float:
    from cli.ink import Page, Screen
    times = []
    for _ in range(repeat):
        page = Page()
        page.grid(grid)
        start = time.perf_counter()
        page.text(Screen(160, True, True))
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def log_grid(lines: int = 1_000):
    """A log of `lines` lines, long declarations among them (they wrap)."""
    grid = render.Grid([("seq", "right"), ("time", "left"), ("actor", "left"),
                        ("when", "left"), ("declaration", "left")],
                       [True, False, False, False, False], title="log of horde")
    for n in range(1, lines + 1):
        said = ("rook spends 2 AP (major): " + "shoots the ganger twice " * (n % 4)).strip()
        grid.add_row(str(n), "20:15:07", "gm", f"round {n // 40} pass 1", said)
    return grid


def measure(repeat: int = 3) -> dict:
    state = army()
    quick = render.status_table(state)
    rich_table = getattr(quick, "table", quick)
    grid = render.status_grid(state, 160)
    ours, played, floor = (inked_ms(grid, repeat), drawn_ms(quick, repeat),
                           drawn_ms(rich_table, repeat))
    log = log_grid()
    log_ours, log_rich = inked_ms(log, repeat), drawn_ms(log.to_rich().table, repeat)
    return {"status_table_ms": round(ours, 1), "quicktable_ms": round(played, 1),
            "rich_layout_ms": round(floor, 1), "ratio": round(ours / floor, 3),
            "log_1000_ms": round(log_ours, 1), "log_1000_rich_ms": round(log_rich, 1),
            "log_ratio": round(log_ours / log_rich, 3)}


def show(got: dict) -> None:
    print(f"status table at {MAX_COMBATANTS:,} combatants: {got['status_table_ms']} ms "
          f"(play mode's: {got['quicktable_ms']} ms); rich's own layout of it: "
          f"{got['rich_layout_ms']} ms ({got['ratio']}x)")
    print(f"log of 1,000 lines: {got['log_1000_ms']} ms; rich's layout of it: "
          f"{got['log_1000_rich_ms']} ms ({got['log_ratio']}x)")


if __name__ == "__main__":
    show(measure())
