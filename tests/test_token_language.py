"""The language a token's pages speak: chosen by the GM (`token add --lang`,
`token lang NAME LANG|auto`), kept by the store beside the token (SQLite
schema 8, PostgreSQL 11, older stores brought forward), and refused in one
line, with nothing changed, for a language we do not speak or a token that
is not there."""
from __future__ import annotations

import sqlite3

import pytest

from eventlog.stores.records import Token
from helpers import pg_server
from test_tokens import made, run

AT = "2026-12-05T18:00:00.000000Z"


def test_token_add_lang_is_kept_and_listed(tmp_path):
    db = made(tmp_path / "t.db")
    assert run(db, "new", "alley")[0] == 0
    code, out, _err = run(db, "token", "add", "ana", "--player", "--owns", "rook", "--lang", "de-AT")
    assert code == 0 and "speaks de)" in out
    assert run(db, "token", "add", "tv", "--view")[0] == 0
    listed = run(db, "token", "list")[1].splitlines()
    assert listed[0].startswith("ana\t") and listed[0].endswith("\tspeaks de")
    assert listed[1].startswith("tv\t") and "speaks" not in listed[1]


def test_token_lang_changes_it_and_auto_gives_it_back_to_the_browser(tmp_path):
    db = made(tmp_path / "t.db")
    assert run(db, "new", "alley")[0] == 0
    assert run(db, "token", "add", "tv", "--view")[0] == 0
    assert run(db, "token", "lang", "TV", "de") == (0, "tv speaks de\n", "")
    from eventlog.stores import open_store
    store = open_store(db)
    try:
        assert [t.language for t in store.tokens()] == ["de"]
    finally:
        store.close()
    assert run(db, "token", "lang", "tv", "auto")[:2] == (0, "tv speaks the browser's language\n")
    assert run(db, "token", "list")[1].count("speaks") == 0


@pytest.mark.parametrize("args, said", [
    (("token", "lang", "tv", "fr"), "error: no language 'fr': a token's pages speak en, de, "
                                    "or auto for the browser's\n"),
    (("token", "lang", "zed", "de"), "error: no token named 'zed': `combat token list` shows them\n"),
    (("token", "add", "ana", "--view", "--lang", "xx\x1b[31m"), "error: no language "),
])
def test_a_language_we_do_not_speak_or_no_such_token_changes_nothing(tmp_path, args, said):
    db = made(tmp_path / "t.db")
    assert run(db, "new", "alley")[0] == 0
    assert run(db, "token", "add", "tv", "--view")[0] == 0
    before = run(db, "token", "list")[1]
    code, out, err = run(db, *args)
    assert code == 1 and out == "" and err.startswith(said) and "\x1b" not in err
    assert run(db, "token", "list")[1] == before


def schema_7_store(tmp_path):
    """A SQLite store as schema 7 left it (no token languages), holding Ana's token."""
    from eventlog.stores.sqlite import Store
    db = tmp_path / "old.db"
    store = Store(db)
    store.add_token(Token("ana", "player", ("rook",), "alley", "a" * 64, AT))
    store.close()
    with sqlite3.connect(db) as raw:
        raw.execute("DROP TABLE token_languages")
        raw.execute("UPDATE meta SET value = '7' WHERE key = 'schema_version'")
    return db


def test_a_sqlite_store_of_schema_7_is_brought_forward_with_its_tokens(tmp_path):
    from eventlog.stores.sqlite import Store
    store = Store(schema_7_store(tmp_path))
    try:
        assert store.token("a" * 64).language is None
        assert store.set_token_language("ana", "de") and store.token("a" * 64).language == "de"
    finally:
        store.close()


def test_a_read_only_sqlite_store_of_schema_7_still_reads_its_tokens(tmp_path):
    from eventlog.stores.sqlite import Store
    db = schema_7_store(tmp_path)
    db.chmod(0o444)
    try:
        store = Store(db)
        try:
            assert [(t.name, t.language) for t in store.tokens()] == [("ana", None)]
        finally:
            store.close()
    finally:
        db.chmod(0o644)


def test_a_pg_store_of_schema_10_is_brought_forward_with_its_tokens():
    import psycopg

    from eventlog.stores.postgres import PostgresStore
    url = pg_server().fresh_url()
    store = PostgresStore(url)
    store.add_token(Token("ana", "player", ("rook",), "alley", "a" * 64, AT, "de"))
    store.close()
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("DROP TABLE token_languages")
        db.execute("UPDATE schema_version SET version = 10")
    store = PostgresStore(url)
    try:
        assert store.token("a" * 64).language is None
        assert store.set_token_language("ana", "de") and store.token("a" * 64).language == "de"
    finally:
        store.close()
