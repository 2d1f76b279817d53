"""Join requests and the table's choice are records of their own, no longer
rows of the tokens' table under the roles `join` and `table`: a store
written before (SQLite schema 5, PostgreSQL schema 9) opens with them moved,
the table's choice in the life its encounter has, a request as expired (its
phone asks again)."""
from __future__ import annotations

import sqlite3

from eventlog.events import EncounterCreated
from eventlog.stores.records import TableChoice, Token
from helpers import pg_server

AT = "2026-12-03T12:00:00.000000Z"
OLD_ROWS = (("ben", "join", "bo", "alley", "b" * 64), ("(the table)", "table", "", "alley", "c" * 64),
            ("ana", "player", "ash", "alley", "a" * 64))


def _made(store) -> str:
    store.create("alley", EncounterCreated(encounter="alley", title="Alley"), "gm")
    return store.life("alley")


def _moved(store, life: str) -> None:
    assert [t.name for t in store.tokens()] == ["ana"]
    assert store.table_choice() == TableChoice("alley", life)
    (ben,) = store.joins()
    assert (ben.name, ben.pc, ben.encounter, ben.life, ben.digest, ben.state) == (
        "ben", "bo", "alley", life, "b" * 64, "waiting")
    assert ben.expires_at <= AT  # (expired: asked before the upgrade)
    from projections.access import Unauthorized, identify
    try:
        identify(store, "any secret")
    except Unauthorized:
        pass
    from projections.joining import pending
    assert pending(store) == []


def test_a_sqlite_store_of_schema_5_opens_with_its_requests_and_table_moved(tmp_path):
    from eventlog.stores.sqlite import Store
    db = tmp_path / "old.db"
    store = Store(db)
    life = _made(store)
    store.close()
    with sqlite3.connect(db) as raw:
        raw.execute("DROP TABLE joins")
        raw.execute("DROP TABLE on_table")
        raw.execute("DROP TABLE archived")  # (schema 7's)
        raw.execute("DROP TABLE imported")
        raw.execute("DROP TABLE token_languages")  # (schema 8's)
        for name, role, owns, encounter, digest in OLD_ROWS:
            raw.execute("INSERT INTO tokens VALUES (?, ?, ?, ?, ?, ?)",
                        (name, role, owns, encounter, digest, AT))
        raw.execute("UPDATE meta SET value = '5' WHERE key = 'schema_version'")
    store = Store(db)
    try:
        _moved(store, life)
    finally:
        store.close()


def test_a_pg_store_of_schema_9_opens_with_its_requests_and_table_moved():
    import psycopg

    from eventlog.stores.postgres import PostgresStore
    url = pg_server().fresh_url()
    store = PostgresStore(url)
    life = _made(store)
    store.close()
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("DROP TABLE joins")
        db.execute("DROP TABLE on_table")
        db.execute("DROP TABLE token_languages")  # (schema 11's)
        for name, role, owns, encounter, digest in OLD_ROWS:
            db.execute("INSERT INTO tokens VALUES (%s, %s, %s, %s, %s, %s)",
                       (name, role, [owns] if owns else [], encounter, digest, AT))
        db.execute("UPDATE schema_version SET version = 9")
    store = PostgresStore(url)
    try:
        _moved(store, life)
        store.add_token(Token("cat", "player", ("cy",), "alley", "d" * 64, AT))  # (writes on)
    finally:
        store.close()
