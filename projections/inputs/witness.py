"""A witness for the store: what was seen earlier, kept
outside it, against which `verify --against FILE` checks the log now.

No chain can see, by itself, its own tail cut off with the head row set back
to the event before: the shorter log is a valid log. A witness can. It is
either a saved head (`combat head > warehouse.head`: one line, `seq hash`)
or an earlier export (json or jsonl), whose own chain is verified and whose
last event is the witness. The log passes when its event at that seq still
has that hash: since each hash covers the one before it, every event up to
it is then as it was.
"""
from __future__ import annotations

import re

from eventlog.chain import Chain
from eventlog.errors import InvalidFile
from eventlog.language import _
from eventlog.stores.log import EventLog

HEAD_LINE = re.compile(rb"\s*([0-9]{1,12})\s+([0-9a-f]{64})\s*\Z")
MAX_HEAD_BYTES = 200  # a saved head is one line; anything longer is an export


def head_line(seq: int, digest: str) -> str:
    """What `combat head` prints, and `verify --against` reads back."""
    return f"{seq} {digest}"


def read_witness(path) -> tuple[int, str]:
    """(seq, hash) from a saved head or from an export's last event."""
    from projections.inputs.transfer import open_export
    start = _start(path)
    found = HEAD_LINE.match(start) if len(start) <= MAX_HEAD_BYTES else None
    if found:
        return int(found.group(1)), found.group(2).decode()
    chain = Chain()
    with open_export(path) as doc:
        for env in doc.envelopes():
            bad = chain.check(env.seq, env.batch, env.type, env.at, env.actor, env.data,
                              env.prev_hash, env.hash)
            if bad is not None:
                raise InvalidFile(_("{name}: its own hash chain is broken at seq {seq} (R30): "
                                    "it cannot witness anything").format(
                    name=doc.name, seq=bad.first_bad_seq))
    verdict = chain.end()
    if not verdict.events:
        raise InvalidFile(_("{path} holds no events to witness").format(path=path))
    return verdict.head_seq, verdict.head_hash


def _start(path) -> bytes:
    """The first bytes of `path` (at most one more than a saved head)."""
    from eventlog.files import open_bounded
    with open_bounded(path, 1 << 62, "no limit", str(path)) as f:
        return f.read(MAX_HEAD_BYTES + 1)


def against(store: EventLog, encounter: str, seq: int, digest: str) -> str | None:
    """None when the log still holds the witnessed event; else what is wrong."""
    head, _hash = store.head(encounter)
    if head < seq:
        return _("the witness saw seq {seq}, and the log now ends at seq {head}: events "
                 "were removed (R30)").format(seq=seq, head=head)
    row = next(iter(store.rows(encounter, after=seq - 1, upto=seq)), None)
    if row is None or row[7] != digest:
        return _("seq {seq} is not the event the witness saw (hash {hash}…): the log was "
                 "rewritten (R30)").format(seq=seq, hash=digest[:12])
    return None
