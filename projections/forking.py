"""Forks (`combat fork SEQ --as NEW`): a new encounter whose history is
another's up to a batch, then its own.

The fork's first event is its own `EncounterCreated`, which names where it
came from (`ForkPoint`: the source, the seq, and the source's chain hashes
at seq 1 and at that seq). Its events 2..seq are the source's, verbatim
(same seq, batch, time, actor and data), chained after that first event, so
the fork's chain stands alone: archiving, copying or deleting the source
changes nothing in it. Rehashing those events as the source's chain, from
the source's first hash, must give the hash the fork recorded: that proves
the shared history without the source, and while the source is in the
store its own hash at that seq must be the same one.

A fork is stored as an import is (projections/inputs/transfer.py: the
chain, the corrections and every declaration are checked and judged
again), all or nothing."""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from eventlog.codec import GENESIS, Envelope, decode_data, event_hash, utc_now
from eventlog.errors import Refusal, UnknownEncounter
from eventlog.language import N_, _
from eventlog.events import EncounterCreated, EncounterRenamed, ForkPoint
from projections.domain import commands as c
from projections.domain.asks import check_new

if TYPE_CHECKING:
    from eventlog.stores.contract import EventStore
    from eventlog.stores.records import StoredEvent
    from projections.domain.state import State


class Ledger(Protocol):
    """What a fork asks of projections.ledger.Ledger (named here, not
    imported: the ledger is what calls `take`)."""
    store: EventStore

    def state(self, encounter: str, at: int | None = None) -> State: ...

    def declare(self, encounter: str, decide: Any, actor: str) -> tuple[State, list[Envelope]]: ...


def take(ledger: Ledger, source: str, command: c.Fork, actor: str) -> tuple[State, list[Envelope]]:
    """Store the fork `command` asks for of `source`; it starts where the
    source stood after the batch holding `command.seq`. The fork's state,
    and its first event with any it appended after the shared ones."""
    from projections.history import envelope
    from projections.inputs.intake import store_log
    store = ledger.store
    check_new(command.id, command.title)
    with store.reading():
        head, _hash = store.head(source)
        if not 1 <= command.seq <= head:
            raise Refusal(_("seq {seq} is not in the log of {encounter} (1 to {head})").format(
                seq=command.seq, encounter=source, head=head))
        upto = store.batch_end(source, command.seq)
        rows = list(store.rows(source, upto=upto))
        imported = store.imported(source)
        title = command.title or _title(ledger.state(source, upto).title or source, upto)
    point = ForkPoint(encounter=source, seq=upto, hash=rows[-1].hash, first=rows[0].hash,
                      at=utc_now())
    created = EncounterCreated(encounter=command.id, title=title, fork=point)
    store_log(store, command.id, title, _chained(created, actor, rows),
              imported=min(imported, upto))
    envs = [envelope(r) for r in store.rows(command.id, upto=1)]
    state = ledger.state(command.id)
    if state.title != title:  # a rename in the shared history: the fork's own title wins
        state, renamed = ledger.declare(command.id, lambda s: [EncounterRenamed(title=title)],
                                        actor)
        store.retitle(command.id, title)
        envs += renamed
    return state, envs


def _title(source_title: str, seq: int) -> str:
    return f"What if: {source_title}, from seq {seq}"


def _chained(created: EncounterCreated, actor: str, rows: list[StoredEvent]) -> Iterator[Envelope]:
    """The fork's log: its own first event (at the source's first time, so
    the log's clock never runs back), then the source's events re-chained."""
    first = rows[0]
    digest = event_hash(1, 1, "EncounterCreated", first.at, actor, created, GENESIS)
    yield Envelope(1, 1, "EncounterCreated", first.at, actor, created, GENESIS, digest)
    for row in rows[1:]:
        payload = decode_data(row.type, row.data)
        prev, digest = digest, event_hash(row.seq, row.batch, row.type, row.at, row.actor,
                                          payload, digest)
        yield Envelope(row.seq, row.batch, row.type, row.at, row.actor, payload, prev, digest)


# -- reading a fork's origin ---------------------------------------------------

def point_of(store: EventStore, encounter: str) -> ForkPoint | None:
    """Where `encounter` was forked from; None for an encounter begun anew."""
    for row in store.rows(encounter, upto=1):
        data = decode_data(row.type, row.data)
        return data.fork if isinstance(data, EncounterCreated) else None
    return None


class Proof(NamedTuple):
    """What `verify` says of a fork's shared history."""
    point: ForkPoint
    problem: str | None     # None: the shared events are the source's
    source: str             # "same": the source holds them too; "gone"; "changed": another
                            # log stands under its id now (deleted and made anew)


def prove(store: EventStore, encounter: str) -> Proof | None:
    """Check a fork's shared history (R30): rehashed as the source's chain
    they must end at the hash kept at the fork, and a source still in the
    store must hold that hash at that seq. None for an encounter that is
    not a fork."""
    point = point_of(store, encounter)
    if point is None:
        return None
    digest = point.first
    for row in store.rows(encounter, after=1, upto=point.seq):
        digest = event_hash(row.seq, row.batch, row.type, row.at, row.actor,
                            decode_data(row.type, row.data), digest)
    if digest != point.hash:
        return Proof(point, _("its events up to seq {seq} are not the ones it was forked from "
                              "{source} with (they were edited)").format(
                                  seq=point.seq, source=point.encounter), "edited")
    try:
        with store.reading():
            head, _hash = store.head(point.encounter)
            theirs = next((r.hash for r in store.rows(point.encounter, after=point.seq - 1,
                                                      upto=point.seq)), None)
    except UnknownEncounter:
        return Proof(point, None, "gone")
    if point.seq > head or theirs != point.hash:
        return Proof(point, None, "changed")  # another log under that id now: not ours to judge
    return Proof(point, None, "same")


def proof_line(proof: Proof) -> str:
    """`verify`'s line on a fork's shared history, when it holds."""
    point = proof.point
    said = {"same": N_("forked from {source} at seq {seq}: the {seq} shared events are "
                       "{source}'s ({source} still holds them, with the same hash)"),
            "gone": N_("forked from {source} at seq {seq}: the {seq} shared events are "
                       "{source}'s ({source} is no longer in this store: the hash kept at the "
                       "fork proves them)"),
            "changed": N_("forked from {source} at seq {seq}: the {seq} shared events are "
                          "{source}'s ({source} now holds another log: the hash kept at the "
                          "fork proves them)")}
    return _(said[proof.source]).format(source=point.encounter, seq=point.seq)


def forks_of(store: EventStore, encounter: str) -> list[tuple[str, int]]:
    """The encounters forked from `encounter`: (id, seq), oldest first."""
    found = []
    for info in store.encounters():
        point = point_of(store, info.id)
        if point is not None and point.encounter == encounter:
            found.append((info.id, point.seq))
    return found
