"""Encoding of events: rows, canonical bytes and the hash chain (R30)."""
from __future__ import annotations

from datetime import UTC, datetime

import msgspec

from eventlog.events import EVENT_TYPES, Payload

# SHA-256 from Python's builtin module: hashlib loads OpenSSL (~3 ms of every
# declaring command). `_sha256` on Python 3.11, `_sha2` from 3.12 on.
try:
    from _sha256 import sha256
except ImportError:
    try:
        from _sha2 import sha256
    except ImportError:  # pragma: no cover - a Python built otherwise
        from hashlib import sha256


GENESIS = "0" * 64

# Schema evolution (README, "Schema evolution"): the fields added to an event
# type after it was first written, by type name. While such a field holds its
# default it is left out of the event's hash, so an event stored before the
# field existed keeps the hash it was written with and old logs verify.
ADDED_FIELDS: dict[str, frozenset[str]] = {
    "Amended": frozenset({"retracted", "also", "kept"}),
    "CombatantJoined": frozenset({"portrait", "party"}),
    "Undone": frozenset({"kept"}),
    "EffectApplied": frozenset({"until_ended", "until_rest", "fights"}),
    "EncounterCreated": frozenset({"fork"}),
    "PartyCarried": frozenset({"reason"}),
    "TrackChanged": frozenset({"asked"}),
}

_canonical = msgspec.json.Encoder(order="sorted")
_plain = msgspec.json.Encoder()


class _Decoders(dict):
    """One typed decoder per event type, each made the first time that type
    is read: a command that reads three types never builds the thirty others
    (about 2 ms of every command's start)."""

    def __missing__(self, name: str) -> msgspec.json.Decoder:
        decoder = self[name] = msgspec.json.Decoder(EVENT_TYPES[name])
        return decoder


DECODERS: dict[str, msgspec.json.Decoder] = _Decoders()


class Envelope(msgspec.Struct, frozen=True):
    """One stored event: the shape of docs/formats.md, less the derived `undone`."""

    seq: int
    batch: int
    type: str
    at: str
    actor: str
    data: Payload
    prev_hash: str
    hash: str


def data_of(payload: Payload) -> dict:
    """The `data` object of an event: the payload's fields, without its tag
    (events nested in an Amended keep theirs). Fields added after the type
    was first written are left out while they hold their default, so an old
    event reads, is stored and hashes as it always did."""
    data = msgspec.to_builtins(payload)
    name = data.pop("type")
    return hashed_data(name, data) if name in ADDED_FIELDS else data


def encode_data(payload: Payload) -> bytes:
    return _canonical.encode(data_of(payload))


def decode_data(type_name: str, raw: bytes | str) -> Payload:
    try:
        return DECODERS[type_name].decode(raw)
    except KeyError:
        from eventlog.language import _
        raise msgspec.ValidationError(_("unknown event type {type!r}").format(
            type=type_name)) from None


def hashed_data(type_name: str, body: dict) -> dict:
    """The part of an event's data its hash covers: all of it, less the
    ADDED_FIELDS at their default (in events nested in an Amended too)."""
    added = ADDED_FIELDS.get(type_name, ())
    if added:
        defaults = _defaults(type_name, added)
        body = {k: v for k, v in body.items()
                if not (k in defaults and v == defaults[k])}
    if type_name == "Amended" and isinstance(body.get("events"), list):
        body = {**body, "events": [_hashed_nested(e) for e in body["events"]]}
    if type_name == "Amended" and isinstance(body.get("also"), list):
        body = {**body, "also": [
            [x[0], [_hashed_nested(e) for e in x[1]]]
            if isinstance(x, list) and len(x) == 2 and isinstance(x[1], list) else x
            for x in body["also"]]}
    return body


_DEFAULTS: dict[tuple[str, frozenset], dict] = {}


def _defaults(type_name: str, added: frozenset) -> dict:
    """The defaults of a type's added fields, worked out once (reading a
    struct's fields evaluates its annotations)."""
    key = (type_name, added)
    if key not in _DEFAULTS:
        _DEFAULTS[key] = {f.name: msgspec.to_builtins(_default(f))
                          for f in msgspec.structs.fields(EVENT_TYPES[type_name])
                          if f.name in added and _default(f) is not msgspec.NODEFAULT}
    return _DEFAULTS[key]


def _default(field):
    """A field's default value (a list or dict default comes from a factory)."""
    if field.default is not msgspec.NODEFAULT:
        return field.default
    if field.default_factory is not msgspec.NODEFAULT:
        return field.default_factory()
    return msgspec.NODEFAULT


def _hashed_nested(event):
    """An event inside an Amended: its tag, then its data as hashed."""
    if not isinstance(event, dict) or event.get("type") not in EVENT_TYPES:
        return event
    data = {k: v for k, v in event.items() if k != "type"}
    return {"type": event["type"], **hashed_data(event["type"], data)}


def event_hash(seq: int, batch: int, type_name: str, at: str, actor: str,
               data: dict | Payload, prev_hash: str) -> str:
    """SHA-256 of the canonical encoding (sorted keys, compact) with prev_hash."""
    body = data if isinstance(data, dict) else data_of(data)
    if ADDED_FIELDS:  # (nothing to leave out until a field is added)
        body = hashed_data(type_name, body)
    canonical = _canonical.encode({
        "seq": seq, "batch": batch, "type": type_name, "at": at,
        "actor": actor, "data": body, "prev_hash": prev_hash,
    })
    return sha256(canonical).hexdigest()


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def envelope_dict(env: Envelope, undone: bool, imported: bool = False) -> dict:
    """The public JSON shape of an event (log --json, export json). Both
    `undone` and `imported` (it came from a file by `import`: its actor is
    the file's claim, R29) are derived; `imported` was added later, so it
    comes last and is false unless the store marks the event."""
    return {
        "seq": env.seq, "batch": env.batch, "type": env.type, "at": env.at,
        "actor": env.actor, "data": data_of(env.data), "undone": undone,
        "prev_hash": env.prev_hash, "hash": env.hash, "imported": imported,
    }
