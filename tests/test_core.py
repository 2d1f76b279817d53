"""The application core: commands, decide, the one entry point, corrections
over one history (R26-R28), and what the store and snapshots may not fake."""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from eventlog.errors import Refusal
from eventlog.events import CORRECTIONS, EVENT_TYPES, PARTY_TYPES, NoteAdded, Redone, RoundStarted
from projections.domain import commands as c
from projections.domain.decide import decide
from projections.domain.rules import _CHECKS
from projections.domain.evolve import STEPS
from projections.domain.state import State
from projections.ledger import Ledger
from projections.reports.views import status
from projections.snapshot import FOLD_VERSION

from helpers import given, npc, pc, rolled
from helpers import another_handle

ROOT = Path(__file__).resolve().parents[1]
E = "fight"


# -- the core without a command line ------------------------------------------

@pytest.mark.parametrize("where", ["memory", "sqlite"])
def test_core_round_script_needs_no_command_line(tmp_path, where):
    """examples/core_round.py plays a round (rolls, a seize, a group slot, an
    interrupt, an undo) through Ledger.execute, importing no CLI library."""
    args = [] if where == "memory" else [str(tmp_path / "core.db")]
    code = ("import runpy, sys; sys.argv = ['core_round.py', *sys.argv[1:]];"
            "runpy.run_path('examples/core_round.py', run_name='__main__');"
            "cli = [m for m in ('typer', 'click', 'rich', 'prompt_toolkit') if m in sys.modules];"
            "print('cli libraries:', cli)")
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "1 1 vex ['rook', 'gangers', 'vex']"  # the seizer first (R11)
    assert "  rook      AP 1/3  Grit 0" in lines  # 2 AP spent, 1 Grit seized (R10)
    assert "  vex       AP 2/3  Grit 0" in lines  # the interrupt stays; the hack is undone
    assert lines[-1] == "cli libraries: []"
    assert len((ROOT / "examples" / "core_round.py").read_text().splitlines()) < 60


def test_every_declaration_has_a_check_and_an_evolve_step():
    # (the party's declarations are the party's judge's: tests/test_party_core.py)
    declarations = set(EVENT_TYPES) - set(CORRECTIONS) - set(PARTY_TYPES)
    assert declarations == {cls.__name__ for cls in _CHECKS}
    assert declarations == {cls.__name__ for cls in STEPS}


def test_every_command_decodes_from_the_servers_json():
    cmd = c.decode('{"command": "act", "id": "rook", "cost": "major", "label": "shoots"}')
    assert cmd == c.Act(id="rook", cost="major", label="shoots")
    assert c.decode('{"command": "undo"}') == c.Undo()
    assert set(c.COMMANDS) >= {"new", "add", "roll", "order", "round", "seize", "act",
                               "interrupt", "end-turn", "undo", "redo", "retract", "amend"}
    with pytest.raises(msgspec.ValidationError):
        c.decode('{"command": "act", "id": "rook", "cost": "major", "by": "gm"}')


def test_r1_decide_rolls_with_the_dice_it_is_given():
    s = given(pc("rook", bonus=3), npc("g-1", bonus=1, group="gangers"))
    faces = iter([9, 2])
    out = decide(s, c.Roll(), lambda: next(faces))
    assert [(e.slot, e.die, e.total) for e in out] == [("rook", 9, 12), ("gangers", 2, 3)]
    with pytest.raises(Refusal, match=r"\(R1\)"):
        decide(s, c.Roll(slots=["rook", "gangers"], die=4), lambda: 1)


def test_r8_decide_names_the_member_who_passes_or_asks_for_one():
    s = given(npc("g-1", group="gangers"), npc("g-2", group="gangers"),
              rolled("gangers", 5), RoundStarted(round=1))
    with pytest.raises(Refusal, match=r"\(R8\)"):
        decide(s, c.EndTurn(), lambda: 1)
    assert decide(s, c.EndTurn(id="g-2"), lambda: 1)[0].combatant == "g-2"


# -- corrections over one history (R26-R28) -----------------------------------

def _fight(ledger) -> int:
    """Rook (pc, 5+2) acts before Brute (npc, 3) in round 1; the seq of
    Brute's roll."""
    ledger.execute(None, c.New(id=E))
    ledger.execute(E, c.Add(name="Rook", pc=True, bonus=2))
    ledger.execute(E, c.Add(name="Brute"))
    ledger.execute(E, c.Roll(slots=["rook"], die=5))
    brute = _seq(ledger.execute(E, c.Roll(slots=["brute"], die=3)))
    ledger.execute(E, c.Round())
    return brute


def _seq(outcome) -> int:
    return outcome.events[0].seq


def test_r26_undo_after_a_retraction_brings_the_declaration_back(ledger):
    _fight(ledger)
    a = _seq(ledger.execute(E, c.Note(text="a")))
    ledger.execute(E, c.Note(text="b"))
    ledger.execute(E, c.Retract(seq=a))
    undone = ledger.execute(E, c.Undo())
    assert [e.type for e in undone.touched] == ["Undone"]  # the retraction, not note b
    texts = [e["data"].get("text") for e in ledger.event_dicts(E) if not e["undone"]]
    assert "a" in texts and "b" in texts
    ledger.execute(E, c.Redo())  # and redo retracts it again (R27)
    assert [e["undone"] for e in ledger.event_dicts(E) if e["data"].get("text") == "a"] == [True]


def test_r26_undo_after_a_cascade_takes_back_the_cascade_not_an_older_action(ledger):
    _fight(ledger)
    shot = _seq(ledger.execute(E, c.Act(id="rook", cost="major")))
    ledger.execute(E, c.Act(id="rook", cost="minor"))  # 0 AP: rook's turn ends (R21)
    ledger.execute(E, c.Act(id="brute", cost=3))       # without the shot, rook is still up
    ledger.execute(E, c.Retract(seq=shot, cascade=True))
    assert status(ledger.state(E))["combatants"][0]["ap"] == 3 - 1
    ledger.execute(E, c.Undo())
    s = status(ledger.state(E))
    assert [x["ap"] for x in s["combatants"]] == [0, 0]  # every action back in force


def test_r26_undo_of_an_amendment_lets_the_original_stand(ledger):
    _fight(ledger)
    shot = _seq(ledger.execute(E, c.Act(id="rook", cost="major")))
    ledger.execute(E, c.Amend(seq=shot, cost="minor", reason="a reload"))
    assert status(ledger.state(E))["combatants"][0]["ap"] == 2
    ledger.execute(E, c.Undo())
    assert status(ledger.state(E))["combatants"][0]["ap"] == 1
    ledger.execute(E, c.Redo())
    assert status(ledger.state(E))["combatants"][0]["ap"] == 2


def test_r28_amend_with_cascade_retracts_what_it_makes_illegal(ledger):
    typo = _fight(ledger)  # brute's die showed 9: typed 3
    hit = _seq(ledger.execute(E, c.Act(id="rook", cost="major")))
    ledger.execute(E, c.EndTurn())
    ledger.execute(E, c.Act(id="brute", cost="major"))
    with pytest.raises(Refusal, match=r"\(R28\)"):   # brute (9) was up first, not rook (7)
        ledger.execute(E, c.Amend(seq=typo, die=9))
    out = ledger.execute(E, c.Amend(seq=typo, die=9, cascade=True, reason="misread"))
    amendment = out.events[0].data
    assert amendment.retracted and amendment.batch == typo
    s = status(out.state)
    assert s["order"] == ["brute", "rook"] and s["acting"] == "brute"
    assert [x["ap"] for x in s["combatants"]] == [3, 1]  # rook's shot retracted, brute's stands
    assert [e["undone"] for e in ledger.event_dicts(E) if e["seq"] == hit] == [True]
    ledger.execute(E, c.Undo())  # the amendment and its cascade go together (R26)
    assert status(ledger.state(E))["order"] == ["rook", "brute"]
    assert [e["undone"] for e in ledger.event_dicts(E) if e["seq"] == hit] == [False]


def test_r28_a_refusal_names_at_most_ten_casualties_and_counts_them(ledger):
    ledger.execute(None, c.New(id=E))
    first = _seq(ledger.execute(E, c.Add(name="Rook", pc=True, grit=0)))
    for i in range(14):
        ledger.execute(E, c.Grit(id="rook", delta=1, reason=f"scene {i}"))
    with pytest.raises(Refusal) as caught:
        ledger.execute(E, c.Retract(seq=first))
    message = str(caught.value)
    assert "14 later declarations illegal" in message and "and 4 more" in message
    assert message.count("rook's Grit +1") == 10  # R28c: in the log's words
    assert "GritAdjusted" not in message


# -- one snapshot per attempt: what a race cannot do (R27, R30) ----------------

def test_r27_redo_never_lands_after_a_newer_declaration(ledger):
    """The race the attack found: a note appended between redo's read and its
    append. The append conflicts, redo is judged again and refused."""
    _fight(ledger)
    ledger.execute(E, c.Note(text="to undo"))
    ledger.execute(E, c.Undo())
    real = type(ledger.store).append
    raced = []

    def append(store, encounter, expected, payloads, actor, snapshot=None):
        if not raced and isinstance(payloads[0], Redone):
            raced.append(True)  # between the read and the append: another terminal
            other = another_handle(store)
            real(other, encounter, other.head(encounter)[0], [NoteAdded(text="meanwhile")],
                 "vex")
        return real(store, encounter, expected, payloads, actor, snapshot)
    type(ledger.store).append = append
    try:
        with pytest.raises(Refusal, match=r"\(R27\)"):
            ledger.execute(E, c.Redo())
    finally:
        type(ledger.store).append = real
    assert raced and not any(e["type"] == "Redone" for e in ledger.event_dicts(E))


@pytest.mark.sqlite
def test_r30_a_changed_snapshot_is_never_believed_and_verify_names_it(ledger):
    _fight(ledger)
    ledger.execute(E, c.Act(id="rook", cost="major"))  # rook has 1 AP, kept in the snapshot
    snap = ledger.store.snapshot(E, FOLD_VERSION)
    body = bytes(snap.state)
    state = msgspec.msgpack.decode(body[32:], type=State)
    state.combatants["rook"].ap = 3
    forged = body[:32] + msgspec.msgpack.encode(state)  # the old seal, new bytes
    db = sqlite3.connect(ledger.store.path)
    db.execute("UPDATE snapshots SET state = ?", (forged,))
    db.commit()
    db.close()
    assert status(ledger.state(E))["combatants"][0]["ap"] == 1
    with pytest.raises(Refusal, match=r"R17"):
        ledger.execute(E, c.Act(id="rook", cost=3))
    assert "changed behind the ledger's back" in ledger.snapshot_problem(E)


# -- who a command is for, and the table server's permit hook -------------------

def test_who_names_the_combatants_a_command_is_for_as_decide_works_them_out():
    from projections.domain.decide import who
    s = given(pc("ash", grit=1), pc("bo"), rolled("ash", 9), rolled("bo", 3), RoundStarted(round=1))
    assert who(s, c.EndTurn()) == ["ash"]  # the turn in progress (R21)
    assert who(given(pc("ash"), npc("boss"), rolled("ash", 9)), c.Roll()) == ["boss"]  # R1
    assert who(s, c.Act(id="bo", cost="minor")) == ["bo"]
    assert who(s, c.Round()) == [] and who(s, c.Note(text="x")) == []


def test_r3c_execute_runs_permit_on_the_state_it_decides_on_before_appending(ledger):
    ledger.new(E, "", "gm")
    for cmd in (c.Add(name="Ash", pc=True), c.Add(name="Bo", pc=True),
                c.Roll(slots=["ash"], die=9), c.Roll(slots=["bo"], die=3), c.Round()):
        ledger.execute(E, cmd, "gm")
    seen = []

    def permit(state, command):
        from projections.domain.decide import who
        seen.append((state.seq, who(state, command)))
        raise Refusal("bo's player may not end ash's turn")
    head = ledger.store.head(E)[0]
    with pytest.raises(Refusal):
        ledger.execute(E, c.EndTurn(), "ben", permit=permit)
    assert seen == [(head, ["ash"])] and ledger.store.head(E)[0] == head


def test_r3c_a_gm_of_another_name_orders_npcs_when_execute_is_told(ledger):
    ledger.new(E, "", "gm")
    for cmd in (c.Add(name="Boss"), c.Add(name="Thug"),
                c.Roll(slots=["boss"], die=5), c.Roll(slots=["thug"], die=5)):
        ledger.execute(E, cmd, "gm")
    with pytest.raises(Refusal, match="R3c"):
        ledger.execute(E, c.Order(slots=["thug", "boss"]), "lead")
    out = ledger.execute(E, c.Order(slots=["thug", "boss"]), "lead", gm=True)
    assert out.events[0].actor == "lead"  # R29: the record keeps who declared it
