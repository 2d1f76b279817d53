"""The command line's latency beside the tree before the grammar redesign
(issue 21: "CLI latency figures no worse than today"), in the same run.

    python tests/benchmarks/before_grammar.py [--commit 0623027] [--repeat 15] [--json]

Checks the commit out into a temporary worktree, builds a 1k-event encounter
for each tree with that tree's own generator (each store in the schema its
code writes), then times `status --json`, `status` and `act` of both trees
interleaved (old, new, old, new ...), bytecode cached as on a user's
machine. Prints each command's median in both and the ratio new/old; the
worktree is removed at the end.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from commands import COMMANDS, PY, cli_env, run_ms

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BEFORE = "0623027"  # the last commit before the grammar (issue 21)
ENCOUNTER = "bench-1000"
BUILD = ("import sys; sys.path[:0] = [sys.argv[1], sys.argv[1] + '/tests/benchmarks'];"
         "from eventlog.stores.sqlite import Store; from generate import build;"
         "build(Store(sys.argv[2]), sys.argv[3], 1000)")


def prepared(root: Path, db: Path) -> dict:
    """The environment of `root`'s command line on its own 1k encounter."""
    subprocess.run([PY, "-c", BUILD, str(root), str(db), ENCOUNTER], check=True,
                   env=cli_env(db, root))
    env = cli_env(db, root)
    for _ in range(2):  # compiles, and writes the snapshot the commands start from
        for args in COMMANDS.values():
            run_ms([PY, "-m", "cli", "--encounter", ENCOUNTER, *args], env)
    return env


def compare(old: Path, work: Path, repeat: int) -> dict:
    envs = {"old": prepared(old, work / "old.db"), "new": prepared(ROOT, work / "new.db")}
    times: dict[str, list[float]] = {}
    for _ in range(repeat):
        for name, args in COMMANDS.items():
            for tree, env in envs.items():
                times.setdefault(f"{name}@{tree}", []).append(
                    run_ms([PY, "-m", "cli", "--encounter", ENCOUNTER, *args], env))
    medians = {k: round(statistics.median(v), 1) for k, v in times.items()}
    return {name: {"old_ms": medians[f"{name}@old"], "new_ms": medians[f"{name}@new"],
                   "new_over_old": round(medians[f"{name}@new"] / medians[f"{name}@old"], 2)}
            for name in COMMANDS}


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
    print(f"{'command':<12} {opts.commit:>10} {'now':>9} {'now/then':>9}")
    for name, f in figures.items():
        print(f"{name:<12} {f['old_ms']:>7} ms {f['new_ms']:>6} ms {f['new_over_old']:>9}")


if __name__ == "__main__":
    sys.exit(main())
