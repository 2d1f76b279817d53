"""The table server's app: the API of docs/server.md and the
pages, as a list of routes to plain Starlette endpoint functions
(reads.py, declare.py, stream.py). Every store call runs on a worker thread
with that thread's own store handle (handles.py); every declaration goes
through the core's one `execute`, after the token check."""
from __future__ import annotations

from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from eventlog.language import _, speaking

from cli.server import declare, evening, portraits, reads, rules, table
from cli.server.health import health
from cli.server.metrics import Metrics, metrics
from cli.server.handles import Handles
from cli.server.hooks import Deliverer
from cli.server.hub import Hub
from cli.server.replies import JSON, run
from cli.server.speech import Speaking, messages, wanted
from cli.server.stream import stream

API = "/api/encounters/{encounter}"
ROUTES = [  # (tried in order: the declarations first, the table's busiest requests)
    Route(f"{API}/commands", declare.commands, methods=["POST"]),
    Route(f"{API}/line", declare.line, methods=["POST"]),
    Route("/", reads.page),
    Route("/health", health),
    Route("/metrics", metrics),
    Route("/api/me", reads.me),
    Route("/api/messages", messages),
    Route("/api/party", reads.party_of),
    Route("/api/encounters", reads.encounters),
    Route(f"{API}/status", reads.status_of),
    Route(f"{API}/log", reads.log_of),
    Route(f"{API}/lines", reads.lines_of),
    Route(f"{API}/latest", reads.latest_of),
    Route(f"{API}/portraits", portraits.portraits_of),
    Route("/api/portraits/{digest}", portraits.portrait),
    Route(API, evening.create, methods=["POST"]),
    Route(f"{API}/archive", evening.archive, methods=["POST"]),
    Route(f"{API}/stream", stream),
    Route("/api/schema", reads.schema),
    Route("/api/table", table.table, methods=["GET", "PUT"]),
    Route("/api/join", table.join, methods=["GET", "POST"]),
    Route("/api/joins", table.joins),
    # (a name may hold `/`: the page sends it percent-encoded, the path has it decoded)
    Route("/api/joins/{name:path}", table.answer, methods=["POST"]),
    Route("/api/players/{name:path}/revoke", table.revoke, methods=["POST"]),
    Route("/join", table.join_page),
    Route("/join/qr.svg", table.qr),
    Route("/manifest.webmanifest", reads.manifest),
    Route("/rules/{rule}", rules.rule_page),
    Mount("/static", StaticFiles(directory=reads.STATIC), name="static"),
]


async def unexpected(request: Request, exc: Exception):
    # (said outside the middleware, which the server's last handler wraps:
    # the request's language is chosen here again)
    with speaking(wanted(request.headers, request.scope.get("query_string", b""))):
        said = _("unexpected failure ({kind}); the declaration may not have been recorded: "
                 "check the log").format(kind=type(exc).__name__)
    return JSON({"error": said}, status_code=500)


async def not_here(request: Request, exc: HTTPException):
    """Starlette's own refusals (no such address, a wrong method), in the
    API's shape: one line under "error"."""
    if exc.status_code == 404:
        said = _("no such page or API address (see the docs' table server page)")
    elif exc.status_code == 405:
        said = _("{method} is not allowed here").format(method=request.method)
    else:
        said = exc.detail
    return JSON({"error": said}, status_code=exc.status_code, headers=exc.headers)


def build(open_store, join_minutes: float | None = None) -> Starlette:
    """The app over the store `open_store()` opens (once per worker thread);
    a join request waits `join_minutes` for the GM's answer."""
    handles = Handles(open_store)
    hub = Hub(handles)
    hooks = Deliverer(handles)

    @asynccontextmanager
    async def lifespan(app):
        await run(hub.start)
        hooks.start()
        try:
            yield
        finally:
            await run(hooks.stop)
            await run(hub.stop)
            handles.close()

    app = Starlette(routes=ROUTES, lifespan=lifespan,  # (starlette: a handler takes any Exception)
                    middleware=[Middleware(Speaking)],
                    exception_handlers={HTTPException: not_here,  # type: ignore[dict-item]
                                        Exception: unexpected})
    app.state.hub, app.state.handles = hub, handles
    app.state.metrics = Metrics(hub)
    from projections.joining import MINUTES
    app.state.join_minutes = MINUTES if join_minutes is None else join_minutes
    app.state.asked = table.Asked()
    return app
