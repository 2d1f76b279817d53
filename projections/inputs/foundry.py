"""Foundry VTT's exported actors (docs/characters.md, "From Foundry VTT"): one
actor's "Export Data" file, a list of them, or an object whose `actors` is
such a list. Each game system keeps its numbers in its own places, so the GM
says where with `--map FIELD=KEY`: FIELD one of bonus, ap, grit, id, name,
portrait, track:NAME, max:NAME; KEY a dotted path in the actor
(`system.attributes.hp.value`). A name is read from `name` and a portrait
from `img` unless mapped elsewhere; a path under `system.` is also looked
for under `data.`, where exports before Foundry 10 keep it."""
from __future__ import annotations

import re

from eventlog.errors import InvalidFile
from eventlog.text import neutral
from projections.inputs.sheets import (
    MAX_CHARACTERS, NOTHING, Fields, Sheet, character, label, shown, track_name, track_names)
from eventlog.language import _
from projections.inputs.strict import load_json, reworded

FIELDS = ("name", "id", "bonus", "ap", "grit", "portrait")
EXPECTED = ", ".join([*FIELDS, "track:NAME", "max:NAME"])
DEFAULTS = {"name": "name", "portrait": "img"}
KEY = re.compile(r"[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,15}\Z")
_ABSENT = object()


def mapping(maps, fields: Fields) -> dict[str, str]:
    """`--map FIELD=KEY` words as {field: key}, every mistake noted."""
    out = dict(DEFAULTS)
    given: set[str] = set()
    for word in maps:
        where = f"--map {neutral(repr(word[:80]))}"
        field, sep, key = word.partition("=")
        field, key = field.strip().lower(), key.strip()
        kind, _sep, track = field.partition(":")
        if not sep or not field or not key:
            fields.note(where, _("expected FIELD=KEY, e.g. bonus=system.abilities.dex.mod"))
            continue
        if field in given:
            fields.note(where, _("{field} is mapped twice").format(field=field))
        elif kind in ("track", "max") and track:
            if track_name(track) is None:
                fields.note(where, _("a track's name is {rule}").format(rule=track_names()))
        elif field not in FIELDS:
            fields.note(where, _("unknown field {field} (expected one of: {known})").format(
                field=repr(field), known=EXPECTED))
        if not KEY.match(key):
            fields.note(where, _("KEY is a dotted path of the actor's keys, e.g. "
                                 "system.attributes.hp.value"))
        given.add(field)
        out[field] = key
    for field in list(out):
        if field.startswith("max:") and f"track:{field[4:]}" not in out:
            fields.note(f"--map {field}", _("{field} needs {track} for the value").format(
                field=field, track=f"track:{field[4:]}"))
    return out


def actors(name: str, text: str, maps, fields: Fields) -> list[Sheet]:
    mapped = mapping(maps, fields)
    if fields.mistakes:
        return []
    try:
        data = load_json(text)
    except (ValueError, RecursionError) as exc:
        detail = reworded(exc) if isinstance(exc, ValueError) else _("nested too deeply")
        raise InvalidFile(_("{name} is not valid {kind}: {detail}; {nothing}").format(
            name=name, kind="JSON", detail=detail, nothing=_(NOTHING))) from None
    if isinstance(data, dict) and isinstance(data.get("actors"), list):
        data = data["actors"]
    found = data if isinstance(data, list) else [data]
    if not isinstance(data, (list, dict)):
        raise InvalidFile(_("{name}: expected a Foundry VTT actor or a list of them, not "
                            "{given}; {nothing}").format(name=name, given=shown(data),
                                                          nothing=_(NOTHING)))
    if len(found) > MAX_CHARACTERS:
        raise InvalidFile(_("{name} holds {n} actors: one import adds at most {most}; "
                            "{nothing}").format(name=name, n=len(found), most=MAX_CHARACTERS,
                                                nothing=_(NOTHING)))
    sheets = []
    for index, actor in enumerate(found, start=1):
        if not isinstance(actor, dict):
            fields.note(label("actor", index, None),
                        _("expected an actor (an object), got {given}").format(given=shown(actor)))
            continue
        sheet = _actor(fields, index, actor, mapped)
        if sheet is not None:
            sheets.append(sheet)
    return sheets


def _actor(fields: Fields, index: int, actor: dict, mapped: dict[str, str]) -> Sheet | None:
    where = label("actor", index, lookup(actor, mapped["name"]))
    before = len(fields.mistakes)

    def value(field: str):
        key = mapped.get(field)
        if key is None:
            return None
        got = lookup(actor, key)
        if got is _ABSENT and field != "portrait":
            fields.note(where, _("{key} is not in the actor ({option})").format(
                key=key, option=f"--map {field}={key}"))
        return None if got is _ABSENT else got

    values = {field: value(field) for field in FIELDS}
    tracks = {field[6:]: (value(field), value(f"max:{field[6:]}"))
              for field in mapped if field.startswith("track:")}
    if values["name"] is None and len(fields.mistakes) > before:
        return None  # (said: its name is not where the map says)
    return character(fields, where, values["name"], values["id"], values["bonus"],
                     values["ap"], values["grit"], tracks, values["portrait"])


def lookup(actor: dict, key: str):
    """The value at a dotted path (a list's items by number); _ABSENT if none."""
    got = _walk(actor, key.split("."))
    if got is _ABSENT and key.startswith("system.") and "system" not in actor:
        got = _walk(actor, ["data", *key.split(".")[1:]])
    return got


def _walk(node, parts: list[str]):
    for part in parts:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return _ABSENT
    return node
