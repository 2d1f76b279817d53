"""`GET /api/encounters/{id}/stream`: Server-Sent Events, one message per
batch (`id:` its last seq, the status after it). A listener subscribes
before it reads what it missed, then skips what it has already sent:
nothing is missed, nothing doubled. What it missed is sent a page at a
time as the client reads (catchup.py), counted as a long read while it
lasts (bounded.py)."""
from __future__ import annotations



from starlette.requests import Request

from eventlog.errors import LedgerError, UnknownEncounter
from eventlog.language import N_, _

from cli.server.catchup import Catching
from cli.server.hub import Listener
from cli.server.reads import reading, token_of
from cli.server.replies import DIGITS, BadInput, guarded, ledger, run
from cli.server.views import CLOSED_SEQ, TABLE_SEQ, closed_message, encode, frame_for, sees_all

PING_S = 15  # a keep-alive comment on an idle stream (proxies, phones' NAT)
REVOKED = N_("unknown or revoked token: ask the GM for a new link")


def refused() -> dict:
    """The last message of a stream whose token stopped working."""
    return {"event": "refused", "data": encode({"error": _(REVOKED)})}


def closed_again(msg) -> str:
    """A closing message made once by the hub (in no reader's language),
    said again in this listener's."""
    import msgspec
    made = msgspec.json.decode(msg.data)
    return closed_message(made["encounter"], made["reason"]).data


def last_seen(request: Request) -> int | None:
    """`Last-Event-ID`: the seq of the last message the client saw."""
    last = request.headers.get("last-event-id")
    if last is not None and not DIGITS.fullmatch(last.strip()):
        raise BadInput(_("Last-Event-ID is the seq of the last message seen, not {given!r}")
                       .format(given=last[:20]))
    return int(last) if last is not None else None


def _ended(lg, encounter: str, reads_archived: bool) -> str | None:
    """Why a stream's encounter is out of reach now ("deleted", "archived"),
    or None."""
    try:
        lg.store.head(encounter)
    except UnknownEncounter:
        return "deleted"
    return "archived" if lg.store.is_archived(encounter) and not reads_archived else None


async def _refused(request: Request, encounter: str, reads_archived: bool) -> dict:
    """The last message of a stream whose token stopped working: a delete
    of its encounter takes its tokens too, and then the why is the delete."""
    why = await run(lambda: _ended(ledger(request), encounter, reads_archived))
    return {"event": "closed", "data": closed_message(encounter, why).data} if why else refused()


def _resumed(lg, encounter: str, seen: int) -> int | None:
    """The store seq a player's stream resumes after (`Last-Event-ID` is in
    the players' numbering), or None: send the current status."""
    from projections.numbering import resume_point
    return resume_point(lg, encounter, lg.state(encounter), seen)


@guarded
async def stream(request: Request):
    from sse_starlette.sse import EventSourceResponse
    from starlette.background import BackgroundTask
    token, encounter = await reading(request)
    last = last_seen(request)
    hub = request.app.state.hub
    listener = Listener(encounter, token)
    # (a GM token reading archived encounters on purpose: replies.check_unarchived)
    listener.archived = token.role == "gm" and request.query_params.get("archived") in ("1", "true")
    hub.subscribe(listener)
    owned = hub.owned(encounter) | frozenset(token.owns)
    players = not sees_all(token)  # (ids in the players' numbering: projections/numbering.py)
    catching = Catching(request, encounter, last, owned, token.digest,
                        _resumed if players else None)
    try:
        first = await catching.start()
        after = catching.last  # (None: a reveal renumbered; the current status is sent)
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

    def fresh(msg, told: int | None) -> bool:
        """Whether a player reads something new in `msg` (a batch of a
        hidden combatant alone changes nothing they read)."""
        return not players or told is None or msg.players_seq != told

    async def messages():
        sent = after or 0
        told = last if after is not None else None  # the players' seq last sent
        try:
            async for page in catching.pages(first):
                for msg in page:
                    if fresh(msg, told):
                        yield frame_for(msg, token, keep=False)  # (its own: not shared)
                        told = msg.players_seq
                    sent = msg.seq
                if not await still_valid():  # (a catch-up read slowly may last)
                    yield await _refused(request, encounter, listener.archived)
                    return
            while True:
                msg = await listener.queue.get()  # (None: the hub's tick, TICK_S)
                if msg is not None and msg.seq == CLOSED_SEQ:  # (archived or deleted: why,
                    yield {"event": "closed", "data": closed_again(msg)}  # before its tokens'
                    return  # refusal)
                if not (hub.valid(token.digest) or await still_valid()):
                    yield await _refused(request, encounter, listener.archived)
                    return
                if listener.behind:
                    return  # (the browser reconnects with Last-Event-ID and catches up)
                if msg is not None and msg.seq == TABLE_SEQ:
                    yield {"event": "table", "data": msg.data}
                elif msg is not None and msg.seq > sent:
                    if fresh(msg, told):
                        yield frame_for(msg, token)
                        told = msg.players_seq
                    sent = msg.seq
        finally:
            hub.unsubscribe(listener)

    async def ended() -> None:  # (also when the body is never read: a HEAD request)
        await catching.free()
        hub.unsubscribe(listener)

    return EventSourceResponse(messages(), ping=PING_S, headers={"Cache-Control": "no-store"},
                               background=BackgroundTask(ended))
