"""A stream's catch-up: a stream resuming from
`Last-Event-ID: N` is sent the status after each batch since N a page at a
time, each page made on a worker thread only once the one before has gone
out. A client that reads slowly holds one page and the states after the
last few batches sent, never the whole backlog: the server's memory stays
flat in the number of events and of slow clients."""
from __future__ import annotations

from collections import deque
from typing import Any

from eventlog.events import CORRECTIONS
from projections import snapshot as snapshots
from projections.domain.state import State
from projections.history import fold

from cli.server.bounded import gate_of
from cli.server.replies import ledger, run
from cli.server.views import Message, message

PAGE_BATCHES = 50  # statuses a page holds at most
PAGE_BYTES = 256 * 1024  # and its statuses' text at most (one at least)
PAGE_SPAN = 1000  # events read at most to find a page's batches (PostgreSQL reads by pages)
# States after the last batches sent, kept to fold on from past a correction
# that reaches back among them (an undo takes back the batch before it).
KEPT_STATES = 8


class CatchUp:
    """Where a catch-up stands between pages: the last seq sent, the head
    it reads up to (read once, at its start: what comes later is live),
    and the states after the last batches sent, from the one the client
    had (the last: after `sent`)."""

    def __init__(self, encounter: str, after: int, owned: frozenset[str]):
        self.encounter, self.sent, self.owned = encounter, after, owned
        self.head: int | None = None
        self.kept: deque = deque(maxlen=KEPT_STATES)

    @property
    def done(self) -> bool:
        return self.head is not None and self.sent >= self.head


class Catching:
    """What a stream sends before it goes live: without `last`, the current
    status; else the catch-up from `last`, page by page, counted in the
    gate of long reads (per token and per server) until it is done or the
    response ends, whichever comes first."""

    def __init__(self, request, encounter: str, last: int | None,
                 owned: frozenset[str], digest: str, resume=None):
        self.request, self.encounter, self.last = request, encounter, last
        self.owned, self.digest = owned, digest
        self.resume = resume  # (ledger, encounter, last) -> the store seq to go on from, or None
        self.held: Any = None  # (the long-read slot, while it is held)
        self.cu: CatchUp | None = None

    async def start(self) -> list[Message]:
        """The first page (read before the response starts, so an unknown
        encounter is a 404, and an excess long read a 429)."""
        if self.last is None:
            return [await run(lambda: message(
                ledger(self.request).state(self.encounter), self.owned, ledger(self.request)))]
        held = gate_of(self.request.app).enter(self.digest)
        await held.__aenter__()
        self.held = held
        if self.resume is not None:  # (a player's numbering: its store seq, if it has one)
            last = self.last
            self.last = await run(lambda: self.resume(ledger(self.request), self.encounter, last))
            if self.last is None:
                await self.free()
                return [await run(lambda: message(
                    ledger(self.request).state(self.encounter), self.owned,
                    ledger(self.request)))]
        self.cu = CatchUp(self.encounter, self.last, self.owned)
        return await self._next()

    async def _next(self) -> list[Message]:
        async with gate_of(self.request.app).pacer:
            cu = self.cu
            assert cu is not None  # (made by start)
            return await run(lambda: next_page(ledger(self.request), cu))

    async def pages(self, first: list[Message]):
        """`first`, then each next page once the one before has gone out."""
        page = first
        try:
            while page:
                yield page
                if self.cu is None or self.cu.done:
                    return
                page = await self._next()
        finally:
            await self.free()

    async def free(self) -> None:
        """Give the gate its place back (once)."""
        held, self.held = self.held, None
        if held is not None:
            await held.__aexit__(None, None, None)


def next_page(ledger, cu: CatchUp) -> list[Message]:
    """The next statuses of the catch-up, in order, read in one snapshot;
    [] when it is done. Folds forward batch by batch from the state it
    left; a correction (undo, redo, retract, amend) folds on from the
    latest state kept from before what it reaches back to, as a command
    folds on from the kept snapshot (from the start only past them all)."""
    store = ledger.store
    with store.reading():
        if cu.head is None:
            cu.head = store.head(cu.encounter)[0]
        if cu.done:
            return []
        out: list[Message] = []
        size = 0
        for end, first in _batch_ends(store, cu):
            if end <= cu.sent:
                continue
            cu.kept.append(_state_at(ledger, cu, end, first))
            msg = message(cu.kept[-1], cu.owned, ledger)
            out.append(msg)
            cu.sent = end
            size += len(msg.data) + len(msg.shown)
            if size >= PAGE_BYTES:
                break
        return out


def _batch_ends(store, cu: CatchUp) -> list[tuple[int, str]]:
    """(last seq, first event's type) of the next PAGE_BATCHES batches
    after `cu.sent`, up to the head."""
    ends: list[tuple[int, int, str]] = []  # (batch, last seq seen, first type)
    assert cu.head is not None  # (read at the catch-up's start)
    upto = min(cu.head, cu.sent + PAGE_SPAN)  # (the first row after `sent` starts a batch)
    rows = store.fold_rows(cu.encounter, after=cu.sent, upto=upto)
    full = False
    try:
        for row in rows:
            seq, batch, type_name = row[0], row[1], row[2]
            if ends and ends[-1][0] == batch:
                ends[-1] = (batch, seq, ends[-1][2])
            elif len(ends) == PAGE_BATCHES:
                full = True
                break
            else:
                ends.append((batch, seq, type_name))
    finally:
        close = getattr(rows, "close", None)
        if close is not None:
            close()
    # (a batch ends where the next begins: one cut by the span goes on past it)
    found = [(min(store.batch_end(cu.encounter, last), cu.head), t) for _, last, t in ends]
    if not full and upto == cu.head and (not found or found[-1][0] < cu.head):
        found.append((cu.head, ""))
    return found


def _state_at(ledger, cu: CatchUp, end: int, first: str):
    """The state after the batch ending at `end`, from the one after `cu.sent`."""
    encounter = cu.encounter
    if not cu.kept:
        if end == cu.head:
            now = ledger.state(encounter)  # (from the kept snapshot: a client one batch behind)
            if now.seq == end:
                return now
        # (the state the client has: what a correction of its last batch folds on from)
        cu.kept.append(ledger.state(encounter, at=cu.sent) if cu.sent else State(encounter))
    # (markers name only earlier batches: those before a kept state's seq
    # cannot change a fold that starts after it, unless a marker since reaches
    # back before it: a correction; the latest state before what it reaches
    # back to holds, as a kept snapshot does for a command)
    starts = reversed(cu.kept) if first in CORRECTIONS else [cu.kept[-1]]
    for start in starts:
        fixes = ledger.corrections(encounter, end, start.seq)
        if first in CORRECTIONS and fixes.reaches_back(start.seq):
            continue
        state = fold(ledger.store, encounter, fixes, snapshots.clone(start),
                     upto=end, after=start.seq)
        state.seq = end
        return state
    return ledger.state(encounter, at=end)
