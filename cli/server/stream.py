"""`GET /api/encounters/{id}/stream`: Server-Sent Events, one message per
batch (`id:` its last seq, the status after it). A listener subscribes
before it reads what it missed, then skips what it has already sent:
nothing is missed, nothing doubled. What it missed is sent a page at a
time as the client reads (catchup.py), counted as a long read while it
lasts (bounded.py)."""
from __future__ import annotations



from starlette.requests import Request

from eventlog.errors import LedgerError

from cli.server.catchup import Catching
from cli.server.hub import Listener
from cli.server.views import TABLE_SEQ, data_for, encode
from cli.server.reads import reading, token_of
from cli.server.replies import DIGITS, BadInput, guarded

PING_S = 15  # a keep-alive comment on an idle stream (proxies, phones' NAT)
REFUSED = {"event": "refused", "data": encode(
    {"error": "unknown or revoked token: ask the GM for a new link"})}


def last_seen(request: Request) -> int | None:
    """`Last-Event-ID`: the seq of the last message the client saw."""
    last = request.headers.get("last-event-id")
    if last is not None and not DIGITS.fullmatch(last.strip()):
        raise BadInput(f"Last-Event-ID is the seq of the last message seen, not {last[:20]!r}")
    return int(last) if last is not None else None


@guarded
async def stream(request: Request):
    from sse_starlette.sse import EventSourceResponse
    from starlette.background import BackgroundTask
    token, encounter = await reading(request)
    last = last_seen(request)
    hub = request.app.state.hub
    listener = Listener(encounter, token)
    hub.subscribe(listener)
    owned = hub.owned(encounter) | frozenset(token.owns)
    catching = Catching(request, encounter, last, owned, token.digest)
    try:
        first = await catching.start()
    except BaseException:
        await catching.free()
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
            async for page in catching.pages(first):
                for msg in page:
                    yield {"id": str(msg.seq), "event": "status",
                           "data": data_for(msg, token)}
                    sent = msg.seq
                if not await still_valid():  # (a catch-up read slowly may last)
                    yield REFUSED
                    return
            while True:
                msg = await listener.queue.get()  # (None: the hub's tick, TICK_S)
                if not (hub.valid(token.digest) or await still_valid()):
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

    async def ended() -> None:  # (also when the body is never read: a HEAD request)
        await catching.free()
        hub.unsubscribe(listener)

    return EventSourceResponse(messages(), ping=PING_S, headers={"Cache-Control": "no-store"},
                               background=BackgroundTask(ended))
