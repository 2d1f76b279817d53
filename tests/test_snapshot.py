"""Snapshots make commands instant on long encounters; they must never change
what a command sees (R31): every state read through a snapshot equals a fold
of the whole log."""
from __future__ import annotations

import sqlite3

import msgspec
import pytest

from eventlog.events import (
    Amended, APSpent, CombatantJoined, FreeActionTaken, InitiativeRolled, NoteAdded,
    Redone, RoundStarted, TurnEnded, Undone,
)
from projections.domain.commands import Amend
from projections.history import fold
from projections.domain.phrases import correction
from projections.snapshot import FOLD_VERSION
from projections.domain.state import State
from projections.reports.views import status

from helpers import damage


def full_fold(ledger, encounter="fight"):
    state = fold(ledger.store, encounter, ledger.corrections(encounter), State(encounter))
    state.seq = ledger.store.head(encounter)[0]
    return status(state)


def declare(ledger, *payloads):
    return ledger.declare("fight", lambda s: list(payloads), "gm")[1][0].seq


def setup(ledger):
    ledger.new("fight", "", "gm")
    declare(ledger, *[CombatantJoined(id=c, name=c, side=side, bonus=0, max_ap=3)
                      for c, side in (("rook", "pc"), ("vex", "pc"), ("brute", "npc"))])
    for slot, die in (("rook", 9), ("vex", 6), ("brute", 3)):
        declare(ledger, InitiativeRolled(slot=slot, die=die, bonus=0, total=die, manual=True))
    declare(ledger, RoundStarted(round=1))


def test_snapshot_state_equals_a_full_fold_through_every_kind_of_change(ledger):
    setup(ledger)
    seqs = {}
    steps = [
        lambda: seqs.setdefault("shot", declare(ledger, APSpent(combatant="rook", cost=2, category="major"))),
        lambda: declare(ledger, NoteAdded(text="smoke")),
        lambda: ledger.undo("fight", "gm"),
        lambda: ledger.redo("fight", "gm"),
        lambda: declare(ledger, TurnEnded(combatant="rook")),
        lambda: declare(ledger, FreeActionTaken(combatant="vex", label="waves")),
        lambda: ledger.execute("fight", Amend(seq=seqs["shot"], cost="minor")),
        lambda: seqs.setdefault("vex", declare(ledger, APSpent(combatant="vex", cost=1, category="minor"))),
        lambda: ledger.retract("fight", seqs["vex"], False, "gm"),
        lambda: declare(ledger, TurnEnded(combatant="vex")),
    ]
    for step in steps:
        step()
        assert status(ledger.state("fight")) == full_fold(ledger)
    assert ledger.store.snapshot("fight", FOLD_VERSION)


def spoiled(ledger, change: str) -> None:
    """A fight with a snapshot, then `UPDATE snapshots SET <change>` behind
    the store's back."""
    setup(ledger)
    declare(ledger, APSpent(combatant="rook", cost=2, category="major"))
    db = sqlite3.connect(ledger.store.path)
    db.execute(f"UPDATE snapshots SET {change}")
    db.commit()
    db.close()


@pytest.mark.sqlite
def test_snapshot_whose_event_hash_changed_is_ignored(ledger):
    spoiled(ledger, "hash = 'x'")
    assert ledger.store.snapshot("fight", FOLD_VERSION) is None
    assert status(ledger.state("fight")) == full_fold(ledger)


@pytest.mark.sqlite
def test_unreadable_snapshot_falls_back_to_a_full_fold(ledger):
    spoiled(ledger, "state = x'00ff'")
    assert status(ledger.state("fight")) == full_fold(ledger)


@pytest.mark.sqlite
def test_snapshot_of_other_fold_code_is_ignored(ledger):
    setup(ledger)
    db = sqlite3.connect(ledger.store.path)
    db.execute("UPDATE snapshots SET version = 'older'")
    db.commit()
    assert ledger.store.snapshot("fight", FOLD_VERSION) is None
    assert status(ledger.state("fight")) == full_fold(ledger)


@pytest.mark.parametrize("poison", [b"\x91" * 100_000 + b"\x00", b"\xc1garbage",
                                    msgspec.msgpack.encode({"scalars": [[]] * 20})])
def test_poisoned_snapshot_is_folded_past(noted, poison):
    want = noted("status", "--json").stdout
    damage(noted.db, "UPDATE snapshots SET state = ?", poison)
    assert noted("status", "--json").stdout == want
    noted("note", "three")


def raw(ledger, *payloads):
    """Appended with no snapshot taken after it (a bulk load, an import): the
    kept snapshot stays behind, with markers after it."""
    head = ledger.store.head("fight")[0]
    return ledger.store.append("fight", head, list(payloads), "gm")[0].seq


def test_r26_markers_after_the_snapshot_on_later_batches_fold_on_from_it(ledger):
    setup(ledger)
    kept = ledger.store.snapshot("fight", FOLD_VERSION).seq
    shot = raw(ledger, APSpent(combatant="rook", cost=2, category="major"))
    raw(ledger, Undone([shot], "undo", ""))
    raw(ledger, Redone(shot))
    note = raw(ledger, NoteAdded(text="smoke"))
    raw(ledger, Undone([note], "retract", ""))
    fixed = correction(APSpent(combatant="rook", cost=2, category="major"), None, "1", None, None)
    raw(ledger, Amended(shot, [fixed], ""))
    reads = []
    markers = ledger.store.fold_markers
    ledger.store.fold_markers = lambda *a, **k: reads.append(k.get("after", 0)) or markers(*a, **k)
    now = status(ledger.state("fight"))
    assert reads == [kept]  # only the markers since the snapshot were read
    ledger.store.fold_markers = markers
    assert now == full_fold(ledger)
    assert now["combatants"][0]["ap"] == 2


def test_r28_a_marker_after_the_snapshot_reaching_before_it_refolds_from_the_start(ledger):
    setup(ledger)
    shot = declare(ledger, APSpent(combatant="rook", cost=2, category="major"))
    assert ledger.store.snapshot("fight", FOLD_VERSION).seq == shot
    retraction = raw(ledger, Undone([shot], "retract", ""))
    assert ledger.state("fight").combatants["rook"].ap == 3
    assert status(ledger.state("fight")) == full_fold(ledger)
    ledger.keep_snapshot("fight", ledger.state("fight"))
    raw(ledger, Undone([retraction], "undo", ""))  # the retraction taken back
    assert ledger.state("fight").combatants["rook"].ap == 1
    assert status(ledger.state("fight")) == full_fold(ledger)
