"""Corrections that keep what the table lived through (R28a), `amend --who`
moving a whole turn (R28b), and refusals in the log's words (R28c)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given as hypo, settings, strategies as st

from eventlog.errors import Refusal
from eventlog.events import (
    APSpent, CombatantJoined, EncounterCreated, InterruptTaken, Payload, RoundStarted,
)
from eventlog.stores.memory import MemoryStore
from projections.domain.commands import Amend, Retract
from projections.ledger import Ledger, apply
from projections.domain.state import State
from projections.reports.views import status

from helpers import end, interrupt, npc, pc, rolled, spend

E = "fight"


def table(*payloads: Payload) -> tuple[Ledger, list[int]]:
    """A ledger holding `payloads`, one batch each; their seqs."""
    ledger = Ledger(MemoryStore())
    ledger.new(E, "", "gm")
    seqs = []
    for p in payloads:
        _, envs = ledger.declare(E, lambda s, p=p: [p], "gm")
        seqs.append(envs[0].seq)
    return ledger, seqs


def seen(ledger: Ledger) -> dict:
    return status(ledger.state(E))


def ap_of(ledger: Ledger, cid: str) -> int:
    return next(c["ap"] for c in seen(ledger)["combatants"] if c["id"] == cid)


def undone(ledger: Ledger) -> set[int]:
    return {e["seq"] for e in ledger.event_dicts(E) if e["undone"]}


WARDEN_FIGHT = [
    pc("ash"), npc("warden"), npc("brute"),
    rolled("ash", 9), rolled("warden", 7), rolled("brute", 5),
    RoundStarted(round=1),
    interrupt("warden", 1),                    # the slip: retracted later
    spend("ash", 1), end("ash"),
    spend("warden", 2),                        # 0 AP: his turn ends by itself
    spend("brute", 1), end("brute"),
    spend("ash", 1), end("ash"),               # pass 2: warden skipped with 0 AP
    spend("brute", 1), end("brute"),
    spend("ash", 1),                           # pass 3: ash at 0, warden skipped
    spend("brute", 1),
]


def test_r28a_retracting_an_interrupt_keeps_the_turns_that_ended_by_themselves():
    ledger, seqs = table(*WARDEN_FIGHT)
    before = seen(ledger)
    assert before["round_complete"] and ap_of(ledger, "warden") == 0
    out = ledger.execute(E, Retract(seq=seqs[7]))
    assert list(out.events[0].data.batches) == [seqs[7]]  # nothing cascaded
    assert undone(ledger) == {seqs[7]}
    after = seen(ledger)
    assert ap_of(ledger, "warden") == 1  # in reserve (R6)
    assert (after["round"], after["round_complete"]) == (1, True)
    assert [ap_of(ledger, c) for c in ("ash", "brute")] == [0, 0]


def test_r28a_the_kept_ends_survive_a_refold_and_an_undo_takes_them_back():
    ledger, seqs = table(*WARDEN_FIGHT)
    ledger.execute(E, Retract(seq=seqs[7]))
    head, _ = ledger.store.head(E)
    assert status(ledger.state(E, at=head)) == seen(ledger)  # folded from the start
    assert seen(ledger)["round_complete"]
    ledger.undo(E, "gm")
    assert ap_of(ledger, "warden") == 0 and undone(ledger) == set()


def test_r28a_a_slot_skipped_with_0_ap_stays_skipped_when_an_amendment_gives_ap_back():
    ledger, seqs = table(
        pc("ash"), npc("warden", ap=2), rolled("ash", 9), rolled("warden", 7),
        RoundStarted(round=1), interrupt("warden", 2),
        spend("ash", 1), end("ash"),            # warden skipped at 0 AP
        spend("ash", 1),                        # pass 2: ash acts again
    )
    ledger.execute(E, Amend(seq=seqs[5], cost="minor"))
    assert undone(ledger) == set()
    assert ap_of(ledger, "warden") == 1
    assert seen(ledger)["pass"] == 2


def test_r28a_retracting_the_only_ap_spent_in_a_pass_keeps_the_next_pass():
    ledger, seqs = table(
        pc("ash", ap=4), npc("brute"), rolled("ash", 9), rolled("brute", 5),
        RoundStarted(round=1),
        spend("ash", 1), end("ash"), end("brute"),   # pass 1
        spend("ash", 1), end("ash"), end("brute"),   # pass 2: the only AP spent
        spend("ash", 1), end("ash"),                 # pass 3, as the table lived it
    )
    out = ledger.execute(E, Retract(seq=seqs[8]))
    assert list(out.events[0].data.batches) == [seqs[8]]
    assert seen(ledger)["pass"] == 3


def test_r28a_a_correction_that_takes_ap_away_is_still_refused():
    ledger, seqs = table(
        pc("ash"), npc("brute"), rolled("ash", 9), rolled("brute", 5),
        RoundStarted(round=1), spend("ash", 1), spend("ash", 1), spend("ash", 1),
    )
    with pytest.raises(Refusal, match="(R28)"):
        ledger.execute(E, Amend(seq=seqs[5], cost="major"))


# -- R28b: amend --who moves the whole turn ----------------------------------------

HOUNDS = [
    pc("ash"), npc("hound-2", group="hounds"), npc("hound-3", group="hounds"),
    rolled("ash", 9), rolled("hounds", 5), RoundStarted(round=1),
    spend("ash", 1), end("ash"),
    spend("hound-2", 1),            # it was hound-3 that bit
    end("hound-2"),                 # the bare end-turn that followed
]


def test_r28b_amend_who_moves_the_turn_and_its_end():
    ledger, seqs = table(*HOUNDS)
    ledger.execute(E, Amend(seq=seqs[8], who="hound-3"))
    assert undone(ledger) == set()
    s = seen(ledger)
    assert s["up"] == ["hound-2"]  # hound-2 has not had its turn in this pass
    assert ap_of(ledger, "hound-3") == 2 and ap_of(ledger, "hound-2") == 3


def test_r28b_amend_who_refused_when_that_combatant_could_not_take_the_turn():
    ledger, seqs = table(*HOUNDS[:3], npc("hound-4", group="hounds"), *HOUNDS[3:])
    head = ledger.store.head(E)
    with pytest.raises(Refusal, match=r"ash could not have taken that turn there.*\(R28b\)"):
        ledger.execute(E, Amend(seq=seqs[9], who="ash"))
    assert ledger.store.head(E) == head


# -- R28c: the log's words ------------------------------------------------------------

def test_r28c_casualties_are_listed_one_a_line_in_the_logs_words():
    ledger, seqs = table(
        pc("ash"), npc("brute", ap=12), rolled("ash", 9), rolled("brute", 5),
        RoundStarted(round=1), *[interrupt("brute", 1) for _ in range(12)],
    )
    with pytest.raises(Refusal) as caught:
        ledger.execute(E, Retract(seq=seqs[4]))
    message = str(caught.value)
    lines = message.splitlines()
    listed = [line for line in lines if line.startswith("  seq ")]
    assert len(listed) == 10 and "  and 2 more" in lines
    assert listed[0].startswith(f"  seq {seqs[5]}: brute interrupts")
    for name in ("InterruptTaken", "APSpent", "TurnEnded", "RoundStarted"):
        assert name not in message


def test_r28c_amend_of_a_join_speaks_of_what_it_declared():
    ledger, seqs = table(pc("ash"))
    with pytest.raises(Refusal) as caught:
        ledger.execute(E, Amend(seq=seqs[0], die=4))
    message = str(caught.value)
    assert "CombatantJoined" not in message and "Ash (ash, pc) joins" in message


# -- R28a for every session: a correction that only gives AP back ---------------------

ROSTER = [pc("ash", ap=3), npc("g-1", ap=3, group="gangers"), npc("g-2", ap=2, group="gangers"),
          npc("boss", ap=4), pc("vex", ap=2)]
ROLLS = [rolled("ash", 7), rolled("gangers", 5), rolled("boss", 6), rolled("vex", 3)]
PEOPLE = ["ash", "g-1", "g-2", "boss", "vex"]


def _session(data) -> list[Payload]:
    """A random legal session: mostly turns of whoever is up, some interrupts,
    now and then a new round."""
    state = apply(State(E), [EncounterCreated(encounter=E), *ROSTER, *ROLLS,
                             RoundStarted(round=1)])
    played: list[Payload] = []
    for _ in range(data.draw(st.integers(5, 45))):
        up = state.up()
        kind = data.draw(st.sampled_from(["act", "act", "act", "end", "interrupt", "round"]))
        if kind == "round" or not up:
            p: Payload = RoundStarted(round=state.round + 1)
        elif kind == "interrupt":
            p = interrupt(data.draw(st.sampled_from(PEOPLE)), data.draw(st.integers(1, 2)))
        else:
            who = data.draw(st.sampled_from(up))
            p = spend(who, data.draw(st.integers(0, 3))) if kind == "act" else end(who)
        try:
            state = apply(state, [p])
        except Refusal:
            continue
        played.append(p)
    return played


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@hypo(st.data())
def test_r28a_a_correction_that_only_gives_ap_back_keeps_every_later_declaration(data):
    played = _session(data)
    ledger, seqs = table(*ROSTER, *ROLLS, RoundStarted(round=1), *played)
    first = len(ROSTER) + len(ROLLS) + 1
    costly = [(seq, p) for seq, p in zip(seqs[first:], played)
              if isinstance(p, (APSpent, InterruptTaken)) and p.cost > 0]
    if not costly:
        return
    seq, p = data.draw(st.sampled_from(costly))
    before = {c["id"]: c["ap"] for c in seen(ledger)["combatants"]}
    if p.cost > 1 and data.draw(st.booleans()):
        command = Amend(seq=seq, cost=str(data.draw(st.integers(0, p.cost - 1))))
        expected: set[int] = set()
    else:
        command = Retract(seq=seq)
        expected = {seq}
    ledger.execute(E, command)  # accepted, without --cascade
    assert undone(ledger) == expected
    after = {c["id"]: c["ap"] for c in seen(ledger)["combatants"]}
    assert all(after[c] >= before[c] for c in before)


# -- what the terminal says after a cascade ----------------------------------------------

def test_r28_a_cascade_back_into_pass_1_says_so_not_that_pass_1_begins(combat):
    for args in (["new", "x"], ["add", "Ash", "--pc"], ["add", "Brute"],
                 ["roll", "ash", "--die", "9"], ["roll", "brute", "--die", "5"], ["round"],
                 ["act", "ash", "minor"], ["end-turn"], ["act", "brute", "minor"]):
        combat(*args)
    ended = combat("end-turn").stdout
    assert "pass 2 of round 1 begins" in ended
    combat("act", "ash", "minor")
    seq = json_log(combat)[-2]["seq"]  # brute's end-turn
    out = combat("retract", seq, "--cascade").stdout
    assert "pass 1 of round 1 begins" not in out
    assert "back in pass 1 of round 1 (it was pass 2 of round 1)" in out


def json_log(combat) -> list[dict]:
    import json
    return json.loads(combat("log", "--json").stdout)


def test_r28c_the_terminal_prints_each_casualty_on_its_own_line(combat):
    for args in (["new", "x"], ["add", "Ash", "--pc"], ["add", "Brute"],
                 ["roll", "ash", "--die", "9"], ["roll", "brute", "--die", "5"], ["round"],
                 ["act", "ash", "minor"], ["end-turn"]):
        combat(*args)
    err = combat("retract", 6, code=1).stderr.splitlines()
    assert err[0] == "error: retracting seq 6 would make 2 later declarations illegal:"
    assert err[1].startswith("  seq 7: ash spends 1 AP (minor) (")
    assert err[2].startswith("  seq 8: ash ends their turn (")
    assert err[3] == "Retract them too with --cascade (R28)"


def test_r28b_the_terminal_says_every_line_the_moved_turn_now_reads(combat):
    for args in (["new", "x"], ["add", "Hound", "--count", "2", "--group", "h"],
                 ["roll", "h", "--die", "3"], ["round"], ["act", "hound-1", "minor"],
                 ["end-turn"]):
        combat(*args)
    out = combat("amend", "6", "--who", "hound-2").stdout
    assert "✎ seq 6 now reads: hound-2 spends 1 AP (minor)" in out
    assert "✎ seq 7 now reads: hound-2 ends their turn" in out


def test_r28c_a_casualty_list_never_carries_a_raw_line_break_of_its_own(combat):
    import sqlite3
    for args in (["new", "x"], ["add", "Ash", "--pc"], ["roll", "ash", "--die", "9"],
                 ["round"], ["act", "ash", "minor", "aims"]):
        combat(*args)
    con = sqlite3.connect(combat.db)  # a label forged behind the ledger's back
    con.execute("UPDATE events SET data = replace(data, 'aims', 'ai' || char(92) || 'nms') "
                "WHERE seq = 5")  # (the JSON escape of a line break)
    con.commit()
    con.close()
    err = combat("retract", 4, code=1).stderr.splitlines()
    assert err[1].startswith("  seq 5: ash spends 1 AP (minor): ai\\x0ams")
    assert len(err) == 3
