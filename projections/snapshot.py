"""Snapshots of the folded state, so a command on a long encounter folds only
the events since the last one (issue 8: instant commands).

A snapshot is msgpack of plain values (never pickle: a database file may come
from elsewhere, and reading it must execute nothing). It names the seq and the
hash of the event it was taken at, and the version of the fold code: if the
event at that seq no longer has that hash, or the fold code changed, or a
later undo/retraction/amendment reaches back before it, it is ignored.
"""
from __future__ import annotations

import zlib
from pathlib import Path

import msgspec

from eventlog.undo import Corrections

from .state import Combatant, Effect, Group, Slot, State

_HERE = Path(__file__).resolve().parent
# A fingerprint of the fold code (not a security check: the snapshot's event
# hash is that); crc32 because loading hashlib's OpenSSL costs every command ms.
FOLD_VERSION = "%08x" % zlib.crc32(b"".join(
    (_HERE / name).read_bytes() for name in ("state.py", "ties.py", "snapshot.py")))

_SCALARS = ("encounter", "title", "seq", "created", "ended", "round", "pass_",
            "round_complete", "window", "turn", "turn_started", "current",
            "spent_in_pass", "_keys", "auto_ended")
_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder()


def encode(s: State) -> bytes:
    return _encoder.encode({
        "scalars": [getattr(s, name) for name in _SCALARS],
        "combatants": [[getattr(c, f) for f in Combatant.__slots__]
                       for c in s.combatants.values()],
        "groups": [[g.id, g.bonus, g.members, g.joined] for g in s.groups.values()],
        "slots": [[getattr(x, f) for f in Slot.__slots__] for x in s.slots.values()],
        "tie_rules": [list(r) for r in s.tie_rules],
        "seizers": list(s.seizers.items()),
        "effects": [[getattr(e, f) for f in Effect.__slots__] for e in s.effects.values()],
        "passed": sorted(s.passed), "done": sorted(s.done),
    })


def decode(blob: bytes, encounter: str) -> State:
    raw = _decoder.decode(blob)
    s = State(encounter)
    for name, value in zip(_SCALARS, raw["scalars"]):
        setattr(s, name, value)
    s.encounter = encounter
    for values in raw["combatants"]:
        c = Combatant.__new__(Combatant)
        for f, v in zip(Combatant.__slots__, values):
            setattr(c, f, v)
        s.combatants[c.id] = c
    for gid, bonus, members, joined in raw["groups"]:
        g = s.groups[gid] = Group(gid, joined)
        g.bonus, g.members = bonus, list(members)
    for values in raw["slots"]:
        slot = Slot.__new__(Slot)
        for f, v in zip(Slot.__slots__, values):
            setattr(slot, f, v)
        s.slots[slot.id] = slot
    s.tie_rules = [tuple(r) for r in raw["tie_rules"]]
    s.seizers = dict(raw["seizers"])
    for values in raw["effects"]:
        effect = Effect.__new__(Effect)
        for f, v in zip(Effect.__slots__, values):
            setattr(effect, f, v)
        s.effects[effect.id] = effect
    s.passed, s.done = set(raw["passed"]), set(raw["done"])
    return s


def reaches_back(corrections: list[tuple[int, object]], seq: int) -> bool:
    """Does a correction after `seq` change a batch at or before it?"""
    from eventlog.events import Amended, Redone, Undone
    for marker_seq, p in corrections:
        if marker_seq <= seq:
            continue
        if isinstance(p, Undone) and min(p.batches) <= seq:
            return True
        if isinstance(p, (Redone, Amended)) and p.batch <= seq:
            return True
    return False


__all__ = ["FOLD_VERSION", "Corrections", "decode", "encode", "reaches_back"]
