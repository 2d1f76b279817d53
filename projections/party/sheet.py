"""The party as a page reads it (`GET /api/party`), decided here for every
token: the GM of the whole campaign reads every character, the fights that
hold some, the open session and the carries a correction left waiting; a
player reads only the characters their token owns, between fights as in
them (their own tracks, Grit and lasting conditions); a view, or a GM token
reaching one encounter, reads nothing of it (the party is the campaign's)."""
from __future__ import annotations

from eventlog.stores.records import Token
from eventlog.language import _
from eventlog.text import neutral
from projections.access import Forbidden
from projections.ledger import Ledger
from projections.party.book import PartyBook
from projections.party.declare import running
from projections.party.fights import waiting
from projections.party.state import Character, Party
from projections.party.view import condition


def party_for(ledger: Ledger, token: Token) -> dict:
    """What `token` may read of the party now."""
    if token.role == "gm" and token.encounter is None:
        party = PartyBook(ledger.store).state(running=running(ledger.store))
        return {"seq": party.seq, "characters": [_sheet(party, ch) for ch in party.characters.values()],
                "session": party.session.title or party.session.id if party.session else None,
                "waiting": waiting(ledger, party)}
    if token.role == "player":
        party = PartyBook(ledger.store).state(running=running(ledger.store))
        return {"seq": party.seq, "characters": [_sheet(party, party.characters[cid])
                                                 for cid in token.owns if cid in party.characters]}
    if token.role == "gm":
        raise Forbidden(_("{name}'s token reaches encounter {reach} only: the party is the whole "
                          "campaign's").format(name=neutral(token.name), reach=token.encounter))
    raise Forbidden(_("{name}'s token is a view's: the party is the whole campaign's").format(
        name=neutral(token.name)))


def _sheet(party: Party, ch: Character) -> dict:
    return {"id": ch.id, "name": ch.name, "grit": ch.grit, "ap": ch.max_ap, "bonus": ch.bonus,
            "tracks": [{"track": t.track, "value": t.value, "max": t.max}
                       for t in ch.tracks.values()],
            "conditions": [condition(x) for x in ch.conditions],
            "portrait": ch.portrait, "fight": party.holder(ch.id)}
