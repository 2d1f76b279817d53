"""`GET /health` (no token): `{"ok": true}` while the server can read and
write its store, else 503 with `{"ok": false, "error": ...}` for a load
balancer to take the process out of rotation. The error names no path or
URL: anyone may ask."""
from __future__ import annotations

import asyncio
import re

from starlette.requests import Request

from eventlog.errors import LedgerError
from eventlog.language import _
from cli.server.replies import JSON, ledger, one_line, run

PROBE_S = 5.0  # a store that has not answered by then is not healthy
HIDDEN = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S*|(?<![\w.])(?:~|\.{1,2})?/[^\s'\"]*")


def plain(message: str) -> str:
    """`message` without URLs or file paths (a GET /health is anonymous)."""
    said = _("the store")
    return HIDDEN.sub(lambda _found: said, message)


def probe(request: Request) -> None:
    ledger(request).store.probe()


async def health(request: Request):
    try:
        await asyncio.wait_for(run(probe, request), PROBE_S)
    except TimeoutError:
        error = _("the store did not answer within {s} s").format(s=f"{PROBE_S:g}")
    except LedgerError as exc:
        error = plain(one_line(exc))
    except Exception as exc:  # (a store that fails oddly is unhealthy, not a 500)
        error = _("the store failed ({kind})").format(kind=type(exc).__name__)
    else:
        return JSON({"ok": True}, headers={"Cache-Control": "no-store"})
    return JSON({"ok": False, "error": error}, status_code=503,
                headers={"Cache-Control": "no-store"})
