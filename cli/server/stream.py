"""`GET /api/encounters/{id}/stream`: Server-Sent Events, one message per
batch (`id:` its last seq, the status after it). A listener subscribes
before it reads what it missed, then skips what it has already sent:
nothing is missed, nothing doubled."""
from __future__ import annotations

import asyncio

from starlette.requests import Request

from eventlog.errors import LedgerError
from projections.reports.views import status

from cli.server.bounded import gate_of
from cli.server.hub import TICK_S, Listener, Message, batch_statuses, encode
from cli.server.reads import reading, token_of
from cli.server.replies import DIGITS, BadInput, guarded, ledger, run

PING_S = 15  # a keep-alive comment on an idle stream (proxies, phones' NAT)
REFUSED = {"event": "refused", "data": encode(
    {"error": "unknown or revoked token: ask the GM for a new link"})}


def last_seen(request: Request) -> int | None:
    """`Last-Event-ID`: the seq of the last message the client saw."""
    last = request.headers.get("last-event-id")
    if last is not None and not DIGITS.fullmatch(last.strip()):
        raise BadInput(f"Last-Event-ID is the seq of the last message seen, not {last[:20]!r}")
    return int(last) if last is not None else None


def missed(request: Request, encounter: str, last: int | None) -> list[Message]:
    """What the client has not seen: the current status, or every batch after `last`."""
    lg = ledger(request)
    if last is None:
        state = lg.state(encounter)
        return [Message(state.seq, encode(status(state)))]
    return batch_statuses(lg, encounter, last)


@guarded
async def stream(request: Request):
    from sse_starlette.sse import EventSourceResponse
    token, encounter = await reading(request)
    last = last_seen(request)
    hub = request.app.state.hub
    listener = Listener(encounter, token.digest)
    hub.subscribe(listener)
    try:
        if last is None:
            backlog = await run(missed, request, encounter, last)
        else:  # (a catch-up folds the log: a long read, counted)
            async with gate_of(request.app).enter(token.digest):
                backlog = await run(missed, request, encounter, last)
    except BaseException:
        hub.unsubscribe(listener)
        raise

    async def still_valid() -> bool:
        if hub.valid(token.digest):
            return True
        try:  # (a token made since the watcher last looked)
            await token_of(request)
        except LedgerError:
            return False
        return True

    async def messages():
        sent = last or 0
        try:
            for message in backlog:
                yield {"id": str(message.seq), "event": "status", "data": message.data}
                sent = message.seq
            while True:
                try:
                    message = await asyncio.wait_for(listener.queue.get(), TICK_S)
                except asyncio.TimeoutError:
                    message = None
                if not await still_valid():
                    yield REFUSED
                    return
                if listener.behind:
                    return  # (the browser reconnects with Last-Event-ID and catches up)
                if message is not None and message.seq > sent:
                    yield {"id": str(message.seq), "event": "status", "data": message.data}
                    sent = message.seq
        finally:
            hub.unsubscribe(listener)

    return EventSourceResponse(messages(), ping=PING_S, headers={"Cache-Control": "no-store"})
