"""The party's stream in the store: declared, folded, undone, at a seq, on
every store (docs/rules.md, "The party")."""
from __future__ import annotations

import pytest
from helpers import STORES, make_store

from eventlog.errors import Refusal
from eventlog.events import PartyCharacterSet, PartyTrack
from eventlog.stores.records import PARTY_STREAM
from projections.party import declare as d
from projections.party.book import PartyBook


@pytest.fixture(params=STORES)
def store(request, tmp_path):
    s = make_store(request.param, tmp_path)
    yield s
    s.close()


def test_party_empty_in_a_store_made_before_it(store):
    assert PartyBook(store).state().characters == {}
    assert PartyBook(store).head() == 0


def test_party_add_keeps_the_character_and_hides_the_stream(store):
    d.join(store, [d.character("Rook", bonus=5, grit=2,
                               tracks=[PartyTrack("hp", 12, 20)])], "gm")
    rook = PartyBook(store).state().characters["rook"]
    assert (rook.bonus, rook.max_ap, rook.grit, rook.portrait) == (5, 3, 2, None)
    assert rook.tracks["hp"] == PartyTrack("hp", 12, 20)
    assert PARTY_STREAM not in [e.id for e in store.encounters()]


def test_party_join_is_all_or_nothing_when_one_id_is_taken(store):
    d.join(store, [d.character("Rook")], "gm")
    with pytest.raises(Refusal, match="'rook' is already in the party"):
        d.join(store, [d.character("Vex"), d.character("Rook")], "gm")
    assert list(PartyBook(store).state().characters) == ["rook"]


def test_party_undo_and_redo_take_back_the_latest(store):
    d.join(store, [d.character("Rook", grit=1)], "gm")
    d.change(store, PartyCharacterSet(id="rook", grit=4), "gm")
    book = PartyBook(store)
    assert book.undo("gm")[0].characters["rook"].grit == 1
    assert book.redo("gm")[0].characters["rook"].grit == 4


def test_party_at_a_seq_is_what_it_was_then(store):
    d.join(store, [d.character("Rook", grit=1)], "gm")
    d.change(store, PartyCharacterSet(id="rook", grit=4), "gm")
    assert PartyBook(store).state(at=2).characters["rook"].grit == 1
    with pytest.raises(Refusal, match="seq 9 is not in the party's log"):
        PartyBook(store).state(at=9)


def test_party_rest_ends_until_rest_conditions_and_full_restores_tracks(store):
    d.join(store, [d.character("Rook", tracks=[PartyTrack("hp", 3, 20)])], "gm")
    assert d.rest(store, False, "gm")[0].characters["rook"].tracks["hp"].value == 3
    assert d.rest(store, True, "gm")[0].characters["rook"].tracks["hp"].value == 20


@pytest.mark.parametrize("bad, message", [
    (d.character("Rook", tracks=[PartyTrack("hp", 30, 20)]), "over its maximum"),
    (d.character("Rook", grit=10**12), "Grit runs from"),
    (d.character("Rook", tracks=[PartyTrack("hp", 10**12)]), "track hp runs from"),
    (d.character("Ro\x1bok"), "control"),
])
def test_party_add_refuses_bad_values_and_appends_nothing(store, bad, message):
    from eventlog.errors import LedgerError
    with pytest.raises(LedgerError, match=message):
        d.join(store, [bad], "gm")
    assert PartyBook(store).state().characters == {}
