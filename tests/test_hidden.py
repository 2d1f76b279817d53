"""Hidden combatants (the docs, "What the players see"): `add --hidden`,
`hide`, `reveal`; revealed by itself when its first turn starts or it
interrupts or seizes; joining, its initiative roll and the GM's adjustments
do not reveal it. A player's and a view's token read no trace of it
before its reveal, on every endpoint and the stream; the GM reads all."""
from __future__ import annotations

import json

import httpx
import pytest
from hypothesis import given as hyp_given, settings, strategies as st
from httpx_sse import connect_sse

from eventlog.errors import Refusal
from eventlog.events import (
    APAdjusted, CombatantHidden, CombatantRevealed, GritAdjusted, InterruptTaken,
    MomentSeized, OrderDeclared, RoundStarted,
)
from helpers import end, given, npc, pc, rolled, spend, when
from projections.domain.may import may
from projections.visible import secret
from serverkit import E, client, messages, post, served, table, token


def hidden_sniper(*more):
    """Ash (pc, 5) and a hidden Sniper (npc, 9, Grit 1) and Boss (npc, 3)."""
    return given(pc("ash"), npc("sniper", grit=1), CombatantHidden(combatant="sniper"),
                 npc("boss"), rolled("ash", 5), rolled("sniper", 9), rolled("boss", 3), *more)


def test_hidden_joining_rolling_and_gm_adjustments_do_not_reveal():
    s = hidden_sniper(APAdjusted(combatant="sniper", delta=-1, reason="wounded"),
                      GritAdjusted(combatant="sniper", delta=1))
    assert s.hidden == {"sniper"}


def test_hidden_revealed_when_its_first_turn_starts():
    s = hidden_sniper()
    assert "sniper" in s.hidden
    s = when(s, RoundStarted(round=1))  # sniper's slot is first: its turn is in progress
    assert s.turn == "sniper" and s.hidden == set()


def test_hidden_not_revealed_by_a_later_slot_until_its_turn():
    s = given(pc("ash"), npc("sniper"), CombatantHidden(combatant="sniper"),
              rolled("ash", 9), rolled("sniper", 2), RoundStarted(round=1))
    assert s.hidden == {"sniper"}
    s = when(s, spend("ash", 1), end("ash"))
    assert s.turn == "sniper" and not s.hidden


@pytest.mark.parametrize("declared", [InterruptTaken(combatant="sniper", cost=1,
                                                     category="minor"),
                                      MomentSeized(combatant="sniper")])
def test_hidden_revealed_when_it_interrupts_or_seizes(declared):
    s = given(pc("ash"), npc("sniper", grit=1), CombatantHidden(combatant="sniper"),
              rolled("ash", 9), rolled("sniper", 2), RoundStarted(round=1))
    assert s.hidden == {"sniper"}
    assert not when(s, declared).hidden


@pytest.mark.parametrize("declared", [[RoundStarted(round=1)],
                                      [RoundStarted(round=1), spend("ash", 1), end("ash")]])
def test_a_fold_of_the_stored_log_shows_itself_as_the_live_state_does(ledger, declared):
    """The fold from the first event (status --at, a snapshot's check, a
    replay) reveals a hidden combatant when its turn starts, or when it
    interrupts or seizes, as the live state does: once it did not, and a
    true snapshot could read as doctored."""
    late = pc("ash") if len(declared) > 1 else None
    ledger.new("e", "Hidden", "gm")
    ledger.declare("e", lambda s: [pc("ash"), npc("sniper", grit=1),
                                   CombatantHidden(combatant="sniper"),
                                   rolled("ash", 9 if late else 2), rolled("sniper", 5)], "gm")
    for payload in declared:
        ledger.declare("e", lambda s, p=payload: [p], "gm")
    live = ledger.state("e")
    folded = ledger.state("e", at=ledger.store.head("e")[0])
    assert live.turn == "sniper" and live.hidden == set()
    assert folded.hidden == live.hidden and folded.turn == live.turn
    ledger.declare("e", lambda s: [CombatantHidden(combatant="ash")], "gm")
    ledger.declare("e", lambda s: [InterruptTaken(combatant="ash", cost=1, category="minor")],
                   "gm")
    assert ledger.state("e", at=ledger.store.head("e")[0]).hidden == set()


def test_hide_and_reveal_are_judged():
    s = hidden_sniper()
    with pytest.raises(Refusal, match="hidden already"):
        when(s, CombatantHidden(combatant="sniper"))
    with pytest.raises(Refusal, match="not hidden"):
        when(s, CombatantRevealed(combatant="ash"))
    with pytest.raises(Refusal, match="unknown|no combatant"):
        when(s, CombatantHidden(combatant="nobody"))
    assert not when(s, CombatantRevealed(combatant="sniper")).hidden
    running = when(s, RoundStarted(round=1))
    with pytest.raises(Refusal, match="turn"):
        when(running, CombatantHidden(combatant="sniper"))


def test_a_group_of_hidden_members_is_secret_as_a_slot():
    s = given(pc("ash"), npc("g-1", group="g"), npc("g-2", group="g"),
              CombatantHidden(combatant="g-1"), CombatantHidden(combatant="g-2"))
    assert secret(s) == {"g-1", "g-2", "g"}
    assert secret(when(s, CombatantRevealed(combatant="g-1"))) == {"g-2"}


@settings(max_examples=40, deadline=None)
@hyp_given(st.lists(st.sampled_from(["spend", "end", "adjust"]), max_size=8))
def test_hidden_never_has_its_turn_in_progress(steps):
    """For every sequence: a combatant whose turn is in progress is never hidden."""
    s = hidden_sniper(RoundStarted(round=1))
    for step in steps:
        up = s.turn or (s.up() or [None])[0]
        if up is None:
            break
        payload = {"spend": spend(up, 1), "end": end(up),
                   "adjust": APAdjusted(combatant="boss", delta=-1, reason="x")}[step]
        try:
            s = when(s, payload)
        except Refusal:
            continue
        assert s.turn not in s.hidden


# -- mine.may: what the core accepts for a player's combatant now ----------------

def test_may_follows_the_rules_through_a_round():
    s = given(pc("ash", grit=1), pc("bo"), npc("boss"))
    assert may(s, "ash") == ["roll"]
    s = when(s, rolled("ash", 5), rolled("bo", 5), rolled("boss", 9))
    assert may(s, "ash") == ["order"] and may(s, "bo") == ["order"]  # R3: a PC tie
    s = when(s, OrderDeclared(slots=["ash", "bo"]), RoundStarted(round=1))
    assert may(s, "ash") == ["interrupt", "seize"]  # boss acts; the window is open (R10)
    s = when(s, spend("boss", 1))
    assert may(s, "ash") == ["interrupt"]  # the window closed
    s = when(s, end("boss"))
    assert may(s, "ash") == ["act", "end-turn"]
    s = when(s, spend("ash", 3))  # out of AP: the turn ended by itself (R21)
    assert may(s, "ash") == [] and may(s, "bo") == ["act", "end-turn"]


# -- the server: no trace before the reveal -------------------------------------

def hidden_table(db):
    table(db)
    secrets = {"gm": token(db, "gm", "gm"), "ana": token(db, "ana", "player", "ash"),
               "tv": token(db, "tv", "view")}
    return secrets


def reads(http: httpx.Client) -> str:
    """Every read a token has, as one text: status, log, lines, encounters, the stream."""
    parts = [http.get(path).text for path in (
        "/api/encounters", f"/api/encounters/{E}/status", f"/api/encounters/{E}/log",
        f"/api/encounters/{E}/log?after=3", f"/api/encounters/{E}/lines?last=500")]
    with connect_sse(http, "GET", f"/api/encounters/{E}/stream",
                     headers={"Last-Event-ID": "0"}, timeout=httpx.Timeout(15)) as source:
        head = json.loads(http.get(f"/api/encounters/{E}/status").text)["seq"]
        for message in messages(source):
            parts.append(message.data)
            if int(message.id) >= head:
                break
    return "\n".join(parts)


def test_players_and_views_read_no_trace_of_a_hidden_combatant_until_revealed(tmp_path):
    db = tmp_path / "table.db"
    secrets = hidden_table(db)
    with served(db) as running:
        gm = client(running, secrets["gm"])
        for command in ({"command": "add", "name": "Sniper Nest", "id": "nest", "hidden": True,
                         "bonus": 4, "grit": 1},
                        {"command": "add", "name": "Veiled", "id": "veiled", "hidden": True},
                        {"command": "roll", "slots": ["nest"], "die": 1},
                        {"command": "adjust-ap", "id": "nest", "delta": -1, "reason": "hurt"},
                        {"command": "roll", "slots": ["ash"], "die": 9},
                        *({"command": "roll", "slots": [x], "die": 1}
                          for x in ("veiled", "bo", "boss", "gangers")),
                        {"command": "note", "text": "the fight starts"},
                        {"command": "round"}):
            assert post(gm, command).status_code == 200, command
        everything = reads(gm)
        assert "nest" in everything and "Veiled" in everything
        for who in ("ana", "tv"):
            seen = reads(client(running, secrets[who]))
            for trace in ("nest", "Nest", "veiled", "Veiled", "CombatantHidden"):
                assert trace not in seen, (who, trace)
        ana = client(running, secrets["ana"])
        assert "mine" in ana.get(f"/api/encounters/{E}/status").json()
        while gm.get(f"/api/encounters/{E}/status").json()["acting"] != "nest":
            ended = post(gm, {"command": "end-turn"})  # on to nest's turn
            assert ended.status_code == 200, ended.text
        fired = post(gm, {"command": "act", "id": "nest", "cost": "major", "label": "fires"})
        assert fired.status_code == 200, fired.text
        for who in ("ana", "tv"):
            seen = reads(client(running, secrets[who]))
            assert "Sniper Nest" in seen and "hurt" in seen  # its whole past
            assert "Veiled" not in seen and "veiled" not in seen
        assert post(gm, {"command": "reveal", "id": "veiled"}).status_code == 200
        assert "Veiled" in reads(client(running, secrets["tv"]))


def test_a_players_prefix_never_finds_a_hidden_combatant(tmp_path):
    db = tmp_path / "table.db"
    secrets = hidden_table(db)
    with served(db) as running:
        gm = client(running, secrets["gm"])
        assert post(gm, {"command": "add", "name": "Sniper", "hidden": True}).status_code == 200
        ana = client(running, secrets["ana"])
        for command in ({"command": "order", "slots": ["sni", "ash"]},
                        {"command": "order", "slots": ["ash", "Sniper"]}):
            refused = post(ana, command)
            said = refused.json()["error"]
            for typed in command["slots"]:  # (echoed as an unknown word is)
                said = said.replace(repr(typed), "")
            assert refused.status_code == 409 and "NPC" not in said and "niper" not in said


def test_the_players_report_shows_no_hidden_combatant(combat):
    for args in (["new", "x"], ["add", "Ash", "--pc"], ["add", "Lurker", "--hidden"],
                 ["add", "Boss"], ["roll", "ash", "--die", "9"], ["roll", "boss", "--die", "5"],
                 ["roll", "lurker", "--die", "1"], ["round"], ["act", "ash", "2", "shoots"]):
        combat(*args)
    assert "Lurker" in combat("report").stdout
    assert "Lurker" not in combat("report", "--for", "players").stdout
