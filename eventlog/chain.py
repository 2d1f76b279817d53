"""Verification of the hash chain (R30): names the first bad position."""
from __future__ import annotations

from collections.abc import Iterable

import msgspec

from eventlog.codec import GENESIS, decode_data, event_hash
from eventlog.language import _


class Verdict(msgspec.Struct):
    ok: bool
    events: int
    first_bad_seq: int | None = None
    problem: str = ""
    head_seq: int = 0
    head_hash: str = GENESIS


class Chain:
    """The chain checked one event at a time, as a log is read or streamed."""

    def __init__(self) -> None:
        self.expected_seq, self.prev, self.count = 1, GENESIS, 0

    def check(self, seq: int, batch: int, type_name: str, at: str, actor: str, data,
              prev_hash: str, digest: str) -> Verdict | None:
        """None when the event links on; else the Verdict naming it."""
        self.count += 1
        count, expected_seq = self.count, self.expected_seq
        if type(seq) is not int or type(batch) is not int:  # a damaged row: '7' as text
            return Verdict(False, count, expected_seq, _(
                "seq {seq!r} or its batch is not a whole number (the row was edited)").format(
                    seq=str(seq)[:20]))
        if seq != expected_seq:
            return Verdict(False, count, expected_seq if seq > expected_seq else seq, _(
                "expected seq {expected}, found {seq} (an event was deleted, inserted or "
                "moved)").format(expected=expected_seq, seq=seq))
        if prev_hash != self.prev:
            return Verdict(False, count, seq, _("prev_hash does not match the hash of the "
                                                "event before it"))
        try:
            payload = decode_data(type_name, data) if isinstance(data, (bytes, str)) else data
        except msgspec.DecodeError as exc:
            return Verdict(False, count, seq, _("the event's data cannot be read ({why})")
                           .format(why=str(exc)[:80]))
        if not 1 <= batch <= seq:
            return Verdict(False, count, seq, _("batch {batch} is not a position at or before "
                                                "this event").format(batch=batch))
        if event_hash(seq, batch, type_name, at, actor, payload, prev_hash) != digest:
            return Verdict(False, count, seq, _("the hash does not match the event's content "
                                                "(it was edited)"))
        self.prev = digest
        self.expected_seq += 1
        return None

    def end(self, head: tuple[int, str] | None = None) -> Verdict:
        """The verdict on the whole log; `head` (seq, hash) is the store's
        record of the last event, which reveals a truncated log."""
        last, prev, count = self.expected_seq - 1, self.prev, self.count
        if head is not None and (last, prev) != tuple(head):
            bad = min(last + 1, head[0]) if head[0] > last else last
            return Verdict(False, count, max(bad, 1), _(
                "the log ends at seq {last} but the encounter's head is seq {head} (it was "
                "truncated or its end was altered)").format(last=last, head=head[0]), last, prev)
        return Verdict(True, count, None, "", last, prev)


def verify_chain(rows: Iterable[tuple], head: tuple[int, str] | None = None) -> Verdict:
    """Check seq, prev_hash and hash of every row; `head` (seq, hash) is the
    store's record of the last event, which reveals a truncated log."""
    chain = Chain()
    check = chain.check
    for row in rows:
        bad = check(*row)
        if bad is not None:
            return bad
    return chain.end(head)
