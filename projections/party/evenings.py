"""Which fights an evening, or the whole campaign, holds: what `stats`,
`report`, `export` and `replay` read with `--session ID` or `--campaign`.

A session holds the fights started while it was open, in the order they
were started; the campaign is every session's, session by session. A fight
deleted since is left out (its log is gone); a selection left with no
fight at all is refused, as an unknown session is."""
from __future__ import annotations

from eventlog.errors import Refusal
from eventlog.language import _
from eventlog.stores.contract import EventStore
from eventlog.text import neutral
from projections.party.book import PartyBook


def chosen_fights(store: EventStore, session: str | None) -> list[tuple[str, str]]:
    """(session id, fight) of session `session`, or of every session (None)."""
    party = PartyBook(store).state()
    if not party.sessions:
        raise Refusal(_("there are no sessions yet: `combat session start [TITLE]` opens one "
                        "and the fights started then belong to it"))
    if session is None:
        picked = party.sessions
    else:
        picked = [x for x in party.sessions if x.id == session.strip().lower()]
        if not picked:
            raise Refusal(_("no session {session!r}: the sessions are {sessions} (`combat "
                            "session` lists them)").format(
                                session=neutral(session),
                                sessions=", ".join(x.id for x in party.sessions)))
    kept = {e.id for e in store.encounters()}
    last = {fight: x.id for x in picked for fight in x.fights}  # (an id started again: its latest)
    fights = [(x.id, fight) for x in picked for fight in dict.fromkeys(x.fights)
              if fight in kept and last[fight] == x.id]
    if not fights:
        if session is not None:
            raise Refusal(_("session {session} holds no fight of this store: start one with "
                            "`combat new ID --party` while a session is open").format(
                                session=picked[0].id))
        raise Refusal(_("the sessions holds no fight of this store: start one with `combat new "
                        "ID --party` while a session is open"))
    return fights
