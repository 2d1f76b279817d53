"""The command line's figures, each beside its floor, for run.py:

  status --json, status, act   at the largest size beside the same at 1k
                               (a long campaign's log: undos, retractions
                               and amendments spread through it), and at 1k
                               beside the design floor: `statusfloor.py`, a
                               process that imports msgspec and sqlite3,
                               opens the store, reads the snapshot and prints
                               the status JSON (`status`: plus rich's table)
  export json -o FILE          beside the same export to stdout
  export peak RSS              of every streaming format (json, jsonl, csv,
                               md), each a fresh `combat` process; and the
                               same of an encounter as long whose log is
                               mostly corrections in force (`corrected`:
                               declarations undone at once, the undone
                               batches and their markers read by the walk)

Bytecode is cached as on a user's machine (the warm-up runs compile it).
All three are read by the grammar without typer, and the tables of `status`
and `act` (the status after the declaration) are written by cli/ink.py
without rich: both are held to the design floor, and `status` to the floor
with rich's table too, as the issue asks.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = sys.executable
COMBAT = [PY, "-m", "cli"]
COMMANDS = {"status_json": ["status", "--json"], "status": ["status"],
            "act": ["act", "rook", "free", "waves"]}
STREAMED = ("json", "jsonl", "csv", "md")


def cli_env(db: Path, root: Path) -> dict:
    env = {**os.environ, "COMBAT_DB": str(db), "NO_COLOR": "1", "COLUMNS": "100",
           "PYTHONPATH": os.pathsep.join([str(root), str(HERE)])}
    env.pop("COMBAT_ENCOUNTER", None)
    # As installed on a GM's machine: Python caches compiled modules (pip has
    # compiled the libraries' already; the warm-up runs below compile ours).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_ms(args: list[str], env: dict, stdout=subprocess.DEVNULL) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, env=env, stdout=stdout, stderr=subprocess.PIPE)
    if done.returncode:
        raise SystemExit(f"{args} failed: {done.stderr.decode()}")
    return (time.perf_counter() - start) * 1000


# Measured by a small go-between: a child's peak RSS counts the memory of
# the process it was forked from (Linux keeps the high-water mark across
# exec), and this one holds the benchmark's stores.
_MEASURE = ("import os, subprocess, sys\n"
            "child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
            "_, status, usage = os.wait4(child.pid, 0)\n"
            "print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)")


def peak_rss_mb(args: list[str], env: dict) -> float:
    """The peak resident memory of one run of `args`, in its own process."""
    done = subprocess.run([PY, "-c", _MEASURE, *args], env=env, capture_output=True,
                          text=True, check=True)
    code, kb = map(int, done.stdout.split())
    if code:
        raise SystemExit(f"{args} failed ({code}): {done.stderr}")
    return kb / 1024


def cli_figures(db: Path, root: Path, small: str, large: str, repeat: int) -> dict:
    """Median ms of each command on `small` and `large`, and of the floors,
    interleaved so that each sees the same machine."""
    env = cli_env(db, root)
    floors = {"design_floor": [PY, "-m", "statusfloor", str(db), small],
              "table_floor": [PY, "-m", "statusfloor", str(db), small, "--table"]}
    for encounter in (small, large):  # compiles, and writes each one's snapshot
        run_ms(COMBAT + ["--encounter", encounter, "act", "rook", "free", "warms up"], env)
    for args in floors.values():
        run_ms(args, env)
    times: dict[str, list[float]] = {}
    for _ in range(repeat):
        for name, args in floors.items():
            times.setdefault(name, []).append(run_ms(args, env))
        for encounter in (small, large):
            for name, args in COMMANDS.items():
                times.setdefault(f"{name}@{encounter}", []).append(
                    run_ms(COMBAT + ["--encounter", encounter] + args, env))
        # the same command twice as two series: how far apart this machine
        # puts two runs of one thing (the noise under the ratios above)
        times.setdefault("status_json_again", []).append(
            run_ms(COMBAT + ["--encounter", small] + COMMANDS["status_json"], env))
    return {name: round(statistics.median(v), 1) for name, v in times.items()}


def export_figures(db: Path, root: Path, work: Path, encounter: str, events: int,
                   repeat: int, corrected: str | None = None) -> dict:
    """`export --format json -o FILE` beside the same to stdout (redirected
    to a file: the same bytes to the same disk), and each streaming
    format's peak RSS, of `encounter` and of `corrected` when given."""
    env = cli_env(db, root)
    base = COMBAT + ["--encounter", encounter, "export", "--format"]
    to_file, to_stdout = [], []
    for _ in range(repeat):
        to_file.append(run_ms(base + ["json", "-o", str(work / "file.json"), "--force"], env))
        with open(work / "stdout.json", "w") as out:
            to_stdout.append(run_ms(base + ["json"], env, stdout=out))
    same = (work / "file.json").read_bytes() == (work / "stdout.json").read_bytes()
    rss = export_rss(db, root, work, encounter)
    if corrected is not None:
        rss.update({f"{fmt} corrected": mb for fmt, mb
                    in export_rss(db, root, work, corrected).items()})
    file_s, stdout_s = (round(statistics.median(t) / 1000, 2) for t in (to_file, to_stdout))
    return {"events": events, "json_file_s": file_s, "json_stdout_s": stdout_s,
            "file_over_stdout": round(file_s / stdout_s, 2), "same_bytes": same,
            "peak_rss_mb": rss}


def export_rss(db: Path, root: Path, work: Path, encounter: str) -> dict:
    """Each streaming format's peak RSS exporting `encounter`, in MB."""
    base = COMBAT + ["--encounter", encounter, "export", "--format"]
    return {fmt: round(peak_rss_mb(base + [fmt, "-o", str(work / f"rss.{fmt}"), "--force"],
                                   cli_env(db, root)), 1) for fmt in STREAMED}


def targets(cli: dict, export: dict, small: str, large: str) -> dict:
    """The issue's bars, met or missed."""
    return {
        f"status --json, status, act at {large} within 10% of {small}": all(
            cli[f"{c}@{large}"] <= 1.1 * cli[f"{c}@{small}"] for c in COMMANDS),
        "status --json, act <= 1.3x design floor": max(
            cli[f"status_json@{small}"], cli[f"act@{small}"]) <= 1.3 * cli["design_floor"],
        "status <= 1.3x design floor + rich table":
            cli[f"status@{small}"] <= 1.3 * cli["table_floor"],
        "export json -o FILE <= 1.1x stdout, same bytes":
            export["file_over_stdout"] <= 1.1 and export["same_bytes"],
        f"peak RSS of a {export['events']}-event export of {', '.join(STREAMED)}"
        " (and with corrections in force) < 100 MB":
            max(export["peak_rss_mb"].values()) < 100,
    }


def show(cli: dict, export: dict, small: str, large: str) -> None:
    print(f"\n{'command':<16} {small:>14} {large:>16} {'x 1k':>6}   floor")
    for name in COMMANDS:
        floor = "table_floor" if name == "status" else "design_floor"
        a, b = cli[f"{name}@{small}"], cli[f"{name}@{large}"]
        also = (f", design_floor x{a / cli['design_floor']:.2f}" if name == "status"
                else "")
        print(f"{name:<16} {a:>11} ms {b:>13} ms {b / a:>6.2f}   {floor} {cli[floor]} ms "
              f"(x{a / cli[floor]:.2f} at {small}{also})")
    again = cli["status_json_again"]
    print(f"noise: status_json@{small} again {again} ms "
          f"(x{again / cli[f'status_json@{small}']:.2f} of the same command)")
    e = export
    print(f"\nexport --format json of {e['events']} events: -o FILE {e['json_file_s']} s, "
          f"stdout {e['json_stdout_s']} s (x{e['file_over_stdout']}; same bytes: {e['same_bytes']})")
    print("peak RSS of the export: " + ", ".join(
        f"{fmt} {mb} MB" for fmt, mb in e["peak_rss_mb"].items()))
