"""The SQLite store: seq without gaps, atomic batches, optimistic concurrency,
R29 (when and who), and refusing files that are not (this version's) ledgers."""
from __future__ import annotations

import multiprocessing
import os
import re
import sqlite3
import time
from datetime import datetime, timedelta, timezone

import pytest

from eventlog.chain import verify_chain
from eventlog.errors import Conflict, Refusal, StoreError, UnknownEncounter
from eventlog.events import (
    APAdjusted, APSpent, EncounterCreated, NoteAdded, RoundStarted,
)
from eventlog.stores.sqlite import Store
from projections.ledger import Ledger
from projections.reports.views import status

from helpers import another_handle
from helpers import pc, refused, rolled

E = "fight"


def _notes(*texts):
    return [NoteAdded(text=t) for t in texts]


def _rows(store, encounter=E):
    return list(store.rows(encounter))


# -- seq and batches ---------------------------------------------------------

def test_store_seq_from_one_without_gaps_per_encounter(tmp_path):
    store = Store(tmp_path / "s.db")
    store.create("a", EncounterCreated(encounter="a"), "gm")
    store.create("b", EncounterCreated(encounter="b"), "gm")
    store.append("a", 1, _notes("a1", "a2"), "gm")
    store.append("b", 1, _notes("b1"), "gm")
    store.append("a", 3, _notes("a3"), "gm")
    store.append("b", 2, _notes("b2", "b3", "b4"), "gm")
    store.append("a", 4, _notes("a4", "a5", "a6"), "gm")

    a, b = _rows(store, "a"), _rows(store, "b")
    assert [r[0] for r in a] == [1, 2, 3, 4, 5, 6, 7]
    assert [r[1] for r in a] == [1, 2, 2, 4, 5, 5, 5]
    assert [r[0] for r in b] == [1, 2, 3, 4, 5]
    assert [r[1] for r in b] == [1, 2, 3, 3, 3]
    assert store.head("a") == (7, a[-1][7])
    assert store.head("b") == (5, b[-1][7])
    store.close()


def test_store_append_returns_batch_of_first_seq(ledger):
    ledger.new(E, "", "gm")
    envs = ledger.store.append(E, 1, _notes("x", "y", "z"), "gm")
    assert [e.seq for e in envs] == [2, 3, 4]
    assert [e.batch for e in envs] == [2, 2, 2]
    assert [e.prev_hash for e in envs[1:]] == [e.hash for e in envs[:-1]]


def test_store_batch_atomic_when_an_event_fails(ledger):
    ledger.new(E, "", "gm")
    ledger.store.append(E, 1, _notes("one"), "gm")
    head = ledger.store.head(E)
    rows = _rows(ledger.store)
    # the second event of the batch cannot be encoded: nothing of it is stored
    broken = APSpent(combatant="rook", cost=object(), category="minor")
    with pytest.raises(Exception):
        ledger.store.append(E, 2, [NoteAdded(text="first of batch"), broken], "gm")
    assert ledger.store.head(E) == head
    assert _rows(ledger.store) == rows
    envs = ledger.store.append(E, 2, _notes("next"), "gm")
    assert envs[0].seq == 3 and envs[0].prev_hash == head[1]


def test_store_batch_atomic_seen_by_other_connection(tmp_path):
    path = tmp_path / "s.db"
    one, two = Store(path), Store(path)
    one.create(E, EncounterCreated(encounter=E), "gm")
    one.append(E, 1, _notes(*[f"n{i}" for i in range(50)]), "gm")
    rows = _rows(two)
    assert len(rows) == 51 and {r[1] for r in rows[1:]} == {2}
    assert verify_chain(rows, two.head(E)).ok
    one.close()
    two.close()


def test_store_conflict_when_expected_seq_stale(ledger):
    ledger.new(E, "", "gm")
    ledger.store.append(E, 1, _notes("a"), "gm")
    rows = _rows(ledger.store)
    with pytest.raises(Conflict):
        ledger.store.append(E, 1, _notes("stale"), "gm")
    with pytest.raises(Conflict):
        ledger.store.append(E, 5, _notes("ahead"), "gm")
    assert _rows(ledger.store) == rows
    assert ledger.store.head(E)[0] == 2


def test_store_conflict_between_two_stores_on_same_file(tmp_path):
    path = tmp_path / "s.db"
    one, two = Store(path), Store(path)
    one.create(E, EncounterCreated(encounter=E), "gm")
    seen = one.head(E)[0]
    two.append(E, seen, _notes("theirs"), "bob")
    with pytest.raises(Conflict):
        one.append(E, seen, _notes("mine"), "gm")
    texts = [r[5] for r in _rows(one)[1:]]
    assert len(texts) == 1 and b"theirs" in bytes(texts[0])
    one.close()
    two.close()


def test_store_append_unknown_encounter_refused(ledger):
    with pytest.raises(UnknownEncounter):
        ledger.store.append("nowhere", 0, _notes("x"), "gm")


def test_store_create_twice_refused(ledger):
    ledger.new(E, "", "gm")
    with pytest.raises(Refusal):
        ledger.new(E, "", "gm")
    assert ledger.store.head(E)[0] == 1


def test_store_reopened_file_keeps_log(tmp_path):
    path = tmp_path / "s.db"
    store = Store(path)
    Ledger(store).new(E, "Fight", "gm")
    store.append(E, 1, _notes("kept"), "gm")
    rows, head = _rows(store), store.head(E)
    store.close()
    again = Store(path)
    assert _rows(again) == rows and again.head(E) == head
    again.close()


# -- Ledger.declare under a concurrent writer ---------------------------------

def _started(ledger):
    ledger.new(E, "Fight", "gm")
    ledger.declare(E, lambda s: [pc("rook", bonus=0, ap=3)], "gm")
    ledger.declare(E, lambda s: [rolled("rook", 5)], "gm")
    ledger.declare(E, lambda s: [RoundStarted(round=1)], "gm")


def _losing_race(ledger, theirs: list, mine):
    """A `decide` that loses the race the first time it runs: another
    writer ("bob") appends `theirs` just then. It declares `mine(state)`;
    `calls` is the seq of each state it was given."""
    calls = []

    def decide(state):
        calls.append(state.seq)
        if len(calls) == 1:
            other = another_handle(ledger.store)
            other.append(E, other.head(E)[0], theirs, "bob")
        return mine(state)
    return decide, calls


def test_store_declare_retries_after_concurrent_append(ledger, tmp_path):
    _started(ledger)
    decide, calls = _losing_race(ledger, _notes("theirs"), lambda s: [NoteAdded(text="mine")])
    state, envs = ledger.declare(E, decide, "gm")
    assert len(calls) == 2 and calls[1] == calls[0] + 1
    assert [e.seq for e in envs] == [calls[0] + 2]
    log = ledger.event_dicts(E)
    assert [(e["data"].get("text"), e["actor"]) for e in log[-2:]] == \
        [("theirs", "bob"), ("mine", "gm")]
    assert status(state) == status(ledger.state(E))


def test_store_declare_rejudges_after_concurrent_append(ledger, tmp_path):
    """The concurrent writer spends rook's AP: the same declaration, judged
    again on the fresh state, is now refused (R17) and nothing of it is stored."""
    _started(ledger)
    major = [APSpent(combatant="rook", cost=2, category="major")]
    decide, calls = _losing_race(ledger, major, lambda s: major)
    with pytest.raises(Refusal) as caught:
        ledger.declare(E, decide, "gm")
    assert "R17" in str(caught.value)
    assert len(calls) == 2
    spends = [e for e in ledger.event_dicts(E) if e["type"] == "APSpent"]
    assert [e["actor"] for e in spends] == ["bob"]
    assert status(ledger.state(E))["combatants"][0]["ap"] == 1


def test_store_declare_decides_again_on_fresh_state(ledger, tmp_path):
    _started(ledger)
    decide, calls = _losing_race(ledger, [RoundStarted(round=2)],
                                 lambda s: [RoundStarted(round=s.round + 1)])
    state, envs = ledger.declare(E, decide, "gm")
    assert [ledger.state(E, at=seq).round for seq in calls] == [1, 2]
    assert envs[0].data == RoundStarted(round=3)
    assert state.round == 3 == ledger.state(E).round


def _declare_notes(path: str, who: str, count: int, go) -> None:
    store = Store(path)
    ledger = Ledger(store)
    go.wait(60)
    for i in range(count):
        ledger.declare(E, lambda s, i=i: [NoteAdded(text=f"{who}-{i}")], who)
        time.sleep(0.002)  # keep both writers busy over the same stretch of time
    store.close()


def test_store_two_processes_declaring_notes_nothing_lost_or_duplicated(tmp_path):
    path = str(tmp_path / "shared.db")
    store = Store(path)
    Ledger(store).new(E, "", "gm")
    count = 60
    ctx = multiprocessing.get_context("spawn")
    go = ctx.Event()
    procs = [ctx.Process(target=_declare_notes, args=(path, who, count, go))
             for who in ("alice", "bob")]
    for p in procs:
        p.start()
    go.set()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]

    rows = _rows(store)
    assert [r[0] for r in rows] == list(range(1, 2 * count + 2))
    assert all(r[0] == r[1] for r in rows)  # one batch per declaration
    texts = [env["data"]["text"] for env in Ledger(store).event_dicts(E)[1:]]
    expected = sorted(f"{w}-{i}" for w in ("alice", "bob") for i in range(count))
    assert sorted(texts) == expected  # nothing lost, nothing duplicated
    for who in ("alice", "bob"):  # each writer's notes in its own order
        mine = [t for t in texts if t.startswith(who)]
        assert mine == [f"{who}-{i}" for i in range(count)]
    assert verify_chain(rows, store.head(E)).ok
    store.close()


# -- R29: when and who ----------------------------------------------------------

AT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z\Z")


def test_r29_at_is_utc_iso_with_z(ledger):
    start = datetime.now(timezone.utc)
    _started(ledger)
    ledger.declare(E, lambda s: _notes("a", "b"), "gm")
    ledger.undo(E, "gm")
    end = datetime.now(timezone.utc)
    events = ledger.event_dicts(E)
    assert len(events) == 7
    previous = None
    for e in events:
        assert AT.match(e["at"]), e["at"]
        when = datetime.fromisoformat(e["at"].replace("Z", "+00:00"))
        assert start - timedelta(seconds=1) <= when <= end + timedelta(seconds=1)
        if previous is not None:
            assert when >= previous
        previous = when


def test_r29_batch_events_share_one_time(ledger):
    ledger.new(E, "", "gm")
    ledger.declare(E, lambda s: _notes("a", "b", "c"), "gm")
    assert len({e["at"] for e in ledger.event_dicts(E)[1:]}) == 1


def test_r29_actor_recorded_default_gm(ledger):
    ledger.new(E, "Fight", "gm")
    ledger.declare(E, lambda s: [pc("rook")], "gm")
    ledger.declare(E, lambda s: _notes("from alice"), "alice")
    ledger.undo(E, "bob")
    ledger.redo(E, "carol")
    events = ledger.event_dicts(E)
    assert [e["actor"] for e in events] == ["gm", "gm", "alice", "bob", "carol"]
    assert [e["type"] for e in events[-2:]] == ["Undone", "Redone"]


def test_r29_cli_actor_default_gm_and_option(tmp_path):
    import json

    from typer.testing import CliRunner

    from cli.app import app
    runner = CliRunner()
    db = str(tmp_path / "cli.db")
    for args in (["new", "fight"], ["--actor", "alice", "note", "hi"], ["note", "yo"]):
        result = runner.invoke(app, ["--db", db, *args],
                               env={"COMBAT_ACTOR": None, "COMBAT_ENCOUNTER": None})
        assert result.exit_code == 0, result.output
    log = json.loads(runner.invoke(app, ["--db", db, "log", "--json"],
                                   env={"COMBAT_ENCOUNTER": None}).output)
    assert [e["actor"] for e in log] == ["gm", "alice", "gm"]


def test_r29_gm_override_without_reason_refused_and_reason_recorded(ledger):
    _started(ledger)
    state = ledger.state(E)
    refused(state, APAdjusted(combatant="rook", delta=-1, reason=""), "R29")
    ledger.declare(E, lambda s: [APAdjusted(combatant="rook", delta=-1,
                                            reason="stunned")], "gm")
    last = ledger.event_dicts(E)[-1]
    assert last["type"] == "APAdjusted" and last["data"]["reason"] == "stunned"


# -- files that are not ledgers --------------------------------------------------

def test_store_garbage_file_raises_store_error_and_file_unchanged(tmp_path):
    path = tmp_path / "garbage.db"
    content = b"this is not a database at all\n" * 50 + bytes(range(256)) * 8
    path.write_bytes(content)
    with pytest.raises(StoreError) as caught:
        Store(path)
    assert "not a combat-ledger database" in str(caught.value)
    assert path.read_bytes() == content


def test_store_text_file_raises_store_error_and_file_unchanged(tmp_path):
    path = tmp_path / "notes.txt"
    content = "Rook 14\nVex 12\n".encode() * 300
    path.write_bytes(content)
    with pytest.raises(StoreError):
        Store(path)
    assert path.read_bytes() == content


def test_store_other_sqlite_database_refused_and_file_unchanged(tmp_path):
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.execute("INSERT INTO recipes VALUES ('soup')")
    db.commit()
    db.close()
    content = path.read_bytes()
    with pytest.raises(StoreError):
        Store(path)
    assert path.read_bytes() == content


def test_store_newer_schema_version_refused(tmp_path):
    path = tmp_path / "new.db"
    store = Store(path)
    Ledger(store).new(E, "", "gm")
    store.db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    store.close()
    with pytest.raises(StoreError) as caught:
        Store(path)
    assert "newer" in str(caught.value)


def test_store_missing_folder_created(tmp_path):
    path = tmp_path / "deep" / "er" / "ledger.db"
    store = Store(path)
    Ledger(store).new(E, "", "gm")
    store.close()
    assert path.exists() and os.path.getsize(path) > 0


def test_store_state_after_other_writer_equals_fold_from_start(ledger, tmp_path):
    """Whatever the ledger keeps to fold faster, another writer's appends,
    undos and redos are always seen: the state equals a fold from seq 1."""
    _started(ledger)
    ledger.declare(E, lambda s: [APSpent(combatant="rook", cost=1, category="minor")], "gm")
    other_store = another_handle(ledger.store)
    other = Ledger(other_store)
    other_store.append(E, other_store.head(E)[0],
                       [APSpent(combatant="rook", cost=1, category="minor")], "bob")
    head = ledger.store.head(E)[0]
    assert status(ledger.state(E)) == status(ledger.state(E, at=head))
    assert status(ledger.state(E))["combatants"][0]["ap"] == 1
    other.undo(E, "bob")
    head = ledger.store.head(E)[0]
    assert status(ledger.state(E)) == status(ledger.state(E, at=head))
    assert status(ledger.state(E))["combatants"][0]["ap"] == 2
    ledger.undo(E, "gm")
    other.redo(E, "bob")
    head = ledger.store.head(E)[0]
    assert status(ledger.state(E)) == status(other.state(E)) == \
        status(ledger.state(E, at=head))
    other_store.close()


def test_store_a_second_handle_keeps_the_first_one_seeing_other_programs(tmp_path):
    """Opening a second handle must not drop the process's locks on the file
    (closing any descriptor of it would): another program's close would then
    delete the WAL under the first handle, which would never see a change
    again (the table server opens one handle per thread)."""
    import subprocess
    import sys
    db = tmp_path / "two.db"
    first = Store(db)
    first.create("e", EncounterCreated(encounter="e", title=""), "gm")
    second = Store(db)
    code = ("import sys; from eventlog.stores.sqlite import Store; "
            "from eventlog.events import NoteAdded; s = Store(sys.argv[1]); "
            "s.append('e', s.head('e')[0], [NoteAdded(text='from another program')], 'gm'); s.close()")
    for n in (2, 3):
        subprocess.run([sys.executable, "-c", code, str(db)], check=True, timeout=60)
        assert first.head("e")[0] == second.head("e")[0] == n
    first.close()
    second.close()
