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
from eventlog.language import _
from projections import access, joining

from cli.server.reads import PAGE_HEADERS, STATIC, token_of
from cli.server.replies import (JSON, BadInput, Slow, body_of, check_unarchived, guarded, ledger,
                                run)

ASKS, PER_S = 5, 60.0  # join requests one address may send in PER_S seconds


def check_gm(token) -> None:
    if token.role != "gm":
        raise access.Forbidden(_("{name}'s token is not the GM's: only the GM chooses the table "
                                 "and lets players in").format(name=token.name))


def _body(raw: bytes, kind):
    try:
        return msgspec.json.decode(raw, type=kind)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise BadInput(_("not a request: {why}").format(why=" ".join(str(exc).splitlines()))) from None


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
        raise UnknownEncounter(_("the GM has put no encounter on the table yet: ask them to "
                                 "(`combat serve --encounter ID`, or the GM page)"))
    state = lg.state(encounter)
    return {"encounter": encounter, "title": state.title,
            "seats": joining.open_seats(lg.store, state)}


class Asked:
    """When each address last sent join requests (this server's own count)."""

    def __init__(self) -> None:
        self.times: dict[str, deque] = {}
        self.lock = threading.Lock()

    def slow_down(self, host: str) -> None:
        now = time.monotonic()
        with self.lock:
            for gone in [h for h, t in self.times.items() if not t or now - t[-1] > PER_S]:
                del self.times[gone]  # (a crowd of one-time addresses is forgotten)
            times = self.times.setdefault(host, deque())
            while times and now - times[0] > PER_S:
                times.popleft()
            if len(times) >= ASKS:
                raise Slow(_("too many join requests from this device: wait a minute"))
            times.append(now)


@guarded
async def join(request: Request):
    """GET: the PCs of the encounter on the table; POST: ask for one."""
    if request.method == "GET":
        return JSON(await run(_seats, request))
    address = request.client.host if request.client else "?"
    request.app.state.asked.slow_down(address)
    ask = _body(await body_of(request), Ask)

    def asked():
        lg = ledger(request)
        encounter = _seats(request)["encounter"]
        return joining.request(lg.store, lg.state(encounter), ask.name.strip(), ask.pc,
                               address, request.app.state.join_minutes)
    secret = await run(asked)
    return JSON({"name": ask.name.strip(), "token": secret})


@guarded
async def joins(request: Request):
    """The GM's list of waiting requests, and of the players' tokens (joined)."""
    check_gm(await token_of(request))
    kind = request.query_params.get("kind", "waiting")
    if kind not in ("waiting", "joined"):
        raise BadInput(_("?kind= is waiting or joined"))
    if kind == "waiting":
        waiting = await run(lambda: joining.pending(ledger(request).store))
        return JSON([{"name": j.name, "owns": [j.pc], "encounter": j.encounter,
                      "since": j.asked_at, "until": j.expires_at} for j in waiting])
    tokens = await run(lambda: ledger(request).store.tokens())
    return JSON([{"name": t.name, "owns": list(t.owns), "encounter": t.encounter,
                  "since": t.created_at} for t in tokens if t.role == "player"])


@guarded
async def revoke(request: Request):
    """The GM ends a player's token at once (a phone that should not be here)."""
    check_gm(await token_of(request))
    name = request.path_params["name"]

    def revoked():
        store = ledger(request).store
        found = access.named(store.tokens(), name, ("player",))  # (case-blind)
        if found is None:
            raise LedgerError(_("no player token named {name!r}").format(name=name))
        store.revoke_token(found.name)
        return found.name
    return JSON({"name": await run(revoked), "revoked": True})


@guarded
async def answer(request: Request):
    """The GM approves (a player token) or denies a request: one decision in
    the store (projections/joining.py); a request no longer waiting is 409."""
    check_gm(await token_of(request))
    name = request.path_params["name"]
    said = _body(await body_of(request), Answer)

    def answered():
        store = ledger(request).store
        return (joining.approve if said.approve else joining.deny)(store, name).name
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
        out, kind="svg", scale=6, dark="#000", light="#fff", border=2, title=_("Join this table"))
    return Response(out.getvalue(), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store"})
