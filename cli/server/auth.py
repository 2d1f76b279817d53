"""The token a request carries, as the server reads it (`Authorization:
Bearer TOKEN`, or `?token=` where a browser cannot send headers); what it
may do is the core's to say (projections/access.py)."""
from __future__ import annotations

from eventlog.stores.contract import Token
from projections import access


def presented(request) -> str | None:
    """The token a request carries, if any (its query is parsed only when
    no header carries one)."""
    header = request.headers.get("authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip() or None
    return request.query_params.get("token") or None


def token_of(store, request) -> Token:
    """The request's token, or access.Unauthorized (401)."""
    return access.identify(store, presented(request))
