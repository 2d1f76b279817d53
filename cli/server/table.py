"""The encounter on the table and joining it in one scan (the docs,
"Table server"): `GET|PUT /api/table`, the join page and its API (no
token: a phone has none yet), the GM's list of waiting requests with
approve and deny, and the QR code of the join page. What is kept, and
what a request may ask, is projections/joining.py's to say."""
from __future__ import annotations

import threading
import time
from collections import deque

import msgspec
from starlette.requests import Request
from starlette.responses import FileResponse, Response

from eventlog.errors import LedgerError, UnknownEncounter
from projections import access, joining

from cli.server.reads import PAGE_HEADERS, STATIC, token_of
from cli.server.replies import (JSON, BadInput, Slow, body_of, check_unarchived, guarded, ledger,
                                run)

ASKS, PER_S = 5, 60.0  # join requests one address may send in PER_S seconds
_asked: dict[str, deque] = {}
_asked_lock = threading.Lock()


def check_gm(token) -> None:
    if token.role != "gm":
        raise access.Forbidden(f"{token.name}'s token is not the GM's: only the GM "
                               "chooses the table and lets players in")


def _body(raw: bytes, kind):
    try:
        return msgspec.json.decode(raw, type=kind)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise BadInput(f"not a request: {' '.join(str(exc).splitlines())}") from None


class Choice(msgspec.Struct, forbid_unknown_fields=True):
    encounter: str


class Ask(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    pc: str


class Answer(msgspec.Struct, forbid_unknown_fields=True):
    approve: bool


@guarded
async def table(request: Request):
    token = await token_of(request)
    if request.method == "PUT":
        check_gm(token)
        choice = _body(await body_of(request), Choice)
        access.check_reach(token, choice.encounter)
        await run(check_unarchived, request, token, choice.encounter, False)
        await run(lambda: joining.put_on_table(ledger(request).store, choice.encounter))
    chosen = await run(lambda: joining.on_table(ledger(request).store))
    return JSON({"encounter": chosen if chosen and access.reaches(token, chosen) else None})


def _seats(request: Request) -> dict:
    lg = ledger(request)
    encounter = joining.on_table(lg.store)
    if encounter is None or lg.store.is_archived(encounter):
        raise UnknownEncounter("the GM has put no encounter on the table yet: ask them "
                               "to (`combat serve --encounter ID`, or the GM page)")
    state = lg.state(encounter)
    return {"encounter": encounter, "title": state.title,
            "seats": joining.open_seats(lg.store, state)}


def _slow_down(host: str) -> None:
    now = time.monotonic()
    with _asked_lock:
        times = _asked.setdefault(host, deque())
        while times and now - times[0] > PER_S:
            times.popleft()
        if len(times) >= ASKS:
            raise Slow("too many join requests from this device: wait a minute")
        times.append(now)


@guarded
async def join(request: Request):
    """GET: the PCs of the encounter on the table; POST: ask for one."""
    if request.method == "GET":
        return JSON(await run(_seats, request))
    _slow_down(request.client.host if request.client else "?")
    ask = _body(await body_of(request), Ask)

    def asked():
        lg = ledger(request)
        encounter = _seats(request)["encounter"]
        return joining.request(lg.store, lg.state(encounter), ask.name.strip(), ask.pc)
    secret = await run(asked)
    return JSON({"name": ask.name.strip(), "token": secret})


@guarded
async def joins(request: Request):
    """The GM's list of waiting requests, and of the players' tokens (joined)."""
    check_gm(await token_of(request))
    tokens = await run(lambda: ledger(request).store.tokens())
    kinds = {"waiting": joining.JOIN, "joined": "player"}
    if request.query_params.get("kind", "waiting") not in kinds:
        raise BadInput("?kind= is waiting or joined")
    role = kinds[request.query_params.get("kind", "waiting")]
    return JSON([{"name": t.name, "owns": list(t.owns), "encounter": t.encounter,
                  "since": t.created_at} for t in tokens if t.role == role])


@guarded
async def revoke(request: Request):
    """The GM ends a player's token at once (a phone that should not be here)."""
    check_gm(await token_of(request))
    name = request.path_params["name"]

    def revoked():
        store = ledger(request).store
        found = access.named(store.tokens(), name, ("player",))  # (case-blind)
        if found is None:
            raise LedgerError(f"no player token named {name!r}")
        store.revoke_token(found.name)
        return found.name
    return JSON({"name": await run(revoked), "revoked": True})


@guarded
async def answer(request: Request):
    """The GM approves (a player token) or denies (removed) a request."""
    check_gm(await token_of(request))
    name = request.path_params["name"]
    said = _body(await body_of(request), Answer)

    def answered():
        store = ledger(request).store
        if said.approve:
            return joining.approve(store, name).name
        found = access.named(joining.pending(store), name)  # (case-blind)
        if found is None:
            raise LedgerError(f"no join request named {name!r}")
        store.revoke_token(found.name)
        return found.name
    return JSON({"name": await run(answered), "approved": said.approve})


async def join_page(request: Request):
    return FileResponse(STATIC / "join.html", headers=PAGE_HEADERS)


def join_url(request: Request) -> str:
    return str(request.base_url).rstrip("/") + "/join"


async def qr(request: Request):
    """The join page's address as a QR code (SVG), made here: nothing from the internet."""
    import io

    import segno
    out = io.BytesIO()
    segno.make(join_url(request), error="m").save(
        out, kind="svg", scale=6, dark="#000", light="#fff", border=2, title="Join this table")
    return Response(out.getvalue(), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store"})
