"""A store whose schema someone else changed (a trigger
that deletes declarations, keeps a revoked token or makes a GM token; a view
over a slow query; a table of another shape) is not opened: one `error:`
line, exit 1, and the file left byte for byte, on SQLite and PostgreSQL."""
from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from eventlog.errors import StoreError
from helpers import one_error_line, pg_server, real


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def made(tmp_path) -> Path:
    db = tmp_path / "ledger.db"
    for args in (["new", "alley"], ["add", "Rook", "--pc"], ["token", "add", "ana",
                                                               "--player", "--owns", "rook"]):
        assert real(db, *args).returncode == 0
    return db


def doctor(db: Path, sql: str) -> None:
    con = sqlite3.connect(db)
    con.executescript(sql)
    con.close()


DOCTORED = {
    "declarations vanish": "CREATE TRIGGER vanish AFTER INSERT ON events "
                           "BEGIN DELETE FROM events WHERE seq = new.seq AND type = 'NoteAdded'; END",
    "revoke keeps the token": "CREATE TRIGGER keep BEFORE DELETE ON tokens "
                              "BEGIN SELECT RAISE(IGNORE); END",
    "a GM token for the author": (
        "CREATE TRIGGER author AFTER INSERT ON tokens WHEN new.name <> 'mallory' BEGIN "
        "INSERT INTO tokens VALUES ('mallory', 'gm', '', NULL, 'ab', 'x'); END"),
    "a view over a slow query": (
        "CREATE VIEW slow AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 "
        "FROM n) SELECT count(*) FROM n"),
    "an index on a function": "CREATE INDEX by_actor ON events (lower(actor))",
    "a table of its own": "CREATE TABLE spy (x)",
}


@pytest.mark.parametrize("sql", DOCTORED.values(), ids=DOCTORED.keys())
def test_a_doctored_sqlite_store_is_refused_in_one_line_and_left_alone(made, sql):
    doctor(made, sql)
    before = sha(made)
    for args in (["note", "hello"], ["token", "revoke", "ana"],
                 ["token", "add", "tv", "--view"], ["status"], ["verify"]):
        err = one_error_line(real(made, *args, timeout=30))
        assert "did not make" in err and "nothing was changed" in err, err
    assert sha(made) == before


def test_a_table_of_ours_in_another_shape_is_refused(made):
    # tokens without its UNIQUE digest: two holders of one secret
    doctor(made, "ALTER TABLE tokens RENAME TO old; CREATE TABLE tokens (name TEXT PRIMARY KEY, "
                 "role TEXT NOT NULL, owns TEXT NOT NULL, encounter TEXT, digest TEXT NOT NULL, "
                 "created_at TEXT NOT NULL); INSERT INTO tokens SELECT * FROM old; DROP TABLE old")
    err = one_error_line(real(made, "token", "list"))
    assert "a table 'tokens' that combat-ledger did not make" in err


def test_a_store_as_made_and_an_older_one_still_open(made, tmp_path):
    assert real(made, "note", "still fine").returncode == 0
    doctor(made, "DROP INDEX events_by_type; DROP TABLE snapshots")  # older stores lack these
    assert real(made, "status").returncode == 0


# -- PostgreSQL --------------------------------------------------------------

PG_DOCTORED = {
    "a trigger": (
        "CREATE FUNCTION vanish() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RETURN NULL; END $$; "
        "CREATE TRIGGER vanish BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION vanish()"),
    "a rule": "CREATE RULE keep AS ON DELETE TO tokens DO INSTEAD NOTHING",
    "a view": "CREATE VIEW slow AS SELECT count(*) FROM generate_series(1, 1000000000000)",
    "a policy": "ALTER TABLE events ENABLE ROW LEVEL SECURITY; "
                "CREATE POLICY hide ON events USING (type <> 'NoteAdded')",
    "an index": "CREATE INDEX by_actor ON events (lower(actor))",
    "a table": "CREATE TABLE spy (x int)",
}


# The store's own schema (other tests make stores in the same database meanwhile).
OURS = "SELECT count(*) FROM pg_class WHERE relnamespace = current_schema()::regnamespace"


@pytest.mark.parametrize("sql", PG_DOCTORED.values(), ids=PG_DOCTORED.keys())
def test_pg_a_doctored_store_is_refused_in_one_line_and_left_alone(sql):
    import psycopg

    from eventlog.stores.postgres import PostgresStore
    url = pg_server().fresh_url()
    PostgresStore(url).close()
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(sql)
        before = db.execute(OURS).fetchone()
    with pytest.raises(StoreError, match="did not make.*nothing was changed") as refused:
        PostgresStore(url)
    assert "\n" not in str(refused.value)
    with psycopg.connect(url, autocommit=True) as db:
        assert db.execute(OURS).fetchone() == before
