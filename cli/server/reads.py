"""What a token may read: the pages, who it is, the encounters it reaches,
an encounter's status, log and lines, and the schema."""
from __future__ import annotations

from collections import deque
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse

from eventlog.text import neutral
from eventlog.language import _
from projections import access
from projections.numbering import players_seq

from cli.server import auth
from cli.server.bounded import bounded_log
from cli.server.replies import (JSON, check_unarchived, encounter_of, guarded, ledger, number,
                                run)
from cli.server.views import sees_all, status_for

STATIC = Path(__file__).parent / "static"
LINES, MAX_LINES = 12, 500  # lines of the log the GM page shows, and the most asked for
PAGE_HEADERS = {
    # The token rides in the page's address: never send it on to another site.
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; style-src 'self'; script-src 'self'; "
                               "img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


async def token_of(request: Request):
    """The request's token (401 without a known one), read on a worker
    thread; its language, if it has one, is the rest of the request's."""
    token = await run(lambda: auth.token_of(ledger(request).store, request))
    auth.heard(request, token)  # (the worker's context was a copy: said here again)
    return token


async def reading(request: Request):
    """The token and the encounter it may read, or the error."""
    token = await token_of(request)
    encounter = encounter_of(request)
    access.check_reach(token, encounter)
    await run(check_unarchived, request, token, encounter)
    return token, encounter


async def page(request: Request):
    return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)


async def manifest(request: Request):
    """The web app manifest: a phone may keep the page on its home screen."""
    return FileResponse(STATIC / "manifest.webmanifest",
                        media_type="application/manifest+json")


@guarded
async def me(request: Request):
    try:
        token = await token_of(request)
    except access.Unauthorized as exc:
        if await run(waits, request):  # (the join page polls: its words are the reader's)
            from cli.server.replies import one_line
            request.app.state.metrics.refused(401)
            return JSON({"error": one_line(exc), "waiting": True}, status_code=401)
        raise
    return JSON({"name": token.name, "role": token.role, "owns": list(token.owns),
                 "encounter": token.encounter})


def waits(request: Request) -> bool:
    """Whether the request's secret is a join request still waiting for the
    GM (the join page keeps asking; any other refusal is its answer)."""
    from eventlog.codec import utc_now
    from projections.joining import WAITS
    secret = auth.presented(request)
    asked = ledger(request).store.join(access.digest(secret)) if secret else None
    return asked is not None and asked.state == WAITS and utc_now() < asked.expires_at


@guarded
async def party_of(request: Request):
    """GET /api/party: what the token may read of the party (the core says)."""
    from projections.party.sheet import party_for
    token = await token_of(request)
    return JSON(await run(lambda: party_for(ledger(request), token)))


@guarded
async def encounters(request: Request):
    token = await token_of(request)
    every = request.query_params.get("all") == "1" and token.role == "gm"

    def listed():
        lg = ledger(request)
        out = []
        archived = lg.store.archived()  # set aside: out of the pickers (the docs)
        for info in lg.store.encounters():
            if (every or info.id not in archived) and access.reaches(token, info.id):
                state = lg.state(info.id)
                seq = state.seq if sees_all(token) else players_seq(lg, info.id, state)
                out.append({"id": info.id, "title": info.title, "phase": state.phase,
                            "seq": seq,
                            **({"archived": True} if info.id in archived else {})})
        return out
    return JSON(await run(listed))


@guarded
async def status_of(request: Request):
    token, encounter = await reading(request)
    return JSON(await run(lambda: status_for(ledger(request).state(encounter), token, ledger(request))))


@guarded
async def log_of(request: Request):
    token, encounter = await reading(request)
    after = number(request, "after", 0, _("a seq (a whole number of 0 or more)"))
    return await bounded_log(request, token, encounter, after, players=not sees_all(token))


@guarded
async def lines_of(request: Request):
    """The last lines of the log as `combat log` words them (the GM page)."""
    token, encounter = await reading(request)
    last = number(request, "last", LINES,
                  _("a number of lines from 1 to {most}").format(most=MAX_LINES), 1, MAX_LINES)

    def lines():  # (an unknown encounter: timeline's head read is the 404)
        from projections.reports.timeline import said, timeline
        lg = ledger(request)
        entries = timeline(lg, encounter)
        if not sees_all(token):
            from projections.numbering import Lens, entries_for_players
            from projections.visible import Sieve
            entries = entries_for_players(entries, Lens(Sieve.of(lg.state(encounter)), marks=True))
        return [{**said(e), **kind_of(e.env.data)} for e in deque(entries, maxlen=last)]
    return JSON(await run(lines))


def kind_of(data) -> dict:
    """What a line of the log is, as data the GM page acts on (its words are
    the reader's language): `correction` (undo, retraction, redo, amendment)
    or `created` (an encounter's first line, not a fork's)."""
    from eventlog.events import Amended, EncounterCreated, Redone, Undone
    if isinstance(data, Undone):
        return {"correction": "undo" if data.kind == "undo" else "retraction"}
    if isinstance(data, Redone):
        return {"correction": "redo"}
    if isinstance(data, Amended):
        return {"correction": "amendment"}
    if isinstance(data, EncounterCreated) and data.fork is None:
        return {"created": True}
    return {}


@guarded
async def latest_of(request: Request):
    """What undo and redo would act on as of `?at=SEQ` (the status the GM
    page drew; default: now). The page sends it back as `expect`, so its
    Ctrl-Z takes back what the GM saw, or nothing. The GM's only."""
    token, encounter = await reading(request)
    if not sees_all(token):
        raise access.Forbidden(_("{name}'s token is not the GM's: only the GM undoes and redoes")
                               .format(name=neutral(token.name)))
    at = number(request, "at", 0, _("a seq (a whole number of 1 or more)"), 1) or None

    def latest():
        from projections.correcting import latest
        lg = ledger(request)
        with lg.store.reading():
            lg.store.head(encounter)  # (an unknown encounter: the 404)
            out = latest(lg.book(encounter, at), lambda b: lg.batch(encounter, b))
        return {k: v and {**v, "text": neutral(v["text"])} for k, v in out.items()}
    return JSON(await run(latest))


@guarded
async def schema(request: Request):
    await token_of(request)
    from projections.reports.schema import command_schema, event_schema
    return JSON({"commands": command_schema(), "events": event_schema()})
