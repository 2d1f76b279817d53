"""A roster's entries joining an encounter: what `load` (and `new --roster`)
declares, checked entry by entry so a refusal names the entry. The file is
read and validated by projections/roster.py (pydantic); this is the part of
the core that decides, and imports no pydantic."""
from __future__ import annotations

import json
from typing import cast

from eventlog.errors import InvalidFile, Refusal
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

NOTHING_ADDED = "nothing of the roster was added"


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
        return "a table" if isinstance(value, dict) else "a list"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def declarations(roster: Load, state: State) -> list[Payload]:
    """What loading `roster` into `state` declares; InvalidFile naming the entry
    when it clashes with itself or with the encounter."""
    name = roster.file

    def refuse(message: str):
        raise InvalidFile(f"{name}: {message}; {NOTHING_ADDED}")

    def numbers(who: str, payload: Payload) -> Payload:
        try:
            check_numbers(payload)  # the judge's ranges, said of the entry
            check_payload(payload)  # no control character in a name (NUL, ESC)
        except Refusal as exc:
            refuse(f"{who}: {exc}")
        return payload

    def label(kind: str, i: int, entry) -> str:
        shown = entry.name if kind == "combatant" else entry.id
        return f"{kind} {i + 1} ({neutral(shown)})"

    taken: dict[str, str] = {}  # id -> the entry that uses it
    sides: dict[str, tuple[str, str]] = {}  # group -> (side, who set it)
    for gid, group in state.groups.items():
        if group.members:
            sides[gid] = (state.combatants[group.members[0]].side,
                          f"its members in encounter {state.encounter}")
    joined: list[Payload] = []
    hidden: list[Payload] = []  # hidden before anything else is said of them
    tracked: list[Payload] = []
    for i, c in enumerate(roster.combatant):
        who = label("combatant", i, c)
        if c.id is not None and not SLUG.match(c.id):
            refuse(f"{who}: key 'id': expected lowercase letters, digits and dashes, "
                   f"got {shown(c.id)}")
        if c.id is None and not slugify(c.name):
            refuse(f"{who}: key 'name': no id can be made from it; give one with key 'id'")
        for cid, person in people(c):
            if cid in state.combatants or cid in state.groups:
                refuse(f"{who}: id {shown(cid)} is already taken in encounter {state.encounter}")
            if cid in taken:
                refuse(f"{who}: id {shown(cid)} is already used by {taken[cid]}")
            taken[cid] = who
            joined.append(numbers(who, CombatantJoined(
                id=cid, name=person, side=cast(Side, c.side), bonus=c.bonus, max_ap=c.ap,
                grit=c.grit, group=c.group, portrait=c.portrait)))
            hidden += [CombatantHidden(combatant=cid)] if c.hidden else []
            tracked += [numbers(who, t) for t in _tracks(cid, c, who, refuse)]
        if c.group is not None:
            if not SLUG.match(c.group):
                refuse(f"{who}: key 'group': expected lowercase letters, digits and "
                       f"dashes, got {shown(c.group)}")
            if c.group in state.combatants:
                refuse(f"{who}: key 'group': {shown(c.group)} is a combatant in "
                       f"encounter {state.encounter}, not a group")
            side, setter = sides.setdefault(c.group, (c.side, who))
            if side != c.side:
                refuse(f"{who}: key 'group': group {shown(c.group)} is {side} "
                       f"({setter}), this entry is {c.side}: all members of a "
                       "group are on one side (R7)")
    bonuses: list[Payload] = []
    seen: dict[str, str] = {}
    for i, g in enumerate(roster.group):
        who = label("group", i, g)
        if not SLUG.match(g.id):
            refuse(f"{who}: key 'id': expected lowercase letters, digits and dashes, "
                   f"got {shown(g.id)}")
        if g.id in seen:
            refuse(f"{who}: id {shown(g.id)} is already used by {seen[g.id]}")
        seen[g.id] = who
        if g.id in taken or g.id in state.combatants:
            refuse(f"{who}: id {shown(g.id)} is a combatant's id, not a group")
        if g.id not in sides:
            refuse(f"{who}: no combatant is in this group (give its members "
                   f"group = \"{g.id}\")")
        if g.bonus is not None:
            bonuses.append(numbers(who, GroupBonusSet(group=g.id, bonus=g.bonus)))
    for cid in taken:
        if cid in sides:
            refuse(f"{taken[cid]}: id {shown(cid)} is also a group's id")
    return [*bonuses, *joined, *hidden, *tracked]


def _tracks(cid: str, c: RosterCombatant, who: str, refuse) -> list[TrackChanged]:
    """An entry's `tracks`: a number is the starting value and its maximum."""
    if len(c.tracks) > MAX_TRACKS:
        refuse(f"{who}: key 'tracks': at most {MAX_TRACKS} tracks, not {len(c.tracks):,}")
    out = []
    for name, t in c.tracks.items():
        try:
            check_name(name)
        except Refusal as exc:
            refuse(f"{who}: key 'tracks': {exc}")
        value, most, public = (t, t, False) if isinstance(t, int) else (t.value, t.max, t.public)
        if most is not None and isinstance(most, int) and value > most:
            refuse(f"{who}: key 'tracks': {name} is {value}, above its maximum {most}")
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


