"""How the server answers: JSON by msgspec, one `{"error": ...}` line with
the status that fits the failure, and the bounded reading of a request."""
from __future__ import annotations

import re

import msgspec
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from eventlog.errors import (
    Conflict, LedgerError, Refusal, StoreError, Unconfirmed, UnknownEncounter,
)
from eventlog.language import N_, _
from projections import access
from projections.joining import TooMany
from projections.portraits import NoPortrait

MAX_BODY = 64 * 1024  # one command is a few hundred bytes; a roster a few KiB
DIGITS = re.compile(r"[0-9]{1,18}")  # ASCII digits only: `²` is no number here


class BadInput(LedgerError):
    """A malformed command or parameter (422)."""


class TooLarge(LedgerError):
    """A request body over MAX_BODY (413)."""


class Slow(LedgerError):
    """Too many requests of one kind from one address (429)."""


class TooBusy(LedgerError):
    """Too many long reads under way, of the token or the server (429)."""


class TooSlow(LedgerError):
    """A request body that did not arrive in time (408)."""


CODES = ((access.Unauthorized, 401), (access.Forbidden, 403), (UnknownEncounter, 404),
         (NoPortrait, 404),
         (TooSlow, 408), (TooLarge, 413), (Slow, 429), (TooBusy, 429), (TooMany, 429), (BadInput, 422),
         (Refusal, 409), (Conflict, 409),
         (StoreError, 503), (LedgerError, 409))
# A store's own failure (a driver's message, a lock, a lost connection) names
# where the store lives: the client is told this, the server's terminal the
# rest.
STORE_FAILED = N_("the store could not answer this request (the server's terminal says why)")


class JSON(Response):
    """JSON by msgspec (a status is encoded once, for the answer and the stream)."""
    media_type = "application/json"

    def render(self, content) -> bytes:
        return content if isinstance(content, bytes) else msgspec.json.encode(content)


def one_line(exc: BaseException) -> str:
    """The line the CLI prints after `error: `."""
    return " ".join(str(exc).splitlines())


def failure(exc: LedgerError, hidden=()) -> JSON:
    """The error's one line, with no word of where the store lives: its
    path or URL (each of `hidden`) is "the store", a store's failure is
    said on the server's terminal only."""
    code = next(code for kind, code in CODES if isinstance(exc, kind))
    line = one_line(exc)
    if code == 503:
        import sys
        print(f"combat serve: {line}", file=sys.stderr, flush=True)
        line = _(STORE_FAILED)
    for where in sorted(hidden, key=len, reverse=True):
        line = line.replace(where, _("the store"))
    if isinstance(exc, Unconfirmed):  # what the page offers to declare once asked
        return JSON({"error": line, "confirm": exc.confirm, "why": exc.why}, status_code=code)
    return JSON({"error": line}, status_code=code)


def guarded(endpoint):
    """An endpoint whose LedgerError is answered as one JSON line."""
    async def answered(request: Request):
        try:
            return await endpoint(request)
        except LedgerError as exc:
            answer = failure(exc, request.app.state.handles.hidden)
            request.app.state.metrics.refused(answer.status_code)
            return answer
    answered.__name__ = endpoint.__name__
    return answered


def encounter_of(request: Request) -> str:
    """The encounter id in the address; one no store could hold (a NUL, which
    PostgreSQL's driver refuses in its own words) is no encounter."""
    encounter = request.path_params["encounter"]
    if "\x00" in encounter or len(encounter) > 200:
        from eventlog.text import neutral
        raise UnknownEncounter(_("no encounter {id!r}").format(id=neutral(encounter)[:60]))
    return encounter


def check_unarchived(request: Request, token, encounter: str, reads: bool = True) -> None:
    """An archived encounter is out of every token's reach (the docs): 404,
    saying how it comes back. A GM token may still read one with
    `?archived=1`; nobody declares in it through the server."""
    if not ledger(request).store.is_archived(encounter):
        return
    if reads and token.role == "gm" and request.query_params.get("archived") in ("1", "true"):
        return
    from eventlog.text import neutral
    if reads:
        raise UnknownEncounter(_("{id} is archived: `combat unarchive {id}` brings it back (a GM "
                                 "token reads it with ?archived=1)").format(id=neutral(encounter)))
    raise UnknownEncounter(_("{id} is archived: `combat unarchive {id}` brings it back")
                           .format(id=neutral(encounter)))


def ledger(request: Request):
    """This worker thread's ledger over its own store handle."""
    return request.app.state.handles.ledger()


async def run(work, *args):
    """`work(*args)` on a worker thread: every store call goes there."""
    return await run_in_threadpool(work, *args)


def number(request: Request, name: str, default: int, takes: str, low: int = 0,
           high: int = 10**18 - 1) -> int:
    """A whole-number query parameter (`?after=`, `?last=`), or BadInput."""
    given = request.query_params.get(name)
    if given is None:
        return default
    if not DIGITS.fullmatch(given) or not low <= int(given) <= high:
        raise BadInput(_("?{name}= takes {takes}, not {given!r}")
                       .format(name=name, takes=takes, given=given[:20]))
    return int(given)


async def body_of(request: Request) -> bytes:
    """The request's body, read no further than MAX_BODY (unparsed)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise TooLarge(_("a request holds at most {n} KiB").format(n=MAX_BODY // 1024))
    import asyncio

    from cli.server.limits import BODY_S
    chunks, size = [], 0
    try:
        async with asyncio.timeout(BODY_S):  # (a body sent a byte a minute)
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY:
                    raise TooLarge(_("a request holds at most {n} KiB").format(n=MAX_BODY // 1024))
                chunks.append(chunk)
    except TimeoutError:
        raise TooSlow(_("a request's body arrives within {s} s").format(s=f"{BODY_S:g}")) from None
    return b"".join(chunks)
