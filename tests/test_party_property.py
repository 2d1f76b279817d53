"""A property of the carry (docs/rules.md, "The party"): for random fights
started from the party, the party after the carry holds what each fight left
its characters, and undoing the carry gives back the party before it."""
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

NAMES = ["rook", "vex", "mara"]
blows = st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from(["hp", "stun", "grit"]),
                           st.integers(-30, 30)), max_size=12)


def held(party) -> dict:
    return {cid: (ch.grit, {n: (t.value, t.max) for n, t in ch.tracks.items()})
            for cid, ch in party.characters.items()}


def fought(state, ids) -> dict:
    return {cid: (state.combatants[cid].grit,
                  {n: (t.value, t.max) for n, t in state.tracks.get(cid, {}).items()})
            for cid in ids}


@pytest.mark.parametrize("kind", STORES)
def test_party_after_the_carry_is_what_the_fight_left(kind, tmp_path):
    counter = itertools.count()

    @settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
    @given(fights=st.lists(st.tuples(st.sets(st.sampled_from(NAMES), min_size=1), blows),
                           min_size=1, max_size=3))
    def played(fights):
        store = make_store(kind, tmp_path)  # (one per example: each starts afresh)
        try:
            play(store, fights, counter)
        finally:
            store.close()
    played()


def play(store, fights, counter) -> None:
    d.join(store, [d.character(n.title(), grit=1, tracks=[
        PartyTrack("hp", 20, 20), PartyTrack("stun", 0, 10)]) for n in NAMES], "gm")
    ledger = Ledger(store)
    for members, hits in fights:
        fight = f"fight-{next(counter)}"
        ids = sorted(members)
        ledger.execute(None, c.New(id=fight, party=",".join(ids)), "gm")
        for cid, what, delta in hits:
            if cid not in members:
                continue
            try:  # (a change that changes nothing is refused: skipped)
                ledger.execute(fight, c.Grit(id=cid, delta=delta) if what == "grit"
                               else c.Track(id=cid, name=what, delta=delta), "gm")
            except Refusal:
                pass
        before = held(PartyBook(store).state())
        ledger.execute(fight, c.End(), "gm")
        after = held(PartyBook(store).state())
        assert {cid: after[cid] for cid in ids} == fought(ledger.state(fight), ids)
        assert {k: v for k, v in after.items() if k not in ids} == {
            k: v for k, v in before.items() if k not in ids}
        if len(hits) % 2:  # (some carries undone: the party before comes back)
            PartyBook(store).undo("gm")
            assert held(PartyBook(store).state()) == before
