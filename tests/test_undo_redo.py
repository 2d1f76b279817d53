"""R26-R27: undo and redo act on whole batches; markers stay in the log."""
from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from eventlog.errors import Refusal
from eventlog.events import (
    APSpent, EncounterEnded, InitiativeRolled, NoteAdded, RoundStarted, TurnEnded,
)
from projections.reports.views import status

from helpers import npc, pc

E = "fight"
CLEAN_ENV = {"COMBAT_ENCOUNTER": None, "COMBAT_ACTOR": None, "COMBAT_DB": None}


def _roster(ledger):
    ledger.new(E, "Fight", "gm")
    ledger.declare(E, lambda s: [pc("rook", bonus=2), pc("vex", bonus=1),
                                 npc("g-1", bonus=1, group="gangers"),
                                 npc("g-2", bonus=1, group="gangers")], "gm")


def _roll_all(seed: int):
    """Like `combat roll`: one batch rolling every slot that has no initiative."""
    dice = random.Random(seed)

    def decide(state):
        out = []
        for slot, bonus in (("rook", 2), ("vex", 1), ("gangers", 1)):
            if slot not in state.slots:
                d = dice.randint(1, 10)
                out.append(InitiativeRolled(slot=slot, die=d, bonus=bonus, total=d + bonus))
        return out
    return decide


def _dice(st: dict) -> dict:
    return {c["id"]: (c["die"], c["initiative"]) for c in st["combatants"]}


def _no_seq(st: dict) -> dict:
    return {k: v for k, v in st.items() if k != "seq"}


def _head(ledger) -> int:
    return ledger.store.head(E)[0]


def _started(ledger):
    _roster(ledger)
    ledger.declare(E, _roll_all(1), "gm")
    ledger.declare(E, lambda s: [RoundStarted(round=1)], "gm")


# -- undo of a multi-event batch --------------------------------------------

def test_r26_undo_roll_batch_restores_every_slot(ledger):
    _roster(ledger)
    before = status(ledger.state(E))
    _, envs = ledger.declare(E, _roll_all(7), "gm")
    assert len(envs) == 3 and {e.batch for e in envs} == {envs[0].seq}
    rolled = status(ledger.state(E))
    assert all(c["initiative"] is not None for c in rolled["combatants"])

    after, undone = ledger.undo(E, "gm")
    assert [e.seq for e in undone] == [e.seq for e in envs]
    st = status(after)
    assert all(c["initiative"] is None and c["die"] is None for c in st["combatants"])
    assert st["order"] == [] and all(g["initiative"] is None for g in st["groups"])
    assert _no_seq(st) == _no_seq(before)
    assert st["seq"] == envs[-1].seq + 1


def test_r26_undo_roll_batch_marks_all_its_events_undone(ledger):
    _roster(ledger)
    _, envs = ledger.declare(E, _roll_all(7), "gm")
    ledger.undo(E, "gm")
    flags = {env.seq: undone for env, undone in ledger.events(E)}
    assert all(flags[e.seq] for e in envs)
    assert not any(flag for seq, flag in flags.items() if seq < envs[0].seq)


def test_r27_redo_roll_batch_brings_back_same_dice(ledger):
    _roster(ledger)
    ledger.declare(E, _roll_all(11), "gm")
    rolled = status(ledger.state(E))
    n_events = _head(ledger)
    ledger.undo(E, "gm")
    after, redone = ledger.redo(E, "gm")
    st = status(after)
    assert _dice(st) == _dice(rolled)
    assert _no_seq(st) == _no_seq(rolled)
    assert [e.type for e in redone] == ["InitiativeRolled"] * 3
    # redo appends one marker, never new rolls
    types = [env.type for env, _ in ledger.events(E)][n_events:]
    assert types == ["Undone", "Redone"]


def test_r27_cli_redo_after_random_roll_same_dice(tmp_path):
    from cli.app import app
    runner = CliRunner()
    db = str(tmp_path / "cli.db")

    def run(*args):
        result = runner.invoke(app, ["--db", db, *args], env=CLEAN_ENV)
        assert result.exit_code == 0, (args, result.output)
        return result.output

    run("new", "fight")
    run("add", "Rook", "--pc", "--bonus", "2")
    run("add", "Vex", "--pc", "--bonus", "1")
    run("add", "Ganger", "--count", "2", "--group", "gangers")
    run("roll")
    rolled = json.loads(run("status", "--json"))
    run("undo")
    cleared = json.loads(run("status", "--json"))
    assert all(c["die"] is None for c in cleared["combatants"])
    run("redo")
    redone = json.loads(run("status", "--json"))
    assert _dice(redone) == _dice(rolled)
    assert all(c["die"] is not None for c in redone["combatants"])
    log = json.loads(run("log", "--json"))
    assert [e["type"] for e in log].count("InitiativeRolled") == 3
    assert [e["type"] for e in log][-2:] == ["Undone", "Redone"]


def test_r27_redo_restores_status_before_undo(ledger):
    _started(ledger)
    ledger.declare(E, lambda s: [APSpent(combatant=s.turn, cost=2, category="major")], "gm")
    before = status(ledger.state(E))
    ledger.undo(E, "gm")
    assert _no_seq(status(ledger.state(E))) != _no_seq(before)
    after, _ = ledger.redo(E, "gm")
    assert _no_seq(status(after)) == _no_seq(before)
    assert status(after)["seq"] == before["seq"] + 2


def test_r26_undo_restores_status_before_each_declaration(ledger):
    """Every declaration of a short script, undone right after, leaves the
    status it found (only seq moves on)."""
    _roster(ledger)
    script = [
        _roll_all(3),
        lambda s: [RoundStarted(round=1)],
        lambda s: [APSpent(combatant=s.turn, cost=1, category="minor")],
        lambda s: [TurnEnded(combatant=s.turn)],
        lambda s: [NoteAdded(text="a note")],
        lambda s: [RoundStarted(round=2)],
        lambda s: [EncounterEnded()],
    ]
    for decide in script:
        before = status(ledger.state(E))
        declared, _ = ledger.declare(E, decide, "gm")
        undone_state, _ = ledger.undo(E, "gm")
        assert _no_seq(status(undone_state)) == _no_seq(before)
        redone_state, _ = ledger.redo(E, "gm")
        assert _no_seq(status(redone_state)) == _no_seq(status(declared))


# -- redo refused ------------------------------------------------------------

def test_r27_redo_refused_after_new_declaration(ledger):
    _started(ledger)
    ledger.declare(E, lambda s: [APSpent(combatant=s.turn, cost=1, category="minor")], "gm")
    ledger.undo(E, "gm")
    ledger.declare(E, lambda s: [NoteAdded(text="something new")], "gm")
    head = _head(ledger)
    with pytest.raises(Refusal) as caught:
        ledger.redo(E, "gm")
    assert "R27" in str(caught.value)
    assert _head(ledger) == head


def test_r27_redo_of_older_undo_refused_after_new_declaration_was_undone(ledger):
    _started(ledger)
    ledger.declare(E, lambda s: [NoteAdded(text="first")], "gm")
    ledger.undo(E, "gm")  # "first" undone
    ledger.declare(E, lambda s: [NoteAdded(text="second")], "gm")
    ledger.undo(E, "gm")  # "second" undone
    _, redone = ledger.redo(E, "gm")
    assert [e.data.text for e in redone] == ["second"]
    with pytest.raises(Refusal) as caught:
        ledger.redo(E, "gm")  # "first" was undone before something new: gone for good
    assert "R27" in str(caught.value)
    texts = [env.data.text for env, undone in ledger.events(E)
             if env.type == "NoteAdded" and not undone]
    assert texts == ["second"]


def test_r27_redo_refused_when_nothing_undone(ledger):
    _started(ledger)
    head = _head(ledger)
    with pytest.raises(Refusal, match="R27"):
        ledger.redo(E, "gm")
    assert _head(ledger) == head


def test_r27_redo_twice_after_one_undo_refused(ledger):
    _started(ledger)
    ledger.declare(E, lambda s: [NoteAdded(text="n")], "gm")
    ledger.undo(E, "gm")
    ledger.redo(E, "gm")
    head = _head(ledger)
    with pytest.raises(Refusal, match="R27"):
        ledger.redo(E, "gm")
    assert _head(ledger) == head


def test_r27_redo_order_most_recently_undone_first(ledger):
    _started(ledger)
    ledger.declare(E, lambda s: [NoteAdded(text="a")], "gm")
    ledger.declare(E, lambda s: [NoteAdded(text="b")], "gm")
    _, first = ledger.undo(E, "gm")
    _, second = ledger.undo(E, "gm")
    assert [e.data.text for e in first] == ["b"]
    assert [e.data.text for e in second] == ["a"]
    _, r1 = ledger.redo(E, "gm")
    _, r2 = ledger.redo(E, "gm")
    assert [e.data.text for e in r1] == ["a"]
    assert [e.data.text for e in r2] == ["b"]
    effective = [env.data.text for env, undone in ledger.events(E)
                 if env.type == "NoteAdded" and not undone]
    assert effective == ["a", "b"]


# -- creating the encounter --------------------------------------------------

def test_r26_creating_encounter_cannot_be_undone_fresh(ledger):
    ledger.new(E, "Fight", "gm")
    with pytest.raises(Refusal) as caught:
        ledger.undo(E, "gm")
    assert "R26" in str(caught.value)
    assert _head(ledger) == 1
    assert ledger.state(E).created


def test_r26_creating_encounter_cannot_be_undone_after_undoing_everything(ledger):
    _roster(ledger)
    ledger.declare(E, _roll_all(2), "gm")
    ledger.undo(E, "gm")
    ledger.undo(E, "gm")
    head = _head(ledger)
    with pytest.raises(Refusal, match="R26"):
        ledger.undo(E, "gm")
    assert _head(ledger) == head
    st = status(ledger.state(E))
    assert st["combatants"] == [] and st["phase"] == "setup"
    assert ledger.state(E).created and st["title"] == "Fight"


# -- after the end (R25) -----------------------------------------------------

def test_r26_undo_after_encounter_ended_reopens_it(ledger):
    _started(ledger)
    ledger.declare(E, lambda s: [EncounterEnded()], "gm")
    assert status(ledger.state(E))["phase"] == "ended"
    with pytest.raises(Refusal, match="R25"):
        ledger.declare(E, lambda s: [APSpent(combatant="rook", cost=1, category="minor")], "gm")
    after, envs = ledger.undo(E, "gm")
    assert [e.type for e in envs] == ["EncounterEnded"]
    st = status(after)
    assert st["phase"] == "combat" and st["up"]
    state, _ = ledger.declare(
        E, lambda s: [APSpent(combatant=s.up()[0], cost=1, category="minor")], "gm")
    assert state.phase == "combat"


def test_r25_redo_of_end_after_undo_ends_again(ledger):
    _started(ledger)
    ledger.declare(E, lambda s: [EncounterEnded()], "gm")
    ledger.undo(E, "gm")
    after, _ = ledger.redo(E, "gm")
    assert status(after)["phase"] == "ended"
    with pytest.raises(Refusal, match="R25"):
        ledger.declare(E, lambda s: [RoundStarted(round=2)], "gm")


def test_r25_undo_after_end_undoes_note_first(ledger):
    _started(ledger)
    ledger.declare(E, lambda s: [EncounterEnded()], "gm")
    ledger.declare(E, lambda s: [NoteAdded(text="gg")], "gm")
    after, envs = ledger.undo(E, "gm")
    assert [e.type for e in envs] == ["NoteAdded"]
    assert after.phase == "ended"


# -- the log keeps everything; `undone` is derived ---------------------------

def test_r26_markers_stay_in_log_and_undone_derived(ledger):
    _started(ledger)
    _, envs = ledger.declare(
        E, lambda s: [APSpent(combatant=s.turn, cost=2, category="major")], "gm")
    target = envs[0].seq
    before = ledger.event_dicts(E)
    assert not any(e["undone"] for e in before)

    ledger.undo(E, "gm", reason="misheard")
    after_undo = ledger.event_dicts(E)
    assert len(after_undo) == len(before) + 1
    for old, new in zip(before, after_undo):  # nothing rewritten, only the flag
        assert {k: v for k, v in old.items() if k != "undone"} == \
               {k: v for k, v in new.items() if k != "undone"}
        assert new["undone"] == (new["batch"] == target)
    marker = after_undo[-1]
    assert marker["type"] == "Undone" and marker["undone"] is False
    assert marker["data"] == {"batches": [target], "kind": "undo", "reason": "misheard"}
    assert marker["seq"] == marker["batch"] == before[-1]["seq"] + 1

    ledger.redo(E, "gm")
    after_redo = ledger.event_dicts(E)
    assert len(after_redo) == len(before) + 2
    assert after_redo[:-1] == [{**e, "undone": False} for e in after_undo]
    assert after_redo[-1]["type"] == "Redone"
    assert after_redo[-1]["data"] == {"batch": target}
    assert not any(e["undone"] for e in after_redo)


def test_r26_undo_skips_markers_and_already_undone_batches(ledger):
    _started(ledger)
    _, a = ledger.declare(E, lambda s: [NoteAdded(text="a")], "gm")
    _, b = ledger.declare(E, lambda s: [NoteAdded(text="b")], "gm")
    _, first = ledger.undo(E, "gm")
    _, second = ledger.undo(E, "gm")
    assert first[0].seq == b[0].seq
    assert second[0].seq == a[0].seq
    undone = {env.seq for env, flag in ledger.events(E) if flag}
    assert undone == {a[0].seq, b[0].seq}


def test_r26_undo_after_redo_targets_the_redone_batch(ledger):
    _started(ledger)
    _, a = ledger.declare(E, lambda s: [NoteAdded(text="a")], "gm")
    ledger.undo(E, "gm")
    ledger.redo(E, "gm")
    _, again = ledger.undo(E, "gm")
    assert [e.seq for e in again] == [a[0].seq]


def test_r26_status_seq_counts_undo_markers(ledger):
    _started(ledger)
    ledger.declare(E, lambda s: [NoteAdded(text="a")], "gm")
    head = _head(ledger)
    after, _ = ledger.undo(E, "gm")
    assert status(after)["seq"] == head + 1 == status(ledger.state(E))["seq"]
