"""`combat serve` over a store it may not write (its
watcher died at start with a traceback and live updates stopped silently)
refuses to start, in one line: a SQLite file this user may not write, and
a PostgreSQL session that is read-only."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import pg_server

ROOT = Path(__file__).resolve().parent.parent


def _serve(db: str, user: list[str], env: dict, cwd=ROOT) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([*user, sys.executable, "-m", "cli", "--db", db, "serve",
                               "--port", "0"], capture_output=True, text=True, timeout=30,
                              env=env, cwd=cwd)
    except subprocess.TimeoutExpired:
        pytest.fail("combat serve started over a store it may not write")


def _one_line(done) -> str:
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr


def _immutable(path: Path, on: bool) -> bool:
    """chattr +i: no user may write the file, root included (tests run as root)."""
    done = subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True)
    return done.returncode == 0


def test_serve_over_a_sqlite_file_it_may_not_write_refuses_in_one_line(tmp_path):
    db = tmp_path / "ledger.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMBAT_")}
    made = subprocess.run([sys.executable, "-m", "cli", "--db", str(db), "new", "alley"],
                          capture_output=True, text=True, timeout=60, env=env, cwd=ROOT)
    assert made.returncode == 0, made.stderr
    if not shutil.which("chattr") or not _immutable(db, True):
        pytest.skip("chattr +i is not available here: no file root may not write")
    try:
        before = db.read_bytes()
        err = _one_line(_serve(str(db), [], env))
        assert "is read-only here (its file may not be written)" in err
        assert db.read_bytes() == before
    finally:
        _immutable(db, False)


def test_serve_over_a_read_only_postgresql_session_refuses_in_one_line():
    url = pg_server().fresh_url()
    from eventlog.stores import open_store
    open_store(url).close()
    read_only = url + "%20-cdefault_transaction_read_only%3Don"
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMBAT_")}
    err = _one_line(_serve(read_only, [], env))
    assert "is read-only here (a read-only session or role)" in err
