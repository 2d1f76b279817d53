"""GET /rules/{rule}: one rule of the rules reference as a small page, so a
refusal's rule ids on the table server's pages link to their text, served by
the server itself (no internet at the table). No token: the rules are no
secret, and the page reads nothing of the store."""
from __future__ import annotations

import html
import re

from starlette.requests import Request
from starlette.responses import HTMLResponse

from eventlog.language import _, current
from projections import rulebook

CODE = re.compile(r"`([^`]+)`")
EMPHASIS = re.compile(r"\*([^*]+)\*")
HEADERS = {
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Vary": "Accept-Language",  # (the reference is the reader's language's)
}


def _inline(text: str) -> str:
    """One paragraph of the reference's markdown as HTML: escaped first, then
    its code spans and emphasis."""
    out = CODE.sub(r"<code>\1</code>", html.escape(text, quote=False))
    return EMPHASIS.sub(r"<em>\1</em>", out)


def _blocks(markdown: str) -> str:
    parts = []
    for block in re.split(r"\n\s*\n", markdown.strip()):
        head = rulebook.HEADING.match(block.splitlines()[0])
        if head:
            parts.append(f"<h2>{_inline(head.group(2))}</h2>")
            block = "\n".join(block.splitlines()[1:])
        if block.strip():
            parts.append(f"<p>{_inline(' '.join(block.split()))}</p>")
    return "\n".join(parts)


def _page(title: str, body: str) -> str:
    return (f"<!doctype html>\n<html lang=\"{current()}\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(title)}</title>"
            "<link rel=\"stylesheet\" href=\"/static/style.css\"></head>\n"
            f"<body><main class=\"rule\"><h1>{_inline(title)}</h1>\n{body}\n</main></body></html>\n")


async def rule_page(request: Request) -> HTMLResponse:
    """The rule named in the address (`/rules/R17`, `/rules/r28a`), with its
    sub-rules; 404 with the known ids for an unknown one."""
    try:
        found = rulebook.rule(request.path_params["rule"])
    except rulebook.UnknownRule as exc:
        return HTMLResponse(_page(_("No such rule"), f"<p>{html.escape(str(exc))}</p>"),
                            status_code=404, headers=HEADERS)
    return HTMLResponse(_page(found.title, _blocks(found.text)), headers=HEADERS)
