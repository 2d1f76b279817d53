"""R31: replaying a log, from the store or from an export, yields the state
that was shown when it was written; import refuses what does not verify."""
from __future__ import annotations

import copy
import json

import pytest
from typer.testing import CliRunner

from eventlog.chain import verify_chain
from eventlog.errors import InvalidFile, LedgerError, Refusal
from eventlog.events import (
    APAdjusted, APSpent, EncounterEnded, FreeActionTaken, GritAdjusted,
    GroupBonusSet, InitiativeOverridden, InterruptTaken, MaxAPChanged,
    MomentSeized, NoteAdded, OrderDeclared, RoundStarted, TurnEnded,
    CombatantLeft, CombatantRejoined,
)
from eventlog.stores.sqlite import Store
from projections.ledger import Ledger
from projections.inputs.transfer import export_json, import_log, read_export
from projections.reports.views import status

from helpers import as_logged_at_the_source, contents, npc, pc, rechain, rolled, unmarked

E = "raid"
CLEAN_ENV = {"COMBAT_ENCOUNTER": None, "COMBAT_ACTOR": None, "COMBAT_DB": None}


def _scripted(ledger, batches: bool = True) -> dict[int, dict]:
    """Play a scripted encounter; return the status shown after each append,
    keyed by the seq of the last event appended."""
    shown: dict[int, dict] = {}

    def record(state):
        shown[state.seq] = status(state)
        assert state.seq == ledger.store.head(E)[0]

    def say(*payloads, actor="gm"):
        if batches:
            state, _ = ledger.declare(E, lambda s: list(payloads), actor)
            record(state)
        else:
            for p in payloads:
                state, _ = ledger.declare(E, lambda s, p=p: [p], actor)
                record(state)

    record(ledger.new(E, "Warehouse raid", "gm"))
    say(pc("rook", bonus=3, grit=1), pc("vex", bonus=1, ap=4, grit=2))
    say(npc("g-1", bonus=1, group="gangers"), npc("g-2", bonus=0, group="gangers"))
    say(GroupBonusSet(group="gangers", bonus=1))
    say(rolled("rook", 5, 3), rolled("vex", 7, 1), rolled("gangers", 7, 1))
    say(NoteAdded(text="everyone at 8; PCs first"), actor="alice")
    say(OrderDeclared(slots=["vex", "rook"]), actor="alice")
    say(RoundStarted(round=1))
    say(MomentSeized(combatant="rook"))
    say(APSpent(combatant="rook", cost=2, category="major", label="shoots"))
    say(InterruptTaken(combatant="g-1", cost=1, category="minor", label="ducks"))
    say(TurnEnded(combatant="rook"))
    say(APSpent(combatant="vex", cost=1, category="minor"), actor="vex")
    say(FreeActionTaken(combatant="vex", label="shouts"), actor="vex")
    say(TurnEnded(combatant="vex"), actor="vex")
    say(APSpent(combatant="g-2", cost=2, category="major"))
    record(ledger.undo(E, "gm")[0])
    record(ledger.redo(E, "gm")[0])
    say(TurnEnded(combatant="g-2"))
    say(APSpent(combatant="g-1", cost=2, category="major"))
    record(ledger.undo(E, "gm")[0])  # left undone
    say(APAdjusted(combatant="g-1", delta=-1, reason="stunned"))
    say(MaxAPChanged(combatant="rook", max_ap=4, reason="wired reflexes"))
    say(InitiativeOverridden(slot="gangers", total=2, reason="flashbang"))
    say(CombatantLeft(combatant="g-2", reason="fled"))
    say(RoundStarted(round=2))
    say(CombatantRejoined(combatant="g-2"))
    say(GritAdjusted(combatant="vex", delta=-1, reason="spent on a reroll"))
    say(APSpent(combatant="vex", cost=4, category="custom", label="full auto"), actor="vex")
    say(NoteAdded(text="the gangers run"))
    say(EncounterEnded())
    say(NoteAdded(text="after the end, notes only"))
    return shown


def _export_bytes(ledger, encounter=E) -> bytes:
    return json.dumps(export_json(ledger, encounter)).encode()


def _load(raw: bytes) -> dict:
    return json.loads(raw)


def _dump(doc: dict) -> bytes:
    return json.dumps(doc).encode()


def _index(doc, type_name, **match):
    for i, ev in enumerate(doc["events"]):
        if ev["type"] == type_name and all(ev["data"].get(k) == v for k, v in match.items()):
            return i
    raise AssertionError(f"no {type_name} {match}")


def _no_key(d: dict, key: str) -> dict:
    return {k: v for k, v in d.items() if k != key}


def _verdict(ledger, encounter):
    v = verify_chain(list(ledger.store.rows(encounter)), ledger.store.head(encounter))
    return (v.ok, v.events, v.first_bad_seq, v.head_seq, v.head_hash)


# -- round trip ---------------------------------------------------------------

def test_r31_scripted_encounter_is_legal_and_verifies(ledger):
    shown = _scripted(ledger)
    assert len(shown) >= 25
    assert status(ledger.state(E))["phase"] == "ended"
    assert _verdict(ledger, E)[0]


def test_r31_export_import_fresh_db_reproduces_status_log_verify(ledger, tmp_path):
    _scripted(ledger)
    raw = _export_bytes(ledger)
    other = Store(tmp_path / "other.db")
    copy_ledger = Ledger(other)
    state = import_log(copy_ledger, read_export(raw, "raid.json"), None)
    assert status(state) == status(ledger.state(E))
    assert status(copy_ledger.state(E)) == status(ledger.state(E))
    assert as_logged_at_the_source(copy_ledger.event_dicts(E)) == unmarked(ledger.event_dicts(E))
    assert _verdict(copy_ledger, E) == _verdict(ledger, E)
    other.close()


def test_r31_export_import_as_new_id_same_db(ledger):
    _scripted(ledger)
    raw = _export_bytes(ledger)
    import_log(ledger, read_export(raw, "raid.json"), "raid-copy")
    assert _no_key(status(ledger.state("raid-copy")), "encounter") == \
        _no_key(status(ledger.state(E)), "encounter")
    assert status(ledger.state("raid-copy"))["encounter"] == "raid-copy"
    assert as_logged_at_the_source(ledger.event_dicts("raid-copy")) == \
        unmarked(ledger.event_dicts(E))
    assert _verdict(ledger, "raid-copy") == _verdict(ledger, E)


def test_r31_export_json_shape(ledger):
    _scripted(ledger)
    doc = export_json(ledger, E)
    assert doc["format"] == "combat-ledger" and doc["version"] == 1
    assert doc["events"] == ledger.event_dicts(E)
    assert [e["seq"] for e in doc["events"]] == list(range(1, len(doc["events"]) + 1))
    assert set(doc["events"][0]) == {"seq", "batch", "type", "at", "actor", "data",
                                     "undone", "prev_hash", "hash", "imported"}
    assert not any(e["imported"] for e in doc["events"])  # (all witnessed here)
    assert any(e["undone"] for e in doc["events"])


def test_r31_imported_log_keeps_undo_redo_stack(ledger, tmp_path):
    """The last batch left undone stays undone after import; no redo after
    later declarations; undo still works on the copy."""
    _scripted(ledger)
    other = Store(tmp_path / "other.db")
    copy_ledger = Ledger(other)
    import_log(copy_ledger, read_export(_export_bytes(ledger), "x"), None)
    with pytest.raises(Refusal, match="R27"):
        copy_ledger.redo(E, "gm")
    state, envs = copy_ledger.undo(E, "gm")
    assert [e.type for e in envs] == ["NoteAdded"]
    other.close()


# -- status --at ------------------------------------------------------------------

def test_r31_status_at_every_seq_equals_state_when_appended(ledger):
    shown = _scripted(ledger, batches=False)
    head = ledger.store.head(E)[0]
    assert sorted(shown) == list(range(1, head + 1))  # one event per append
    for seq, st in shown.items():
        assert status(ledger.state(E, at=seq)) == st, seq


def test_r31_status_at_every_batch_end_equals_state_when_appended(ledger):
    shown = _scripted(ledger, batches=True)
    for seq, st in shown.items():
        assert status(ledger.state(E, at=seq)) == st, seq


def test_r31_status_at_on_imported_copy_equals_original(ledger):
    shown = _scripted(ledger, batches=False)
    import_log(ledger, read_export(_export_bytes(ledger), "x"), "copy")
    for seq, st in shown.items():
        assert _no_key(status(ledger.state("copy", at=seq)), "encounter") == \
            _no_key(st, "encounter"), seq


@pytest.mark.sqlite
def test_r31_cli_status_at_every_seq(ledger, tmp_path):
    from cli.app import app
    shown = _scripted(ledger, batches=False)
    path = str(ledger.store.path)
    runner = CliRunner()
    for seq, st in shown.items():
        result = runner.invoke(app, ["--db", path, "--encounter", E, "status", "--json",
                                     "--at", str(seq)],
                               env=CLEAN_ENV)
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout) == st, seq


def test_r31_status_at_inside_a_batch_shows_the_whole_batch(combat):
    combat("new", "b")
    combat("add", "Ganger", "--count", "3")  # one batch: seq 2-4
    for at in ("2", "3", "4"):
        s = json.loads(combat("status", "--json", "--at", at).stdout)
        assert s["seq"] == 4 and len(s["combatants"]) == 3
    assert "seq 4" in combat("status", "--at", "3").stdout


@pytest.mark.parametrize("at", [0, -1, 10_000])
def test_r31_status_at_outside_log_refused(ledger, at):
    _scripted(ledger)
    with pytest.raises(Refusal):
        ledger.state(E, at=at)


# -- import refusals ------------------------------------------------------------

def _refused_import(ledger, raw: bytes) -> str:
    before = ledger.store.encounters()
    with pytest.raises(InvalidFile) as caught:
        import_log(ledger, read_export(raw, "bad.json"), "copy")
    assert ledger.store.encounters() == before  # nothing stored
    return str(caught.value)


def test_r31_import_refuses_tampered_file_naming_seq(ledger):
    _scripted(ledger)
    doc = _load(_export_bytes(ledger))
    i = _index(doc, "APSpent", label="shoots")
    doc["events"][i]["data"]["cost"] = 1
    message = _refused_import(ledger, _dump(doc))
    assert f"seq {doc['events'][i]['seq']}" in message and "R30" in message


def test_r31_import_refuses_deleted_event_naming_seq(ledger):
    _scripted(ledger)
    doc = _load(_export_bytes(ledger))
    i = _index(doc, "InterruptTaken")
    seq = doc["events"][i]["seq"]
    del doc["events"][i]
    message = _refused_import(ledger, _dump(doc))
    assert f"seq {seq}" in message


def test_r30_import_refuses_an_export_cut_at_a_batch_end(ledger):
    """A json export cut after a whole batch is still a valid chain: its
    header, which names the last seq and hash, is what tells."""
    _scripted(ledger)
    doc = _load(_export_bytes(ledger))
    last_batch = doc["events"][-1]["batch"]
    doc["events"] = [e for e in doc["events"] if e["batch"] != last_batch]
    message = _refused_import(ledger, _dump(doc))
    assert f"ends at seq {last_batch - 1}" in message and "missing (R30)" in message


def test_r30_import_refuses_a_last_event_the_header_does_not_name(ledger):
    _scripted(ledger)
    doc = _load(_export_bytes(ledger))
    head = dict(doc["encounter"])
    doc["events"][-1]["actor"] = "mallory"
    rechain(doc, len(doc["events"]) - 1)
    doc["encounter"] = head  # the chain hashed again, the header left as it was
    message = _refused_import(ledger, _dump(doc))
    assert "is not the one its header names" in message and "(R30)" in message


def test_r31_import_refuses_rehashed_illegal_move_naming_seq_and_rule(ledger):
    _scripted(ledger)
    doc = _load(_export_bytes(ledger))
    i = _index(doc, "APSpent", label="shoots")
    doc["events"][i]["data"].update(cost=5, category="custom")  # rook has 3 AP
    rechain(doc, i)
    message = _refused_import(ledger, _dump(doc))
    seq = doc["events"][i]["seq"]
    assert f"event {seq}" in message or f"seq {seq}" in message
    assert "R17" in message


def test_r31_import_refuses_rehashed_out_of_turn_action(ledger):
    _scripted(ledger)
    doc = _load(_export_bytes(ledger))
    i = _index(doc, "APSpent", label="shoots")
    doc["events"][i]["data"]["combatant"] = "g-1"  # not g-1's turn
    rechain(doc, i)
    message = _refused_import(ledger, _dump(doc))
    seq = doc["events"][i]["seq"]
    assert f"event {seq}" in message or f"seq {seq}" in message
    assert "R17" in message or "R19" in message or "R8" in message


def test_r31_import_refuses_rehashed_declaration_after_end(ledger):
    _scripted(ledger)
    doc = _load(_export_bytes(ledger))
    last = doc["events"][-1]
    doc["events"][-1]["type"] = "RoundStarted"
    doc["events"][-1]["data"] = {"round": 3}
    rechain(doc, len(doc["events"]) - 1)
    message = _refused_import(ledger, _dump(doc))
    assert f"event {last['seq']}" in message or f"seq {last['seq']}" in message
    assert "R25" in message


def test_r31_import_refuses_rehashed_seize_twice(ledger):
    _scripted(ledger)
    doc = _load(_export_bytes(ledger))
    i = _index(doc, "MomentSeized")
    ev = copy.deepcopy(doc["events"][i])
    doc["events"].insert(i + 1, ev)
    for n, e in enumerate(doc["events"][i + 1:], start=i + 1):
        e["batch"] = e["batch"] + 1 if e["batch"] > doc["events"][i]["seq"] or n == i + 1 \
            else e["batch"]
        e["seq"] = n + 1
    for e in doc["events"]:  # markers name batches by seq: shift them too
        if e["type"] == "Undone":
            e["data"]["batches"] = [b + 1 if b > doc["events"][i]["seq"] else b
                                    for b in e["data"]["batches"]]
        if e["type"] == "Redone" and e["data"]["batch"] > doc["events"][i]["seq"]:
            e["data"]["batch"] += 1
    rechain(doc, i + 1)
    message = _refused_import(ledger, _dump(doc))
    assert f"event {i + 2}" in message or f"seq {i + 2}" in message
    assert "R13" in message


def test_r31_import_refuses_rehashed_undo_of_wrong_batch(ledger):
    _scripted(ledger)
    doc = _load(_export_bytes(ledger))
    i = [n for n, e in enumerate(doc["events"]) if e["type"] == "Undone"][-1]
    doc["events"][i]["data"]["batches"] = [2]  # not the latest declaration
    rechain(doc, i)
    message = _refused_import(ledger, _dump(doc))
    assert str(doc["events"][i]["seq"]) in message and "R26" in message


def test_r31_import_refuses_rehashed_wrong_field_type(ledger):
    _scripted(ledger)
    doc = _load(_export_bytes(ledger))
    i = _index(doc, "APSpent", label="shoots")
    doc["events"][i]["data"]["cost"] = "two"
    rechain(doc, i)
    message = _refused_import(ledger, _dump(doc))
    assert str(doc["events"][i]["seq"]) in message


def test_r31_import_refuses_rehashed_unknown_type(ledger):
    _scripted(ledger)
    doc = _load(_export_bytes(ledger))
    doc["events"][5]["type"] = "DragonSummoned"
    rechain(doc, 5)
    message = _refused_import(ledger, _dump(doc))
    assert "DragonSummoned" in message


@pytest.mark.parametrize("field,value", [
    ("format", "combat-ledger-2"), ("format", "something-else"),
    ("version", 2), ("version", 0),
])
def test_r31_import_refuses_wrong_format_or_version(ledger, field, value):
    _scripted(ledger)
    doc = _load(_export_bytes(ledger))
    doc[field] = value
    with pytest.raises(InvalidFile):
        read_export(_dump(doc), "bad.json")


@pytest.mark.parametrize("raw", [
    b"", b"\x00\xff\xfe garbage \x89PNG\r\n", b"not json at all", b"[]", b"{}",
    b'{"format": "combat-ledger", "version": 1}',
    b'{"format": "combat-ledger", "version": 1, "events": []}',
    b'{"format": "combat-ledger", "version": 1, "events": [{"seq": 1}]}',
    bytes(range(256)) * 4,
])
def test_r31_import_refuses_garbage_bytes(ledger, raw):
    before = ledger.store.encounters()
    with pytest.raises(InvalidFile):
        import_log(ledger, read_export(raw, "bad.json"), "copy")
    assert ledger.store.encounters() == before


def test_r31_import_refuses_existing_id_and_keeps_original(ledger):
    _scripted(ledger)
    raw = _export_bytes(ledger)
    before = ledger.event_dicts(E)
    with pytest.raises(LedgerError):
        import_log(ledger, read_export(raw, "raid.json"), None)
    assert ledger.event_dicts(E) == before


@pytest.mark.parametrize("field, value, said", [
    ("at", "<script>alert(1)</script>", "is not a UTC timestamp"),
    ("at", "2026-13-45T99:00:00Z", "is not a UTC timestamp"),
    ("actor", "", "is not a valid actor"), ("actor", "gm\nforged", "is not a valid actor"),
    ("actor", "x" * 65, "is not a valid actor")])
def test_r29_import_refuses_a_forged_envelope(alley, tmp_path, field, value, said):
    doc = json.loads(alley("export").stdout)
    doc["events"][-1][field] = value
    (tmp_path / "forged.json").write_text(json.dumps(rechain(doc)))
    before = contents(alley.db)
    err = alley("import", tmp_path / "forged.json", "--as", "copy", code=1).stderr
    assert said in err and err.startswith(f"error: event {doc['events'][-1]['seq']}: ")
    assert contents(alley.db) == before


def test_r31_cli_import_garbage_is_one_error_line(ledger, tmp_path):
    from cli.app import app
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\x00\x01garbage{{{")
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "x.db"), "import", str(bad)],
                                env=CLEAN_ENV)
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and "Traceback" not in result.output


@pytest.mark.sqlite
def test_r31_cli_export_then_import_roundtrip(ledger, tmp_path):
    from cli.app import app
    _scripted(ledger)
    path = str(ledger.store.path)
    out = tmp_path / "raid.json"
    runner = CliRunner()
    r = runner.invoke(app, ["--db", path, "--encounter", E, "export", "--format", "json",
                            "-o", str(out)],
                      env=CLEAN_ENV)
    assert r.exit_code == 0, r.output
    db2 = str(tmp_path / "two.db")
    r = runner.invoke(app, ["--db", db2, "import", str(out)], env=CLEAN_ENV)
    assert r.exit_code == 0, r.output
    for cmd in (["status", "--json"], ["log", "--json"], ["verify", "--json"]):
        a = runner.invoke(app, ["--db", path, "--encounter", E, *cmd], env=CLEAN_ENV)
        b = runner.invoke(app, ["--db", db2, *cmd], env=CLEAN_ENV)
        assert a.exit_code == b.exit_code == 0
        if cmd[0] == "log":  # the same log, each event marked as brought by the import
            assert as_logged_at_the_source(json.loads(b.stdout)) == unmarked(json.loads(a.stdout))
            continue
        assert json.loads(a.stdout) == json.loads(b.stdout), cmd


def test_r31_status_at_a_seq_inside_a_batch_shows_the_whole_command(ledger):
    from eventlog.events import CombatantJoined
    from projections.reports.views import status as status_view
    ledger.new("mid", "", "gm")
    ledger.declare("mid", lambda s: [
        CombatantJoined(id=f"g-{i}", name=f"G {i}", side="npc") for i in (1, 2, 3)], "gm")
    middle = status_view(ledger.state("mid", at=3))
    assert middle["seq"] == 4
    assert [c["id"] for c in middle["combatants"]] == ["g-1", "g-2", "g-3"]
