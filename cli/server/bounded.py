"""Bounded reads: a log is sent in pages as the client
reads it (each page read on a worker thread only once the one before has
gone out, so a client that never reads holds one page, not the log), and
the long reads (a log, a stream's catch-up) are limited per token and per
server: one over the limit is 429, and the rest of the table is answered."""
from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from itertools import islice

import msgspec

from eventlog.codec import envelope_dict
from eventlog.events import MARKERS
from eventlog.language import _
from projections.history import envelope

from cli.server.replies import TooBusy, ledger, run

PAGE = 500  # events a page of a log holds
PER_TOKEN = 4  # long reads one token may have under way
PER_SERVER = 32  # long reads the server has under way
PAGES_AT_ONCE = 2  # pages of long reads made at once (each on a worker thread)


class Gate:
    """Counts of long reads under way, kept on the event loop (no lock)."""

    def __init__(self) -> None:
        self.by_token: dict[str, int] = {}
        self.total = 0
        self._pacer: asyncio.Semaphore | None = None

    @property
    def pacer(self) -> asyncio.Semaphore:
        """Held while a page of a long read is made: the long reads under
        way take turns on the worker threads, and every other request
        finds one free (made on first use, on the server's event loop)."""
        if self._pacer is None:
            self._pacer = asyncio.Semaphore(PAGES_AT_ONCE)
        return self._pacer

    @asynccontextmanager
    async def enter(self, digest: str):
        mine = self.by_token.get(digest, 0)
        if mine >= PER_TOKEN:
            raise TooBusy(_("this token has {n} long reads under way (a log, a stream catching "
                            "up): let one finish first").format(n=PER_TOKEN))
        if self.total >= PER_SERVER:
            raise TooBusy(_("the server is busy sending logs: try again in a moment"))
        self.by_token[digest] = mine + 1
        self.total += 1
        try:
            yield
        finally:
            self.total -= 1
            left = self.by_token[digest] - 1
            if left:
                self.by_token[digest] = left
            else:
                del self.by_token[digest]


def gate_of(app) -> Gate:
    gate = getattr(app.state, "gate", None)
    if gate is None:
        gate = app.state.gate = Gate()
    return gate


def log_start(ledger, encounter: str) -> tuple[int, frozenset, int]:
    """The head the log is read up to, the batches undone by then, and the
    seq up to which the log was imported."""
    head = ledger.store.head(encounter)[0]
    return (head, frozenset(ledger.corrections(encounter, head).undone),
            ledger.store.imported(encounter))


def log_page(ledger, encounter: str, after: int, head: int, undone, imported: int = 0,
             lens=None, shown_after: int = 0) -> tuple[bytes, int]:
    """The events after `after` up to `head`, at most PAGE of them, as JSON
    array items (each led by a comma); the last seq read (`head`: done).
    `lens` (a player's or view's read, projections/numbering.py) reads every
    event and keeps those it allows after players' seq `shown_after`."""
    rows = ledger.store.rows(encounter, after=after, upto=head)
    try:
        page = list(islice(rows, PAGE))
    finally:
        close = getattr(rows, "close", None)
        if close is not None:
            close()
    out = bytearray()
    for row in page:
        env = envelope(row)
        said = envelope_dict(env, env.batch in undone and env.type not in MARKERS,
                             env.seq <= imported)
        if lens is not None:
            said = lens.read(said)
            if said is None or said["seq"] <= shown_after:
                continue
        out += b"," + msgspec.json.encode(said)
    return bytes(out), page[-1].seq if len(page) == PAGE else head


async def bounded_log(request, token, encounter: str, after: int, players: bool = False):
    """`log --json` of the encounter after seq `after`, in pages, as the
    client reads (a 404 before the first byte for an unknown encounter).
    `players`: what a player or a view may read (no hidden combatant): the
    log is read from its start, so a correction of a batch they saw is kept."""
    from projections.numbering import Lens
    from projections.visible import Sieve
    from starlette.responses import StreamingResponse

    gate = gate_of(request.app)
    entered = gate.enter(token.digest)
    await entered.__aenter__()
    try:
        head, undone, imported = await run(lambda: log_start(ledger(request), encounter))
        lens = Lens(Sieve.of(await run(lambda: ledger(request).state(encounter)))) \
            if players else None
    except BaseException:
        await entered.__aexit__(None, None, None)
        raise

    async def pieces():
        try:
            sent, first = (0 if lens else after), True
            while True:
                if sent >= head:
                    break
                body, sent = await run(lambda at=sent: log_page(
                    ledger(request), encounter, at, head, undone, imported, lens, after))
                if body:
                    yield (b"[" + body[1:]) if first else body
                    first = False
            yield b"[]" if first else b"]"
        finally:
            await entered.__aexit__(None, None, None)
    return StreamingResponse(pieces(), media_type="application/json")
