"""A stream's catch-up across corrections, beside what a correction costs.

    python tests/benchmarks/bench_catchup.py [--sizes 10000,100000] [--repeat 5]

For each size, an encounter of that many events (generate.py), then, as a
table plays on while a phone is away: a declaration, its undo, another,
its undo and redo, one more, and a retraction of the redone one. A client that
last saw the state before them catches up (cli/server/catchup.py, in
process, no HTTP): the statuses of the eight batches it missed. Printed
beside it: the undo itself (`Ledger.execute`, which folds the whole log
once, as its snapshot no longer holds) and the catch-up of eight plain
declarations (no correction).

A catch-up's first status folds the log once (the client's state; the
kept snapshot is the head's); what each correction in it adds is the
figure to watch: the batches it reaches back over, not the log's length.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))

from eventlog.stores.sqlite import Store  # noqa: E402
from generate import build  # noqa: E402
from projections.domain import commands as c  # noqa: E402
from projections.ledger import Ledger  # noqa: E402


def _catch_up_ms(ledger: Ledger, encounter: str, seen: int) -> float:
    from cli.server.catchup import CatchUp, next_page
    cu = CatchUp(encounter, seen, frozenset())
    start = time.perf_counter()
    while not cu.done:
        next_page(ledger, cu)
    return (time.perf_counter() - start) * 1000


def measure(sizes: list[int], repeat: int) -> dict:
    out = {}
    with tempfile.TemporaryDirectory(prefix="combat-catchup-") as work:
        store = Store(Path(work) / "bench.db")
        ledger = Ledger(store)
        for n in sizes:
            plain, corrected = f"plain-{n}", f"corrected-{n}"
            for encounter in (plain, corrected):
                build(store, encounter, n)
                ledger.state(encounter)  # (a snapshot at the head, as a table has)
            seen = store.head(plain)[0]
            for _ in range(8):
                ledger.execute(plain, c.Grit(id="rook", delta=1))
            seen_c = store.head(corrected)[0]
            ledger.execute(corrected, c.Grit(id="rook", delta=1))
            start = time.perf_counter()
            ledger.execute(corrected, c.Undo())
            undo_ms = (time.perf_counter() - start) * 1000
            ledger.execute(corrected, c.Grit(id="rook", delta=1))
            vex = ledger.execute(corrected, c.Grit(id="vex", delta=1)).events[0].seq
            for step in (c.Undo(), c.Redo(), c.Grit(id="rook", delta=-1, reason="spent"),
                         c.Retract(seq=vex, reason="not earned")):
                ledger.execute(corrected, step)
            out[n] = {
                "events": store.head(corrected)[0],
                "undo_ms": round(undo_ms, 1),
                "catch_up_plain_ms": round(statistics.median(
                    _catch_up_ms(ledger, plain, seen) for _ in range(repeat)), 1),
                "catch_up_corrected_ms": round(statistics.median(
                    _catch_up_ms(ledger, corrected, seen_c) for _ in range(repeat)), 1),
            }
        store.close()
    return out


def show(results: dict) -> None:
    print(f"{'events':>8} {'undo':>9} {'catch-up, 8 declarations':>26} "
          f"{'catch-up, 8 with 4 corrections':>32}")
    for r in results.values():
        print(f"{r['events']:>8} {r['undo_ms']:>6} ms {r['catch_up_plain_ms']:>23} ms "
              f"{r['catch_up_corrected_ms']:>29} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated event counts")
    parser.add_argument("--repeat", type=int, default=5, help="catch-ups per figure (median)")
    opts = parser.parse_args()
    show(measure([int(n) for n in opts.sizes.split(",")], opts.repeat))


if __name__ == "__main__":
    main()
