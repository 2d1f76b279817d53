"""What only the PostgreSQL store has (the contract suite proves the rest on
it): its schema and migrations, foreign databases, tokens, LISTEN/NOTIFY,
locks, lost connections and a server restart, the command line on a URL,
and `combat copy` between SQLite and PostgreSQL."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from eventlog.errors import Conflict, LedgerError, StoreError
from eventlog.events import EncounterCreated, NoteAdded
from eventlog.stores.contract import Token

from helpers import pg_server

E = "fight"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def url():
    return pg_server().fresh_url()


def _store(url):
    from eventlog.stores.postgres import PostgresStore
    return PostgresStore(url)


def _raw(url):
    import psycopg
    return psycopg.connect(url, autocommit=True)


def _created(store, encounter=E):
    return store.create(encounter, EncounterCreated(encounter=encounter, title="Fight"), "gm")


def _tables(url) -> dict:
    with _raw(url) as db:
        return {t: db.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
                for (t,) in db.execute("SELECT tablename FROM pg_tables "
                                       "WHERE schemaname = current_schema() ORDER BY 1")}


def test_pg_identity_names_the_store_id_and_the_url_without_password(url):
    store = _store(url)
    store_id = store.identity.split(":")[1]
    assert store.identity == f"postgresql:{store_id}:{url}" and len(store_id) == 32
    assert _store(url).identity == store.identity  # kept in the database
    from eventlog.stores.postgres.connection import shown
    assert shown("postgresql://club:s3cret@db.example/ledger?password=x&sslmode=require") == \
        "postgresql://club@db.example/ledger?sslmode=require"


def test_pg_events_keep_the_exact_hashed_bytes_as_bytea(url):
    store = _store(url)
    _created(store)
    store.append(E, 1, [NoteAdded(text="zoë")], "gm")
    with _raw(url) as db:
        kind, data = db.execute("SELECT pg_typeof(data)::text, data FROM events "
                                "WHERE seq = 2").fetchone()
    from eventlog.codec import encode_data
    assert kind == "bytea" and bytes(data) == encode_data(NoteAdded(text="zoë"))


def test_pg_a_newer_schema_is_refused_in_one_line_and_left_alone(url):
    _store(url).close()
    with _raw(url) as db:
        db.execute("UPDATE schema_version SET version = 99")
    before = _tables(url)
    from eventlog.stores.postgres.schema import SCHEMA_VERSION
    with pytest.raises(StoreError, match=rf"newer combat-ledger \(schema 99; this one reads "
                       rf"{SCHEMA_VERSION}\)"):
        _store(url)
    assert _tables(url) == before


def test_pg_a_store_of_schema_1_is_migrated_forward_on_open(url):
    from eventlog.stores.postgres import schema
    with _raw(url) as db:
        db.execute(schema._VERSION_TABLE)
        db.execute("INSERT INTO schema_version VALUES ('combat-ledger', 1, 'old')")
        db.execute(schema.MIGRATIONS[0][1])
    store = _store(url)
    assert "tokens" in _tables(url) and _tables(url)["schema_version"] == [
        ("combat-ledger", schema.SCHEMA_VERSION, "old")]
    assert store.tokens() == []
    with _raw(url) as db:  # (step 3: the append vouches for an event's encounter)
        assert db.execute("SELECT count(*) FROM pg_constraint WHERE contype = 'f' "
                          "AND conrelid = 'events'::regclass").fetchone() == (0,)
    _created(store)
    store.append(E, 1, [NoteAdded(text="after the migration")], "gm")
    assert store.head(E)[0] == 2
    with pytest.raises(LedgerError):  # and still no event without its encounter
        store.append("nowhere", 0, [NoteAdded(text="orphan")], "gm")
    with _raw(url) as db:
        assert db.execute("SELECT count(*) FROM events WHERE encounter = 'nowhere'"
                          ).fetchone() == (0,)
    store.close()



def test_pg_a_role_that_may_not_read_the_store_is_told_so_not_that_it_is_foreign(url):
    """A club's read-only or misconfigured role: "permission denied", which
    the club can fix, never "tables of another program"."""
    import psycopg
    from urllib.parse import urlsplit, urlunsplit
    _created(_store(url))
    role = f"weak_{os.getpid()}"
    with _raw(url) as db:
        try:
            db.execute(f'DROP ROLE IF EXISTS "{role}"')
            db.execute(f'CREATE ROLE "{role}" LOGIN')
        except psycopg.errors.InsufficientPrivilege:
            pytest.skip("the test server's role may not create roles")
    try:
        parts = urlsplit(url)
        host = parts.netloc.rsplit("@", 1)[-1]
        weak = urlunsplit((parts.scheme, f"{role}@{host}", parts.path, parts.query, ""))
        schema = parts.query.rsplit("%3D", 1)[1]
        done = _combat(_env(weak), "list")  # the schema is not the role's to use
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.endswith(f": its search_path ({schema}) names no schema this role "
                                    "may use: create the schema, or grant the role USAGE and "
                                    "CREATE on it\n"), done.stderr
        with _raw(url) as db:
            db.execute(f'GRANT USAGE ON SCHEMA "{schema}" TO "{role}"')
        done = _combat(_env(weak), "list")  # it may use the schema, not read its tables
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.endswith(": permission denied (permission denied for table "
                                    "schema_version)\n"), done.stderr
        assert "another program" not in done.stderr
    finally:
        with _raw(url) as db:  # (its grants go with it)
            db.execute(f'DROP OWNED BY "{role}"')
            db.execute(f'DROP ROLE "{role}"')

@pytest.mark.parametrize("foreign", [
    "CREATE TABLE events (id int); CREATE TABLE encounters (x text)",
    "CREATE TABLE schema_version (app text, version int, store_id text);"
    "INSERT INTO schema_version VALUES ('another-app', 1, 'x')",
    "CREATE TABLE schema_version (version int)",
])
def test_pg_a_foreign_database_is_refused_and_left_as_it_was(url, foreign):
    with _raw(url) as db:
        db.execute(foreign)
    before = _tables(url)
    with pytest.raises(StoreError, match="is not a combat-ledger database"):
        _store(url)
    assert _tables(url) == before


def test_pg_tokens_are_kept_found_by_digest_and_revoked(url):
    store = _store(url)
    vex = Token("vex", "player", ("vex", "drone-1"), "alley", "ab" * 32, "2026-12-03T10:00:00Z")
    gm = Token("gm-anna", "gm", (), None, "cd" * 32, "2026-12-03T10:01:00Z")
    store.add_token(vex)
    store.add_token(gm)
    with pytest.raises(LedgerError, match="vex"):
        store.add_token(vex._replace(digest="ef" * 32))
    assert store.tokens() == [gm, vex]
    assert _store(url).token("ab" * 32) == vex
    assert store.revoke_token("vex") is True and store.revoke_token("vex") is False
    assert store.token("ab" * 32) is None and store.tokens() == [gm]


def test_pg_a_store_in_another_schema_of_the_database_does_not_wake_this_one(url):
    """A NOTIFY channel is the whole database's: each store has its own."""
    store, other = _store(url), _store(pg_server().fresh_url())
    assert store.channel != other.channel and store.channel.startswith("combat_ledger_")
    _created(store)
    _created(other)
    store.wait_changes(0.01)  # its listener is listening from here on
    other.append(E, 1, [NoteAdded(text="elsewhere")], "gm")
    started = time.monotonic()
    assert store.wait_changes(0.5) == set()  # back by the timeout, nothing of ours
    assert time.monotonic() - started >= 0.45


def test_pg_an_append_notifies_encounter_and_seq_and_wakes_a_waiter(url, monkeypatch):
    monkeypatch.setenv("COMBAT_PG_CHANGES", "notify")  # (the poll is the default: below)
    store = _store(url)
    _created(store)
    listener = _raw(url)
    listener.execute(f"LISTEN {store.channel}")
    store.wait_changes(0.01)  # its own listener is listening from here on
    woke = []
    waiter = threading.Thread(target=lambda: (store.wait_changes(20), woke.append(time.monotonic())))
    waiter.start()
    time.sleep(0.2)
    sent = time.monotonic()
    _store(url).append(E, 1, [NoteAdded(text="hi")], "gm")
    waiter.join(20)
    assert woke and woke[0] - sent < 5
    heard = [n.payload for n in listener.notifies(timeout=2, stop_after=1)]
    assert heard == [f"{E}:2"]
    started = time.monotonic()
    store.wait_changes(0.3)  # nothing appended: back by the timeout
    assert 0.25 <= time.monotonic() - started < 5


def test_pg_an_append_marks_its_encounter_and_wakes_a_waiter(url):
    store = _store(url)
    _created(store)
    assert store.wait_changes(0.01) is None  # a first look: what came before is not known
    woke: list[set] = []
    waiter = threading.Thread(target=lambda: woke.append(store.wait_changes(20)))
    waiter.start()
    time.sleep(0.2)
    _store(url).append(E, 1, [NoteAdded(text="hi")], "gm")
    waiter.join(20)
    assert woke == [{E}]
    started = time.monotonic()
    assert store.wait_changes(0.3) == set()  # nothing appended: back by the timeout
    assert 0.25 <= time.monotonic() - started < 5


def test_pg_a_change_committed_after_a_look_is_found_by_the_next(url):
    """A transaction that marked before a look and committed after it: the
    look's horizon is at or before it, so the next look finds it."""
    store = _store(url)
    _created(store)
    store.append(E, 1, [NoteAdded(text="one")], "gm")
    store.wait_changes(0.01)
    late = _raw(url)
    late.execute("BEGIN")
    late.execute("INSERT INTO changes VALUES (%s, pg_current_xact_id()) ON CONFLICT (encounter) "
                 "DO UPDATE SET xid = excluded.xid", (E,))
    assert store.wait_changes(0.2) == set()  # not committed: not seen yet
    late.execute("COMMIT")
    assert store.wait_changes(5) == {E}


def test_pg_marks_made_before_a_first_look_are_not_told_after_it(url):
    """A transaction running anywhere in the cluster holds the horizon back,
    so older marks are still at it on the first look: they are its baseline
    (the caller re-reads every head after a None), not news."""
    store = _store(url)
    _created(store)
    idle = _raw(url)
    idle.execute("BEGIN")
    idle.execute("SELECT pg_current_xact_id()")
    store.append(E, 1, [NoteAdded(text="before the first look")], "gm")
    assert store.wait_changes(0.01) is None
    assert store.wait_changes(0.3) == set()
    idle.execute("ROLLBACK")


def test_pg_a_mark_held_back_by_a_running_transaction_is_told_once(url):
    store = _store(url)
    _created(store)
    store.wait_changes(0.01)
    idle = _raw(url)  # a writer that began long ago: the horizon cannot pass it
    idle.execute("BEGIN")
    idle.execute("SELECT pg_current_xact_id()")
    store.append(E, 1, [NoteAdded(text="one")], "gm")
    assert store.wait_changes(5) == {E}
    assert store.wait_changes(0.3) == set()  # still there, told already
    store.append(E, 2, [NoteAdded(text="two")], "gm")
    assert store.wait_changes(5) == {E}  # a new mark of the same encounter
    idle.execute("ROLLBACK")


def test_pg_changes_mode_is_poll_or_notify(url, monkeypatch):
    monkeypatch.setenv("COMBAT_PG_CHANGES", "carrier-pigeon")
    with pytest.raises(StoreError, match="COMBAT_PG_CHANGES is 'carrier-pigeon': it is poll or notify"):
        _store(url)


def test_pg_a_head_row_held_too_long_is_the_concurrent_writer_refusal(url, monkeypatch):
    monkeypatch.setenv("COMBAT_BUSY_TIMEOUT", "0.3")
    store = _store(url)
    _created(store)
    holder = _raw(url)
    holder.execute("BEGIN")
    holder.execute("SELECT * FROM encounters WHERE id = %s FOR UPDATE", (E,))
    with pytest.raises(StoreError, match=r"locked by a concurrent writer; gave up after 0.3 s"):
        store.append(E, 1, [NoteAdded(text="blocked")], "gm")
    holder.execute("ROLLBACK")
    assert store.head(E)[0] == 1
    store.append(E, 1, [NoteAdded(text="now")], "gm")
    with pytest.raises(Conflict):
        store.append(E, 1, [NoteAdded(text="stale")], "gm")


def test_pg_a_batch_failing_midway_stores_none_of_it(url):
    store = _store(url)
    _created(store)
    with _raw(url) as db:
        db.execute("CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                   "IF convert_from(NEW.data, 'UTF8') LIKE '%boom%' THEN "
                   "RAISE EXCEPTION 'disk on fire'; END IF; RETURN NEW; END $$")
        db.execute("CREATE TRIGGER boom BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION boom()")
    with pytest.raises(StoreError, match="disk on fire"):
        store.append(E, 1, [NoteAdded(text="a"), NoteAdded(text="b"), NoteAdded(text="boom")], "gm")
    assert store.head(E)[0] == 1 and [r.seq for r in store.rows(E)] == [1]


def test_pg_a_dropped_connection_is_one_line_and_the_next_call_reconnects(url):
    store = _store(url)
    _created(store)
    with store._held() as db:  # this store's connection only: every test's are combat-ledger's
        pid = db.info.backend_pid
    with _raw(url) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(StoreError) as caught:
        store.append(E, 1, [NoteAdded(text="lost")], "gm")
    assert str(caught.value).startswith("lost the connection to ") and "\n" not in str(caught.value)
    assert store.head(E)[0] == 1  # nothing half stored; a new connection answers
    store.append(E, 1, [NoteAdded(text="again")], "gm")
    assert store.head(E)[0] == 2


def _combat(env, *args):
    return subprocess.run([sys.executable, "-m", "cli", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def _env(db: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMBAT_")}
    return {**env, "COMBAT_DB": db, "NO_COLOR": "1", "COLUMNS": "120"}


def test_pg_an_unreachable_server_is_one_error_line():
    folder = tempfile.mkdtemp()
    done = _combat(_env(f"postgresql://nobody@/ledger?host={folder}"), "status")
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("error: cannot reach the PostgreSQL server of "
                                  f"postgresql://nobody@/ledger?host={folder}: connection refused")



@pytest.mark.parametrize("bad", ["postgresql://[::1", "postgresql://bob:s3cret@[::1/ledger",
                                 "postgres://bob:s3cret@host]/ledger"])
def test_pg_a_url_that_does_not_parse_is_one_error_line_without_its_password(bad):
    for args in (["status"], ["copy", "--to", bad]):
        env = _env(bad if args == ["status"] else str(Path(tempfile.mkdtemp()) / "x.db"))
        done = _combat(env, *args)
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith("error: ") and "is not a PostgreSQL URL" in done.stderr
        assert "s3cret" not in done.stderr and "Traceback" not in done.stderr

def test_pg_the_readme_session_runs_on_a_url(url):
    env = _env(url)
    for args in (["new", "alley", "--title", "Ambush in the alley"],
                 ["add", "Rook", "--pc", "--bonus", "3", "--grit", "1"],
                 ["add", "Vex", "--pc", "--bonus", "2"], ["roll", "rook", "--die", "7"],
                 ["roll", "vex", "--die", "8"], ["--actor", "players", "order", "vex", "rook"],
                 ["round"], ["seize", "rook"], ["act", "rook", "major", "shoots"]):
        done = _combat(env, *args)
        assert done.returncode == 0, (args, done.stderr)
    refused = _combat(env, "act", "vex", "minor")
    assert refused.returncode == 1 and "(R17, R19)" in refused.stderr
    assert _combat(env, "undo").returncode == 0
    verify = _combat(env, "verify")
    assert verify.returncode == 0 and verify.stdout.startswith("ok: 10 events of alley")
    assert '"seq": 5' in _combat(env, "status", "--json", "--at", "5").stdout


def test_pg_a_sqlite_command_never_imports_psycopg(tmp_path):
    code = ("import sys; sys.argv = ['combat', 'new', 'x']\n"
            "from cli.main import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('psycopg' in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], env=_env(str(tmp_path / "l.db")),
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stderr.strip().splitlines()[-1] == "False", done.stderr


def test_pg_copy_moves_a_sqlite_store_there_and_back_identically(url, tmp_path):
    home, back = str(tmp_path / "home.db"), str(tmp_path / "back.db")
    assert _combat(_env(home), "demo").returncode == 0
    assert _combat(_env(home), "new", "second").returncode == 0
    there = _combat(_env(home), "copy", "--to", url)
    assert there.returncode == 0 and "copied 2 encounters" in there.stdout
    again = _combat(_env(home), "copy", "--to", url)
    assert again.returncode == 0 and "copied 0 encounters" in again.stdout, again.stdout
    assert _combat(_env(url), "copy", "--to", back).returncode == 0
    for eid in ("demo-1", "second"):
        seen = {db: [_combat(_env(db), "--encounter", eid, *cmd).stdout
                     for cmd in (["status", "--json"], ["log", "--json"], ["verify"])]
                for db in (home, url, back)}
        assert seen[home] == seen[url] == seen[back], eid
    # the PostgreSQL copy moves on: copying the file onto it again is refused whole
    assert _combat(_env(url), "--encounter", "second", "note", "later").returncode == 0
    before = _tables(url)
    refused = _combat(_env(home), "copy", "--to", url)
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert refused.stderr.startswith("error: second is already in ") and "another log" in refused.stderr
    assert _tables(url) == before


@pytest.fixture
def own_cluster(tmp_path_factory):
    """A private cluster of this test's own, to restart under the writers."""
    from pgserver import Cluster, bindir
    if bindir() is None:
        pytest.skip("no PostgreSQL server binaries (initdb) to start a cluster to restart")
    cluster = Cluster(Path(tempfile.mkdtemp(prefix="combat-pg-restart-")))
    cluster.start()
    yield cluster
    cluster.stop()
    import shutil
    shutil.rmtree(cluster.folder, ignore_errors=True)


def test_pg_a_server_restart_mid_run_is_one_line_and_loses_nothing_acknowledged(own_cluster):
    """Two long-lived writers (a table server's, a console's) append notes
    while the server restarts: each write in flight then fails with one
    line, the next reconnects, and everything acknowledged is stored."""
    from eventlog.chain import verify_chain
    from eventlog.stores.postgres import PostgresStore
    from projections.ledger import Ledger
    Ledger(PostgresStore(own_cluster.url)).new(E, "Restarted", "gm")
    acknowledged, failures, running = [], [], [True]

    def writer(n: int) -> None:
        ledger = Ledger(PostgresStore(own_cluster.url))
        i = 0
        while running[0]:
            i += 1
            label = f"w{n}.{i}"
            try:
                ledger.declare(E, lambda s: [NoteAdded(text=label)], "gm")
                acknowledged.append(label)
            except LedgerError as exc:
                failures.append(str(exc))
                time.sleep(0.05)
    threads = [threading.Thread(target=writer, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    time.sleep(0.7)
    own_cluster.restart()
    time.sleep(0.7)
    running[0] = False
    for t in threads:
        t.join(60)
    done = _combat(_env(own_cluster.url), "--encounter", E, "note", "after the restart")
    assert done.returncode == 0, done.stderr
    store = PostgresStore(own_cluster.url)
    rows = list(store.rows(E))
    import msgspec
    texts = {msgspec.json.decode(r.data).get("text") for r in rows}
    assert set(acknowledged) <= texts  # nothing acknowledged lost
    assert len(texts - set(acknowledged) - {None, "after the restart"}) <= len(failures)
    lost = [f for f in failures if f.startswith(("lost the connection to ", "cannot reach "))]
    assert lost and all("\n" not in f for f in failures)
    assert all(f in lost or "changing too fast" in f for f in failures)  # (the two race)
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    assert verify_chain(rows, store.head(E)).ok
    print(f"\nrestart: {len(acknowledged)} acknowledged, all stored; {len(failures)} "
          f"writes refused with one line while the server restarted ({lost[0]})")


def test_pg_completion_reads_a_url_and_never_creates_a_store(url, monkeypatch):
    from cli import complete
    monkeypatch.setenv("COMBAT_DB", url)
    monkeypatch.delenv("COMBAT_ENCOUNTER", raising=False)
    assert complete.encounter_names(None, "") == []
    assert _tables(url) == {}  # an empty database stays empty
    from projections.ledger import Ledger
    Ledger(_store(url)).new("alley", "", "gm")
    Ledger(_store(url)).new("alpine", "", "gm")
    assert complete.encounter_names(None, "al") == ["alley", "alpine"]


def test_pg_play_keeps_its_history_in_the_user_state_folder(url):
    from cli.play import history_for
    from eventlog.userstate import state_dir
    history = history_for(url)
    assert Path(history.filename).parent == state_dir()
    assert history_for(url).filename == history.filename != history_for(url + "x").filename
