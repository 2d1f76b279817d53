"""Verification of the hash chain (R30): names the first bad position."""
from __future__ import annotations

from typing import Iterable

import msgspec

from .codec import GENESIS, decode_data, event_hash


class Verdict(msgspec.Struct):
    ok: bool
    events: int
    first_bad_seq: int | None = None
    problem: str = ""
    head_seq: int = 0
    head_hash: str = GENESIS


def verify_chain(rows: Iterable[tuple], head: tuple[int, str] | None = None) -> Verdict:
    """Check seq, prev_hash and hash of every row; `head` (seq, hash) is the
    store's record of the last event, which reveals a truncated log."""
    expected_seq, prev, count = 1, GENESIS, 0
    for seq, batch, type_name, at, actor, data, prev_hash, digest in rows:
        count += 1
        if seq != expected_seq:
            return Verdict(False, count, expected_seq if seq > expected_seq else seq,
                           f"expected seq {expected_seq}, found {seq} "
                           "(an event was deleted, inserted or moved)")
        if prev_hash != prev:
            return Verdict(False, count, seq, "prev_hash does not match the hash "
                           "of the event before it")
        try:
            payload = decode_data(type_name, data) if isinstance(data, (bytes, str)) else data
        except msgspec.DecodeError:
            return Verdict(False, count, seq, "the event's data cannot be read")
        if not 1 <= batch <= seq:
            return Verdict(False, count, seq, f"batch {batch} is not a position "
                           "at or before this event")
        if event_hash(seq, batch, type_name, at, actor, payload, prev_hash) != digest:
            return Verdict(False, count, seq, "the hash does not match the event's "
                           "content (it was edited)")
        prev = digest
        expected_seq += 1
    last = expected_seq - 1
    if head is not None and (last, prev) != tuple(head):
        bad = min(last + 1, head[0]) if head[0] > last else last
        return Verdict(False, count, max(bad, 1), f"the log ends at seq {last} but "
                       f"the encounter's head is seq {head[0]} (it was truncated "
                       "or its end was altered)", last, prev)
    return Verdict(True, count, None, "", last, prev)
