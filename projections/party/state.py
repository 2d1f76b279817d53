"""The party folded: its characters as they stand between fights, the fights
that hold some of them, and the sessions (docs/rules.md, "The party").

`evolve` applies one party declaration; `judge` accepts it or raises a
Refusal, before anything is appended (as the encounter's judge does)."""
from __future__ import annotations

from dataclasses import dataclass, field

from msgspec.structs import replace

from eventlog.errors import Refusal
from eventlog.language import _, n_, whole
from eventlog.events import (
    EncounterCreated, FightReleased, FightStarted, Payload, PartyCarried, PartyCharacterAdded,
    PartyCharacterRemoved, PartyCharacterSet, PartyCondition, PartyRested, PartyTrack,
    SessionEnded, SessionStarted)
from eventlog.text import check_payload
from projections.domain.names import close_to
from projections.domain.slugs import alternatives
from projections.domain.ranges import MAX_NUMBER, check_numbers
from projections.domain.rules import check_slug


@dataclass
class Character:
    id: str
    name: str
    bonus: int = 0
    max_ap: int = 3
    grit: int = 0
    tracks: dict[str, PartyTrack] = field(default_factory=dict)
    conditions: list[PartyCondition] = field(default_factory=list)
    portrait: str | None = None

    def as_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "bonus": self.bonus, "ap": self.max_ap,
                "grit": self.grit,
                "tracks": [{"track": t.track, "value": t.value, "max": t.max}
                           for t in self.tracks.values()],
                "conditions": [{"name": x.name, "until_rest": x.until_rest, "fights": x.fights}
                               for x in self.conditions],
                "portrait": self.portrait}


@dataclass
class Session:
    id: str
    title: str
    started: int  # the party's seq that opened it
    ended: int | None = None
    fights: list[str] = field(default_factory=list)


@dataclass
class Party:
    seq: int = 0
    characters: dict[str, Character] = field(default_factory=dict)
    removed: dict[str, Character] = field(default_factory=dict)
    fights: dict[str, list[str]] = field(default_factory=dict)  # running fight -> its characters
    started: dict[str, FightStarted] = field(default_factory=dict)  # every fight from the party
    carried: dict[str, int] = field(default_factory=dict)  # fight -> its seq last carried
    sessions: list[Session] = field(default_factory=list)

    @property
    def session(self) -> Session | None:
        """The session open now, if any."""
        last = self.sessions[-1] if self.sessions else None
        return last if last is not None and last.ended is None else None

    def holder(self, cid: str) -> str | None:
        """The running fight holding character `cid`, if any."""
        return next((f for f, ids in self.fights.items() if cid in ids), None)

    def character(self, cid: str) -> Character:
        found = self.characters.get(cid)
        if found is None:
            close = close_to(cid, list(self.characters))
            if cid in self.removed:
                raise Refusal(_("no character {id!r} in the party (removed from the party)")
                              .format(id=cid))
            if close:
                raise Refusal(_("no character {id!r} in the party: did you mean {close}?")
                              .format(id=cid, close=alternatives(close)))
            raise Refusal(_("no character {id!r} in the party").format(id=cid))
        return found


def evolve(p: Party, e: Payload) -> None:
    """Apply the declaration `e` (judged already) to `p`, in place."""
    if isinstance(e, PartyCharacterAdded):
        p.removed.pop(e.id, None)
        p.characters[e.id] = Character(e.id, e.name, e.bonus, e.max_ap, e.grit,
                                       {t.track: t for t in e.tracks}, list(e.conditions),
                                       e.portrait)
    elif isinstance(e, PartyCharacterSet):
        ch = p.characters[e.id]
        ch.bonus = ch.bonus if e.bonus is None else e.bonus
        ch.max_ap = ch.max_ap if e.max_ap is None else e.max_ap
        ch.grit = ch.grit if e.grit is None else e.grit
        ch.portrait = ch.portrait if e.portrait is None else e.portrait
        for t in e.tracks:
            old = ch.tracks.get(t.track)
            ch.tracks[t.track] = t if t.max is not None or old is None else replace(t, max=old.max)
    elif isinstance(e, PartyCharacterRemoved):
        p.removed[e.id] = p.characters.pop(e.id)
    elif isinstance(e, PartyRested):
        for ch in p.characters.values():
            ch.conditions = [x for x in ch.conditions if not x.until_rest]
            if e.full:
                ch.tracks = {n: t if t.max is None else replace(t, value=t.max)
                             for n, t in ch.tracks.items()}
    elif isinstance(e, PartyCarried):
        for left in e.characters:
            ch = p.characters[left.id]
            ch.grit = left.grit
            ch.tracks = {**ch.tracks, **{t.track: t for t in left.tracks}}
            ch.conditions = list(left.conditions)
        p.carried[e.encounter] = e.seq
        p.fights.pop(e.encounter, None)
    elif isinstance(e, FightStarted):
        p.fights[e.encounter] = list(e.characters)
        p.started[e.encounter] = e
        if p.session is not None:
            p.session.fights.append(e.encounter)
    elif isinstance(e, FightReleased):
        p.fights.pop(e.encounter, None)
    elif isinstance(e, SessionStarted):
        p.sessions.append(Session(e.session, e.title, p.seq))
    elif isinstance(e, SessionEnded):
        open_ = p.session
        if open_ is not None:
            open_.ended = p.seq


def judge(p: Party, e: Payload) -> None:
    """Accept `e` as the party's next declaration, or raise Refusal."""
    check_payload(e)
    check_numbers(e)
    if isinstance(e, EncounterCreated):
        return
    if isinstance(e, PartyCharacterAdded):
        check_slug(e.id, "character id")
        if not e.name.strip():
            raise Refusal(_("a character needs a name"))
        if e.id in p.characters:
            raise Refusal(_("the id {id!r} is already in the party; choose another with --id")
                          .format(id=e.id))
        _tracks(e.tracks)
    elif isinstance(e, (PartyCharacterSet, PartyCharacterRemoved)):
        p.character(e.id)
        _free(p, e.id)
        if isinstance(e, PartyCharacterSet):
            _tracks(e.tracks)
    elif isinstance(e, PartyRested):
        held = sorted({cid for ids in p.fights.values() for cid in ids})
        if held:
            raise Refusal(n_("{ids} is in a running fight ({fights}): the party rests once it "
                             "ends", "{ids} are in a running fight ({fights}): the party rests "
                             "once it ends", len(held)).format(
                                 ids=", ".join(held), fights=", ".join(sorted(p.fights))))
    elif isinstance(e, FightStarted):
        for cid in e.characters:
            p.character(cid)
            _free(p, cid)
    elif isinstance(e, SessionStarted):
        if p.session is not None:
            raise Refusal(_("session {session} is open: end it with `combat session end` first")
                          .format(session=p.session.id))
    elif isinstance(e, SessionEnded) and p.session is None:
        raise Refusal(_("no session is open: start one with `combat session start`"))


def _free(p: Party, cid: str) -> None:
    fight = p.holder(cid)
    if fight is not None:
        raise Refusal(_("{id} is in fight {fight}, which has not ended: change {id} there, or "
                        "end it first").format(id=cid, fight=fight))


def _tracks(tracks: list[PartyTrack]) -> None:
    names = [t.track for t in tracks]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise Refusal(_("track {track} is given twice").format(track=twice[0]))
    for t in tracks:
        check_slug(t.track, "track name")
        for v in (t.value, t.max):
            if v is not None and not 0 <= v <= MAX_NUMBER:
                raise Refusal(_("track {track} runs from 0 to {most}, not {value}").format(
                    track=t.track, most=whole(MAX_NUMBER), value=whole(v)))
        if t.max is not None and t.value > t.max:
            raise Refusal(_("track {track} of {value} is over its maximum of {most}").format(
                track=t.track, value=t.value, most=t.max))
