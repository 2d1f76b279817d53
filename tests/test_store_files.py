"""The SQLite store's file as it is found: another program's database with
our table names, a device, a path through a regular file, an empty --db,
and damage done behind the program's back (an unreadable event, a dropped
index, a schema version of 4,000 digits). A file is recognised before
anything is written to it, and whatever is wrong is one clear line."""
from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from helpers import contents, damage


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def in_db(combat, db, *args, code=0):
    return combat("--db", db, *args, code=code)


def test_foreign_database_with_our_table_names_left_byte_for_byte(combat, tmp_path):
    foreign = tmp_path / "app.db"
    con = sqlite3.connect(foreign)
    con.executescript("CREATE TABLE meta (k, v); CREATE TABLE events (id, what);"
                      "CREATE TABLE encounters (x); INSERT INTO meta VALUES ('schema_version', 1);")
    con.close()
    before = sha(foreign)
    for line in (["status"], ["note", "x"], ["new", "x"], ["list"]):
        err = in_db(combat, foreign, *line, code=1).stderr
        assert err == f"error: {foreign} is not a combat-ledger database\n"
    assert sha(foreign) == before
    assert "snapshots" not in {r[0] for r in sqlite3.connect(foreign).execute(
        "SELECT name FROM sqlite_master")}


def test_new_store_carries_its_own_marker(noted):
    from eventlog.stores.sqlite.schema import APPLICATION_ID
    con = sqlite3.connect(noted.db)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_dev_null_as_the_store_is_refused_without_a_journal(combat):
    err = in_db(combat, "/dev/null", "status", code=1).stderr
    assert "/dev/null is not a combat-ledger database" in err
    assert not Path("/dev/null-journal").exists() and not Path("/dev/null-wal").exists()


def test_store_under_a_regular_file_is_one_line(combat, tmp_path):
    (tmp_path / "plain").write_text("x")
    err = in_db(combat, tmp_path / "plain" / "ledger.db", "status", code=1).stderr
    assert err == f"error: cannot create {tmp_path}/plain/ledger.db: {tmp_path}/plain is a file, not a folder\n"


def test_empty_db_option_is_one_line(combat):
    err = in_db(combat, "", "status", code=1).stderr
    assert err.startswith("error: --db is empty")


@pytest.mark.parametrize("sql, said", [
    ("UPDATE events SET data = x'ff00' WHERE seq = 2", "the event's data cannot be read"),
    ("UPDATE events SET type = 'Bogus' WHERE seq = 2", "unknown event type 'Bogus'")])
@pytest.mark.parametrize("line", [["log"], ["log", "--json"], ["export"],
                                  ["export", "--format", "csv"], ["undo"], ["stats"]])
def test_damaged_event_is_named_in_one_line(noted, sql, said, line):
    damage(noted.db, sql)
    damage(noted.db, "DELETE FROM snapshots")
    before = contents(noted.db)
    err = noted(*line, code=1).stderr
    assert err.startswith("error: the log of alley is damaged at seq 2: ") and said in err
    assert err.count("\n") == 1 and contents(noted.db) == before


def test_dropped_index_still_reads_and_writes(noted):
    damage(noted.db, "DROP INDEX events_by_type")
    noted("undo")
    assert "undone" in noted("log").stdout


def test_long_schema_version_not_echoed(noted):
    damage(noted.db, "UPDATE meta SET value = ? WHERE key = 'schema_version'", "9" * 4000)
    err = noted("status", code=1).stderr
    assert "not a combat-ledger database" in err and len(err) < 200


# -- a store that is not there: made only by what makes encounters ---------------

@pytest.mark.parametrize("line", [["list"], ["status"], ["status", "--json"], ["log"],
                                  ["act", "rook", "minor"], ["use", "alley"],
                                  ["token", "list"], ["export"]])
def test_a_mistyped_db_is_one_line_and_creates_nothing(combat, tmp_path, line):
    typo = tmp_path / "campaing" / "ledger.db"
    err = in_db(combat, typo, *line, code=1).stderr
    assert err == (f"error: no store at {typo}: check the path, or start one there with "
                   "`combat new ID`\n")
    assert not typo.parent.exists()


def test_a_missing_store_named_by_combat_db_is_refused_the_same(tmp_path):
    from helpers import cli_env, in_process
    typo = tmp_path / "typo.db"
    combat = in_process(cli_env(typo))
    assert combat("list", code=1).stderr.startswith(f"error: no store at {typo}: ")
    assert not typo.exists()


@pytest.mark.parametrize("line", [["new", "alley"], ["demo"]])
def test_new_and_demo_make_the_store_and_its_folders(combat, tmp_path, line):
    fresh = tmp_path / "club" / "tuesday" / "ledger.db"
    in_db(combat, fresh, *line)
    assert fresh.is_file()
    assert in_db(combat, fresh, "list").stdout.startswith("*")


def test_import_makes_the_store_it_imports_into(combat, tmp_path):
    combat("new", "alley")
    exported = tmp_path / "alley.json"
    combat("export", "--format", "json", "-o", str(exported))
    fresh = tmp_path / "backup" / "ledger.db"
    in_db(combat, fresh, "import", str(exported))
    assert fresh.is_file() and "alley" in in_db(combat, fresh, "list").stdout


def test_the_default_store_is_made_by_any_command(tmp_path):
    # No --db nor COMBAT_DB: the store's own place, where no path was typed.
    from typer.testing import CliRunner

    from cli.app import app
    env = {"COMBAT_DB": None, "COMBAT_ENCOUNTER": None, "COMBAT_ACTOR": None,
           "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "NO_COLOR": "1"}
    assert CliRunner().invoke(app, ["list"], env=env).exit_code == 0
    assert (tmp_path / "data" / "combat-ledger" / "ledger.db").is_file()
