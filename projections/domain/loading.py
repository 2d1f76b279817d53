"""A roster's entries joining an encounter: what `load` (and `new --roster`)
declares, checked entry by entry so a refusal names the entry. The file is
read and validated by projections/roster.py (pydantic); this is the part of
the core that decides, and imports no pydantic."""
from __future__ import annotations

import json
from typing import cast

from eventlog.errors import InvalidFile, Refusal
from eventlog.language import N_, _, whole
from eventlog.text import check_payload, neutral
from eventlog.events import (
    CombatantHidden, CombatantJoined, GritAdjusted, GroupBonusSet, Payload, Side, TrackChanged,
)

from projections.domain.commands import Load, RosterCombatant
from projections.domain.ids import unseen_id
from projections.domain.phrases import slugify
from projections.domain.ranges import check_numbers
from projections.domain.rules import SLUG
from projections.domain.state import State
from projections.domain.tracks import MAX_TRACKS, check_name

NOTHING_ADDED = N_("nothing of the roster was added")


_BAD_ID = N_("{entry}: key 'id': expected lowercase letters, digits and dashes, got {got}")
_USED = N_("{entry}: id {id} is already used by {by}")


def people(c: RosterCombatant) -> list[tuple[str, str]]:
    """(id, name) of each combatant an entry stands for, as `add --count` names them."""
    base = c.id if c.id is not None else unseen_id(slugify(c.name), c.hidden)
    if c.count == 1:
        return [(base, c.name)]
    return [(f"{base}-{i}", f"{c.name} {i}") for i in range(1, c.count + 1)]


def shown(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return _("a table") if isinstance(value, dict) else _("a list")
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def declarations(roster: Load, state: State) -> list[Payload]:
    """What loading `roster` into `state` declares; InvalidFile naming the entry
    when it clashes with itself or with the encounter."""
    name = roster.file

    def refuse(message: str):
        raise InvalidFile(_("{name}: {problem}; {nothing}").format(
            name=name, problem=message, nothing=_(NOTHING_ADDED)))

    def numbers(who: str, payload: Payload) -> Payload:
        try:
            check_numbers(payload)  # the judge's ranges, said of the entry
            check_payload(payload)  # no control character in a name (NUL, ESC)
        except Refusal as exc:
            refuse(_("{entry}: {problem}").format(entry=who, problem=exc))
        return payload

    taken: dict[str, str] = {}  # id -> the entry that uses it
    sides: dict[str, tuple[str, str]] = {}  # group -> (side, who set it)
    for gid, group in state.groups.items():
        if group.members:
            sides[gid] = (state.combatants[group.members[0]].side,
                          _("its members in encounter {encounter}").format(
                              encounter=state.encounter))
    joined: list[Payload] = []
    hidden: list[Payload] = []  # hidden before anything else is said of them
    tracked: list[Payload] = []
    for i, c in enumerate(roster.combatant):
        who = _("combatant {n} ({name})").format(n=i + 1, name=neutral(c.name))
        if c.id is not None and not SLUG.match(c.id):
            refuse(_(_BAD_ID).format(entry=who, got=shown(c.id)))
        if c.id is None and not slugify(c.name):
            refuse(_("{entry}: key 'name': no id can be made from it; give one with key 'id'")
                   .format(entry=who))
        for cid, person in people(c):
            if cid in state.combatants or cid in state.groups:
                refuse(_("{entry}: id {id} is already taken in encounter {encounter}").format(
                    entry=who, id=shown(cid), encounter=state.encounter))
            if cid in taken:
                refuse(_(_USED).format(entry=who, id=shown(cid), by=taken[cid]))
            taken[cid] = who
            joined.append(numbers(who, CombatantJoined(
                id=cid, name=person, side=cast(Side, c.side), bonus=c.bonus, max_ap=c.ap,
                grit=c.grit, group=c.group, portrait=c.portrait)))
            hidden += [CombatantHidden(combatant=cid)] if c.hidden else []
            tracked += [numbers(who, t) for t in _tracks(cid, c, who, refuse)]
        if c.group is not None:
            _check_group(c, who, state, sides, refuse)
    bonuses: list[Payload] = []
    seen: dict[str, str] = {}
    for i, g in enumerate(roster.group):
        who = _("group {n} ({name})").format(n=i + 1, name=neutral(g.id))
        if not SLUG.match(g.id):
            refuse(_(_BAD_ID).format(entry=who, got=shown(g.id)))
        if g.id in seen:
            refuse(_(_USED).format(entry=who, id=shown(g.id), by=seen[g.id]))
        seen[g.id] = who
        if g.id in taken or g.id in state.combatants:
            refuse(_("{entry}: id {id} is a combatant's id, not a group").format(
                entry=who, id=shown(g.id)))
        if g.id not in sides:
            refuse(_("{entry}: no combatant is in this group (give its members group = "
                     "\"{group}\")").format(entry=who, group=g.id))
        if g.bonus is not None:
            bonuses.append(numbers(who, GroupBonusSet(group=g.id, bonus=g.bonus)))
    for cid in taken:
        if cid in sides:
            refuse(_("{entry}: id {id} is also a group's id").format(entry=taken[cid],
                                                                     id=shown(cid)))
    return [*bonuses, *joined, *hidden, *tracked]


def _check_group(c: RosterCombatant, who: str, state: State,
                 sides: dict[str, tuple[str, str]], refuse) -> None:
    """An entry's `group`: an id, no combatant's, on the side its members are (R7)."""
    group = c.group or ""
    if not SLUG.match(group):
        refuse(_("{entry}: key 'group': expected lowercase letters, digits and dashes, "
                 "got {got}").format(entry=who, got=shown(group)))
    if group in state.combatants:
        refuse(_("{entry}: key 'group': {group} is a combatant in encounter {encounter}, "
                 "not a group").format(entry=who, group=shown(group), encounter=state.encounter))
    side, setter = sides.setdefault(group, (c.side, who))
    if side != c.side:
        refuse(_("{entry}: key 'group': group {group} is {side} ({setter}), this entry is "
                 "{own}: all members of a group are on one side (R7)").format(
                     entry=who, group=shown(group), side=side, setter=setter, own=c.side))


def _tracks(cid: str, c: RosterCombatant, who: str, refuse) -> list[TrackChanged]:
    """An entry's `tracks`: a number is the starting value and its maximum."""
    if len(c.tracks) > MAX_TRACKS:
        refuse(_("{entry}: key 'tracks': at most {most} tracks, not {n}").format(
            entry=who, most=MAX_TRACKS, n=whole(len(c.tracks))))
    out = []
    for name, t in c.tracks.items():
        try:
            check_name(name)
        except Refusal as exc:
            refuse(_("{entry}: key 'tracks': {problem}").format(entry=who, problem=exc))
        value, most, public = (t, t, False) if isinstance(t, int) else (t.value, t.max, t.public)
        if most is not None and isinstance(most, int) and value > most:
            refuse(_("{entry}: key 'tracks': {track} is {value}, above its maximum {most}").format(
                entry=who, track=name, value=value, most=most))
        out.append(TrackChanged(combatant=cid, track=name, value=value, max=most,
                                public=public or None))
    return out


def carried_grit(state: State, source: State, source_id: str | None, ids) -> list[Payload]:
    """GritAdjusted for each of `ids` in both encounters whose Grit differs."""
    out: list[Payload] = []
    for cid in ids:
        there, here = source.combatants.get(cid), state.combatants.get(cid)
        if there is not None and here is not None and there.grit != here.grit:
            out.append(GritAdjusted(combatant=cid, delta=there.grit - here.grit,
                                    reason=f"carried over from {source_id}"))
    return out


