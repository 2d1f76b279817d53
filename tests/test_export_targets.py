"""Where `export -o` writes: never onto the store or its sidecar files (even
through a symlink), onto another SQLite database only with --force, through
a symlink, a fifo or a device as a shell redirection would; an empty path
or a folder is one line."""
from __future__ import annotations

import json
import os
import sqlite3
import stat
import threading
from pathlib import Path

import pytest

from helpers import contents


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm", "-journal", ".history", ".snapshots"])
def test_export_onto_the_store_or_its_sidecars_refused(alley, suffix):
    before = contents(alley.db)
    target = f"{alley.db}{suffix}"
    existed = os.path.exists(target) and Path(target).read_bytes()
    result = alley("export", "--format", "html", "-o", target, code=1)
    assert "the ledger itself" in result.stderr and result.stderr.count("\n") == 1
    assert contents(alley.db) == before
    after = os.path.exists(target) and Path(target).read_bytes()
    if suffix in ("-wal", "-shm"):  # SQLite's own: it moves their bytes as it reads
        assert not after or b"<html" not in after.lower()
    elif suffix:
        assert after == existed


def test_export_through_a_symlink_to_the_store_refused(alley, tmp_path):
    link = tmp_path / "innocent.html"
    link.symlink_to(alley.db)
    before = contents(alley.db)
    alley("export", "--format", "html", "-o", link, code=1)
    assert contents(alley.db) == before and link.is_symlink()


def test_export_onto_a_sqlite_database_needs_force(alley, tmp_path):
    other = tmp_path / "campaign.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    result = alley("export", "-o", other, code=1)
    assert "is a SQLite database" in result.stderr and "--force" in result.stderr
    alley("export", "-o", other, "--force")
    assert json.loads(other.read_text())["format"] == "combat-ledger"


def test_export_to_an_empty_path_or_a_folder_is_one_line(alley, tmp_path):
    assert alley("export", "-o", "", code=1).stderr.startswith("error: -o is empty")
    assert "is a folder" in alley("export", "-o", tmp_path, code=1).stderr


def test_export_writes_through_a_symlink_and_keeps_it(alley, tmp_path):
    (tmp_path / "reports").mkdir()
    link = tmp_path / "latest.csv"
    link.symlink_to(tmp_path / "reports" / "alley.csv")
    alley("export", "--format", "csv", "-o", link)
    assert link.is_symlink() and (tmp_path / "reports" / "alley.csv").read_text().startswith("seq,")


def test_export_to_a_fifo_or_a_device_writes_through_it(alley, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    alley("export", "--format", "jsonl", "-o", fifo)
    reader.join(10)
    assert got and got[0].startswith("{") and stat.S_ISFIFO(os.stat(fifo).st_mode)
    alley("export", "-o", os.devnull)
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
