"""An entry appended by `combat import` carries the actor
its file claims; `combat log` marks it as imported, so that actor is not
read as one this store witnessed (docs/operations.md, "What the actor
proves"). The mark is kept by the store with the log (SQLite: in `meta`;
PostgreSQL: schema 6's `imported` table), carried by `copy --to`, and
dropped with the encounter. On SQLite and PostgreSQL."""
from __future__ import annotations

import json

import pytest

from eventlog.events import EncounterCreated, NoteAdded
from eventlog.stores.copying import copy_store

from helpers import STORES, make_store, pg_server, real

WIDE = {"COLUMNS": "200"}


def _store(tmp_path, kind: str, name: str) -> str:
    return pg_server().fresh_url() if kind == "pg" else str(tmp_path / f"{name}.db")


def _actors(db, *args) -> dict[int, str]:
    """{seq: actor cell} of `combat log`, as a person reads it."""
    out = real(db, *args, "log", env=WIDE)
    assert out.returncode == 0, out.stderr
    rows = {}
    for line in out.stdout.splitlines():
        cells = [c.strip() for c in line.split("\u2502")]
        if cells[0].isdigit():
            rows[int(cells[0])] = cells[2]
    return rows


@pytest.fixture
def export_file(tmp_path):
    db = tmp_path / "home.db"
    for args in (["new", "alley"], ["add", "Rook", "--pc"],
                 ["--actor", "alice", "note", "claimed by alice"]):
        assert real(db, *args).returncode == 0
    path = tmp_path / "alley.json"
    path.write_text(real(db, "export").stdout)
    return path


@pytest.mark.parametrize("kind", ["sqlite", "pg"])
def test_r29_imported_entries_are_marked_as_imported_in_the_log(tmp_path, export_file, kind):
    target = _store(tmp_path, kind, "target")
    assert real(target, "import", str(export_file)).returncode == 0
    assert real(target, "--encounter", "alley", "note", "said here").returncode == 0
    actors = _actors(target, "--encounter", "alley")
    assert actors == {1: "gm (imported)", 2: "gm (imported)", 3: "alice (imported)", 4: "gm"}
    audit = real(target, "--encounter", "alley", "log", "--audit", env=WIDE).stdout
    assert "declared by: gm (imported) 2, alice (imported) 1, gm 1" in audit
    # The declarations themselves, their hashes and verify are as they were.
    assert real(target, "--encounter", "alley", "verify").returncode == 0
    events = json.loads(real(target, "--encounter", "alley", "log", "--json").stdout)
    assert [e["actor"] for e in events] == ["gm", "gm", "alice", "gm"]


@pytest.mark.parametrize("kind", ["sqlite", "pg"])
def test_r29_log_json_marks_imported_entries_in_an_added_field(tmp_path, export_file, kind):
    """`imported` is added to each event of `log --json` (false by default):
    the event's shape gains a field and keeps every other as it was."""
    target = _store(tmp_path, kind, "target")
    assert real(target, "import", str(export_file)).returncode == 0
    assert real(target, "--encounter", "alley", "note", "said here").returncode == 0
    events = json.loads(real(target, "--encounter", "alley", "log", "--json").stdout)
    assert [e["imported"] for e in events] == [True, True, True, False]
    exported = json.loads(export_file.read_text())["events"]
    assert [e["imported"] for e in exported] == [False, False, False]  # (witnessed there)
    assert [{**e, "imported": False} for e in events[:3]] == exported
    assert real(target, "new", "own").returncode == 0
    own = json.loads(real(target, "--encounter", "own", "log", "--json").stdout)
    assert [e["imported"] for e in own] == [False]


def test_r29_the_servers_log_marks_imported_entries_as_log_json_does(tmp_path, export_file):
    from serverkit import client, served, token
    db = tmp_path / "table.db"
    assert real(db, "import", str(export_file)).returncode == 0
    assert real(db, "--encounter", "alley", "note", "said here").returncode == 0
    gm, ana = token(db, "gm", "gm"), token(db, "ana", "player", "rook", "alley")
    with served(db) as running:
        with client(running, gm) as http:
            log = http.get("/api/encounters/alley/log").json()
            later = http.get("/api/encounters/alley/log", params={"after": 2}).json()
            said = http.post("/api/encounters/alley/commands",
                             json={"command": "note", "text": "and here"}).json()
        with client(running, ana) as http:
            theirs = http.get("/api/encounters/alley/log").json()
    assert log == json.loads(real(db, "--encounter", "alley", "log", "--json").stdout)[:4]
    assert [e["imported"] for e in log] == [True, True, True, False]
    assert [e["imported"] for e in later] == [True, False]
    assert [e["imported"] for e in said["events"]] == [False]
    assert [e["imported"] for e in theirs] == [True, True, True, False, False]


@pytest.mark.parametrize("kind", ["sqlite", "pg"])
def test_r29_a_copy_keeps_the_import_mark_and_a_witnessed_log_has_none(tmp_path, export_file,
                                                                        kind):
    first = tmp_path / "first.db"
    assert real(first, "import", str(export_file)).returncode == 0
    assert real(first, "new", "own").returncode == 0
    copy = _store(tmp_path, kind, "copy")
    assert real(first, "copy", "--to", copy).returncode == 0
    assert set(_actors(copy, "--encounter", "alley").values()) == {
        "gm (imported)", "alice (imported)"}
    assert _actors(copy, "--encounter", "own") == {1: "gm"}


@pytest.mark.parametrize("kind", STORES)
def test_contract_an_import_mark_is_kept_with_the_log_and_dropped_with_it(tmp_path, kind):
    source = make_store("memory", tmp_path)
    source.create("a", EncounterCreated(encounter="a", title="A"), "gm")
    source.append("a", 1, [NoteAdded(text="x")], "bob")
    store = make_store(kind, tmp_path)
    try:
        store.create("own", EncounterCreated(encounter="own", title="Own"), "gm")
        list(copy_store(source, store, "there"))  # the source's mark: none
        assert store.imported("a") == 0 and store.imported("own") == 0
        store.delete("a")
        from eventlog.codec import decode_data
        from eventlog.codec import Envelope
        envs = [Envelope(r.seq, r.batch, r.type, r.at, r.actor, decode_data(r.type, r.data),
                         r.prev_hash, r.hash) for r in source.rows("a")]
        store.import_log("a", "A", iter(envs), lambda rows: None)
        assert store.imported("a") == 2
        store.append("a", 2, [NoteAdded(text="y")], "gm")
        assert store.imported("a") == 2  # what came after is the store's own
        store.delete("a")
        assert store.imported("a") == 0
        store.import_log("a", "A", iter(envs), lambda rows: None, imported=1)
        assert store.imported("a") == 1
    finally:
        store.close()


def test_r29_the_gm_pages_lines_say_which_entries_were_imported(tmp_path, export_file):
    from serverkit import client, served, token
    db = tmp_path / "table.db"
    assert real(db, "import", str(export_file)).returncode == 0
    assert real(db, "--encounter", "alley", "note", "said here").returncode == 0
    gm = token(db, "gm", "gm")
    with served(db) as running, client(running, gm) as http:
        lines = http.get("/api/encounters/alley/lines", params={"last": 10}).json()
    assert [(x["actor"], x["imported"]) for x in lines] == [
        ("gm", True), ("gm", True), ("alice", True), ("gm", False)]


def test_pg_a_store_of_schema_5_opens_migrated_and_a_doctored_import_table_is_refused(tmp_path):
    """Schema 6 adds the `imported` table: an older store is brought forward
    when opened (its encounters marked as nothing imported); a store whose
    `imported` table has another shape is not opened, nothing changed."""
    import psycopg

    from eventlog.errors import StoreError
    from eventlog.stores.postgres.schema import SCHEMA_VERSION
    from eventlog.stores.postgres import PostgresStore
    url = pg_server().fresh_url()
    store = PostgresStore(url)
    store.create("a", EncounterCreated(encounter="a", title="A"), "gm")
    store.close()
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("DROP TABLE imported")
        db.execute("DROP TABLE changes")  # (schemas 7, 8 and 9: as a schema 5 store was)
        db.execute("DROP TABLE hook_private")
        db.execute("DROP TABLE portraits")
        db.execute("DROP TABLE joins")  # (and 10)
        db.execute("DROP TABLE on_table")
        db.execute("DROP TABLE token_languages")  # (and 11)
        db.execute("UPDATE schema_version SET version = 5")
    store = PostgresStore(url)
    try:
        assert store.imported("a") == 0
    finally:
        store.close()
    with psycopg.connect(url, autocommit=True) as db:
        assert db.execute("SELECT version FROM schema_version").fetchone() == (SCHEMA_VERSION,)
        db.execute("DROP TABLE imported")
        db.execute("CREATE TABLE imported (encounter text PRIMARY KEY, upto text NOT NULL)")
    with pytest.raises(StoreError, match="did not make; nothing was changed"):
        PostgresStore(url)


def test_a_sqlite_import_mark_that_is_not_a_seq_marks_nothing(tmp_path, export_file):
    from helpers import damage
    db = tmp_path / "t.db"
    assert real(db, "import", str(export_file)).returncode == 0
    damage(db, "UPDATE imported SET upto = '²' WHERE encounter = 'alley'")
    assert set(_actors(db, "--encounter", "alley").values()) == {"gm", "alice"}
