"""JSON Schema (draft 2020-12) of the event format, generated from the msgspec
types of `eventlog.events`, so it can never drift from what the store writes.

An event is the envelope of docs/formats.md (seq, batch, type, at, actor, data,
undone, prev_hash, hash, imported); its `data` is the payload of its `type` without the
tag, described under `$defs` as `<Type>Data`. Events nested in an `Amended`
keep their `type` tag: those are the `$defs` named after the type alone.
"""
from __future__ import annotations

import copy

import msgspec

from eventlog.events import EVENT_TYPES

DIALECT = "https://json-schema.org/draft/2020-12/schema"
HASH = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
POSITION = {"type": "integer", "minimum": 1}


def _data_schema(tagged: dict, name: str) -> dict:
    """A tagged struct's schema as an event's `data`: the same, less the tag."""
    data = copy.deepcopy(tagged)
    data["properties"].pop("type", None)
    data["required"] = [k for k in data.get("required", []) if k != "type"]
    if not data["required"]:
        del data["required"]
    data["title"] = f"{name} data"
    return data


def event_schema() -> dict:
    """The schema of one event, as in `log --json`, a jsonl line or an export."""
    _, components = msgspec.json.schema_components(
        list(EVENT_TYPES.values()), ref_template="#/$defs/{name}")
    defs = dict(components)
    for name in EVENT_TYPES:
        defs[f"{name}Data"] = _data_schema(components[name], name)
    return {
        "$schema": DIALECT,
        "title": "combat-ledger event",
        "description": "One declaration in an encounter's append-only log "
                       "(docs/formats.md, Events). `undone` and `imported` are derived; "
                       "`hash` is SHA-256 of the canonical encoding with `prev_hash` (R30).",
        "type": "object",
        "properties": {
            "seq": {**POSITION, "description": "Position in the log, from 1, no gaps."},
            "batch": {**POSITION, "description": "The seq of the first event of its command."},
            "type": {"enum": list(EVENT_TYPES)},
            "at": {"type": "string", "format": "date-time",
                   "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$",
                   "description": "When it was appended, UTC."},
            "actor": {"type": "string", "description": "Who declared it (R29)."},
            "data": {"type": "object"},
            "undone": {"type": "boolean",
                       "description": "Derived: its batch is currently undone or retracted."},
            "prev_hash": HASH,
            "hash": HASH,
            "imported": {"type": "boolean", "default": False,
                         "description": "Derived: it came from a file by `import` (or with "
                                        "a fork of such a log), so its actor is the file's "
                                        "claim, not one this store witnessed (R29)."},
        },
        "required": ["seq", "batch", "type", "at", "actor", "data", "prev_hash", "hash"],
        "allOf": [
            {"if": {"properties": {"type": {"const": name}}, "required": ["type"]},
             "then": {"properties": {"data": {"$ref": f"#/$defs/{name}Data"}}}}
            for name in EVENT_TYPES
        ],
        "$defs": defs,
    }


def export_schema() -> dict:
    """The schema of a json export (`export --format json`, read by `import`)."""
    event = event_schema()
    defs = event.pop("$defs")
    event.pop("$schema")
    defs["Event"] = event
    return {
        "$schema": DIALECT,
        "title": "combat-ledger export",
        "type": "object",
        "properties": {
            "format": {"const": "combat-ledger"},
            "version": {"const": 1},
            "encounter": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "title": {"type": "string"},
                               "events": {"type": "integer"}, "head_hash": HASH,
                               "left": {"type": "array", "items": {"type": "string"},
                                        "default": [],
                                        "description": "The combatants who have left the "
                                                       "fight at its last event (R22)."}},
            },
            "events": {"type": "array", "items": {"$ref": "#/$defs/Event"}, "minItems": 1},
        },
        "required": ["format", "version", "events"],
        "$defs": defs,
    }


def command_schema() -> dict:
    """The schema of one command, as the table server takes it (a JSON object
    tagged by `command`, the CLI's command name, with the CLI's argument names)."""
    from projections.domain.commands import AnyCommand
    (ref,), components = msgspec.json.schema_components(
        [AnyCommand], ref_template="#/$defs/{name}")
    return {"$schema": DIALECT, "title": "combat-ledger command",
            "description": "One command given at the table (docs/commands.md).",
            **ref, "$defs": dict(components)}
