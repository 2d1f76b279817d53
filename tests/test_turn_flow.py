"""Turn flow a GM can trust: a turn that ends by itself is said
at once with who is up now (R21), so are a new pass and a complete round
(R23), a new round says what AP it throws away (R15, R24), and a reflexive
`end-turn` never ends a turn that has declared nothing right after an
automatic end."""
from __future__ import annotations

import json

import pytest
from hypothesis import given as hypothesis_given, settings, strategies as st

from eventlog.errors import Refusal, Unconfirmed
from eventlog.events import RoundStarted
from projections.domain.narrate import unspent
from projections.reports.flow import announce
from projections.ledger import apply
from projections.domain.asks import turn_to_end

from helpers import end, given, npc, pc, rolled, spend


def table(combat):
    """Aria (pc, 9, 1 AP) acts before Troll (npc, 5) and Kai (pc, 3)."""
    combat("new", "evening")
    combat("add", "Aria", "--pc", "--ap", "1")
    combat("add", "Troll")
    combat("add", "Kai", "--pc")
    combat("roll", "aria", "--die", "9")
    combat("roll", "troll", "--die", "5")
    combat("roll", "kai", "--die", "3")
    combat("round")


def log_size(combat) -> int:
    return len(json.loads(combat("log", "--json").stdout))


def test_r21_automatic_turn_end_is_announced_with_who_is_up(combat):
    table(combat)
    out = combat("act", "aria", "minor").stdout
    assert "↪ aria's turn ended by itself: no AP left (R21)" in out
    assert "↪ up now: troll" in out


def test_r21_bare_end_turn_after_an_automatic_end_is_said_loudly(combat):
    table(combat)
    combat("act", "aria", "minor")
    out = combat("end-turn").stdout  # the contract's bare end-turn stands (R21)
    assert ("↪ troll's turn ended before troll declared anything (aria's ended by "
            "itself): `undo` if that was a slip (R21)") in out
    assert "↪ up now: kai" in out


def test_r21_careful_bare_end_turn_after_an_automatic_end_is_refused(tmp_path):
    from helpers import cli_env, in_process
    combat = in_process({**cli_env(tmp_path / "l.db"), "COMBAT_CAREFUL": "1"})
    table(combat)
    combat("act", "aria", "minor")
    before = log_size(combat)
    result = combat("end-turn", code=1)
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: aria's turn already ended by itself")
    assert "`end-turn troll`" in result.stderr and "(R21)" in result.stderr
    assert log_size(combat) == before
    out = combat("end-turn", "troll").stdout  # naming the turn ends it
    assert "✓ troll ends their turn" in out and "up now: kai" in out
    assert "before troll declared anything" not in out


def test_r21_bare_end_turn_is_fine_once_the_reached_turn_has_declared(combat):
    table(combat)
    combat("act", "aria", "minor")
    combat("act", "troll", "minor")
    combat("end-turn")
    assert json.loads(combat("status", "--json").stdout)["acting"] == "kai"


def test_r21_careful_bare_end_turn_of_an_untouched_turn_needs_its_id():
    # A turn nothing was spent in is ended by a careful client only by name,
    # whether or not the turn before ended by itself.
    s = given(pc("ash"), npc("brute"), rolled("ash", 9), rolled("brute", 5),
              RoundStarted(round=1))
    with pytest.raises(Unconfirmed, match=r"ash has spent no AP in this turn yet: "
                                          r"`end-turn ash` ends it \(R21\)") as caught:
        turn_to_end(s, None, careful=True)
    assert caught.value.confirm == {"command": "end-turn", "id": "ash"}
    assert turn_to_end(s, "ash", careful=True).combatant == "ash"  # named: confirmed
    assert turn_to_end(s, None).combatant == "ash"  # the contract's bare end-turn
    s = apply(s, [spend("ash", 1)])
    assert turn_to_end(s, None, careful=True).combatant == "ash"  # AP spent: no question


def test_r21_careful_bare_pass_of_the_only_group_member_up_needs_its_id():
    s = given(pc("ash"), npc("g-1", group="gs"), npc("g-2", group="gs"), rolled("ash", 9),
              rolled("gs", 5), RoundStarted(round=1), spend("ash", 1), end("ash"), end("g-1"))
    with pytest.raises(Unconfirmed, match=r"`end-turn g-2`"):
        turn_to_end(s, None, careful=True)
    assert turn_to_end(s, None).combatant == "g-2"


def test_r21_bare_end_turn_of_an_untouched_turn_is_said_loudly(combat):
    table(combat)
    out = combat("end-turn").stdout  # the contract's bare end-turn stands (R21)
    assert "↪ aria's turn ended with no AP spent in it: `undo` if that was a slip (R21)" in out
    assert "↪ up now: troll" in out
    out = combat("end-turn", "troll").stdout  # named: nothing to warn of
    assert "slip" not in out


def test_r21_careful_bare_end_turn_of_an_untouched_turn_is_refused_on_the_cli(tmp_path):
    from helpers import cli_env, in_process
    combat = in_process({**cli_env(tmp_path / "l.db"), "COMBAT_CAREFUL": "1"})
    table(combat)
    before = log_size(combat)
    result = combat("end-turn", code=1)
    assert result.stderr == ("error: aria has spent no AP in this turn yet: "
                             "`end-turn aria` ends it (R21)\n")
    assert log_size(combat) == before
    assert "✓ aria ends their turn" in combat("end-turn", "aria").stdout


def test_r21_guard_covers_a_group_slot_reached_by_an_automatic_end():
    s = given(pc("ash", ap=1), npc("g-1", group="gs"), rolled("ash", 9),
              rolled("gs", 5), RoundStarted(round=1), spend("ash", 1))
    with pytest.raises(Refusal, match=r"`end-turn g-1`.*\(R21\)"):
        turn_to_end(s, None, careful=True)
    assert turn_to_end(s, "g-1", careful=True).combatant == "g-1"
    assert turn_to_end(s, None).combatant == "g-1"  # the contract's bare end-turn


def test_r23_pass_change_and_round_completion_are_announced(combat):
    table(combat)
    combat("act", "aria", "minor")
    combat("end-turn", "troll")
    out = combat("act", "kai", "minor").stdout  # kai keeps 2 AP
    assert "↪" not in out  # nothing moved on
    out = combat("end-turn").stdout
    assert "↪ pass 2 of round 1 begins (R23)" in out and "↪ up now: troll" in out
    combat("end-turn")
    out = combat("end-turn").stdout  # nothing spent in pass 2
    assert "↪ round 1 is complete (R23)" in out


def test_r24_round_while_running_says_what_is_lost(combat):
    table(combat)
    combat("act", "aria", "minor")
    combat("act", "troll", "minor")
    status = combat("status").stdout
    assert "lost if `combat round` starts the next round now (R15, R24): troll 2, kai 3" in status
    out = combat("round").stdout
    assert "↪ round 1 was still running: unspent AP lost: troll 2 AP, kai 3 AP (R15, R24)" in out


def test_r24_a_complete_round_loses_nothing():
    s = given(pc("ash", ap=1), rolled("ash", 9), RoundStarted(round=1), spend("ash", 1))
    assert s.round_complete and unspent(s) == []
    assert announce(s, apply(s, [RoundStarted(round=2)]), [RoundStarted(round=2)]) == []


@settings(max_examples=60, deadline=None)
@hypothesis_given(st.lists(st.sampled_from(["1", "2", "end", "bare"]), max_size=25))
def test_r21_a_bare_end_turn_never_ends_an_untouched_turn_after_an_automatic_end(moves):
    """For every sequence of actions and end-turns: whenever a bare end-turn
    is accepted, the turn it ends has declared something, or no turn ended
    by itself since the last turn action."""
    s = given(pc("ash", ap=2), npc("brute", ap=3), pc("cat", ap=1), rolled("ash", 9),
              rolled("brute", 5), rolled("cat", 2), RoundStarted(round=1))
    for move in moves:
        if not s.running:
            s = apply(s, [RoundStarted(round=s.round + 1)])
        who = s.up()[0]
        try:
            if move == "bare":
                p = turn_to_end(s, None, careful=True)
                assert s.turn_started or s.auto_ended is None
            elif move == "end":
                p = turn_to_end(s, who)
            else:
                p = spend(who, int(move))
            s = apply(s, [p])
        except Refusal:
            continue
