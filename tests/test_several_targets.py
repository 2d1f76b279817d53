"""Several targets at once: `track ID,ID... NAME VALUE` and `effect ID,ID...
NAME ...` are one declaration (one batch, an event per target, one undo),
from the core, the command line, play mode and the table server's API; one
refused target refuses the whole command, naming it, and changes nothing."""
from __future__ import annotations

import json

import pytest
from hypothesis import given as hypo, settings, strategies as st

from eventlog.errors import Refusal
from projections.domain import commands as c
from projections.ledger import Ledger
from projections.reports.views import status
from projections.numbering import players_events
from projections.visible import Sieve

E = "fight"


def _hp(ledger: Ledger) -> dict[str, int]:
    view = status(ledger.state(E))
    return {x["id"]: x["tracks"]["hp"]["value"] for x in view["combatants"]
            if "hp" in x.get("tracks", {})}


@pytest.fixture
def goblins(ledger: Ledger) -> Ledger:
    """Three goblins (a group), a boss and a hidden sneak, each at hp 5."""
    ledger.execute(None, c.New(id=E), "gm")
    for command in (c.Add(name="Goblin", count=3, group="goblins"), c.Add(name="Boss"),
                    c.Add(name="Sneak", id="sneak", hidden=True),
                    c.Track(id="goblin-1,goblin-2,goblin-3,boss,sneak", name="hp", value=5,
                            max=5, public=True)):
        ledger.execute(E, command, "gm")
    return ledger


def _heads(ledger: Ledger) -> int:
    return ledger.store.head(E)[0]


def test_track_of_several_targets_is_one_batch_an_event_each(goblins):
    out = goblins.execute(E, c.Track(id="goblin-1,Goblin 2,bo", name="hp", delta=-3))
    assert [e.data.combatant for e in out.events] == ["goblin-1", "goblin-2", "boss"]
    assert len({e.batch for e in out.events}) == 1
    assert _hp(goblins) == {"goblin-1": 2, "goblin-2": 2, "goblin-3": 5, "boss": 2, "sneak": 5}


def test_each_target_of_a_change_past_zero_stops_at_zero(goblins):
    goblins.execute(E, c.Track(id="boss", name="hp", value=1))
    out = goblins.execute(E, c.Track(id="goblin-1,boss", name="hp", delta=-3))
    assert [(e.data.delta, e.data.asked) for e in out.events] == [(-3, None), (-1, -3)]
    assert _hp(goblins)["goblin-1"] == 2 and _hp(goblins)["boss"] == 0


def test_undo_takes_a_several_target_track_back_in_one_step(goblins):
    before = _hp(goblins)
    goblins.execute(E, c.Track(id="goblin-1,goblin-2,boss", name="hp", delta=-3))
    goblins.execute(E, c.Undo())
    assert _hp(goblins) == before


def test_effect_on_several_targets_gives_each_its_own_effect_id(goblins):
    out = goblins.execute(E, c.Effect(id="goblin-1,goblin-2", name="stunned", rounds=1))
    assert [(e.data.combatant, e.data.effect) for e in out.events] == [
        ("goblin-1", "stunned"), ("goblin-2", "stunned-2")]
    goblins.execute(E, c.Undo())
    assert goblins.state(E).effects == {}


def test_one_refused_target_refuses_the_whole_command_naming_it(goblins):
    head, before = _heads(goblins), _hp(goblins)
    goblins.execute(E, c.Track(id="boss", name="hp", value=1, max=1))
    head += 1
    with pytest.raises(Refusal, match=r"boss's hp is 1: a track never goes above its maximum 1"):
        goblins.execute(E, c.Track(id="goblin-1,boss", name="hp", value=3))
    with pytest.raises(Refusal, match=r"no combatant 'zork'"):
        goblins.execute(E, c.Track(id="goblin-1,zork", name="hp", delta=-1))
    assert _heads(goblins) == head and _hp(goblins) == {**before, "boss": 1}


def test_a_refusal_that_would_not_say_whom_it_refuses_names_the_target(goblins):
    goblins.execute(E, c.Leave(id="goblin-2"))
    with pytest.raises(Refusal, match=r"goblin-2 has left the encounter"):
        goblins.execute(E, c.Effect(id="goblin-1,goblin-2", name="prone", rounds=1))
    with pytest.raises(Refusal, match=r"^goblin-1: an effect needs a name$"):
        goblins.execute(E, c.Effect(id="goblin-1,goblin-3", name=" ", rounds=1))


@pytest.mark.parametrize("ids, said", [
    ("goblin-1,goblin-1", "goblin-1, named twice"),
    ("goblin-1,Goblin 1", "'Goblin 1' is goblin-1, named twice"),
    ("goblin-1,,boss", "has an empty entry"),
    ("goblin-1,", "has an empty entry"),
    ("goblins,boss", "goblins is a group; name one of its members"),
    (",".join(["boss"] * 101), "at most 100 targets"),
])
def test_a_list_of_targets_that_is_not_a_list_of_combatants_is_refused(goblins, ids, said):
    head = _heads(goblins)
    with pytest.raises(Refusal, match=said):
        goblins.execute(E, c.Track(id=ids, name="hp", delta=-1))
    assert _heads(goblins) == head


def test_effect_with_its_own_id_takes_one_target(goblins):
    with pytest.raises(Refusal, match=r"--id names one effect: give it one target, not 2"):
        goblins.execute(E, c.Effect(id="goblin-1,boss", name="stunned", rounds=1,
                                    effect="daze"))


def test_players_never_read_of_a_hidden_target_in_the_batch(goblins):
    goblins.execute(E, c.Track(id="goblin-1,sneak,boss", name="hp", delta=-1))
    state = goblins.state(E)
    _, seen = players_events(goblins, E, state.seq, Sieve.of(state), 0)
    last = [e for e in seen if e["batch"] == seen[-1]["batch"]]
    assert [e["data"]["combatant"] for e in last] == ["goblin-1", "boss"]
    assert "sneak" not in json.dumps(seen)


def test_a_retraction_of_one_seq_of_the_batch_takes_the_whole_declaration(goblins):
    before = _hp(goblins)
    out = goblins.execute(E, c.Track(id="goblin-1,goblin-2", name="hp", delta=-2))
    goblins.execute(E, c.Retract(seq=out.events[1].seq))
    assert _hp(goblins) == before


def test_an_amendment_corrects_one_target_of_the_batch(goblins):
    out = goblins.execute(E, c.Track(id="goblin-1,goblin-2", name="hp", delta=-2))
    goblins.execute(E, c.Amend(seq=out.events[1].seq, value=-4, reason="a crit"))
    assert (_hp(goblins)["goblin-1"], _hp(goblins)["goblin-2"]) == (3, 1)


# -- the command line -----------------------------------------------------------------

def _cli_table(combat) -> None:
    for args in (["new", "x"], ["add", "Goblin", "--count", "2"], ["add", "Boss"],
                 ["track", "goblin-1,goblin-2,boss", "hp", "5", "--max", "5"]):
        combat(*args)


def _log(combat) -> list[dict]:
    return json.loads(combat("log", "--json").stdout)


def test_cli_track_of_several_targets_is_one_batch_undone_in_one_step(combat):
    _cli_table(combat)
    out = combat("track", "goblin-1,goblin-2,boss", "hp", "-3").stdout
    assert "✓ goblin-1's, goblin-2's and boss's hp -3" in out.splitlines()  # one line
    last = _log(combat)[-3:]
    assert len({e["batch"] for e in last}) == 1
    assert [e["data"]["combatant"] for e in last] == ["goblin-1", "goblin-2", "boss"]
    said = combat("undo").stdout
    assert (f"↶ undone (seq {last[0]['seq']}-{last[-1]['seq']}): goblin-1's, "
            "goblin-2's and boss's hp -3") in said.splitlines()
    assert all(e["undone"] for e in _log(combat)[-4:-1])
    assert "hp 5/5" in combat("status").stdout


def test_cli_effect_of_several_targets_is_one_batch(combat):
    _cli_table(combat)
    out = combat("effect", "goblin-1,goblin-2", "stunned", "--rounds", "1").stdout
    assert "✓ goblin-1 and goblin-2 are stunned (stunned, stunned-2) for 1 round" \
        in out.splitlines()
    last = _log(combat)[-2:]
    assert [e["type"] for e in last] == ["EffectApplied"] * 2
    assert last[0]["batch"] == last[1]["batch"]


def test_cli_refusal_names_the_target_and_appends_nothing(combat):
    _cli_table(combat)
    combat("track", "boss", "hp", "1", "--max", "1")
    count = len(_log(combat))
    err = combat("track", "goblin-1,boss", "hp", "3", code=1).stderr
    assert err == ("error: boss's hp is 1: a track never goes above its maximum 1 "
                   "(3 would)\n")
    assert len(_log(combat)) == count


# -- for every list ---------------------------------------------------------------------

PEOPLE = ["goblin-1", "goblin-2", "goblin-3", "boss", "zork", "goblins"]


@settings(max_examples=60, deadline=None)
@hypo(st.lists(st.sampled_from(PEOPLE), min_size=1, max_size=6), st.integers(-6, 3))
def test_a_several_target_track_changes_every_target_or_nothing_and_undoes_whole(ids, delta):
    from eventlog.stores.memory import MemoryStore
    ledger = Ledger(MemoryStore())
    ledger.execute(None, c.New(id=E), "gm")
    for command in (c.Add(name="Goblin", count=3, group="goblins"), c.Add(name="Boss"),
                    c.Track(id="goblin-1,goblin-2,goblin-3,boss", name="hp", value=4, max=5)):
        ledger.execute(E, command, "gm")
    before, head = _hp(ledger), _heads(ledger)
    try:
        ledger.execute(E, c.Track(id=",".join(ids), name="hp", delta=delta))
    except Refusal:
        assert _hp(ledger) == before and _heads(ledger) == head
        return
    after = _hp(ledger)
    assert len(set(ids)) == len(ids)
    # each stops at 0 or at its maximum 5 (the change past it asked, not taken)
    assert after == {k: min(5, max(0, v + delta)) if k in ids else v for k, v in before.items()}
    ledger.execute(E, c.Undo())
    assert _hp(ledger) == before


def test_cli_undo_dry_run_of_several_targets_says_one_line(combat):
    _cli_table(combat)
    combat("track", "goblin-1,boss", "hp", "-1")
    seqs = [e["seq"] for e in _log(combat)[-2:]]
    out = combat("undo", "--dry-run").stdout
    assert f"seq {seqs[0]}-{seqs[1]} would be undone: goblin-1's and boss's hp -1" in out
