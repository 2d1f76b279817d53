"""Archive and import marks are records of tables of their own in every
store: a SQLite store written before (schema 6, when they were `meta` rows
under the keys `archived:ID` and `imported:ID`) opens with them moved, and
the marks of an encounter named like a key of `meta` stay its own."""
from __future__ import annotations

import sqlite3

from eventlog.events import EncounterCreated, NoteAdded


def _made(store, encounter: str) -> None:
    store.create(encounter, EncounterCreated(encounter=encounter, title="Alley"), "gm")
    store.append(encounter, 1, [NoteAdded(text="ash moves")], "gm")


def test_a_sqlite_store_of_schema_6_opens_with_its_marks_moved(tmp_path):
    from eventlog.stores.sqlite import Store
    db = tmp_path / "old.db"
    _schema_6(db)
    store = Store(db)
    try:
        assert store.archived() == {"alley"} and store.is_archived("alley")
        assert not store.is_archived("dock")
        assert (store.imported("alley"), store.imported("dock")) == (2, 0)
        store.set_archived("alley", False)
        assert store.archived() == set()
    finally:
        store.close()
    with sqlite3.connect(db) as raw:
        keys = sorted(r[0] for r in raw.execute("SELECT key FROM meta"))
        version = raw.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    assert keys == ["schema_version", "store_id"]
    assert int(version[0]) >= 7


def _schema_6(db) -> None:
    """A store as schema 6 wrote it, its marks in `meta`."""
    from eventlog.stores.sqlite import Store
    store = Store(db)
    _made(store, "alley")
    _made(store, "dock")
    store.close()
    with sqlite3.connect(db) as raw:
        raw.execute("DROP TABLE archived")
        raw.execute("DROP TABLE imported")
        raw.execute("DROP TABLE token_languages")  # (schema 8's)
        raw.executemany("INSERT INTO meta VALUES (?, ?)", (
            ("archived:alley", "1"), ("imported:alley", "2"), ("imported:dock", "²")))
        raw.execute("UPDATE meta SET value = '6' WHERE key = 'schema_version'")


def test_a_read_only_sqlite_store_of_schema_6_reads_its_marks_where_they_are(tmp_path):
    import hashlib
    from eventlog.stores.sqlite import Store
    from eventlog.stores.sqlite import store as module
    db = tmp_path / "old.db"
    _schema_6(db)
    sha = hashlib.sha256(db.read_bytes()).hexdigest()
    real = module.read_only
    module.read_only = lambda path: True  # (root writes any file: say it may not)
    try:
        store = Store(db)
        assert store.archived() == {"alley"} and store.is_archived("alley")
        assert (store.imported("alley"), store.imported("dock")) == (2, 0)
        store.close()
    finally:
        module.read_only = real
    assert hashlib.sha256(db.read_bytes()).hexdigest() == sha


def test_a_new_sqlite_store_keeps_no_mark_in_meta(tmp_path):
    from eventlog.stores.sqlite import Store
    db = tmp_path / "new.db"
    store = Store(db)
    try:
        _made(store, "alley")
        store.set_archived("alley", True)
        store.import_log("copy", "Alley", iter(()), lambda rows: None, 1)
        assert store.archived() == {"alley"} and store.imported("copy") == 1
    finally:
        store.close()
    with sqlite3.connect(db) as raw:
        keys = sorted(r[0] for r in raw.execute("SELECT key FROM meta"))
    assert keys == ["schema_version", "store_id"]
