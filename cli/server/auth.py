"""The token a request carries, as the server reads it (`Authorization:
Bearer TOKEN`, or `?token=` where a browser cannot send headers); what it
may do is the core's to say (projections/access.py)."""
from __future__ import annotations

from eventlog import language
from eventlog.stores.contract import Token
from projections import access

SWITCHED = "combat.switched"  # the scope's mark: the page chose its language itself


def presented(request) -> str | None:
    """The token a request carries, if any (its query is parsed only when
    no header carries one)."""
    header = request.headers.get("authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip() or None
    return request.query_params.get("token") or None


def token_of(store, request) -> Token:
    """The request's token, or access.Unauthorized (401); from here on the
    request is said in the token's language, if the GM chose one and the
    page did not choose its own."""
    token = access.identify(store, presented(request))
    heard(request, token)
    return token


def heard(request, token) -> None:
    """The language the GM chose for `token` (`token lang`), where the page
    did not choose one itself (cli/server/speech.py): said from here on, in
    this context."""
    if request.scope.get(SWITCHED):
        return
    own = language.chosen(getattr(token, "language", None))
    if own is not None:
        language.speak(own)
