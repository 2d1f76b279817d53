"""The table server's routes: the API of docs/server.md and
the pages, as plain Starlette functions. Every store call runs on a worker
thread with that thread's own store handle (handles.py); every declaration
goes through `Ledger.execute`, after the token check (auth.py)."""
from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from pathlib import Path

import msgspec
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from eventlog.codec import envelope_dict
from eventlog.errors import Conflict, LedgerError, Refusal, UnknownEncounter
from projections.domain import commands as c
from projections import access
from projections.reports.views import status

from cli.server import auth, rules
from cli.server.handles import Handles
from cli.server.hub import TICK_S, Hub, Listener, Message, batch_statuses, encode

STATIC = Path(__file__).parent / "static"
PING_S = 15  # a keep-alive comment on an idle stream (proxies, phones' NAT)
MAX_BODY = 64 * 1024  # one command is a few hundred bytes; a roster a few KiB
LINES, MAX_LINES = 12, 500  # lines of the log the GM page shows, and the most asked for
PAGE_HEADERS = {
    # The token rides in the page's address: never send it on to another site.
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; style-src 'self'; script-src 'self'; "
                               "img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


class BadInput(LedgerError):
    """A malformed command or parameter (422)."""


class TooLarge(LedgerError):
    """A request body over MAX_BODY (413)."""


CODES = ((access.Unauthorized, 401), (access.Forbidden, 403), (UnknownEncounter, 404),
         (TooLarge, 413), (BadInput, 422), (Refusal, 409), (Conflict, 409), (LedgerError, 409))


def number(request: Request, name: str, default: int, takes: str, low: int = 0,
           high: int = 10**18 - 1) -> int:
    """A whole-number query parameter (`?after=`, `?last=`), or BadInput."""
    given = request.query_params.get(name)
    if given is None:
        return default
    if not given.isdigit() or len(given) > 18 or not low <= int(given) <= high:
        raise BadInput(f"?{name}= takes {takes}, not {given[:20]!r}")
    return int(given)


def one_line(exc: BaseException) -> str:
    """The line the CLI prints after `error: `."""
    return " ".join(str(exc).splitlines())


class JSON(Response):
    """JSON by msgspec (a status is encoded once, for the answer and the stream)."""
    media_type = "application/json"

    def render(self, content) -> bytes:
        return content if isinstance(content, bytes) else msgspec.json.encode(content)


def failure(exc: LedgerError) -> JSON:
    code = next(code for kind, code in CODES if isinstance(exc, kind))
    return JSON({"error": one_line(exc)}, status_code=code)


def build(open_store) -> Starlette:
    """The app over the store `open_store()` opens (once per worker thread)."""
    handles = Handles(open_store)
    hub = Hub(handles)

    def ledger():
        return handles.ledger()

    async def run(work, *args):
        return await run_in_threadpool(work, *args)

    async def token_of(request: Request):
        return await run(lambda: auth.token_of(ledger().store, request))

    async def reading(request: Request):
        """The token and the encounter it may read, or the error."""
        token = await token_of(request)
        encounter = request.path_params["encounter"]
        access.check_reach(token, encounter)
        return token, encounter

    def guarded(handler):
        async def endpoint(request: Request):
            try:
                return await handler(request)
            except LedgerError as exc:
                return failure(exc)
        return endpoint

    # -- pages ---------------------------------------------------------------

    async def page(request: Request):
        return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)

    # -- reads ---------------------------------------------------------------

    async def me(request: Request):
        token = await token_of(request)
        return JSON({"name": token.name, "role": token.role, "owns": list(token.owns),
                     "encounter": token.encounter})

    async def encounters(request: Request):
        token = await token_of(request)

        def listed():
            lg = ledger()
            out = []
            for info in lg.store.encounters():
                if access.reaches(token, info.id):
                    state = lg.state(info.id)
                    out.append({"id": info.id, "title": info.title, "phase": state.phase,
                                "seq": state.seq})
            return out
        return JSON(await run(listed))

    async def status_of(request: Request):
        _, encounter = await reading(request)
        return JSON(await run(lambda: status(ledger().state(encounter))))

    async def log_of(request: Request):
        _, encounter = await reading(request)
        after = number(request, "after", 0, "a seq (a whole number of 0 or more)")

        def events():
            ledger().store.head(encounter)  # (an unknown encounter: 404)
            return ledger().event_dicts(encounter, after)
        return JSON(await run(events))

    async def lines_of(request: Request):
        """The last lines of the log as `combat log` words them (the GM page)."""
        _, encounter = await reading(request)
        last = number(request, "last", LINES, f"a number of lines from 1 to {MAX_LINES}",
                      1, MAX_LINES)

        def lines():  # (an unknown encounter: timeline's head read is the 404)
            from collections import deque

            from projections.reports.timeline import said, timeline
            return [said(e) for e in deque(timeline(ledger(), encounter), maxlen=last)]
        return JSON(await run(lines))

    async def schema(request: Request):
        await token_of(request)
        from projections.reports.schema import command_schema, event_schema
        return JSON({"commands": command_schema(), "events": event_schema()})

    # -- declarations ----------------------------------------------------------

    async def body_of(request: Request) -> bytes:
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BODY:
            raise TooLarge(f"a request holds at most {MAX_BODY // 1024} KiB")
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise TooLarge(f"a request holds at most {MAX_BODY // 1024} KiB")
            chunks.append(chunk)
        return b"".join(chunks)

    def execute(token, encounter: str, command: c.Command) -> bytes:
        lg = ledger()
        access.check_may_declare(token, command)
        if isinstance(command, c.New):  # (it names the encounter it starts)
            encounter = command.id
        out = lg.execute(None if isinstance(command, c.New) else encounter, command,
                         token.name, permit=access.permit_for(token), gm=token.role == "gm")
        view = encode(status(out.state))
        if out.events:
            hub.appended(encounter, out.events[0].seq - 1, out.events[-1].seq, view)
        events = msgspec.json.encode([envelope_dict(e, False) for e in out.events]).decode()
        return f'{{"seq":{out.state.seq},"events":{events},"status":{view}}}'.encode()

    def declaring(request: Request, raw: bytes, read) -> bytes:
        """On one worker thread: the token, its reach and role, the command
        read from `raw`, and its execution."""
        token = auth.token_of(ledger().store, request)
        encounter = request.path_params["encounter"]
        access.check_reach(token, encounter)
        access.check_writes(token)
        return execute(token, encounter, read(raw))

    def read_command(raw: bytes) -> c.Command:
        try:
            return c.decode(raw)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise BadInput(f"not a command: {c.malformed(raw, exc)} (see /api/schema)") from None
        except RecursionError:  # (msgspec's depth guard, on a hostile body)
            raise BadInput("not a command: it is nested too deeply (see /api/schema)") from None

    async def commands(request: Request):
        raw = await body_of(request)
        return JSON(await run(declaring, request, raw, read_command))

    def read_line(raw: bytes) -> c.Command:
        """The GM's command box: one play-mode line, read by the CLI's own
        grammar (cli/lines.py) into the command struct, no typer run."""
        from cli.lines import BadLine, parse_line
        try:
            line = msgspec.json.decode(raw, type=dict[str, str]).get("line", "")
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise BadInput(f'not a line: send {{"line": "act rook major"}} ({one_line(exc)})') from None
        try:
            return parse_line(line).command
        except BadLine as exc:
            raise BadInput(one_line(exc)) from None

    async def line(request: Request):
        raw = await body_of(request)
        return JSON(await run(declaring, request, raw, read_line))

    # -- the stream --------------------------------------------------------------

    async def stream(request: Request):
        from sse_starlette.sse import EventSourceResponse
        token, encounter = await reading(request)
        last = request.headers.get("last-event-id")
        if last is not None and (not last.strip().isdigit() or len(last) > 18):
            raise BadInput(f"Last-Event-ID is the seq of the last message seen, not {last[:20]!r}")
        listener = Listener(encounter, token.digest)
        hub.subscribe(listener)
        try:
            if last is None:
                def current():
                    state = ledger().state(encounter)
                    return [Message(state.seq, encode(status(state)))]
                missed = await run(current)
            else:
                missed = await run(lambda: batch_statuses(ledger(), encounter, int(last)))
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
            sent = int(last) if last is not None else 0
            try:
                for message in missed:
                    yield {"id": str(message.seq), "event": "status", "data": message.data}
                    sent = message.seq
                while True:
                    try:
                        message = await asyncio.wait_for(listener.queue.get(), TICK_S)
                    except asyncio.TimeoutError:
                        message = None
                    if not await still_valid():
                        yield {"event": "refused", "data": encode(
                            {"error": "unknown or revoked token: ask the GM for a new link"})}
                        return
                    if listener.behind:
                        return  # (the browser reconnects with Last-Event-ID and catches up)
                    if message is not None and message.seq > sent:
                        yield {"id": str(message.seq), "event": "status", "data": message.data}
                        sent = message.seq
            finally:
                hub.unsubscribe(listener)

        return EventSourceResponse(messages(), ping=PING_S, headers={"Cache-Control": "no-store"})

    @asynccontextmanager
    async def lifespan(app):
        await run(hub.start)
        try:
            yield
        finally:
            await run(hub.stop)
            handles.close()

    async def unexpected(request: Request, exc: Exception):
        return JSON({"error": f"unexpected failure ({type(exc).__name__}); "
                                      "the declaration may not have been recorded: "
                                      "check the log"}, status_code=500)

    async def not_here(request: Request, exc: HTTPException):
        """Starlette's own refusals (no such address, a wrong method), in the
        API's shape: one line under "error"."""
        words = {404: "no such page or API address (see docs/server.md)",
                 405: f"{request.method} is not allowed here"}
        return JSON({"error": words.get(exc.status_code, exc.detail)},
                    status_code=exc.status_code, headers=exc.headers)

    api = "/api/encounters/{encounter}"
    routes = [
        Route("/", page),
        Route("/api/me", guarded(me)),
        Route("/api/encounters", guarded(encounters)),
        Route(f"{api}/status", guarded(status_of)),
        Route(f"{api}/log", guarded(log_of)),
        Route(f"{api}/lines", guarded(lines_of)),
        Route(f"{api}/commands", guarded(commands), methods=["POST"]),
        Route(f"{api}/line", guarded(line), methods=["POST"]),
        Route(f"{api}/stream", guarded(stream)),
        Route("/api/schema", guarded(schema)),
        Route("/rules/{rule}", rules.rule_page),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: not_here, Exception: unexpected})
    app.state.hub, app.state.handles = hub, handles
    return app
