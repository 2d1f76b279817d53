"""Portraits for the pages: an encounter's map of who has which (the
combatants the token sees), and a portrait's image by its digest. Who may
see which is the core's to say (projections/portraits.py)."""
from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from projections.portraits import seen, shown_to

from cli.server.reads import reading, token_of
from cli.server.replies import JSON, guarded, ledger, run
from cli.server.views import sees_all

# An image never changes under its digest: a browser keeps it for a year,
# privately (it was read with a token). It is never run as a page or a
# script, whatever its bytes say (nosniff, and a sandbox if opened alone).
IMAGE_HEADERS = {
    "Cache-Control": "private, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}


@guarded
async def portrait(request: Request):
    """GET /api/portraits/{digest}: the image, with its own type."""
    token = await token_of(request)
    digest = request.path_params["digest"]
    kept = await run(lambda: shown_to(ledger(request), token, digest))
    headers = {**IMAGE_HEADERS, "ETag": f'"{kept.digest}"'}
    if request.headers.get("if-none-match") == headers["ETag"]:
        return Response(status_code=304, headers=headers)
    return Response(kept.data, media_type=kept.media, headers=headers)


@guarded
async def portraits_of(request: Request):
    """GET /api/encounters/{id}/portraits: {"portraits": {combatant: digest}}
    of the combatants the token sees that have one."""
    token, encounter = await reading(request)
    return JSON({"portraits": await run(
        lambda: seen(ledger(request).state(encounter), sees_all(token)))})
