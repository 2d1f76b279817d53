"""`combat copy --to TARGET`: every encounter of one store into another, of
either kind (docs/operations.md, "Where the data lives"). Each chain is verified in
the source before anything is written, checked again event by event as it
streams into the target (an import there: all or nothing), and the target's
head compared with the source's afterwards. Re-running it is harmless: an
encounter the target already holds with the same chain is skipped; one it
holds as an older copy (its log is the start of this one) is brought up to
date; one it holds with another log refuses the whole copy before anything
is written. The party's log travels as an encounter's does. Archive marks
and portraits (each checked against its digest) travel with the logs;
webhooks stay behind (they are the table server's settings, not encounters).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from eventlog.chain import Chain, verify_chain
from eventlog.codec import Envelope, decode_data
from eventlog.errors import BrokenChain, LedgerError, StoreError, UnknownEncounter
from eventlog.language import _
from eventlog.stores.log import EventLog
from eventlog.stores.records import StoredEvent
from eventlog.stores.records import PARTY_STREAM, EncounterInfo


class Copied(NamedTuple):
    encounter: str
    events: int
    head: str
    skipped: bool  # the target held it already, with the same chain
    since: int = 0  # the target held it up to this seq: only the rest was copied


def copy_store(source: EventLog, target: EventLog, where: str) -> Iterator[Copied]:
    """Copy every encounter of `source` into `target` (named `where` in
    messages), yielding each as it is done."""
    if source.identity == target.identity:
        raise LedgerError(_("{where} is the store being copied: name another store").format(
            where=where))
    planned = list(_plan(source, target, where))
    archived = source.archived()  # the marks travel with the logs (a copy is the same store)
    _copy_portraits(source, target, where)
    for info, head, theirs in planned:
        if theirs != head:
            with source.reading():
                if theirs is None:
                    rows = source.rows(info.id, upto=head[0])
                    target.import_log(info.id, info.title, _checked(info.id, rows),
                                      lambda staged: None, source.imported(info.id))
                else:
                    rows = source.rows(info.id, after=theirs[0], upto=head[0])
                    target.extend_log(info.id, theirs, _checked(info.id, rows, theirs))
            if tuple(target.head(info.id)) != tuple(head):
                raise StoreError(_("{encounter} did not arrive in {where} as it left (head "
                                   "{head}, expected {expected})").format(
                                       encounter=info.id, where=where,
                                       head=target.head(info.id)[0], expected=head[0]))
        if (info.id in archived) != (info.id in target.archived()):
            target.set_archived(info.id, info.id in archived)
        yield Copied(info.id, head[0], head[1], theirs == head,
                     theirs[0] if theirs not in (None, head) else 0)


def _copy_portraits(source: EventLog, target: EventLog, where: str) -> None:
    """Every portrait the target lacks (an event of a log names it)."""
    from hashlib import sha256
    theirs = set(target.portraits())
    for digest in source.portraits():
        if digest in theirs:
            continue
        kept = source.portrait(digest)
        if kept is None or sha256(kept.data).hexdigest() != digest:
            raise StoreError(_("the portrait {digest}… is damaged in the store being copied "
                               "(its bytes no longer match their digest); it was not copied to "
                               "{where}").format(digest=digest[:12], where=where))
        target.add_portrait(kept.media, kept.data)


def _plan(source: EventLog, target: EventLog, where: str):
    """(encounter, verified head, whether the target has it) for each
    encounter, or a refusal before anything is written."""
    there = {e.id for e in _streams(target)}
    for info in _streams(source):
        with source.reading():
            head = (*source.head(info.id),)
            verdict = verify_chain(source.rows(info.id, upto=head[0]), head)
        if not verdict.ok:
            raise BrokenChain(_("the log of {encounter} is broken at seq {seq}: {problem} (R30); "
                                "nothing was copied").format(encounter=info.id,
                                                             seq=verdict.first_bad_seq,
                                                             problem=verdict.problem))
        theirs = None
        if info.id in there:
            with target.reading():
                theirs = (*target.head(info.id),)
                same = _at(source, info.id, theirs[0]) == theirs and verify_chain(
                    target.rows(info.id), theirs).ok
            if not same:
                raise LedgerError(_("{encounter} is already in {where} with another log (seq "
                                    "{seq}, head {head}…; here seq {ours}, head {our_head}…); "
                                    "nothing was copied").format(
                                        encounter=info.id, where=where, seq=theirs[0],
                                        head=theirs[1][:12], ours=head[0],
                                        our_head=head[1][:12]))
        yield info, head, theirs


def _streams(store: EventLog) -> list[EncounterInfo]:
    """Every log of `store`: its encounters, and the party's when it has one."""
    infos = list(store.encounters())
    try:
        seq, _hash = store.head(PARTY_STREAM)
    except UnknownEncounter:
        return infos
    return [*infos, EncounterInfo(PARTY_STREAM, "The party", "", seq)]


def _at(source: EventLog, encounter: str, seq: int) -> tuple[int, str] | None:
    """(seq, hash) of the source's event at `seq`: a target whose head is
    this is an older copy of the same log (the chain vouches for the rest)."""
    with source.reading():
        for row in source.rows(encounter, after=seq - 1, upto=seq):
            return row.seq, row.hash
    return None


def _checked(encounter: str, rows: Iterable[StoredEvent],
             after: tuple[int, str] | None = None) -> Iterator[Envelope]:
    """The rows as envelopes, each checked against the chain (continuing
    `after`, (seq, hash)) as it passes."""
    chain = Chain()
    if after is not None:
        chain.expected_seq, chain.prev = after[0] + 1, after[1]
    for row in rows:
        bad = chain.check(*row)
        if bad is not None:
            raise BrokenChain(_("the log of {encounter} is broken at seq {seq}: {problem} (R30); "
                                "it was not copied").format(encounter=encounter,
                                                            seq=bad.first_bad_seq,
                                                            problem=bad.problem))
        yield Envelope(row.seq, row.batch, row.type, row.at, row.actor,
                       decode_data(row.type, row.data), row.prev_hash, row.hash)
