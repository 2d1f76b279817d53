"""R28: retraction of an earlier declaration, re-judging everything after it."""
from __future__ import annotations

import json

import pytest

from eventlog.errors import Refusal
from eventlog.events import (
    APSpent, CombatantJoined, FreeActionTaken, InitiativeRolled, InterruptTaken, NoteAdded,
    RoundStarted, TurnEnded,
)
from projections.domain.commands import Amend
from projections.domain.phrases import correction
from projections.inputs.transfer import export_json, import_log, read_export
from projections.reports.views import status


def declare(ledger, *payloads, actor="gm"):
    _, envs = ledger.declare("fight", lambda state: list(payloads), actor)
    return envs[0].seq


def spend(cid, cost, label=""):
    category = {1: "minor", 2: "major"}.get(cost, "custom")
    return APSpent(combatant=cid, cost=cost, category=category, label=label)


def join(cid, side="npc", bonus=0, ap=3):
    return CombatantJoined(id=cid, name=cid.title(), side=side, bonus=bonus, max_ap=ap)


def roll(slot, die, bonus=0):
    return InitiativeRolled(slot=slot, die=die, bonus=bonus, total=die + bonus, manual=True)


BRUTE_ROLL, ROUND = 5, 6  # seqs in the fixture's log


@pytest.fixture
def fight(ledger):
    ledger.new("fight", "", "gm")
    declare(ledger, join("rook", "pc"), join("brute"))
    declare(ledger, roll("rook", 8))
    assert declare(ledger, roll("brute", 5)) == BRUTE_ROLL
    assert declare(ledger, RoundStarted(round=1)) == ROUND
    return ledger


def who(ledger, cid):
    return next(c for c in status(ledger.state("fight"))["combatants"] if c["id"] == cid)


def test_r28_retraction_accepted_when_later_declarations_stay_legal(fight):
    wrong = declare(fight, spend("rook", 2, "reload"))
    declare(fight, NoteAdded(text="the alarm goes off"))
    declare(fight, spend("rook", 1, "shoots"))
    assert who(fight, "rook")["ap"] == 0
    _, batches = fight.retract("fight", wrong, False, "gm", "reload costs 1")
    assert batches == [wrong]
    assert who(fight, "rook")["ap"] == 2
    log = fight.event_dicts("fight")
    assert log[-1]["type"] == "Undone"
    # R28a: rook's turn ended by itself at 0 AP; with 2 AP back it stays ended
    assert log[-1]["data"] == {"batches": [wrong], "kind": "retract", "reason": "reload costs 1",
                               "kept": [(log[-1]["seq"], "rook")]}
    assert [e["undone"] for e in log if e["seq"] == wrong] == [True]


def test_r28_retraction_refused_with_the_list_of_declarations_it_breaks(fight):
    declare(fight, InterruptTaken(combatant="brute", cost=2, category="major"))
    first = declare(fight, spend("rook", 2))
    declare(fight, TurnEnded(combatant="rook"))
    later = declare(fight, spend("brute", 1))
    before = fight.store.head("fight")
    # Without the round's start, every later turn action becomes illegal.
    with pytest.raises(Refusal) as caught:
        fight.retract("fight", ROUND, False, "gm")
    message = str(caught.value)
    assert "(R28)" in message and "--cascade" in message
    assert f"seq {first}: rook spends 2 AP" in message  # R28c: the log's words
    assert f"seq {later}: brute spends" in message
    assert "(R5)" in message or "(R19)" in message
    assert fight.store.head("fight") == before  # nothing appended


def test_r28_cascade_retracts_the_broken_declarations_in_one_append(fight):
    first = declare(fight, spend("rook", 2))
    note = declare(fight, NoteAdded(text="still legal without a round"))
    head_before, _ = fight.store.head("fight")
    state, batches = fight.retract("fight", ROUND, True, "gm", "too early")
    assert batches == [ROUND, first]
    assert fight.store.head("fight")[0] == head_before + 1  # one marker event
    s = status(state)
    assert s["phase"] == "setup" and s["round"] == 0
    assert who(fight, "rook")["ap"] == 3
    assert not [e for e in fight.event_dicts("fight") if e["seq"] == note][0]["undone"]


def test_r28_retracting_a_roll_reorders_later_turns(fight):
    # brute's roll was typed wrong: retract it and roll again above rook.
    state = fight.state("fight")
    assert status(state)["order"] == ["rook", "brute"]
    with pytest.raises(Refusal):
        fight.retract("fight", BRUTE_ROLL, False, "gm")  # the round needs it (R5)
    fight.retract("fight", BRUTE_ROLL, True, "gm")
    declare(fight, roll("brute", 10))
    declare(fight, RoundStarted(round=1))
    s = status(fight.state("fight"))
    assert s["order"] == ["brute", "rook"] and s["acting"] == "brute"


def test_r28_refuses_markers_creation_unknown_and_already_undone(fight):
    seq = declare(fight, spend("rook", 1))
    fight.undo("fight", "gm")
    marker = fight.store.head("fight")[0]
    for bad, why in ((seq, "already"), (marker, "marker"), (1, "creating"), (999, "no seq")):
        with pytest.raises(Refusal) as caught:
            fight.retract("fight", bad, False, "gm")
        assert why in str(caught.value)


def test_r28_any_seq_of_a_batch_retracts_the_whole_batch(ledger):
    ledger.new("fight", "", "gm")
    first = declare(ledger, join("a"), join("b"), join("c"))
    _, batches = ledger.retract("fight", first + 2, False, "gm")
    assert batches == [first]
    assert status(ledger.state("fight"))["combatants"] == []


def test_r28_redo_is_not_possible_after_a_retraction(fight):
    declare(fight, spend("rook", 1))
    fight.undo("fight", "gm")
    declare(fight, NoteAdded(text="x"))
    with pytest.raises(Refusal):
        fight.redo("fight", "gm")


def test_r28_retracted_log_exports_and_imports_to_the_same_state(fight):
    wrong = declare(fight, spend("rook", 2))
    declare(fight, spend("rook", 1))
    fight.retract("fight", wrong, False, "gm")
    doc = export_json(fight, "fight")
    copy = import_log(fight, read_export(json.dumps(doc).encode(), "x"), "copy")
    original = status(fight.state("fight"))
    assert {**status(copy), "encounter": "fight"} == original


# -- amend: a correction in place, the rest re-judged (R28) ----------------


def test_r28_amend_die_reorders_the_rest_of_the_round(ledger):
    ledger.new("fight", "", "gm")
    declare(ledger, join("rook", "pc"), join("brute"))
    declare(ledger, roll("rook", 8))
    typo = declare(ledger, roll("brute", 3))  # the die showed 9: typed 3
    declare(ledger, RoundStarted(round=1))
    assert status(ledger.state("fight"))["acting"] == "rook"
    state = ledger.execute("fight", Amend(seq=typo, die=9, reason="typed 3 for 9")).state
    s = status(state)
    assert s["order"] == ["brute", "rook"] and s["acting"] == "brute"
    assert who(ledger, "brute")["die"] == 9 and who(ledger, "brute")["initiative"] == 9
    log = ledger.event_dicts("fight")
    assert log[-1]["type"] == "Amended" and log[-1]["data"]["batch"] == typo
    assert log[-1]["data"]["events"][0]["type"] == "InitiativeRolled"
    assert log[typo - 1]["data"]["die"] == 3  # the record keeps what was said


def test_r28_amend_refused_when_later_turns_become_illegal(fight):
    declare(fight, spend("rook", 2))
    head = fight.store.head("fight")
    with pytest.raises(Refusal) as caught:
        fight.execute("fight", Amend(seq=BRUTE_ROLL, die=10))
    assert "(R28)" in str(caught.value) and "seq 7: rook spends 2 AP" in str(caught.value)
    assert fight.store.head("fight") == head


def test_r28_amend_cost_then_undo_restores_the_original(fight):
    wrong = declare(fight, spend("rook", 2, "reload"))
    fight.execute("fight", Amend(seq=wrong, cost="minor"))
    assert who(fight, "rook")["ap"] == 2
    fight.undo("fight", "gm")
    assert who(fight, "rook")["ap"] == 1


def test_r28_amend_of_an_illegal_correction_is_refused(fight):
    wrong = declare(fight, spend("rook", 1))
    with pytest.raises(Refusal) as caught:
        fight.execute("fight", Amend(seq=wrong, cost="9"))
    assert "(R17)" in str(caught.value)


def test_r28_amend_wrong_combatant(fight):
    shout = declare(fight, FreeActionTaken(combatant="rook", label="shouts"))
    fight.execute("fight", Amend(seq=shout, who="brute"))
    assert fight.event_dicts("fight")[-1]["data"]["events"][0]["combatant"] == "brute"
    hit = declare(fight, InterruptTaken(combatant="brute", cost=1, category="minor"))
    with pytest.raises(Refusal) as caught:  # rook's own turn is in progress
        fight.execute("fight", Amend(seq=hit, who="rook"))
    assert "(R19)" in str(caught.value)


def test_r28_amended_log_survives_export_import(fight):
    wrong = declare(fight, spend("rook", 2))
    fight.execute("fight", Amend(seq=wrong, cost="minor", label="reload"))
    doc = export_json(fight, "fight")
    copy = import_log(fight, read_export(json.dumps(doc).encode(), "x"), "copy")
    assert {**status(copy), "encounter": "fight"} == status(fight.state("fight"))
    assert who(fight, "rook")["ap"] == 2


def test_amend_of_a_seq_inside_a_batch_names_that_seq(combat):
    combat("new", "r")
    combat("add", "Ash", "--pc")
    combat("add", "Brute")
    combat("roll")  # one batch: seq 4 (ash) and seq 5 (brute)
    log = json.loads(combat("log", "--json").stdout)
    brute = log[4]
    assert (brute["seq"], brute["batch"], brute["data"]["slot"]) == (5, 4, "brute")
    die = 1 if brute["data"]["die"] != 1 else 2
    out = combat("amend", "5", "--die", die).stdout
    assert f"✎ seq 5 now reads: brute rolled {die} at the table, +0 = {die}" in out
    assert "seq 4 now reads" not in out


def test_r28_retract_of_a_negative_seq_is_a_refusal_not_a_usage_error(noted):
    err = noted("retract", "-1", code=1).stderr
    assert err == "error: there is no seq -1 in the log of alley (1 to 4)\n"


def test_r28_amendable_names_what_amend_may_correct_of_each_declaration():
    """The GM page offers these fields only: each is one correction() takes,
    and every other field is refused by it."""
    from eventlog.events import (
        APSpent, FreeActionTaken, InitiativeRolled, RoundStarted, TrackChanged, TurnEnded,
    )
    from projections.domain.phrases import amendable
    given = {
        InitiativeRolled(slot="ash", die=3, bonus=1, total=4): ["die"],
        APSpent(combatant="ash", cost=2, category="major", label="x"): ["cost", "label", "who"],
        FreeActionTaken(combatant="ash", label="x"): ["cost", "label", "who"],
        TrackChanged(combatant="ash", track="hp", delta=-3): ["who", "value"],
        TurnEnded(combatant="ash"): ["who"],
        RoundStarted(round=2): [],
    }
    fields = {"die": {"die": 5}, "cost": {"cost": "minor"}, "label": {"label": "y"},
              "who": {"who": "vex"}, "value": {"value": 2}}
    for payload, may in given.items():
        assert amendable(payload) == may
        for name, change in fields.items():
            if name in may:
                correction(payload, **change)
            else:
                with pytest.raises(Refusal):
                    correction(payload, **change)


def test_r27_a_redone_retraction_takes_its_batches_out_again_in_the_log(ledger):
    """An undone retraction brings its batch back; redone, the log says the
    retraction (with its reason) took the batch out again, as before."""
    from projections.domain import commands as c
    from projections.reports.timeline import timeline
    ledger.execute(None, c.New(id="r"))
    ledger.execute("r", c.Note(text="the fire spreads"))  # batch 2
    ledger.execute("r", c.Note(text="and spreads"))  # 3
    ledger.execute("r", c.Retract(seq=2, reason="wrong table"))  # 4
    ledger.execute("r", c.Undo())  # 5: the note is back
    fates = {e.env.seq: e.fate for e in timeline(ledger, "r")}
    assert fates[2] is None and fates[4] == "undone at seq 5"
    ledger.execute("r", c.Redo())  # 6
    fates = {e.env.seq: e.fate for e in timeline(ledger, "r")}
    assert fates[2] == "retracted at seq 4: wrong table" and fates[4] is None
    assert fates[3] is None
