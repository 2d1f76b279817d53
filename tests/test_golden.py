"""Schema evolution: logs written by version 1 (tests/golden/) load, fold
and verify forever, and show at every seq the state they recorded (R30,
R31). The golden files are copied before use, never opened in place.
"""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from cli.app import app
from eventlog import codec
from eventlog.chain import verify_chain
from eventlog.events import EVENT_TYPES, Amended, Category, Payload
from eventlog.stores.sqlite import Store
from projections.inputs import transfer
from projections.ledger import Ledger
from projections.inputs.transfer import export_json, import_log, read_export
from projections.reports.views import status

GOLDEN = Path(__file__).resolve().parent / "golden"
ENCOUNTERS = ("demo-1", "alley")
# The event types of version 1, as they were when the goldens were written:
# a fact of history, never to be edited.
V1_TYPES = {
    "EncounterCreated", "CombatantJoined", "GroupBonusSet", "InitiativeRolled",
    "InitiativeOverridden", "OrderDeclared", "RoundStarted", "MomentSeized", "APSpent",
    "FreeActionTaken", "InterruptTaken", "TurnEnded", "CombatantLeft",
    "CombatantRejoined", "MaxAPChanged", "APAdjusted", "GritAdjusted", "NoteAdded",
    "EncounterEnded", "Undone", "Redone", "Amended",
}
CLEAN_ENV = {"COMBAT_DB": None, "COMBAT_ENCOUNTER": None, "COMBAT_ACTOR": None}


def _export(encounter: str) -> dict:
    return json.loads((GOLDEN / f"v1-{encounter}.json").read_bytes())


def _shown(encounter: str) -> dict[str, dict]:
    return json.loads((GOLDEN / f"v1-{encounter}.status.json").read_bytes())


def _as_promised(now, then):
    """`now` cut to the keys `then` has: later versions may add keys to
    status, events and exports (docs/formats.md), never change what the
    old ones say."""
    if isinstance(then, dict) and isinstance(now, dict):
        return {k: _as_promised(now.get(k, "<missing>"), v) for k, v in then.items()}
    if isinstance(then, list) and isinstance(now, list) and len(now) == len(then):
        return [_as_promised(n, t) for n, t in zip(now, then)]
    return now


def _assert_shows_what_was_recorded(ledger: Ledger, encounter: str) -> None:
    shown = _shown(encounter)
    head = ledger.store.head(encounter)[0]
    assert set(shown) == {str(seq) for seq in range(1, head + 1)} | {"now"}
    for seq, then in shown.items():
        state = ledger.state(encounter) if seq == "now" else ledger.state(encounter, at=int(seq))
        assert _as_promised(status(state), then) == then, (encounter, seq)


@pytest.fixture
def golden_db(tmp_path) -> Path:
    copy = tmp_path / "v1.db"
    shutil.copyfile(GOLDEN / "v1.db", copy)
    return copy


def test_golden_v1_store_opens_folds_and_verifies(golden_db):
    store = Store(golden_db)
    ledger = Ledger(store)
    assert sorted(e[0] for e in store.encounters()) == sorted(ENCOUNTERS)
    for encounter in ENCOUNTERS:
        verdict = verify_chain(store.rows(encounter), store.head(encounter))
        assert verdict.ok, (encounter, verdict)
        then = _export(encounter)["events"]
        assert _as_promised(ledger.event_dicts(encounter), then) == then
        _assert_shows_what_was_recorded(ledger, encounter)
    store.close()


def test_golden_v1_store_records_its_schema_and_event_versions(golden_db):
    db = sqlite3.connect(golden_db)
    assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("1",)
    assert db.execute("SELECT DISTINCT version FROM events").fetchall() == [(1,)]
    db.close()


def test_golden_v1_store_exports_the_golden_exports(golden_db):
    store = Store(golden_db)
    for encounter in ENCOUNTERS:
        then = _export(encounter)
        assert _as_promised(json.loads(json.dumps(export_json(Ledger(store), encounter))),
                            then) == then
    store.close()


def test_golden_v1_store_through_the_command_line(golden_db):
    runner = CliRunner()
    for encounter in ENCOUNTERS:
        def combat(*args):
            result = runner.invoke(app, ["--db", str(golden_db), "--encounter", encounter, *args],
                                   env=CLEAN_ENV)
            assert result.exit_code == 0, (args, result.output)
            return result.stdout
        assert combat("verify").startswith(f"ok: {len(_export(encounter)['events'])} events")
        then = _export(encounter)["events"]
        assert _as_promised(json.loads(combat("log", "--json")), then) == then
        now = json.loads(combat("status", "--json"))
        assert _as_promised(now, _shown(encounter)["now"]) == _shown(encounter)["now"]
        combat("stats", "--json")


@pytest.mark.parametrize("encounter", ENCOUNTERS)
def test_golden_v1_export_imports_and_shows_what_was_recorded(tmp_path, encounter):
    store = Store(tmp_path / "fresh.db")
    ledger = Ledger(store)
    raw = (GOLDEN / f"v1-{encounter}.json").read_bytes()
    import_log(ledger, read_export(raw, f"v1-{encounter}.json"), None)
    assert verify_chain(store.rows(encounter), store.head(encounter)).ok
    then = _export(encounter)["events"]
    assert _as_promised(ledger.event_dicts(encounter), then) == then
    assert {e["imported"] for e in ledger.event_dicts(encounter)} == {True}  # (from a file)
    _assert_shows_what_was_recorded(ledger, encounter)
    store.close()


def test_golden_v1_holds_every_event_type_of_version_1_and_all_still_exist():
    found = {e["type"] for encounter in ENCOUNTERS for e in _export(encounter)["events"]}
    assert found == V1_TYPES
    assert V1_TYPES <= set(EVENT_TYPES)  # none is ever removed (docs/formats.md)


# -- a future version adds a field with a default ---------------------------

class APSpent(Payload):
    """APSpent as a later version might have it: a field added, with a
    default (fields added with defaults, the only change an event type may take)."""
    combatant: str
    cost: int
    category: Category
    label: str = ""
    target: str | None = None


class NoteAdded(Payload):
    text: str
    private: bool = False


@pytest.fixture
def fields_added(monkeypatch):
    """Decode APSpent and NoteAdded as the later version would."""
    for cls in (APSpent, NoteAdded):
        name = cls.__name__
        monkeypatch.setitem(EVENT_TYPES, name, cls)
        monkeypatch.setitem(codec.DECODERS, name, msgspec.json.Decoder(cls))
    return {**codec.ADDED_FIELDS, "APSpent": frozenset({"target"}),
            "NoteAdded": frozenset({"private"})}


def test_golden_v1_verifies_after_a_field_is_added(golden_db, monkeypatch, fields_added):
    monkeypatch.setattr(codec, "ADDED_FIELDS", fields_added)
    store = Store(golden_db)
    for encounter in ENCOUNTERS:
        assert verify_chain(store.rows(encounter), store.head(encounter)).ok
        doc = read_export((GOLDEN / f"v1-{encounter}.json").read_bytes(), "v1.json")
        envs = transfer._envelopes(doc)
        assert any(isinstance(e.data, APSpent) for e in envs)
        assert verify_chain([(e.seq, e.batch, e.type, e.at, e.actor, e.data, e.prev_hash,
                              e.hash) for e in envs]).ok
    store.close()


def test_a_field_added_without_saying_so_breaks_old_hashes(golden_db, fields_added):
    """Why codec.ADDED_FIELDS exists: a new field's default would otherwise
    enter the hash of every old event of that type."""
    store = Store(golden_db)
    verdict = verify_chain(store.rows("alley"), store.head("alley"))
    store.close()
    assert not verdict.ok and "edited" in verdict.problem


def test_an_added_field_is_hashed_only_away_from_its_default(fields_added, monkeypatch):
    monkeypatch.setattr(codec, "ADDED_FIELDS", fields_added)
    plain = APSpent(combatant="rook", cost=1, category="minor")
    aimed = APSpent(combatant="rook", cost=1, category="minor", target="boss")
    args = (5, 5, "APSpent", "2026-12-02T12:00:00.000000Z", "gm")
    assert codec.event_hash(*args, plain, codec.GENESIS) != \
        codec.event_hash(*args, aimed, codec.GENESIS)
    assert codec.event_hash(*args, plain, codec.GENESIS) == codec.event_hash(
        *args, {"combatant": "rook", "cost": 1, "category": "minor", "label": ""},
        codec.GENESIS)
    fixed = Amended(batch=3, events=[plain], reason="typo")
    assert codec.event_hash(6, 6, "Amended", *args[3:], fixed, codec.GENESIS) == codec.event_hash(
        6, 6, "Amended", *args[3:], {"batch": 3, "reason": "typo", "events": [
            {"type": "APSpent", "combatant": "rook", "cost": 1, "category": "minor",
             "label": ""}]}, codec.GENESIS)
