"""Performance figures for combat-ledger, measured in one run on one machine.

    python tests/benchmarks/run.py [--quick] [--json]

Prints a table (or one JSON object) of:
  fold_eps / floor_eps  read + decode + fold of a stored encounter into the
                        full state, beside the same rows decoded by one msgspec
                        decoder into a trivial dict (Python's speed limit here)
  append_ms             one declaration judged and appended on a 10k encounter
  cli                   `status --json`, `status`, `act` on the largest
                        encounter beside the same on 1k, and beside the design
                        floor (commands.py: a process that reads the snapshot
                        and prints the status JSON; plus rich's table)
  export                `export --format json -o FILE` beside stdout, and the
                        peak RSS of every streaming format (commands.py)
  peak_rss_mb           folding the largest encounter, in a fresh process
  export_*_s            `export --format json` and `--format html -o FILE` of a
                        20k-event encounter, each a fresh `combat` process
                        (the html one imports matplotlib and draws six charts)
  the table server's    a declaration through the API beside the bare append,
  figures (server.py)   commit to the last of 100 listeners beside a bare
                        sse-starlette fan-out (ssefloor.py), 10 tables at once
  PostgreSQL            append, fold and 8 writers beside their floors
                        (bench_postgres.py), when a server can be started
  tables                `status` at 1,000 combatants and `log` of 1,000
                        lines, drawn by cli/ink.py beside rich's own layout
                        (bench_status_table.py)
  catch-up              a stream's catch-up of 8 batches with 4 corrections
                        beside 8 declarations, and an undo (bench_catchup.py)
Times are medians of interleaved runs; compare the ratios, not the seconds.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import msgspec  # noqa: E402

import commands  # noqa: E402

from eventlog.events import FreeActionTaken  # noqa: E402
from eventlog.stores.sqlite import Store  # noqa: E402
from generate import build  # noqa: E402
from projections.history import fold  # noqa: E402
from projections.ledger import Ledger  # noqa: E402
from projections.domain.state import State  # noqa: E402

PY, COMBAT = commands.PY, commands.COMBAT


def median_of(fn, repeat: int) -> float:
    return statistics.median(fn() for _ in range(repeat))


def floor_seconds(store: Store, encounter: str) -> float:
    decoder, counts = msgspec.json.Decoder(), {}
    start = time.perf_counter()
    for type_name, data in store.db.execute(
            "SELECT type, data FROM events WHERE encounter = ? ORDER BY seq", (encounter,)):
        decoder.decode(data)
        counts[type_name] = counts.get(type_name, 0) + 1
    return time.perf_counter() - start


def fold_seconds(ledger: Ledger, encounter: str) -> float:
    """The full fold, no snapshot: what `status` would cost without one."""
    start = time.perf_counter()
    fold(ledger.store, encounter, ledger.corrections(encounter), State(encounter))
    return time.perf_counter() - start


def peak_rss_mb(db: Path, encounter: str) -> float:
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r});"
            "from eventlog.stores.sqlite import Store; from projections.ledger import Ledger; from projections.history import fold;"
            "from projections.domain.state import State;"
            f"l = Ledger(Store({str(db)!r}));"
            f"fold(l.store, {encounter!r}, l.corrections({encounter!r}), State({encounter!r}))")
    return commands.peak_rss_mb([PY, "-c", code], dict(os.environ))


def measure(work: Path, sizes: list[int], repeat: int, cli_repeat: int) -> dict:
    """Every figure, on stores built in `work`."""
    db = work / "bench.db"
    store = Store(db)
    ledger = Ledger(store)
    results: dict = {"sizes": {}}
    for n in sizes:
        encounter = f"bench-{n}"
        t = time.perf_counter()
        count = build(store, encounter, n)
        built = time.perf_counter() - t
        floor, fold = [], []
        for _ in range(repeat):  # interleaved, so both see the same machine
            floor.append(floor_seconds(store, encounter))
            fold.append(fold_seconds(ledger, encounter))
        f_eps, d_eps = count / statistics.median(fold), count / statistics.median(floor)
        results["sizes"][n] = {"events": count, "build_s": round(built, 2),
                               "fold_eps": round(f_eps), "floor_eps": round(d_eps),
                               "ratio": round(f_eps / d_eps, 2)}
    big = f"bench-{sizes[-1]}"
    results["peak_rss_mb"] = round(peak_rss_mb(db, big), 1)
    results["peak_rss_events"] = results["sizes"][sizes[-1]]["events"]

    def append_once() -> float:
        start = time.perf_counter()
        ledger.declare("bench-10000", lambda s: [FreeActionTaken(combatant="rook", label="x")], "gm")
        return (time.perf_counter() - start) * 1000
    append_once()  # the first one writes the snapshot the rest start from
    results["append_ms"] = round(median_of(append_once, 21), 2)

    small, large = "bench-1000", f"bench-{sizes[-1]}"
    results["cli"] = commands.cli_figures(db, ROOT, small, large, cli_repeat)
    results["core"] = core_figures(ledger, small, large)
    exported = 100_000 if sizes[-1] >= 1_000_000 else 10_000
    build(store, f"corrected-{exported}", exported, corrected=0.8)
    results["exports"] = commands.export_figures(
        db, ROOT, work, f"bench-{exported}", results["sizes"][exported]["events"],
        3 if cli_repeat < 15 else 5, f"corrected-{exported}")
    env = commands.cli_env(db, ROOT)
    results["export"] = export_seconds(store, work, env, 3 if cli_repeat < 15 else 5)
    results["targets"] = {
        "fold/floor >= 0.45 at 100k+": all(results["sizes"][n]["ratio"] >= 0.45
                                           for n in sizes if n >= 100_000),
        **commands.targets(results["cli"], results["exports"], small, large),
        "peak rss <= 200 MB": results["peak_rss_mb"] <= 200,
    }
    return results


def core_figures(ledger: Ledger, small: str, large: str) -> dict:
    """In process, without the interpreter's start: the state a command
    starts from (snapshot and the markers since it) and a declaration
    judged and appended, on `large` beside `small`."""
    def timed(fn) -> float:
        start = time.perf_counter()
        fn()
        return (time.perf_counter() - start) * 1000
    out: dict[str, float] = {}
    for encounter in (small, large):
        out[f"state_ms@{encounter}"] = round(median_of(
            lambda: timed(lambda: ledger.state(encounter)), 21), 2)
        out[f"declare_ms@{encounter}"] = round(median_of(lambda: timed(
            lambda: ledger.declare(encounter, lambda s: [
                FreeActionTaken(combatant="rook", label="x")], "gm")), 21), 2)
    return out


def export_seconds(store: Store, work: Path, env: dict, repeat: int) -> dict:
    """json and html exports of one 20k-event encounter, interleaved."""
    build(store, "bench-export", 20_000)
    times: dict[str, list[float]] = {"json": [], "html": []}
    for _ in range(repeat):
        for fmt in times:
            out = work / f"export.{fmt}"
            times[fmt].append(commands.run_ms(
                COMBAT + ["--encounter", "bench-export", "export", "--format", fmt,
                          "-o", str(out), "--force"], env) / 1000)
    json_s, html_s = (round(statistics.median(times[f]), 2) for f in ("json", "html"))
    return {"events": 20_000, "export_json_s": json_s, "export_html_s": html_s,
            "html_over_json": round(html_s / json_s, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    opts = parser.parse_args()
    sizes = [1_000, 10_000, 100_000] if opts.quick else [1_000, 10_000, 100_000, 1_000_000]
    repeat = 3 if opts.quick else 7
    cli_repeat = 5 if opts.quick else 31  # (a median of 31: the machine moves one run by 10%)
    work = Path(tempfile.mkdtemp(prefix="combat-bench-"))
    try:
        results = measure(work, sizes, repeat, cli_repeat)
        # (a process of its own, as a table server is: none of this one's
        # million-event objects for its collector to walk mid-stream)
        import subprocess
        results["server"] = json.loads(subprocess.run(
            [PY, str(HERE / "server.py"), *(["--quick"] if opts.quick else [])],
            check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1])
        results["targets"]["API declaration <= 1.3x a bare Starlette endpoint running the core's execute"] = \
            results["server"]["api_over_bare_core"] <= 1.3
        sse = results["server"]["sse_p99_over_floor"]
        results["targets"]["SSE p99 to 100 listeners <= 1.5x a bare sse-starlette fan-out"] = \
            sse is not None and sse <= 1.5
    finally:
        shutil.rmtree(work, ignore_errors=True)  # the 1M-event store is ~300 MB
    import bench_postgres
    results["postgres"] = bench_postgres.measure(opts.quick)
    import bench_status_table
    results["tables"] = bench_status_table.measure()
    import bench_catchup
    results["catch_up"] = bench_catchup.measure([10_000] if opts.quick else [10_000, 100_000], 3)
    # (several servers on one store, each phone from an address of its own:
    # the quick form, 5 tables; the full one, by hand: bench_fleet.py)
    fleet = subprocess.run([PY, str(HERE / "bench_fleet.py"), "--quick"],
                           capture_output=True, text=True)
    results["fleet"] = (json.loads(fleet.stdout) if fleet.returncode == 0
                        else {"skipped": (fleet.stderr or fleet.stdout).strip()[-200:]})
    if opts.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{'events':>9} {'fold eps':>10} {'floor eps':>10} {'ratio':>6} {'build s':>8}")
    for n, r in results["sizes"].items():
        print(f"{r['events']:>9} {r['fold_eps']:>10} {r['floor_eps']:>10} {r['ratio']:>6} {r['build_s']:>8}")
    print(f"\nappend_ms (10k encounter): {results['append_ms']}")
    print(f"peak_rss_mb folding {results['peak_rss_events']} events: {results['peak_rss_mb']}\n")
    commands.show(results["cli"], results["exports"], "bench-1000", f"bench-{sizes[-1]}")
    print("in process: " + ", ".join(f"{k} {v} ms" for k, v in results["core"].items()))
    e = results["export"]
    print(f"\nexport of {e['events']} events: json {e['export_json_s']} s, html "
          f"{e['export_html_s']} s ({e['html_over_json']}x json; retired as a target: matplotlib's "
          "import is most of it)")
    from server import show
    show(results["server"])
    print()
    for target, ok in results["targets"].items():
        print(f"{'met ' if ok else 'MISS'} {target}")
    bench_postgres.show(results["postgres"])
    print()
    bench_status_table.show(results["tables"])
    print("\ncatch-up across corrections (bench_catchup.py):")
    bench_catchup.show(results["catch_up"])
    print("\nfleet (bench_fleet.py --quick, 5 tables):")
    if "skipped" in results["fleet"]:
        print(f"  skipped: {results['fleet']['skipped']}")
    for run in ("single", "fleet", "kill"):
        f = results["fleet"].get(run)
        if f:
            print(f"  {run:<6} {f['per_s']}/s acknowledged of {f['offered_per_s']}/s offered, "
                  f"SSE p99 {f['sse_p99_ms']} ms, errors {f['errors']}, "
                  f"{f['client_addresses']} client addresses")
            cpu = f["cpu_s"]
            print(f"         CPU s: servers {cpu['servers']}, PostgreSQL {cpu['postgres']}, "
                  f"generator {cpu['generator']} (share {cpu['generator_share']}), machine "
                  f"{cpu['machine']} of {cpu['wall']} s x {cpu['cores']} cores; "
                  f"{cpu['messages_per_server_cpu_s']} messages per server CPU s")
            model = f["model"]
            print(f"         capacity model (capacity.py), cores while declaring: servers "
                  f"{model['servers']['model']} vs {model['servers']['measured']} measured, "
                  f"PostgreSQL {model['postgres']['model']} vs {model['postgres']['measured']}")


if __name__ == "__main__":
    main()
