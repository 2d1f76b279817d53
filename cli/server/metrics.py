"""Seen from outside: `GET /metrics` in the Prometheus text format, for a
GM token or a `metrics` token (reads nothing else), and one structured log
line per declaration (logger `combat.server`: encounter, actor, seq,
latency; never a token).

Each app keeps its own registry (several servers may run in one process:
the tests). prometheus_client is imported here only, by the server."""
from __future__ import annotations

import json
import logging
import time

from prometheus_client import (
    CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest)
from starlette.requests import Request
from starlette.responses import Response

from eventlog.language import _
from eventlog.text import neutral
from projections import access
from cli.server.replies import guarded, ledger, run
from cli.server import auth

LOG = logging.getLogger("combat.server")
SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)


class Metrics:
    def __init__(self, hub):
        self.registry = r = CollectorRegistry()
        self.declarations = Counter(
            "combat_declarations", "Declarations appended through this server", registry=r)
        self.refusals = Counter(
            "combat_refusals", "Requests refused, by HTTP status code", ["code"], registry=r)
        self.streams = Gauge("combat_open_streams", "Live streams (SSE) open now", registry=r)
        self.streams.set_function(hub.open_streams)
        self.append = Histogram(
            "combat_append_seconds", "A declaration, from its body read to its commit",
            buckets=SECONDS, registry=r)
        self.fan_out = Histogram(
            "combat_fanout_seconds", "A batch, from its commit here (origin=here) or the "
            "notification of another process's (origin=elsewhere) to its message queued "
            "for every listener", ["origin"], buckets=SECONDS, registry=r)
        hub.timed = self.fan_out

    def declared(self, encounter: str, actor: str, seq: int, events: int,
                 started: float, committed: float) -> None:
        """Count a declaration and say it in one log line."""
        self.declarations.inc()
        self.append.observe(committed - started)
        if LOG.isEnabledFor(logging.INFO):  # (`combat serve` logs; an embedded app need not)
            LOG.info(json.dumps({"event": "declaration", "encounter": encounter, "actor": actor,
                                 "seq": seq, "events": events,
                                 "latency_ms": round((committed - started) * 1000, 3)}))

    def refused(self, code: int) -> None:
        self.refusals.labels(str(code)).inc()


def now() -> float:
    return time.perf_counter()


@guarded
async def metrics(request: Request):
    token = await run(lambda: auth.token_of(ledger(request).store, request))
    auth.heard(request, token)
    if token.role not in ("gm", "metrics"):
        raise access.Forbidden(_("{name}'s token may not read the metrics: a GM or metrics "
                                 "token may").format(name=neutral(token.name)))
    body = generate_latest(request.app.state.metrics.registry)
    return Response(body, media_type=CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"})


def log_to_stderr() -> None:
    """`combat serve`: the declarations' lines on stderr, one JSON object each."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(message)s"))
    LOG.addHandler(handler)
    LOG.setLevel(logging.INFO)
    LOG.propagate = False
