"""Encoding of events: rows, canonical bytes and the hash chain (R30)."""
from __future__ import annotations

import hashlib
from datetime import datetime, timezone

import msgspec

from .events import EVENT_TYPES, Payload

GENESIS = "0" * 64

_canonical = msgspec.json.Encoder(order="sorted")
_plain = msgspec.json.Encoder()
DECODERS = {name: msgspec.json.Decoder(cls) for name, cls in EVENT_TYPES.items()}


class Envelope(msgspec.Struct, frozen=True):
    """One stored event: INTERFACE.md's shape, less the derived `undone`."""

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
    (events nested in an Amended keep theirs)."""
    data = msgspec.to_builtins(payload)
    del data["type"]
    return data


def encode_data(payload: Payload) -> bytes:
    return _canonical.encode(data_of(payload))


def decode_data(type_name: str, raw: bytes | str) -> Payload:
    try:
        return DECODERS[type_name].decode(raw)
    except KeyError:
        raise msgspec.ValidationError(f"unknown event type {type_name!r}") from None


def event_hash(seq: int, batch: int, type_name: str, at: str, actor: str,
               data: dict | Payload, prev_hash: str) -> str:
    """SHA-256 of the canonical encoding (sorted keys, compact) with prev_hash."""
    body = data if isinstance(data, dict) else data_of(data)
    canonical = _canonical.encode({
        "seq": seq, "batch": batch, "type": type_name, "at": at,
        "actor": actor, "data": body, "prev_hash": prev_hash,
    })
    return hashlib.sha256(canonical).hexdigest()


def utc_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def envelope_dict(env: Envelope, undone: bool) -> dict:
    """The public JSON shape of an event (log --json, export json)."""
    return {
        "seq": env.seq, "batch": env.batch, "type": env.type, "at": env.at,
        "actor": env.actor, "data": data_of(env.data), "undone": undone,
        "prev_hash": env.prev_hash, "hash": env.hash,
    }
