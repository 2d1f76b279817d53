"""`GET /api/encounters/{id}/stream`: Server-Sent Events, one message per
batch (`id:` its last seq, the status after it). A listener subscribes
before it reads what it missed, then skips what it has already sent:
nothing is missed, nothing doubled."""
from __future__ import annotations

import asyncio


from starlette.requests import Request

from eventlog.errors import LedgerError

from cli.server.bounded import gate_of
from cli.server.hub import TICK_S, Listener, batch_statuses
from cli.server.views import TABLE_SEQ, Message, data_for, encode, message
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


def missed(request: Request, encounter: str, last: int | None, owned) -> list[Message]:
    """What the client has not seen: the current status, or every batch after `last`."""
    lg = ledger(request)
    if last is None:
        return [message(lg.state(encounter), owned)]
    return batch_statuses(lg, encounter, last, owned)


@guarded
async def stream(request: Request):
    from sse_starlette.sse import EventSourceResponse
    token, encounter = await reading(request)
    last = last_seen(request)
    hub = request.app.state.hub
    listener = Listener(encounter, token)
    hub.subscribe(listener)
    owned = hub.owned(encounter) | frozenset(token.owns)
    try:
        if last is None:
            backlog = await run(missed, request, encounter, last, owned)
        else:  # (a catch-up folds the log: a long read, counted)
            async with gate_of(request.app).enter(token.digest):
                backlog = await run(missed, request, encounter, last, owned)
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
            for msg in backlog:
                yield {"id": str(msg.seq), "event": "status",
                       "data": data_for(msg, token)}
                sent = msg.seq
            while True:
                try:
                    msg = await asyncio.wait_for(listener.queue.get(), TICK_S)
                except TimeoutError:
                    msg = None
                if not await still_valid():
                    yield REFUSED
                    return
                if listener.behind:
                    return  # (the browser reconnects with Last-Event-ID and catches up)
                if msg is not None and msg.seq == TABLE_SEQ:
                    yield {"event": "table", "data": msg.data}
                elif msg is not None and msg.seq > sent:
                    yield {"id": str(msg.seq), "event": "status",
                           "data": data_for(msg, token)}
                    sent = msg.seq
        finally:
            hub.unsubscribe(listener)

    return EventSourceResponse(messages(), ping=PING_S, headers={"Cache-Control": "no-store"})
