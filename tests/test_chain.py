"""R30: the hash chain; verification names the first bad position.

Each test tampers with the sqlite rows directly, as someone editing the file
by hand would, then verifies the log as `combat verify` does."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eventlog.chain import verify_chain
from eventlog.codec import GENESIS, event_hash
from eventlog.events import APSpent, NoteAdded, RoundStarted, TurnEnded
from eventlog.stores.sqlite import Store
from projections.ledger import Ledger

from helpers import damage, npc, pc, rolled

E = "fight"
N = 12  # events in the scripted log


@pytest.fixture
def db(tmp_path):
    """A file holding one encounter of N events (single and multi-event batches)."""
    path = tmp_path / "chain.db"
    store = Store(path)
    ledger = Ledger(store)
    ledger.new(E, "Fight", "gm")                                           # 1
    ledger.declare(E, lambda s: [pc("rook", bonus=2), npc("boss")], "gm")  # 2-3
    ledger.declare(E, lambda s: [rolled("rook", 6, 2), rolled("boss", 4)], "gm")  # 4-5
    ledger.declare(E, lambda s: [RoundStarted(round=1)], "gm")             # 6
    ledger.declare(E, lambda s: [APSpent(combatant="rook", cost=2, category="major")], "gm")  # 7
    ledger.declare(E, lambda s: [TurnEnded(combatant="rook")], "gm")       # 8
    ledger.declare(E, lambda s: [NoteAdded(text="boss growls")], "alice")  # 9
    ledger.declare(E, lambda s: [APSpent(combatant="boss", cost=1, category="minor")], "gm")  # 10
    ledger.undo(E, "gm")                                                   # 11
    ledger.redo(E, "gm")                                                   # 12
    assert store.head(E)[0] == N
    store.close()
    return path


def _verify(path):
    store = Store(path)
    try:
        return verify_chain(list(store.rows(E)), store.head(E))
    finally:
        store.close()


def _sql(path, *statements):
    con = sqlite3.connect(path)
    for statement, *args in statements:
        con.execute(statement, *args)
    con.commit()
    con.close()


def _row(path, seq):
    con = sqlite3.connect(path)
    row = con.execute("SELECT seq, batch, type, at, actor, data, prev_hash, hash "
                      "FROM events WHERE encounter = ? AND seq = ?", (E, seq)).fetchone()
    con.close()
    return row


def _rehash(path, seq):
    """Recompute one row's own hash from its (possibly edited) content."""
    s, batch, type_name, at, actor, data, prev, _ = _row(path, seq)
    digest = event_hash(s, batch, type_name, at, actor, json.loads(data), prev)
    _sql(path, ("UPDATE events SET hash = ? WHERE encounter = ? AND seq = ?",
                (digest, E, seq)))
    return digest


def test_r30_intact_log_verifies(db):
    verdict = _verify(db)
    assert verdict.ok and verdict.first_bad_seq is None
    assert verdict.events == N and verdict.head_seq == N


def test_r30_first_prev_hash_is_zeros_and_events_linked(db):
    rows = [_row(db, seq) for seq in range(1, N + 1)]
    assert rows[0][6] == GENESIS == "0" * 64
    for before, after in zip(rows, rows[1:]):
        assert after[6] == before[7]
    assert all(len(r[7]) == 64 and int(r[7], 16) >= 0 for r in rows)
    assert len({r[7] for r in rows}) == N


@pytest.mark.parametrize("seq", [1, 5, 7, N])
def test_r30_edited_data_named_by_seq(db, seq):
    data = json.loads(_row(db, seq)[5])
    key = sorted(data)[0]
    data[key] = 3 if isinstance(data[key], int) and not isinstance(data[key], bool) \
        else "tampered" if isinstance(data[key], str) else [1] if isinstance(data[key], list) else None
    _sql(db, ("UPDATE events SET data = ? WHERE encounter = ? AND seq = ?",
              (json.dumps(data, separators=(",", ":")).encode(), E, seq)))
    verdict = _verify(db)
    assert not verdict.ok and verdict.first_bad_seq == seq


@pytest.mark.parametrize("column,value", [
    ("actor", "mallory"), ("at", "2001-01-01T00:00:00.000000Z"),
    ("type", "FreeActionTaken"), ("batch", 1), ("hash", "f" * 64),
    ("prev_hash", "e" * 64),
])
def test_r30_edited_column_named_by_seq(db, column, value):
    _sql(db, (f"UPDATE events SET {column} = ? WHERE encounter = ? AND seq = 7",
              (value, E)))
    verdict = _verify(db)
    assert not verdict.ok and verdict.first_bad_seq == 7


def test_r30_edited_cost_named_by_seq(db):
    row = _row(db, 7)
    data = json.loads(row[5])
    assert data["cost"] == 2
    data["cost"] = 1
    _sql(db, ("UPDATE events SET data = ? WHERE encounter = ? AND seq = 7",
              (json.dumps(data).encode(), E)))
    verdict = _verify(db)
    assert not verdict.ok and verdict.first_bad_seq == 7


def test_r30_edited_and_rehashed_event_detected_at_next(db):
    data = json.loads(_row(db, 7)[5])
    data["cost"] = 1
    _sql(db, ("UPDATE events SET data = ? WHERE encounter = ? AND seq = 7",
              (json.dumps(data).encode(), E)))
    _rehash(db, 7)
    verdict = _verify(db)
    assert not verdict.ok and verdict.first_bad_seq == 8


def test_r30_edited_and_rehashed_last_event_detected_by_head(db):
    _sql(db, ("UPDATE events SET actor = 'mallory' WHERE encounter = ? AND seq = ?", (E, N)))
    _rehash(db, N)
    verdict = _verify(db)
    assert not verdict.ok and verdict.first_bad_seq == N


@pytest.mark.parametrize("seq", [1, 2, 7, N - 1])
def test_r30_deleted_event_named_by_seq(db, seq):
    _sql(db, ("DELETE FROM events WHERE encounter = ? AND seq = ?", (E, seq)))
    verdict = _verify(db)
    assert not verdict.ok and verdict.first_bad_seq == seq


def test_r30_deleted_and_renumbered_event_named_by_seq(db):
    _sql(db, ("DELETE FROM events WHERE encounter = ? AND seq = 7", (E,)),
         ("UPDATE events SET seq = seq + 1000 WHERE encounter = ? AND seq > 7", (E,)),
         ("UPDATE events SET seq = seq - 1001 WHERE encounter = ? AND seq > 1000", (E,)))
    verdict = _verify(db)
    assert not verdict.ok and verdict.first_bad_seq == 7


def _make_room(path, at):
    """Shift events seq >= at up by one, leaving seq `at` free."""
    _sql(path,
         ("UPDATE events SET seq = seq + 1000 WHERE encounter = ? AND seq >= ?", (E, at)),
         ("UPDATE events SET seq = seq - 999 WHERE encounter = ? AND seq > 1000", (E,)))


def test_r30_inserted_event_named_by_seq(db):
    copy = _row(db, 9)  # a note, copied in as a new event 7
    _make_room(db, 7)
    _sql(db, ("INSERT INTO events VALUES (?, 7, 7, ?, ?, ?, ?, ?, ?, 1)",
              (E, *copy[2:])))
    verdict = _verify(db)
    assert not verdict.ok and verdict.first_bad_seq == 7


def test_r30_inserted_forged_event_detected(db):
    """A well-hashed forgery linked to event 6 still breaks the chain at the
    event that followed it."""
    prev = _row(db, 6)[7]
    at = _row(db, 6)[3]
    data = {"text": "forged"}
    digest = event_hash(7, 7, "NoteAdded", at, "gm", data, prev)
    _make_room(db, 7)
    _sql(db, ("INSERT INTO events VALUES (?, 7, 7, 'NoteAdded', ?, 'gm', ?, ?, ?, 1)",
              (E, at, json.dumps(data).encode(), prev, digest)))
    verdict = _verify(db)
    assert not verdict.ok and verdict.first_bad_seq == 8


def test_r30_appended_forged_event_detected_by_head(db):
    last = _row(db, N)
    data = {"text": "forged"}
    digest = event_hash(N + 1, N + 1, "NoteAdded", last[3], "gm", data, last[7])
    _sql(db, ("INSERT INTO events VALUES (?, ?, ?, 'NoteAdded', ?, 'gm', ?, ?, ?, 1)",
              (E, N + 1, N + 1, last[3], json.dumps(data).encode(), last[7], digest)))
    verdict = _verify(db)
    assert not verdict.ok and verdict.first_bad_seq == N + 1


@pytest.mark.parametrize("a,b", [(7, 8), (2, 3), (4, 9)])
def test_r30_reordered_events_named_by_seq(db, a, b):
    _sql(db, ("UPDATE events SET seq = -1 WHERE encounter = ? AND seq = ?", (E, a)),
         ("UPDATE events SET seq = ? WHERE encounter = ? AND seq = ?", (a, E, b)),
         ("UPDATE events SET seq = ? WHERE encounter = ? AND seq = -1", (b, E)))
    verdict = _verify(db)
    assert not verdict.ok and verdict.first_bad_seq == a


@pytest.mark.parametrize("cut", [1, 3])
def test_r30_truncated_log_named_by_seq(db, cut):
    _sql(db, ("DELETE FROM events WHERE encounter = ? AND seq > ?", (E, N - cut)))
    verdict = _verify(db)
    assert not verdict.ok and verdict.first_bad_seq == N - cut + 1


def test_r30_hash_covers_prev_hash():
    args = (5, 5, "NoteAdded", "2026-01-01T00:00:00.000000Z", "gm", {"text": "x"})
    one = event_hash(*args, GENESIS)
    two = event_hash(*args, "1" + GENESIS[1:])
    assert one != two
    assert event_hash(*args, GENESIS) == one  # deterministic


@pytest.mark.parametrize("field,value", [
    ("seq", 6), ("batch", 4), ("type", "FreeActionTaken"),
    ("at", "2026-01-01T00:00:00.000001Z"), ("actor", "gm2"), ("data", {"text": "y"}),
])
def test_r30_hash_covers_every_field(field, value):
    args = dict(seq=5, batch=5, type_name="NoteAdded", at="2026-01-01T00:00:00.000000Z",
                actor="gm", data={"text": "x"}, prev_hash=GENESIS)
    base = event_hash(**args)
    key = "type_name" if field == "type" else field
    assert event_hash(**{**args, key: value}) != base


def test_r30_rewritten_prev_hash_with_matching_hash_named_by_seq(db):
    """prev_hash is inside the hash: even an event re-hashed over a forged
    prev_hash no longer links to the event before it."""
    _sql(db, ("UPDATE events SET prev_hash = ? WHERE encounter = ? AND seq = 7",
              ("a" * 64, E)))
    _rehash(db, 7)
    verdict = _verify(db)
    assert not verdict.ok and verdict.first_bad_seq == 7


def test_r30_other_encounter_untouched_by_tampering(db):
    store = Store(db)
    ledger = Ledger(store)
    ledger.new("other", "", "gm")
    ledger.declare("other", lambda s: [NoteAdded(text="fine")], "gm")
    store.close()
    _sql(db, ("DELETE FROM events WHERE encounter = ? AND seq = 7", (E,)))
    store = Store(db)
    assert verify_chain(list(store.rows("other")), store.head("other")).ok
    store.close()
    assert _verify(db).first_bad_seq == 7


def test_r30_cli_verify_exit_1_names_seq(db):
    from cli.app import app
    runner = CliRunner()
    ok = runner.invoke(app, ["--db", str(db), "--encounter", E, "verify"])
    assert ok.exit_code == 0, ok.output
    _sql(db, ("UPDATE events SET actor = 'mallory' WHERE encounter = ? AND seq = 9", (E,)))
    bad = runner.invoke(app, ["--db", str(db), "--encounter", E, "verify"])
    assert bad.exit_code == 1
    assert "error: " in bad.output and "seq 9" in bad.output
    as_json = runner.invoke(app, ["--db", str(db), "--encounter", E, "verify", "--json"])
    assert as_json.exit_code == 1
    doc = json.loads(as_json.stdout)
    assert doc["ok"] is False and doc["first_bad_seq"] == 9


# -- a witness sees the tail cut off ---------------------------------------------

def _cut_the_tail(db: Path) -> None:
    """Delete the last event and set the head row back to the one before."""
    con = sqlite3.connect(db)
    (last,) = con.execute("SELECT max(seq) FROM events").fetchone()
    con.execute("DELETE FROM events WHERE seq = ?", (last,))
    (digest,) = con.execute("SELECT hash FROM events WHERE seq = ?", (last - 1,)).fetchone()
    con.execute("UPDATE encounters SET head_seq = ?, head_hash = ?", (last - 1, digest))
    con.commit()
    con.close()


def test_r30_truncated_tail_with_its_head_rewritten_seen_by_a_witness(alley, tmp_path):
    alley("act", "rook", "minor")
    head = alley("head").stdout
    seq, digest = head.split()
    assert seq.isdigit() and len(digest) == 64 and head.endswith("\n")
    (tmp_path / "alley.head").write_text(head)
    alley("export", "-o", tmp_path / "alley.json")
    alley("verify", "--against", tmp_path / "alley.head")
    alley("verify", "--against", tmp_path / "alley.json")
    _cut_the_tail(alley.db)
    alley("verify")  # no chain can see this alone
    for witness in ("alley.head", "alley.json"):
        err = alley("verify", "--against", tmp_path / witness, code=1).stderr
        assert f"the witness saw seq {seq}" in err and "(R30)" in err


def test_r30_witness_sees_a_rewritten_tail(alley, tmp_path):
    (tmp_path / "alley.head").write_text(alley("head").stdout)
    _cut_the_tail(alley.db)
    alley("note", "a different ending")  # the same seq, another event
    err = alley("verify", "--against", tmp_path / "alley.head", code=1).stderr
    assert "the log was rewritten (R30)" in err


def test_verify_against_an_endless_device_stops_at_the_limit(noted):
    err = noted("verify", "--against", "/dev/zero", code=1).stderr
    assert "larger than 256 MiB" in err or "not a combat-ledger" in err or "not" in err


def test_r30_verify_of_a_seq_stored_as_text_is_one_line(noted):
    damage(noted.db, "UPDATE events SET seq = '4x' WHERE seq = 4")
    err = noted("verify", code=1).stderr
    assert err.startswith("error: the log of alley is broken at seq 4: ") and "(R30)" in err
