"""Issue 13, the store's side: a foreign or damaged database, files that never
end, what used to crash with "unexpected failure", and the messages that
said too much or too little (items 9-12)."""
from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import msgspec
import pytest

from conftest import contents
from test_hardening import one_error_line, real


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def noted(combat):
    combat("new", "alley")
    combat("add", "Rook", "--pc")
    combat("note", "one")
    combat("note", "two")
    return combat


def damage(db: Path, sql: str, *args) -> None:
    con = sqlite3.connect(db)
    con.execute(sql, args)
    con.commit()
    con.close()


# -- item 9: a store is recognised before anything is written to it ------------

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


def in_db(combat, db, *args, code=0):
    return combat("--db", db, *args, code=code)


def test_new_store_carries_its_own_marker(noted):
    from eventlog.stores.sqlitefile import APPLICATION_ID
    con = sqlite3.connect(noted.db)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_dev_null_as_the_store_is_refused_without_a_journal(combat):
    err = in_db(combat, "/dev/null", "status", code=1).stderr
    assert "/dev/null is not a combat-ledger database" in err
    assert not Path("/dev/null-journal").exists() and not Path("/dev/null-wal").exists()


# -- item 10: every file read is bounded ------------------------------------------

def test_demo_of_an_endless_device_stops_at_the_limit(tmp_path):
    result = real(tmp_path / "ledger.db", "demo", "/dev/zero", timeout=20)
    assert one_error_line(result) == ("error: /dev/zero is larger than 1 MiB, "
                                      "the most a script may be\n")


def test_verify_against_an_endless_device_stops_at_the_limit(noted):
    err = noted("verify", "--against", "/dev/zero", code=1).stderr
    assert "larger than 256 MiB" in err or "not a combat-ledger" in err or "not" in err


# -- item 11: what used to crash is one clear line ----------------------------------

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


def test_r30_verify_of_a_seq_stored_as_text_is_one_line(noted):
    damage(noted.db, "UPDATE events SET seq = '4x' WHERE seq = 4")
    err = noted("verify", code=1).stderr
    assert err.startswith("error: the log of alley is broken at seq 4: ") and "(R30)" in err


def test_demo_script_that_runs_itself_is_refused(combat, tmp_path):
    script = tmp_path / "loop.combat"
    script.write_text("new loop\nnote once\ndemo loop.combat\n")
    err = combat("demo", script, code=1).stderr
    assert err == "error: loop.combat line 3: a script cannot run `combat demo`\n"
    assert "loop" not in combat("list").stdout  # refused before anything was played


@pytest.mark.parametrize("poison", [b"\x91" * 100_000 + b"\x00", b"\xc1garbage",
                                    msgspec.msgpack.encode({"scalars": [[]] * 20})])
def test_poisoned_snapshot_is_folded_past(noted, poison):
    want = noted("status", "--json").stdout
    damage(noted.db, "UPDATE snapshots SET state = ?", poison)
    assert noted("status", "--json").stdout == want
    noted("note", "three")


# -- item 12: messages --------------------------------------------------------

def test_dropped_index_still_reads_and_writes(noted):
    damage(noted.db, "DROP INDEX events_by_type")
    noted("undo")
    assert "undone" in noted("log").stdout


def test_store_under_a_regular_file_is_one_line(combat, tmp_path):
    (tmp_path / "plain").write_text("x")
    err = in_db(combat, tmp_path / "plain" / "ledger.db", "status", code=1).stderr
    assert err == f"error: cannot create {tmp_path}/plain/ledger.db: {tmp_path}/plain is a file, not a folder\n"


def test_empty_db_option_is_one_line(combat):
    err = in_db(combat, "", "status", code=1).stderr
    assert err.startswith("error: --db is empty")


def test_long_schema_version_not_echoed(noted):
    damage(noted.db, "UPDATE meta SET value = ? WHERE key = 'schema_version'", "9" * 4000)
    err = noted("status", code=1).stderr
    assert "not a combat-ledger database" in err and len(err) < 200


@pytest.mark.parametrize("name, text", [
    ("crew.yaml", "combatant:\n  - name: Rook\n    bonus: 1\n    bonus: 2\n"),
    ("crew.json", '{"combatant": [{"name": "Rook", "name": "Vex"}]}'),
    ("crew.toml", '[[combatant]]\nname = "Rook"\nname = "Vex"\n')])
def test_roster_with_a_duplicate_key_refused_in_every_format(noted, tmp_path, name, text):
    (tmp_path / name).write_text(text)
    before = contents(noted.db)
    err = noted("load", tmp_path / name, code=1).stderr
    assert err.startswith(f"error: {name} is not valid ") and err.count("\n") == 1
    assert contents(noted.db) == before


@pytest.mark.parametrize("name, text", [
    ("big.toml", '[[combatant]]\nname = "Rook"\nbonus = ' + "9" * 5000 + "\n"),
    ("big.json", '{"combatant": [{"name": "Rook", "bonus": ' + "9" * 5000 + "}]}"),
    ("big.yaml", "combatant:\n  - name: Rook\n    bonus: " + "9" * 5000 + "\n")])
def test_roster_with_a_huge_number_said_plainly(noted, tmp_path, name, text):
    (tmp_path / name).write_text(text)
    err = noted("load", tmp_path / name, code=1).stderr
    assert "more than 4300 digits" in err and "set_int_max_str_digits" not in err


def test_roster_name_with_nul_refused_naming_the_entry(noted, tmp_path):
    (tmp_path / "nul.json").write_text('{"combatant": [{"name": "Ro\\u0000ok"}]}')
    err = noted("load", tmp_path / "nul.json", code=1).stderr
    assert "combatant 1 (Ro\\x00ok): the name holds a control character" in err
    assert "\x00" not in err


def test_encounter_id_of_10000_characters_refused(combat):
    err = combat("new", "a" * 10_000, code=1).stderr
    assert "at most 64" in err and len(err) < 300


def test_r16_full_width_digit_is_not_a_cost(noted):
    noted("roll", "rook", "--die", "4")
    noted("round")
    err = noted("act", "rook", "２", code=1).stderr
    assert err.startswith("error: '２' is not a cost") and "(R16)" in err


def test_r28_retract_of_a_negative_seq_is_a_refusal_not_a_usage_error(noted):
    err = noted("retract", "-1", code=1).stderr
    assert err == "error: there is no seq -1 in the log of alley (1 to 4)\n"
