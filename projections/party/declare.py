"""The party's declarations between fights (`party add|set|remove|rest`,
`session start|end`): each decided against the party as it stands, judged,
and appended as one batch."""
from __future__ import annotations

from collections.abc import Callable, Iterable

from eventlog.codec import Envelope
from eventlog.errors import UnknownEncounter
from eventlog.language import _
from eventlog.events import (
    PartyCharacterAdded, PartyCharacterRemoved, PartyCharacterSet, PartyRested, PartyTrack,
    SessionEnded, SessionStarted)
from eventlog.stores.contract import EventStore
from projections.domain.phrases import slugify
from projections.party.book import PartyBook
from projections.party.state import Party


def running(store: EventStore) -> Callable[[str], frozenset[str]]:
    """The party's characters a fight holds now: those it brought in from the
    party while it runs (none once it has ended or been deleted, or if
    another fight took its id since)."""
    from projections.domain.state import State
    from projections.history import corrections, fold

    def holds(fight: str) -> frozenset[str]:
        try:
            with store.reading():
                state = fold(store, fight, corrections(store, fight), State(fight))
        except UnknownEncounter:
            return frozenset()
        return frozenset() if state.ended else frozenset(state.party)
    return holds


def character(name: str, id: str | None = None, bonus: int = 0, ap: int = 3, grit: int = 0,
              tracks: Iterable[PartyTrack] = (), portrait: str | None = None,
              reason: str = "") -> PartyCharacterAdded:
    """A character to add: its id from `id`, else made from its name."""
    return PartyCharacterAdded(id=id if id is not None else (slugify(name) or name),
                               name=name.strip(), bonus=bonus, max_ap=ap, grit=grit,
                               tracks=list(tracks), portrait=portrait, reason=reason)


def join(store: EventStore, characters: list[PartyCharacterAdded],
         actor: str) -> tuple[Party, list[Envelope]]:
    """`party add` and `party import`: the characters join the party, all in
    one batch, or (a Refusal naming the first problem) none of them."""
    _check_ids(characters)
    return PartyBook(store).declare(lambda party: list(characters), actor, running(store))


def _check_ids(characters: list[PartyCharacterAdded]) -> None:
    from eventlog.errors import Refusal
    ids = [x.id for x in characters]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise Refusal(_("the id {id!r} is given to two characters; give one another with --id")
                      .format(id=twice[0]))
    if not characters:
        raise Refusal(_("no characters to add"))


def change(store: EventStore, change: PartyCharacterSet,
           actor: str) -> tuple[Party, list[Envelope]]:
    """`party set ID ...`: a change between fights."""
    return PartyBook(store).declare(lambda party: [change], actor, running(store))


def remove(store: EventStore, cid: str, actor: str,
           reason: str = "") -> tuple[Party, list[Envelope]]:
    return PartyBook(store).declare(
        lambda party: [PartyCharacterRemoved(id=cid, reason=reason)], actor, running(store))


def rest(store: EventStore, full: bool, actor: str,
         reason: str = "") -> tuple[Party, list[Envelope]]:
    return PartyBook(store).declare(
        lambda party: [PartyRested(full=full, reason=reason)], actor, running(store))


def session_start(store: EventStore, title: str, actor: str) -> tuple[Party, list[Envelope]]:
    """`session start [TITLE]`: an evening; its id is its number (s1, s2...)."""
    return PartyBook(store).declare(
        lambda party: [SessionStarted(session=f"s{len(party.sessions) + 1}", title=title)],
        actor, running(store))


def session_end(store: EventStore, actor: str) -> tuple[Party, list[Envelope]]:
    def decide(party: Party) -> list:
        return [SessionEnded(session=party.session.id if party.session else "")]
    return PartyBook(store).declare(decide, actor, running(store))


def track_of(word: str) -> PartyTrack:
    """`--track NAME=VALUE[/MAX]` (hp=12/20, stun=0)."""
    from eventlog.errors import Refusal
    from eventlog.names import shown
    name, eq, rest = word.partition("=")
    value, slash, most = rest.partition("/")
    if not eq or not _number(value) or (slash and not _number(most)):
        raise Refusal(_("--track {word!r} is not NAME=VALUE or NAME=VALUE/MAX (e.g. hp=12/20)")
                      .format(word=shown(word[:80])))
    return PartyTrack(track=name.strip(), value=int(value), max=int(most) if slash else None)


def _number(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 12


def changing(cid: str, bonus: int | None = None, ap: int | None = None,
             grit: int | None = None, tracks: Iterable[str] = (),
             reason: str = "") -> PartyCharacterSet:
    """`party set ID ...`: at least one thing to change."""
    from eventlog.errors import Refusal
    tracked = [track_of(t) for t in tracks]
    if bonus is None and ap is None and grit is None and not tracked:
        raise Refusal(_("party set changes something: give --bonus, --ap, --grit or --track"))
    return PartyCharacterSet(id=cid, bonus=bonus, max_ap=ap, grit=grit, tracks=tracked,
                             reason=reason)


def imported(store: EventStore, sheets, actor: str) -> tuple[Party, list[Envelope]]:
    """`party import FILE`: the characters of a file's sheets (read and
    checked by projections/inputs/sheetfiles.py, before any store is opened)
    join the party in one batch, their portraits kept first (content-
    addressed: one kept for a batch the party then refuses is reached by
    nothing); a character the party refuses adds no one."""
    from msgspec.structs import replace

    from projections.portraits import keep
    faceless = [character(s.name, s.id, s.bonus, s.ap, s.grit,
                          [PartyTrack(track=name, value=value, max=most)
                           for name, (value, most) in s.tracks.items()])
                for s in sheets]
    _check_ids(faceless)
    PartyBook(store).check(list(faceless), running(store))  # (no portrait kept for a refusal)
    faces = keep(store, sheets)
    return join(store, [replace(c, portrait=face) for c, face in zip(faceless, faces)], actor)
