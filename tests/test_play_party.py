"""The party and the sessions from play mode's prompt: the same words as the
shell's, read by the shared grammar and declared through the one entry point
(docs/rules.md, "The party")."""
from __future__ import annotations

from test_play import events, lines, table  # noqa: F401 (a fixture)

from eventlog.stores.sqlite import Store
from projections.party.book import PartyBook


def party_of(db):
    store = Store(db)
    try:
        return PartyBook(store).state()
    finally:
        store.close()


def test_play_mode_declares_the_party_and_sessions(table):
    played = table(lines('party add Rook --track hp=20/20', 'session start "Night two"',
                         "new alley --party", "track rook hp -4",
                         "effect rook poisoned --until-rest", "end", "party", "party rest",
                         "session end", "session", "party", "quit"))
    assert played.err == ""
    party = party_of(table.db)
    assert party.characters["rook"].tracks["hp"].value == 16
    assert party.characters["rook"].conditions == []
    assert [s.title for s in party.sessions] == ["Night two"]
    assert "[poisoned (until rest)]" in played.out
    assert "Night two" in played.out
