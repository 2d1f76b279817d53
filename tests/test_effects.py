"""Timed effects on the maximum AP (R14: "traits, cyberware, magic and other
effects"): they take effect at the next restore, run out by themselves at the
right round start (derived, never stored), and undo like everything else."""
from __future__ import annotations

import json

import pytest

from eventlog.errors import Refusal
from eventlog.events import APAdjusted, CombatantLeft, EffectApplied, EffectEnded, RoundStarted
from projections.domain import commands as c
from projections.domain.decide import decide
from projections.domain.narrate import describe
from projections.reports.views import status

from helpers import ap, duel, end, given, npc, pc, refused, rolled, spend, when, who


def effect(cid, delta, rounds=None, now=False, eid=None, name="Wired reflexes"):
    return EffectApplied(effect=eid or name.lower().replace(" ", "-"), combatant=cid,
                         name=name, max_ap=delta, rounds=rounds, until_round_end=now)


def next_round(s):
    return when(s, RoundStarted(round=s.round + 1))


def test_r14_effect_for_n_rounds_counts_from_the_next_restore_and_expires():
    s = when(duel(), effect("ash", +1, rounds=2))
    assert ap(s, "ash") == 3 and who(s, "ash")["max_ap"] == 3  # R14: at the next restore
    s = next_round(s)       # round 2: covered
    assert (ap(s, "ash"), who(s, "ash")["max_ap"]) == (4, 4)
    s = next_round(s)       # round 3: covered
    assert ap(s, "ash") == 4
    s = next_round(s)       # round 4: run out by itself, no event needed
    assert (ap(s, "ash"), who(s, "ash")["max_ap"]) == (3, 3)
    assert who(s, "ash")["effects"] == []


def test_r14_effect_declared_in_setup_covers_round_one():
    s = given(pc("ash"), rolled("ash", 5), effect("ash", -1, rounds=1, name="Hangover"))
    s = next_round(s)
    assert ap(s, "ash") == 2
    s = next_round(s)
    assert ap(s, "ash") == 3


def test_r14_until_round_end_counts_now_and_ends_with_the_round():
    s = when(duel(), effect("brute", -1, now=True, name="Stunned"))
    assert (ap(s, "brute"), who(s, "brute")["max_ap"]) == (2, 2)
    view = who(s, "brute")["effects"]
    assert [(e["name"], e["active"], e["to_round"]) for e in view] == [("Stunned", True, 1)]
    s = next_round(s)
    assert (ap(s, "brute"), who(s, "brute")["max_ap"]) == (3, 3)


def test_r21_stunned_to_zero_ap_ends_the_turn_in_progress():
    s = when(duel(ash_ap=1), effect("ash", -1, now=True, name="Stunned"))
    assert status(s)["acting"] == "brute"


def test_r14_adjust_ap_may_reach_the_maximum_an_effect_gives():
    s = next_round(when(duel(), effect("ash", +1, rounds=3)))
    s = when(s, spend("ash", 2), end("ash"))
    s = when(s, APAdjusted(combatant="ash", delta=2, reason="stim"))
    assert ap(s, "ash") == 4
    refused(s, APAdjusted(combatant="ash", delta=1, reason="stim"), "R14")


def test_r14_effect_on_a_group_member_is_its_own():
    s = given(npc("g-1", group="g"), npc("g-2", group="g"), rolled("g", 4),
              effect("g-2", +2, rounds=1, name="Adrenaline"))
    s = next_round(s)
    assert (ap(s, "g-1"), ap(s, "g-2")) == (3, 5)


def test_effect_ended_early_counts_no_more():
    s = when(duel(), effect("ash", +1, rounds=5))
    s = next_round(s)
    s = when(s, EffectEnded(effect="wired-reflexes", reason="EMP"))
    s = next_round(s)
    assert ap(s, "ash") == 3
    with pytest.raises(Refusal, match="already ended"):
        when(s, EffectEnded(effect="wired-reflexes"))


def test_effect_refusals():
    s = duel()
    # an effect of max AP 0 is now a condition (`effect` in docs/commands.md): an explicit
    # `--max-ap 0` is what is refused, when the command is decided
    with pytest.raises(Refusal, match="R14"):
        decide(s, c.Effect(id="ash", name="x", max_ap=0, rounds=1), lambda: 5)
    for bad in (effect("ash", 1), effect("ash", 1, rounds=2, now=True)):
        with pytest.raises(Refusal, match="--rounds"):
            when(s, bad)
    with pytest.raises(Refusal, match="1 round or more"):
        when(s, effect("ash", 1, rounds=0))
    refused(given(pc("ash")), effect("ash", -1, now=True), "R14")  # no round runs
    s = when(s, effect("ash", 1, rounds=1))
    with pytest.raises(Refusal, match="already an effect"):
        when(s, effect("ash", 1, rounds=1))
    s = when(s, CombatantLeft(combatant="ash"))
    refused(s, effect("ash", 1, rounds=1, eid="other"), "R22")


def test_effects_in_the_log_and_undo_through_the_cli(tmp_path):
    from typer.testing import CliRunner
    from cli.app import app
    env = {"COMBAT_DB": str(tmp_path / "x.db"), "NO_COLOR": "1", "COLUMNS": "150"}
    run = lambda *a: CliRunner().invoke(app, list(a), env=env)  # noqa: E731
    for args in (["new", "fx"], ["add", "Rook", "--pc"], ["roll", "rook", "--die", "4"],
                 ["effect", "rook", "Wired reflexes", "--max-ap", "+1", "--rounds", "2"],
                 ["round"]):
        assert run(*args).exit_code == 0, args
    shown = run("status").stdout
    assert "Wired reflexes +1" in shown and "●●●●" in shown
    assert "gains effect Wired reflexes" in run("log").stdout
    assert run("undo").exit_code == 0          # undoes the round start
    assert run("undo").exit_code == 0          # undoes the effect
    assert json.loads(run("status", "--json").stdout)["combatants"][0]["effects"] == []
    assert run("end-effect", "wired-reflexes").exit_code == 1


def test_effect_narration():
    assert describe(effect("ash", -1, now=True, name="Stunned")) == \
        "ash gains effect Stunned: max AP -1 until the round ends"
