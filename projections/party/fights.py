"""Fights from the party: `new ID --party [IDS]` brings the characters in as
they are now, and `end` carries back what the fight left them, as one
party declaration naming the fight and its seq (docs/rules.md, "The party")."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eventlog.errors import Refusal
from eventlog.language import _, n_
from eventlog.events import (
    CarriedCharacter, CombatantJoined, EffectApplied, FightStarted, PartyCarried,
    PartyCondition, PartyTrack, Payload, TrackChanged)
from projections.domain.phrases import slugify
from projections.party.book import PartyBook
from projections.party.declare import running
from projections.party.state import Party, judge

if TYPE_CHECKING:
    from projections.domain import commands as c
    from projections.domain.state import Effect, State

# (the ledger calls in here at `new --party` and `end`: it is passed in, never
# imported, so the party stays below the ledger)
Ledger = Any
Outcome = Any


def members(party: Party, word: str) -> list[str]:
    """The characters `--party` names: all (an empty word), or the ids listed
    (commas or spaces between them)."""
    ids = [w for w in word.replace(",", " ").split() if w]
    if not ids:
        if not party.characters:
            raise Refusal(_("the party is empty: add characters with `combat party add NAME`"))
        return list(party.characters)
    for cid in ids:
        party.character(cid)
    return list(dict.fromkeys(ids))


def joining(party: Party, ids: list[str]) -> list[Payload]:
    """The fight's declarations that bring characters `ids` in as they are:
    their lasting conditions as the fight's effects, each with its own id."""
    out: list[Payload] = []
    taken: set[str] = set()
    for cid in ids:
        ch = party.characters[cid]
        out.append(CombatantJoined(id=cid, name=ch.name, side="pc", bonus=ch.bonus,
                                   max_ap=ch.max_ap, grit=ch.grit, portrait=ch.portrait,
                                   party=True))
        out += [TrackChanged(combatant=cid, track=t.track, value=t.value, max=t.max,
                             reason="from the party") for t in ch.tracks.values()]
        for x in ch.conditions:
            base = slugify(x.name) or "condition"
            chosen, n = base, 1
            while chosen in taken:
                n += 1
                chosen = f"{base}-{n}"
            taken.add(chosen)
            out.append(EffectApplied(effect=chosen, combatant=cid, name=x.name, max_ap=0,
                                     until_ended=not x.until_rest and x.fights is None,
                                     until_rest=x.until_rest, fights=x.fights))
    return out


def _lasting(state: State, cid: str) -> dict[str, Effect]:
    """The conditions of `cid` in force in the fight that outlast it, by name."""
    return {e.name: e for e in state.effects.values()
            if e.combatant == cid and e.lasting and not e.ended}


def conditions(held: list[PartyCondition], was: dict[str, Effect], now: dict[str, Effect],
               first: bool) -> list[PartyCondition]:
    """A character's lasting conditions after a carry: those the fight ended
    since `was` (its start, or its last carry) are gone; those it gave since
    (all it holds, at its first carry) are taken in, a fight counted down,
    gone at 0; the party's others stay as they are."""
    out = {x.name: x for x in held}
    for name in was.keys() - now.keys():
        out.pop(name, None)
    for name, e in now.items():
        if first or name not in was:
            left = None if e.fights is None else e.fights - 1
            if left == 0:
                out.pop(name, None)
            else:
                out[name] = PartyCondition(name, until_rest=e.until_rest, fights=left)
    return list(out.values())


def start(ledger: Ledger, command: c.New, actor: str) -> Outcome:
    """`new ID --party [IDS]`: refused whole (nothing created) when a
    character is unknown or already in a running fight."""
    from msgspec.structs import replace
    book = PartyBook(ledger.store)
    party = book.state(running=running(ledger.store))
    ids = members(party, command.party or "")
    judge(party, FightStarted(encounter=command.id, seq=0, characters=ids))
    if command.roster is not None:
        taken = {j.id for j in getattr(command.roster, "entries", ())} & set(ids)
        if taken:
            raise Refusal(n_("{ids} is both in the roster and the party",
                             "{ids} is both in the roster and the party", len(taken)).format(
                                 ids=", ".join(sorted(taken))))
    out = ledger.execute(None, replace(command, party=None), actor)
    state, envs = ledger.declare(command.id, lambda s: joining(party, ids), actor)
    book.declare(lambda p: [FightStarted(encounter=command.id, seq=state.seq, characters=ids)],
                 actor, running(ledger.store))
    return out._replace(state=state, events=[*out.events, *envs])


def carrying(ledger: Ledger, encounter: str, party: Party,
             reason: str = "") -> PartyCarried | None:
    """What fight `encounter` left its party characters that the party does
    not hold yet: the change since it started (or since its last carry),
    applied to the party as it stands. None: nothing to carry."""
    started = party.started.get(encounter)
    if started is None:
        from eventlog.names import shown
        raise Refusal(_("{encounter} was not started from the party (`new ID --party`)")
                      .format(encounter=shown(encounter[:64])))
    now = ledger.state(encounter)
    since = ledger.state(encounter, party.carried.get(encounter, started.seq))
    left, missing = [], []
    for cid in started.characters:
        if cid not in now.combatants:
            continue
        ch = party.characters.get(cid)
        if ch is None:
            missing.append(cid)
            continue
        grit = max(0, ch.grit + now.combatants[cid].grit - since.combatants[cid].grit)
        tracks = []
        was = since.tracks.get(cid, {})
        for name, t in now.tracks.get(cid, {}).items():
            before = was[name].value if name in was else 0
            held = ch.tracks[name].value if name in ch.tracks else 0
            value = max(0, held + t.value - before)
            value = min(value, t.max) if t.max is not None else value
            if name not in ch.tracks or ch.tracks[name] != PartyTrack(name, value, t.max):
                tracks.append(PartyTrack(name, value, t.max))
        kept = conditions(ch.conditions, _lasting(since, cid), _lasting(now, cid),
                          encounter not in party.carried)
        if grit != ch.grit or tracks or kept != ch.conditions:
            left.append(CarriedCharacter(id=cid, grit=grit, tracks=tracks, conditions=kept))
    if not left and not missing and encounter in party.carried:
        return None
    return PartyCarried(encounter=encounter, seq=now.seq, characters=left, missing=missing,
                        reason=reason)


def carry(ledger: Ledger, encounter: str, actor: str,
          reason: str = "") -> PartyCarried | None:
    """Carry what fight `encounter` left into the party (`end`, `party
    carry ID [--reason R]`); None when there was nothing to carry."""
    return carried(ledger, encounter, actor, reason)[0]


def carried(ledger: Ledger, encounter: str, actor: str,
            reason: str = "") -> tuple[PartyCarried | None, list]:
    """`carry`, and the party's events it appended."""
    book = PartyBook(ledger.store)
    said: list[PartyCarried] = []

    def decide(party: Party) -> list[Payload]:
        said[:] = [x for x in [carrying(ledger, encounter, party, reason)] if x is not None]
        return list(said)
    _party, envs = book.declare(decide, actor, running(ledger.store))
    return (said[0] if said else None), envs


def from_party(ledger: Ledger, encounter: str) -> bool:
    """Whether `encounter` was started from the party."""
    return encounter in PartyBook(ledger.store).state().started


def ended(ledger: Ledger, encounter: str, command: c.End, actor: str) -> list[str] | None:
    """After `end`: the fight's carry into the party, in words (None: the
    fight was not started from the party). `--no-carry` releases the
    characters and carries nothing."""
    from eventlog.events import FightReleased
    from projections.party.view import carry_lines
    book = PartyBook(ledger.store)
    before = book.state()
    if encounter not in before.started:
        return None
    if command.no_carry:
        book.declare(lambda p: [FightReleased(encounter=encounter, reason="end --no-carry")],
                     actor)
        return [_("the party is left as it was (--no-carry): `combat party carry {encounter}` "
                  "carries it later").format(encounter=encounter)]
    return carry_lines(carry(ledger, encounter, actor), book.head(), before)


def waiting(ledger: Ledger, party: Party) -> list[str]:
    """The fights from the party that have ended and left something the
    party does not hold yet (`end --no-carry`, or a correction since the
    carry): each one line offering `party carry`."""
    from eventlog.errors import UnknownEncounter
    out = []
    for fight in party.started:
        if fight in party.fights:
            continue
        try:
            if not ledger.state(fight).ended:
                continue
            due = carrying(ledger, fight, party)
        except UnknownEncounter:
            continue
        if due is not None and (due.characters or fight not in party.carried):
            out.append(_("what {fight} left is not in the party yet: `combat party carry "
                         "{fight}` carries it").format(fight=fight))
    return out


def offered(ledger: Ledger, encounter: str) -> list[str] | None:
    """After a correction to fight `encounter` once it has ended: what the
    party would now differ by, character by character, and the command
    that carries it (None: a fight not from the party, or nothing to carry)."""
    from projections.party.view import difference_lines
    party = PartyBook(ledger.store).state(running=running(ledger.store))
    if encounter not in party.started or encounter in party.fights:
        return None
    due = carrying(ledger, encounter, party)
    if due is None or (not due.characters and encounter in party.carried):
        return None
    return [_("the party would now differ by what {encounter} left (as of seq {seq}):").format(
                encounter=encounter, seq=due.seq),
            *difference_lines(party, due),
            _("`combat party carry {encounter}` carries it into the party").format(
                encounter=encounter)]
