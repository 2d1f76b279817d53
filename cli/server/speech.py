"""The reader's language on the table server, chosen once per request: the
page's own switch (the header X-Combat-Language, or `?lang=` where a
browser cannot send headers: a stream, a link), else the language the GM
chose for the request's token, else the browser's Accept-Language. What the
server words (refusals, the log's lines) is said in it; the pages word the
rest from the same catalogue, served as JSON by `GET /api/messages`."""
from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from starlette.datastructures import Headers, QueryParams
from starlette.requests import Request
from starlette.responses import Response

from eventlog import language
from eventlog.errors import LedgerError
from eventlog.language import _, n_

from cli.server import auth
from cli.server.auth import SWITCHED, heard
from cli.server.replies import JSON, ledger, run

HEADER = "x-combat-language"
VARY = "Accept-Language, X-Combat-Language, Authorization"
STATIC = Path(__file__).parent / "static"


def switched(headers: Headers, query: bytes) -> str | None:
    """The language the page's own switch asks for (its header, else a raw
    query's `lang`), if it is one we speak. The query is parsed only where
    it may name one: most requests have none."""
    named = headers.get(HEADER) or (QueryParams(query).get("lang") if b"lang=" in query else None)
    return language.chosen(named)


def wanted(headers: Headers, query: bytes) -> str:
    """The request's language before its token is read: the page's switch,
    else the browser's (the token's, once read, goes between: auth.heard)."""
    return switched(headers, query) or language.negotiate(headers.get("accept-language"))


class Speaking:
    """ASGI middleware: the whole request, its streamed answer included, is
    said in the reader's language (a context variable, which the worker
    threads of `run` and the stream's tasks inherit)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers, query = Headers(scope=scope), scope.get("query_string", b"")
        own = switched(headers, query)
        scope[SWITCHED] = own is not None
        with language.speaking(own or language.negotiate(headers.get("accept-language"))):
            await self.app(scope, receive, send)


# -- the pages' catalogue ------------------------------------------------------

@cache
def page_messages() -> tuple[tuple[str, ...], ...]:
    """The messages the pages' scripts mark (Babel reads them as the
    catalogue's extraction does): each one's forms, singular first."""
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_javascript
    found: dict[str, tuple[str, ...]] = {}
    keywords = {**DEFAULT_KEYWORDS, "n_": (1, 2)}
    for script in sorted(STATIC.glob("*.js")):  # (the scripts the pages load, and no other)
        with open(script, "rb") as source:
            for _line, _func, message, _comments in extract_javascript(source, keywords, [], {}):
                forms = (message,) if isinstance(message, str) else tuple(message)
                if forms and all(isinstance(f, str) for f in forms):
                    found[forms[0]] = forms
    return tuple(found.values())


@cache
def plural_forms(lang: str) -> tuple[tuple[str, int], ...]:
    """The language's plural categories in the order of its catalogue's
    forms (Babel writes a catalogue's plural rule in this order), each with
    a count that calls for it: the page picks a form by `Intl.PluralRules`."""
    from babel import Locale
    rule = Locale.parse(lang).plural_form
    counts = [*range(200), 1000, 10**4, 10**5, 10**6]
    found: dict[str, int] = {}
    for n in counts:
        found.setdefault(rule(n), n)
    order = ("zero", "one", "two", "few", "many", "other")
    return tuple((tag, found[tag]) for tag in order if tag in found)


@cache
def names() -> dict[str, str]:
    """Each language the server speaks, named in itself (the pages' switch:
    "English", "Deutsch"), as CLDR names it."""
    from babel import Locale
    out = {}
    for code in language.LANGUAGES:
        name = Locale.parse(code).get_display_name(code) or code
        out[code] = name[:1].upper() + name[1:]
    return out


@cache
def catalogue(lang: str) -> tuple[bytes, str]:
    """The pages' messages in `lang` as JSON, and its entity tag."""
    import msgspec
    forms_of = plural_forms(lang)
    with language.speaking(lang):
        said: dict[str, str | list[str]] = {}
        for forms in page_messages():
            said[forms[0]] = (_(forms[0]) if len(forms) == 1
                              else [n_(forms[0], forms[-1], n) for _tag, n in forms_of])
    body = msgspec.json.encode({"language": lang, "plural": [tag for tag, _n in forms_of],
                                "languages": names(), "messages": said})
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


async def messages(request: Request) -> Response:
    """GET /api/messages: what the pages say, in the reader's language (no
    token needed: the join page has none yet; a token the store knows
    brings its own language)."""
    if not request.scope.get(SWITCHED) and auth.presented(request):
        try:
            token = await run(lambda: auth.token_of(ledger(request).store, request))
        except LedgerError:
            token = None  # (a join request waiting, a revoked link: the browser's choice)
        heard(request, token)
    body, tag = catalogue(language.current())
    headers = {"ETag": tag, "Vary": VARY, "Cache-Control": "private, no-cache"}
    if tag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return JSON(body, headers=headers)
