"""The command line's latency beside the tree before the grammar redesign
("CLI latency figures no worse than today"), in the same run.

    python tests/benchmarks/before_grammar.py [--commit 0623027] [--repeat 15] [--json]

Checks the commit out into a temporary worktree, builds a 1k-event encounter
for each tree with that tree's own generator (each store in the schema its
code writes), then times `status --json`, `status` and `act` of both trees
interleaved (old, new, old, new ...) with the design floors of
statusfloor.py, bytecode cached as on a user's machine. Prints each
command's median wall and CPU time (user + system, which a loaded machine
disturbs less) in both trees, the ratio now/then, and now beside its floor
(`status`: the floor plus rich's table); the worktree is removed at the end.
`--commit main` compares with the branch the work started from.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from commands import COMMANDS, PY, cli_env

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BEFORE = "0623027"  # the last commit before the grammar
ENCOUNTER = "bench-1000"
BUILD = ("import sys; sys.path[:0] = [sys.argv[1], sys.argv[1] + '/tests/benchmarks'];"
         "from eventlog.stores.sqlite import Store; from generate import build;"
         "build(Store(sys.argv[2]), sys.argv[3], 1000)")


def prepared(root: Path, db: Path) -> dict:
    """The environment of `root`'s command line on its own 1k encounter
    (each tree's processes run in the tree: `python -m cli` imports from
    the working folder first)."""
    env = {**cli_env(db, root), "PWD": str(root)}
    subprocess.run([PY, "-c", BUILD, str(root), str(db), ENCOUNTER], check=True, env=env,
                   cwd=root)
    for _ in range(2):  # compiles, and writes the snapshot the commands start from
        for args in COMMANDS.values():
            timed([PY, "-m", "cli", "--encounter", ENCOUNTER, *args], env)
    return env


def timed(args: list[str], env: dict) -> tuple[float, float]:
    """(wall ms, CPU ms) of one run of `args` in `env`'s tree, its output
    thrown away."""
    start = time.perf_counter()
    child = subprocess.Popen(args, env=env, cwd=env["PWD"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = (time.perf_counter() - start) * 1000
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{args} failed")
    return wall, (usage.ru_utime + usage.ru_stime) * 1000


def compare(old: Path, work: Path, repeat: int) -> dict:
    envs = {"old": prepared(old, work / "old.db"), "new": prepared(ROOT, work / "new.db")}
    floor = [PY, "-m", "statusfloor", str(work / "new.db"), ENCOUNTER]
    runs = {f"{name}@{tree}": [PY, "-m", "cli", "--encounter", ENCOUNTER, *args]
            for name, args in COMMANDS.items() for tree in envs}
    runs |= {"floor@new": floor, "table_floor@new": [*floor, "--table"]}
    times: dict[str, list[tuple[float, float]]] = {}
    for _ in range(repeat):
        for key, args in runs.items():
            times.setdefault(key, []).append(timed(args, envs[key.split("@")[1]]))
    wall = {k: statistics.median(t[0] for t in v) for k, v in times.items()}
    cpu = {k: statistics.median(t[1] for t in v) for k, v in times.items()}
    out = {}
    for name in COMMANDS:
        under = "table_floor@new" if name == "status" else "floor@new"
        out[name] = {f"{what}_{tree}_ms": round(m[f"{name}@{tree}"], 1)
                     for what, m in (("wall", wall), ("cpu", cpu)) for tree in envs}
        out[name] |= {f"{what}_now_over_then": round(m[f"{name}@new"] / m[f"{name}@old"], 2)
                      for what, m in (("wall", wall), ("cpu", cpu))}
        out[name] |= {f"{what}_over_floor": round(m[f"{name}@new"] / m[under], 2)
                      for what, m in (("wall", wall), ("cpu", cpu))}
        out[name]["floor"] = under.split("@")[0]
    out["floors"] = {f"{k.split('@')[0]}_{what}_ms": round(m[k], 1)
                     for k in ("floor@new", "table_floor@new")
                     for what, m in (("wall", wall), ("cpu", cpu))}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", default=BEFORE)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="combat-before-") as tmp:
        work, old = Path(tmp), Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet",
                        str(old), opts.commit], check=True)
        try:
            figures = compare(old, work, opts.repeat)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(old)], check=False)
    if opts.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"medians of {opts.repeat} interleaved runs; wall / CPU ms")
    print(f"{'command':<12} {opts.commit:>15} {'now':>15} {'now/then':>11} "
          f"{'now/floor':>11}  floor")
    for name in COMMANDS:
        f = figures[name]
        print(f"{name:<12} {f['wall_old_ms']:>7} / {f['cpu_old_ms']:<5} "
              f"{f['wall_new_ms']:>7} / {f['cpu_new_ms']:<5} "
              f"{f['wall_now_over_then']:>5} / {f['cpu_now_over_then']:<4} "
              f"{f['wall_over_floor']:>5} / {f['cpu_over_floor']:<4}  {f['floor']}")
    print("floors: " + ", ".join(f"{k} {v}" for k, v in figures["floors"].items()))


if __name__ == "__main__":
    sys.exit(main())
