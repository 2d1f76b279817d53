"""Roster files (INTERFACE.md): the combatants and groups a GM prepares before
the game, in TOML, YAML or JSON, validated with pydantic.

A roster becomes one declaration, judged like any other and undone by one
`undo`: a GroupBonusSet for each [[group]] with a bonus, then a
CombatantJoined for each combatant (`count = K`: K of them). Nothing of a
roster is declared unless every entry is right.

Only `load` and `new --roster` import this module: pydantic stays off the
hot path (STYLE.md).
"""
from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from eventlog.errors import InvalidFile, Refusal, UnknownEncounter
from eventlog.files import read_bounded
from eventlog.text import check_payload, neutral
from eventlog.events import CombatantJoined, EncounterCreated, GritAdjusted, GroupBonusSet, Payload

from .ledger import Ledger, apply
from .phrases import slugify
from .ranges import check_numbers
from .rules import SLUG
from .state import State
from .strict import load_json, load_yaml, reworded

MAX_ROSTER_BYTES = 1 << 20
FORMATS = {".toml": "TOML", ".yaml": "YAML", ".yml": "YAML", ".json": "JSON"}
NOTHING_ADDED = "nothing of the roster was added"
MAX_COUNT = 100  # `count = 1000000` is a typo, not a squad


class Entry(BaseModel):
    # strict: "3" is not a number and true is not 1; a misspelt key is refused.
    model_config = ConfigDict(extra="forbid", strict=True)


class CombatantEntry(Entry):
    name: str = Field(min_length=1)
    id: str | None = None
    side: Literal["pc", "npc"] = "npc"
    bonus: int = 0
    ap: int = Field(3, ge=0)
    grit: int = Field(0, ge=0)
    group: str | None = None
    count: int = Field(1, ge=1, le=MAX_COUNT)

    def people(self) -> list[tuple[str, str]]:
        """(id, name) of each combatant it stands for, as `add --count` names them."""
        base = self.id if self.id is not None else slugify(self.name)
        if self.count == 1:
            return [(base, self.name)]
        return [(f"{base}-{i}", f"{self.name} {i}") for i in range(1, self.count + 1)]


class GroupEntry(Entry):
    id: str
    bonus: int | None = None


class Roster(Entry):
    combatant: list[CombatantEntry] = []
    group: list[GroupEntry] = []


# -- reading -------------------------------------------------------------

def read(path: Path) -> Roster:
    """The roster in `path`, or InvalidFile with one line naming what is wrong."""
    name = path.name
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise InvalidFile(f"{name}: a roster is .toml, .yaml, .yml or .json, not "
                          f"{path.suffix or 'a file without an extension'}")
    raw = read_bounded(path, MAX_ROSTER_BYTES, "the most a roster may hold", name)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = "\0"
    if "\0" in text:
        raise InvalidFile(f"{name} is not a text file: a roster is written in {kind}")
    data = _parse(text, kind, name)
    if data is None or data == {}:
        raise InvalidFile(f"{name} is empty: a roster needs at least one combatant entry")
    if not isinstance(data, dict):
        raise InvalidFile(f"{name}: expected combatant and group entries at the top, "
                          f"not {_shown(data)}; {NOTHING_ADDED}")
    try:
        roster = Roster.model_validate(data)
    except ValidationError as exc:
        problems = [_problem(err, data) for err in exc.errors()]
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise InvalidFile(f"{name}: {'; '.join(problems[:3])}{more}; {NOTHING_ADDED}") from None
    if not roster.combatant:
        raise InvalidFile(f"{name} holds no combatant entry: a roster needs at least one")
    return roster


def _parse(text: str, kind: str, name: str):
    try:
        if kind == "TOML":
            return tomllib.loads(text)
        if kind == "JSON":
            return load_json(text)
        import yaml
        try:
            return load_yaml(text)
        except yaml.MarkedYAMLError as exc:
            where = f" at line {exc.problem_mark.line + 1}" if exc.problem_mark else ""
            raise ValueError(f"{exc.problem or exc.context or 'unreadable'}{where}") from None
        except yaml.YAMLError as exc:
            raise ValueError(str(exc)) from None
    except (ValueError, RecursionError) as exc:  # TOMLDecodeError, JSONDecodeError
        detail = reworded(exc) if isinstance(exc, ValueError) else type(exc).__name__
        raise InvalidFile(f"{name} is not valid {kind}: {detail}; {NOTHING_ADDED}") from None


# -- pydantic's errors in the table's language ---------------------------

KEYS = {"combatant": list(CombatantEntry.model_fields), "group": list(GroupEntry.model_fields)}
EXPECTED = {
    "int_type": "a whole number", "string_type": "text in quotes",
    "list_type": "a list of entries", "model_type": "a table of keys",
    "dict_type": "a table of keys", "model_attributes_type": "a table of keys",
}


def _problem(err: dict, data: dict) -> str:
    loc, kind, ctx = err["loc"], err["type"], err.get("ctx") or {}
    if len(loc) >= 2 and loc[0] in KEYS and isinstance(loc[1], int):
        where = entry_label(loc[0], loc[1], data)
        key = loc[2] if len(loc) > 2 else None
    else:
        where = "at the top"
        key = loc[0] if loc else None
    if kind == "extra_forbidden":
        keys = KEYS.get(loc[0]) if where != "at the top" else list(KEYS)
        return f"{where}: unknown key {_key(key)} (expected one of: {', '.join(keys)})"
    if kind == "missing":
        return f"{where}: key {_key(key)} is missing (required)"
    if kind == "literal_error":
        expected = ctx.get("expected", "").replace("'", '"')
    elif kind == "greater_than_equal":
        expected = f"a number of {ctx.get('ge')} or more"
    elif kind == "less_than_equal":
        expected = f"a number of {ctx.get('le')} or less"
    elif kind == "string_too_short":
        expected = "a non-empty text"
    else:
        expected = EXPECTED.get(kind, err["msg"].lower())
    subject = f"key {_key(key)}" if key is not None else "the entry"
    return f"{where}: {subject}: expected {expected}, got {_shown(err.get('input'))}"


def entry_label(kind: str, index: int, data: dict) -> str:
    """`combatant 2 (Vex)`: the entry as a person finds it in the file."""
    try:
        entry = data[kind][index]
    except (KeyError, IndexError, TypeError):
        entry = None
    label = entry.get("name" if kind == "combatant" else "id") if isinstance(entry, dict) else None
    return f"{kind} {index + 1}" + (f" ({label})" if isinstance(label, str) and label else "")


def _key(key) -> str:
    return f"'{key}'" if isinstance(key, str) else repr(key)


def _shown(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return "a table" if isinstance(value, dict) else "a list"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


# -- the declaration -----------------------------------------------------

def declarations(roster: Roster, state: State, name: str) -> list[Payload]:
    """What loading `roster` into `state` declares; InvalidFile naming the entry
    when it clashes with itself or with the encounter."""
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
    joined = []
    for i, c in enumerate(roster.combatant):
        who = label("combatant", i, c)
        if c.id is not None and not SLUG.match(c.id):
            refuse(f"{who}: key 'id': expected lowercase letters, digits and dashes, "
                   f"got {_shown(c.id)}")
        if c.id is None and not slugify(c.name):
            refuse(f"{who}: key 'name': no id can be made from it; give one with key 'id'")
        for cid, person in c.people():
            if cid in state.combatants or cid in state.groups:
                refuse(f"{who}: id {_shown(cid)} is already taken in encounter {state.encounter}")
            if cid in taken:
                refuse(f"{who}: id {_shown(cid)} is already used by {taken[cid]}")
            taken[cid] = who
            joined.append(numbers(who, CombatantJoined(
                id=cid, name=person, side=c.side, bonus=c.bonus, max_ap=c.ap,
                grit=c.grit, group=c.group)))
        if c.group is not None:
            if not SLUG.match(c.group):
                refuse(f"{who}: key 'group': expected lowercase letters, digits and "
                       f"dashes, got {_shown(c.group)}")
            if c.group in state.combatants:
                refuse(f"{who}: key 'group': {_shown(c.group)} is a combatant in "
                       f"encounter {state.encounter}, not a group")
            side, setter = sides.setdefault(c.group, (c.side, who))
            if side != c.side:
                refuse(f"{who}: key 'group': group {_shown(c.group)} is {side} "
                       f"({setter}), this entry is {c.side}: all members of a "
                       "group are on one side (R7)")
    bonuses, seen = [], {}
    for i, g in enumerate(roster.group):
        who = label("group", i, g)
        if not SLUG.match(g.id):
            refuse(f"{who}: key 'id': expected lowercase letters, digits and dashes, "
                   f"got {_shown(g.id)}")
        if g.id in seen:
            refuse(f"{who}: id {_shown(g.id)} is already used by {seen[g.id]}")
        seen[g.id] = who
        if g.id in taken or g.id in state.combatants:
            refuse(f"{who}: id {_shown(g.id)} is a combatant's id, not a group")
        if g.id not in sides:
            refuse(f"{who}: no combatant is in this group (give its members "
                   f"group = \"{g.id}\")")
        if g.bonus is not None:
            bonuses.append(numbers(who, GroupBonusSet(group=g.id, bonus=g.bonus)))
    for cid in taken:
        if cid in sides:
            refuse(f"{taken[cid]}: id {_shown(cid)} is also a group's id")
    return [*bonuses, *joined]


def carried_grit(state: State, source: State, source_id: str, ids) -> list[Payload]:
    """GritAdjusted for each of `ids` in both encounters whose Grit differs."""
    out = []
    for cid in ids:
        there, here = source.combatants.get(cid), state.combatants.get(cid)
        if there is not None and here is not None and there.grit != here.grit:
            out.append(GritAdjusted(combatant=cid, delta=there.grit - here.grit,
                                    reason=f"carried over from {source_id}"))
    return out


def start(ledger: Ledger, encounter: str, title: str, path: Path, actor: str,
          carry_from: str | None = None):
    """A new encounter with the roster in (two declarations) and, if asked,
    the Grit of its combatants carried over from `carry_from` (a third).
    Everything is checked before the encounter is created."""
    roster = read(path)
    source = None
    if carry_from is not None:
        try:
            source = ledger.state(carry_from)
        except UnknownEncounter:
            raise UnknownEncounter(f"--carry-grit: there is no encounter {carry_from!r} "
                                   "to carry Grit over from") from None
    created = apply(State(encounter), [EncounterCreated(encounter=encounter, title=title)])
    apply(created, declarations(roster, created, path.name))  # refused before creating
    ledger.new(encounter, title, actor)
    state, envs = ledger.declare(
        encounter, lambda s: declarations(roster, s, path.name), actor)
    if source is not None:
        ids = [e.data.id for e in envs if isinstance(e.data, CombatantJoined)]
        if carried_grit(state, source, carry_from, ids):
            state, more = ledger.declare(
                encounter, lambda s: carried_grit(s, source, carry_from, ids), actor)
            envs = [*envs, *more]
    return state, envs
