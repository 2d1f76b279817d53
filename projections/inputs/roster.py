"""Roster files (docs/guide.md, "Rosters"): the combatants and groups a GM prepares before
the game, in TOML, YAML or JSON, validated with pydantic.

A roster becomes one declaration, judged like any other and undone by one
`undo`: a GroupBonusSet for each [[group]] with a bonus, then a
CombatantJoined for each combatant (`count = K`: K of them). Nothing of a
roster is declared unless every entry is right.

Only `load` and `new --roster` import this module: pydantic stays off the
hot path (STYLE.md).
"""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

import msgspec
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails

from eventlog.errors import InvalidFile
from eventlog.language import N_, _, n_
from eventlog.files import read_bounded
from projections.domain.commands import Load
from projections.domain.loading import NOTHING_ADDED, shown
from projections.domain.tracks import MAX_TRACKS
from projections.inputs.strict import load_json, load_yaml, reworded

MAX_ROSTER_BYTES = 1 << 20
FORMATS = {".toml": "TOML", ".yaml": "YAML", ".yml": "YAML", ".json": "JSON"}
MAX_COUNT = 100  # `count = 1000000` is a typo, not a squad
MAX_COMBATANTS = 1000  # per file: a 2 KB roster of 100 squads of 100 is not a table's


class Entry(BaseModel):
    # strict: "3" is not a number and true is not 1; a misspelt key is refused.
    model_config = ConfigDict(extra="forbid", strict=True)


class TrackEntry(Entry):
    value: int = Field(ge=0)
    max: int | None = Field(None, ge=0)
    public: bool = False


class CombatantEntry(Entry):
    name: str = Field(min_length=1)
    id: str | None = None
    side: Literal["pc", "npc"] = "npc"
    bonus: int = 0
    ap: int = Field(3, ge=0)
    grit: int = Field(0, ge=0)
    group: str | None = None
    count: int = Field(1, ge=1, le=MAX_COUNT)
    tracks: dict[str, int | TrackEntry] = Field(default_factory=dict, max_length=MAX_TRACKS)
    hidden: bool = False


class GroupEntry(Entry):
    id: str
    bonus: int | None = None


class Roster(Entry):
    combatant: list[CombatantEntry] = []
    group: list[GroupEntry] = []


# -- reading -------------------------------------------------------------

def read(path: Path) -> Load:
    """The roster in `path` as the command that loads it, or InvalidFile with
    one line naming what is wrong."""
    name = path.name
    kind = _kind(name)
    raw = read_bounded(path, MAX_ROSTER_BYTES, _("the most a roster may hold"), name)
    return read_bytes(name, raw, kind)


def _kind(name: str) -> str:
    suffix = Path(name).suffix
    kind = FORMATS.get(suffix.lower())
    if kind is None:
        if not suffix:
            raise InvalidFile(_("{name}: a roster is .toml, .yaml, .yml or .json, not a file "
                                "without an extension").format(name=name))
        raise InvalidFile(_("{name}: a roster is .toml, .yaml, .yml or .json, not {suffix}")
                          .format(name=name, suffix=suffix))
    return kind


def read_bytes(name: str, raw: bytes, kind: str | None = None) -> Load:
    """A roster's bytes (the GM page's upload, named `name`) as the command
    that loads it: the same strict checks as a file `load` reads."""
    kind = kind or _kind(name)
    if len(raw) > MAX_ROSTER_BYTES:
        raise InvalidFile(_("{name} is over {most} bytes, the most a roster may hold").format(
            name=name, most=MAX_ROSTER_BYTES))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = "\0"
    if "\0" in text:
        raise InvalidFile(_("{name} is not a text file: a roster is written in {kind}").format(
            name=name, kind=kind))
    data = _parse(text, kind, name)
    if data is None or data == {}:
        raise InvalidFile(_("{name} is empty: a roster needs at least one combatant entry")
                          .format(name=name))
    if not isinstance(data, dict):
        raise InvalidFile(_("{name}: expected combatant and group entries at the top, not "
                            "{given}; {nothing}").format(name=name, given=shown(data),
                                                          nothing=_(NOTHING_ADDED)))
    try:
        roster = Roster.model_validate(data)
    except ValidationError as exc:
        problems = [p for p in (_problem(err, data) for err in exc.errors()) if p]
        said = "; ".join(problems[:3])
        if len(problems) > 3:
            said = n_("{problems} (and {n} more)", "{problems} (and {n} more)",
                      len(problems) - 3).format(problems=said, n=len(problems) - 3)
        raise InvalidFile(_("{name}: {problems}; {nothing}").format(
            name=name, problems=said, nothing=_(NOTHING_ADDED))) from None
    if not roster.combatant:
        raise InvalidFile(_("{name} holds no combatant entry: a roster needs at least one")
                          .format(name=name))
    total = sum(entry.count for entry in roster.combatant)
    if total > MAX_COMBATANTS:
        raise InvalidFile(_("{name} adds {total} combatants: a roster adds at most {most}; "
                            "{nothing}").format(name=name, total=total, most=MAX_COMBATANTS,
                                                nothing=_(NOTHING_ADDED)))
    return msgspec.convert({**roster.model_dump(), "file": name}, Load)


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
            what = exc.problem or exc.context or _("unreadable")
            if exc.problem_mark:
                what = _("{problem} at line {line}").format(problem=what,
                                                           line=exc.problem_mark.line + 1)
            raise ValueError(what) from None
        except yaml.YAMLError as exc:
            raise ValueError(str(exc)) from None
    except (ValueError, RecursionError) as exc:  # TOMLDecodeError, JSONDecodeError
        detail = reworded(exc) if isinstance(exc, ValueError) else type(exc).__name__
        raise InvalidFile(_("{name} is not valid {kind}: {detail}; {nothing}").format(
            name=name, kind=kind, detail=detail, nothing=_(NOTHING_ADDED))) from None


# -- pydantic's errors in the table's language ---------------------------

KEYS = {"combatant": list(CombatantEntry.model_fields), "group": list(GroupEntry.model_fields)}
TRACK_KEYS = list(TrackEntry.model_fields)
EXPECTED = {
    "int_type": N_("a whole number"), "string_type": N_("text in quotes"),
    "list_type": N_("a list of entries"), "model_type": N_("a table of keys"),
    "dict_type": N_("a table of keys"), "model_attributes_type": N_("a table of keys"),
}


def _problem(err: ErrorDetails, data: dict) -> str | None:
    loc, kind = err["loc"], err["type"]
    if len(loc) >= 2 and loc[0] in KEYS and isinstance(loc[1], int):
        where = entry_label(loc[0], loc[1], data)
        key = loc[2] if len(loc) > 2 else None
        if key == "tracks" and len(loc) > 4:
            return _track_problem(err, where)
    else:
        where = None
        key = loc[0] if loc else None
    if kind == "extra_forbidden":
        keys = ", ".join(KEYS[str(loc[0])] if where else list(KEYS))
        return (_("{where}: unknown key {key} (expected one of: {keys})") if where else
                _("at the top: unknown key {key} (expected one of: {keys})")).format(
            where=where, key=_key(key), keys=keys)
    if kind == "missing":
        return (_("{where}: key {key} is missing (required)") if where else
                _("at the top: key {key} is missing (required)")).format(where=where, key=_key(key))
    said = dict(where=where or _("at the top"), key=_key(key), expected=_expected(err),
                given=shown(err.get("input")))
    if key is None:
        return _("{where}: the entry: expected {expected}, got {given}").format(**said)
    return _("{where}: key {key}: expected {expected}, got {given}").format(**said)


def _track_problem(err: ErrorDetails, where: str) -> str | None:
    """A track of an entry: a number, or a table of value, max and public
    (pydantic tries both: only the one the file meant is said)."""
    loc, given = err["loc"], err.get("input")
    name, branch, key = loc[3], loc[4], (loc[5] if len(loc) > 5 else None)
    if (branch == "int" and isinstance(given, dict)) or (branch != "int" and key is None):
        return None  # the other reading of the track speaks
    said = dict(where=where, track=_key(name), key=_key(key), keys=", ".join(TRACK_KEYS),
                given=shown(given))
    if branch == "int":
        return _("{where}: track {track}: expected a whole number (its value and maximum) or "
                 "a table of {keys}, got {given}").format(**said)
    if err["type"] == "extra_forbidden":
        return _("{where}: track {track}: unknown key {key} (expected one of: {keys})").format(
            **said)
    if err["type"] == "missing":
        return _("{where}: track {track}: key {key} is missing (required)").format(**said)
    return _("{where}: track {track}: key {key}: expected {expected}, got {given}").format(
        expected=_expected(err), **said)


def _expected(err: ErrorDetails) -> str:
    kind, ctx = err["type"], err.get("ctx") or {}
    if kind == "literal_error":
        expected = ctx.get("expected", "").replace("'", '"')
    elif kind == "greater_than_equal":
        expected = _("a number of {least} or more").format(least=ctx.get("ge"))
    elif kind == "less_than_equal":
        expected = _("a number of {most} or less").format(most=ctx.get("le"))
    elif kind == "string_too_short":
        expected = _("a non-empty text")
    elif kind in EXPECTED:
        expected = _(EXPECTED[kind])
    else:
        expected = err["msg"].lower()
    return expected


def entry_label(kind: str, index: int, data: dict) -> str:
    """`combatant 2 (Vex)`: the entry as a person finds it in the file."""
    try:
        entry = data[kind][index]
    except (KeyError, IndexError, TypeError):
        entry = None
    label = entry.get("name" if kind == "combatant" else "id") if isinstance(entry, dict) else None
    said = dict(n=index + 1, label=label)
    if isinstance(label, str) and label:
        return (_("combatant {n} ({label})") if kind == "combatant" else
                _("group {n} ({label})")).format(**said)
    return (_("combatant {n}") if kind == "combatant" else _("group {n}")).format(**said)


def _key(key) -> str:
    return f"'{key}'" if isinstance(key, str) else repr(key)
