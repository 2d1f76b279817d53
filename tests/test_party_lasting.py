"""Conditions that outlast a fight (docs/rules.md, "The party"): `effect ...
--until-rest` or `--fights N` on a party character lasts until ended in the
fight, the carry takes it into the party, `new --party` brings it back, a
fight counts one down, a rest ends the until-rest ones; on every store."""
from __future__ import annotations

import itertools

import pytest
from helpers import STORES, make_store
from hypothesis import HealthCheck, given, settings, strategies as st

from eventlog.errors import Refusal
from eventlog.events import PartyTrack
from projections.domain import commands as c
from projections.ledger import Ledger
from projections.party import declare as d
from projections.party.book import PartyBook


@pytest.fixture(params=STORES)
def store(request, tmp_path):
    s = make_store(request.param, tmp_path)
    yield s
    s.close()


def party_of(store, *names: str) -> Ledger:
    d.join(store, [d.character(n.title(), tracks=[PartyTrack("hp", 20, 20)]) for n in names],
           "gm")
    return Ledger(store)


def held(store) -> dict:
    return {cid: {x.name: (x.until_rest, x.fights) for x in ch.conditions}
            for cid, ch in PartyBook(store).state().characters.items()}


def effects(state, cid: str) -> dict:
    return {e.name: (e.until_rest, e.fights) for e in state.effects.values()
            if e.combatant == cid and not e.ended}


def test_until_rest_is_carried_and_ends_when_the_party_rests(store):
    ledger = party_of(store, "rook", "vex")
    ledger.execute(None, c.New(id="bridge", party=""), "gm")
    ledger.execute("bridge", c.Effect(id="rook", name="poisoned", until_rest=True), "gm")
    ledger.execute("bridge", c.End(), "gm")
    assert held(store) == {"rook": {"poisoned": (True, None)}, "vex": {}}
    d.rest(store, False, "gm")
    assert held(store)["rook"] == {}
    PartyBook(store).undo("gm")  # (the rest is a declaration: undone, it comes back)
    assert held(store)["rook"] == {"poisoned": (True, None)}


def test_new_party_brings_lasting_conditions_in_as_effects(store):
    ledger = party_of(store, "rook", "vex")
    ledger.execute(None, c.New(id="one", party=""), "gm")
    ledger.execute("one", c.Effect(id="rook,vex", name="poisoned", until_rest=True), "gm")
    ledger.execute("one", c.End(), "gm")
    after = ledger.execute(None, c.New(id="two", party=""), "gm").state
    assert effects(after, "rook") == effects(after, "vex") == {"poisoned": (True, None)}
    from projections.reports.views import effect_view
    shown = [effect_view(after, e) for e in after.effects.values()]
    assert [(e["id"], e["until_rest"], e["active"]) for e in shown] == [
        ("poisoned", True, True), ("poisoned-2", True, True)]


def test_fights_count_down_one_per_fight_and_end_at_zero(store):
    ledger = party_of(store, "rook")
    ledger.execute(None, c.New(id="f1", party=""), "gm")
    ledger.execute("f1", c.Effect(id="rook", name="cursed", fights=2), "gm")
    ledger.execute("f1", c.End(), "gm")
    assert held(store)["rook"] == {"cursed": (False, 1)}
    state = ledger.execute(None, c.New(id="f2", party=""), "gm").state
    assert effects(state, "rook") == {"cursed": (False, 1)}
    ledger.execute("f2", c.End(), "gm")
    assert held(store)["rook"] == {}


def test_a_condition_for_one_fight_is_not_carried(store):
    ledger = party_of(store, "rook")
    ledger.execute(None, c.New(id="f1", party=""), "gm")
    ledger.execute("f1", c.Effect(id="rook", name="shaken", fights=1), "gm")
    ledger.execute("f1", c.End(), "gm")
    assert held(store)["rook"] == {}


def test_end_effect_in_the_fight_removes_it_from_the_party_at_the_carry(store):
    ledger = party_of(store, "rook")
    ledger.execute(None, c.New(id="f1", party=""), "gm")
    ledger.execute("f1", c.Effect(id="rook", name="poisoned", until_rest=True), "gm")
    ledger.execute("f1", c.End(), "gm")
    ledger.execute(None, c.New(id="f2", party=""), "gm")
    ledger.execute("f2", c.EndEffect(effect="poisoned", reason="antidote"), "gm")
    ledger.execute("f2", c.End(), "gm")
    assert held(store)["rook"] == {}


def test_undo_of_a_carry_restores_the_conditions(store):
    ledger = party_of(store, "rook")
    ledger.execute(None, c.New(id="f1", party=""), "gm")
    ledger.execute("f1", c.Effect(id="rook", name="poisoned", until_rest=True), "gm")
    ledger.execute("f1", c.End(), "gm")
    ledger.execute(None, c.New(id="f2", party=""), "gm")
    ledger.execute("f2", c.EndEffect(effect="poisoned"), "gm")
    ledger.execute("f2", c.Effect(id="rook", name="cursed", fights=3), "gm")
    ledger.execute("f2", c.End(), "gm")
    assert held(store)["rook"] == {"cursed": (False, 2)}
    PartyBook(store).undo("gm")
    assert held(store)["rook"] == {"poisoned": (True, None)}


def test_a_correction_after_the_carry_carries_only_the_difference(store):
    from projections.party.fights import carry, waiting
    ledger = party_of(store, "rook")
    ledger.execute(None, c.New(id="f1", party=""), "gm")
    ledger.execute("f1", c.Effect(id="rook", name="poisoned", until_rest=True), "gm")
    seq = ledger.execute("f1", c.Effect(id="rook", name="cursed", fights=3),
                         "gm").events[0].seq
    ledger.execute("f1", c.End(), "gm")
    d.rest(store, False, "gm")  # (poisoned ends here: a correction must not bring it back)
    assert waiting(ledger, PartyBook(store).state()) == []
    ledger.execute("f1", c.Retract(seq=seq, reason="the curse missed"), "gm")
    assert waiting(ledger, PartyBook(store).state()) != []
    assert carry(ledger, "f1", "gm") is not None
    assert held(store)["rook"] == {}
    assert carry(ledger, "f1", "gm") is None  # (carried: nothing left to carry)


@pytest.mark.parametrize("command, message", [
    (c.Effect(id="ganger", name="poisoned", until_rest=True), "ganger is not one of the party"),
    (c.Effect(id="ganger", name="cursed", fights=2), "ganger is not one of the party"),
    (c.Effect(id="rook", name="wired", max_ap=1, until_rest=True), "change of maximum AP"),
    (c.Effect(id="rook", name="x", rounds=2, until_rest=True), "either some rounds"),
    (c.Effect(id="rook", name="x", fights=0), "1 fight or more"),
])
def test_lasting_effect_refused_changes_nothing(store, command, message):
    ledger = party_of(store, "rook")
    ledger.execute(None, c.New(id="f1", party=""), "gm")
    ledger.execute("f1", c.Add(name="Ganger"), "gm")
    seq = ledger.state("f1").seq
    with pytest.raises(Refusal, match=message):
        ledger.execute("f1", command, "gm")
    assert ledger.state("f1").seq == seq


def test_lasting_effect_refused_in_a_fight_not_from_the_party(store):
    ledger = Ledger(store)
    ledger.execute(None, c.New(id="alley"), "gm")
    ledger.execute("alley", c.Add(name="Rook", pc=True), "gm")
    with pytest.raises(Refusal, match="rook is not one of the party's characters"):
        ledger.execute("alley", c.Effect(id="rook", name="poisoned", until_rest=True), "gm")


# -- a property: the party holds what a model of the rules says ---------------

NAMES = ["rook", "vex"]
CONDITIONS = ["poisoned", "cursed", "shaken"]
step = st.one_of(
    st.tuples(st.just("apply"), st.sampled_from(NAMES), st.sampled_from(CONDITIONS),
              st.one_of(st.none(), st.integers(1, 3))),  # (None: until rest)
    st.tuples(st.just("end"), st.sampled_from(NAMES), st.sampled_from(CONDITIONS),
              st.none()))
fights = st.lists(st.tuples(st.lists(step, max_size=6), st.booleans(), st.booleans()),
                  min_size=1, max_size=4)


@pytest.mark.parametrize("kind", STORES)
def test_party_conditions_are_what_the_rules_say_after_each_fight(kind, tmp_path):
    counter = itertools.count()

    @settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
    @given(fights=fights)
    def played(fights):
        store = make_store(kind, tmp_path)
        try:
            play(store, fights, counter)
        finally:
            store.close()
    played()


def play(store, fights, counter) -> None:
    ledger = party_of(store, *NAMES)
    model: dict[str, dict] = {n: {} for n in NAMES}
    for steps, rest, undo in fights:
        fight = f"fight-{next(counter)}"
        state = ledger.execute(None, c.New(id=fight, party=""), "gm").state
        assert {n: effects(state, n) for n in NAMES} == model  # brought in as they are
        now = {n: dict(v) for n, v in model.items()}
        for what, cid, name, fights_ in steps:
            on = {e.name: e.id for e in ledger.state(fight).effects.values()
                  if e.combatant == cid and not e.ended}
            if what == "apply" and name not in on:
                ledger.execute(fight, c.Effect(id=cid, name=name, until_rest=fights_ is None,
                                               fights=fights_), "gm")
                now[cid][name] = (fights_ is None, fights_)
            elif what == "end" and name in on:
                ledger.execute(fight, c.EndEffect(effect=on[name]), "gm")
                now[cid].pop(name)
        before = held(store)
        ledger.execute(fight, c.End(), "gm")
        if undo:
            PartyBook(store).undo("gm")
            assert held(store) == before
            PartyBook(store).redo("gm")
        model = {cid: {n: (r, None if f is None else f - 1) for n, (r, f) in conds.items()
                       if f != 1} for cid, conds in now.items()}
        assert held(store) == model
        if rest:
            d.rest(store, False, "gm")
            model = {cid: {n: v for n, v in conds.items() if not v[0]}
                     for cid, conds in model.items()}
            assert held(store) == model


# -- a property: a correction after the carry, then the carry it offers --------

hits = st.lists(st.one_of(
    st.tuples(st.just("hp"), st.sampled_from(NAMES), st.integers(-8, 8)),
    st.tuples(st.just("until-rest"), st.sampled_from(NAMES), st.sampled_from(CONDITIONS)),
    st.tuples(st.just("fights"), st.sampled_from(NAMES), st.integers(1, 3))), max_size=6)


@pytest.mark.parametrize("kind", STORES)
def test_the_offered_carry_leaves_the_party_as_the_corrected_fight_left_it(kind, tmp_path):
    @settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
    @given(steps=hits, which=st.integers(0, 10))
    def played(steps, which):
        store = make_store(kind, tmp_path)
        try:
            corrected(store, steps, which)
        finally:
            store.close()
    played()


def corrected(store, steps, which) -> None:
    from projections.party.fights import offered
    ledger = party_of(store, *NAMES)
    ledger.execute(None, c.New(id="f1", party=""), "gm")
    seqs = []
    for kind, cid, what in steps:
        command = (c.Track(id=cid, name="hp", delta=what) if kind == "hp" else
                   c.Effect(id=cid, name=what, until_rest=True) if kind == "until-rest" else
                   c.Effect(id=cid, name=f"hexed-{what}", fights=what))
        try:
            seqs.append(ledger.execute("f1", command, "gm").events[0].seq)
        except Refusal:  # (a change that changes nothing, a name in force already)
            pass
    ledger.execute("f1", c.End(), "gm")
    if seqs:
        ledger.execute("f1", c.Retract(seq=seqs[which % len(seqs)], cascade=True), "gm")
    offer = offered(ledger, "f1")
    if offer is not None:
        assert offer[-1] == "`combat party carry f1` carries it into the party"
        ledger.execute(None, c.PartyCarry(encounter="f1", reason="corrected"), "gm")
    assert offered(ledger, "f1") is None
    now = ledger.state("f1")
    party = PartyBook(store).state().characters
    for cid in NAMES:
        assert party[cid].tracks["hp"].value == now.tracks[cid]["hp"].value
        left = {n: (r, None if f is None else f - 1) for n, (r, f) in effects(now, cid).items()
                if f != 1}
        assert held(store)[cid] == left


def test_party_carry_of_a_hostile_fight_name_is_one_line(store):
    ledger = party_of(store, "rook")
    with pytest.raises(Refusal) as refused:
        ledger.execute(None, c.PartyCarry(encounter="a\nb" * 500), "gm")
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 300
    assert PartyBook(store).head() == 2
