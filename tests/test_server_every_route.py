"""Hostile requests to EVERY route of the table
server (enumerated from cli/server/app.ROUTES, so a new route is covered
the day it is added) with EVERY kind of token: gm, player, view, metrics,
none, a forged one, and tokens bound to another encounter. Each gets odd
bodies, query strings, headers and path parameters, sent raw over a
socket. Never a 5xx; every refusal is a 4xx with one `{"error"}` line;
nothing is appended (nor any token added or revoked) by a refused request;
no answer names the store's path or URL, or carries a traceback; a token
that may not write never writes. Bounded: one request at a time, each
with a 5 s deadline, the whole run in seconds.

The encounter holds hidden combatants (a lone one with an effect and a
track change it made, and a group all of whose members are hidden): no
answer to any token but the GM's, body or headers, refusals included,
has a trace of them (docs/server.md, "What the players see")."""
from __future__ import annotations

import re

import json
import socket
import time

import pytest
from starlette.routing import Mount, Route

from cli.server.app import ROUTES
from eventlog.stores import open_store
from projections.access import make
from projections.domain import commands as c
from projections.ledger import Ledger
from serverkit import E, served, table, token

OTHER = "other"
DEEP = b"[" * 5000 + b"]" * 5000
# A value for each path parameter of the routes: a new parameter name
# fails test_every_route_is_enumerated until it is given one here.
PARAMS = {"encounter": E, "name": "nobody", "rule": "R17", "digest": "0" * 64}
ODD_PARAMS = ["%00", "..%2f..%2fetc", "%c2%b2", "e" * 300, "%1b%5b31m", "%ff"]
MOUNTED = {"/static": "app.js"}
API = ("/api/", "/health", "/metrics")  # (answers in JSON, refusals too)
ROLES = ["gm", "player", "view", "metrics", "none", "forged", "other-player", "other-gm"]
WRITERS = {"gm", "player"}  # the roles that may ever change what E holds
BODIES = [
    b"\xff\xfe not utf-8",
    b'{"command": ' + DEEP + b"}",
    b'{"command": "note", "text": "\\u0000", "line": 5, "encounter": "../x", "name": []}',
    b'{"command": "undo", "command": "end", "id": "ash", "pc": "ash", "kind": "x"}',
    b'{"encounter": "' + b"x" * 70_000 + b'"}',
    b"null", b"[]",
    # (a player probing for the hidden: by id, by name, by a prefix only they share)
    b'{"command": "act", "id": "shade-hidden", "cost": "minor", "label": "x"}',
    b'{"command": "order", "slots": ["ash", "Wraith 1"]}',
    b'{"command": "order", "slots": ["wrai", "ash"]}',
    b'{"command": "track", "id": "ash", "name": "hp", "delta": -1, "by": "shade"}',
]
# What no token but the GM's may read a trace of; the probes above echo
# only what they typed, as an unknown word is echoed.
TRACES = ("shade", "wraith", "cursed")
PROBES = ("shade-hidden", "Wraith 1", "wrai", "shade")
QUERIES = ["after=%c2%b2&last=%00&kind=%ff", "token=forged&token=x&encounter=%2e%2e",
           "after=" + "9" * 400 + "&last=-1&x=%3Cscript%3E"]
HEADERS = [
    {"Last-Event-ID": b"\xc2\xb2", "Content-Type": b"text/plain"},
    {"X-Forwarded-For": b"10.0.0.1", "Range": b"bytes=0-0", "Accept-Encoding": b"gzip"},
    {"Cookie": b"token=x", "Content-Type": b"application/json; charset=latin-1",
     "Last-Event-ID": b"0"},
]


def with_hidden(db) -> None:
    """Hidden Shade (cursed, and it hurt Ash) and the hidden wraiths."""
    ledger = Ledger(open_store(db))
    for command in (c.Add(name="Shade", hidden=True),
                    c.Add(name="Wraith", count=2, group="wraiths", hidden=True),
                    c.Effect(id="shade", name="Cursed", until_ended=True),
                    c.Roll(slots=["wraiths"], die=4),
                    c.Track(id="ash", name="hp", value=10),
                    c.Track(id="ash", name="hp", delta=-2, by="shade")):
        ledger.execute(E, command, "gm")
    ledger.store.close()


def routes() -> list[tuple[str, str]]:
    """(method, path) for every route of the app, its parameters filled."""
    out = []
    for route in ROUTES:
        if isinstance(route, Mount):
            out.append(("GET", f"{route.path}/{MOUNTED[route.path]}"))
            continue
        assert isinstance(route, Route), route
        bare = re.sub(r"{(\w+):\w+}", r"{\1}", route.path)  # ({name:path}: its name)
        path = bare.format(**{name: PARAMS[name] for name in route.param_convertors})
        for method in sorted(route.methods or {"GET"}):
            out.append((method, path))
    return out


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("routes") / "table.db"
    table(db)
    with_hidden(db)
    table(db, OTHER)
    secrets = {"gm": token(db, "gm", "gm"), "player": token(db, "ana", "player", "ash"),
               "view": token(db, "tv", "view"), "metrics": token(db, "prom", "metrics"),
               "forged": make("mallory", ["gm"], None, None)[0],
               "other-player": token(db, "oli", "player", "ash", encounter=OTHER),
               "other-gm": token(db, "gm-other", "gm", encounter=OTHER)}
    with served(db) as running:
        running.db, running.secrets = db, secrets
        yield running


def send(server, method: str, path: str, role: str, body: bytes = b"",
         headers: dict[str, bytes] | None = None) -> tuple[int, bytes, bytes]:
    """One raw request; (status, head, body) of the answer (a stream: its
    head and first message)."""
    lines = [f"{method} {path} HTTP/1.1".encode(), b"Host: 127.0.0.1", b"Connection: close"]
    if role != "none" and server.secrets.get(role):
        lines.append(b"Authorization: Bearer " + server.secrets[role].encode())
    for name, value in (headers or {}).items():
        lines.append(name.encode() + b": " + value)
    if body or method in ("POST", "PUT"):
        lines.append(f"Content-Length: {len(body)}".encode())
        if not any(n.lower() == "content-type" for n in headers or {}):
            lines.append(b"Content-Type: application/json")
    host, port = server.url.split("//", 1)[1].rsplit(":", 1)
    deadline = time.monotonic() + 5
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        try:
            sock.sendall(b"\r\n".join(lines) + b"\r\n\r\n" + body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # (refused before the body was read: the answer is there)
        got = b""
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            got += chunk
            head, sep, rest = got.partition(b"\r\n\r\n")
            if sep and b"text/event-stream" in head.lower() and (
                    method == "HEAD" or b"\r\n\r\n" in rest or b"\n\n" in rest):
                break  # (a stream: its head and first message tell enough)
    head, _, answer = got.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 "), (method, path, role, got[:200])
    return int(head.split()[1]), head, answer


def _state(db) -> tuple:
    store = open_store(db)
    try:
        return (store.head(E), store.head(OTHER), sorted(store.archived()),
                [e.id for e in store.encounters()], [t.name for t in store.tokens()])
    finally:
        store.close()


def check(server, answer: tuple[int, bytes, bytes], method: str, what: str,
          path: str = "/api", role: str = "gm") -> None:
    """No 5xx, no leak; an API's refusal is one JSON line (a page for
    people, such as /rules/R99, says its refusal in HTML); no trace of the
    hidden for any token but the GM's."""
    status, head, body = answer
    assert status < 500, (what, status, body[:300])
    text = body.decode("utf-8", "replace")
    no_trace(role, head, body, what)
    for leak in (str(server.db.parent), "/tmp/", "postgresql://", "Traceback", "sqlite3."):
        assert leak not in text, (what, leak)
    if status >= 400 and method != "HEAD" and (b"text/html" not in head.lower()
                                               or path.startswith(API)):
        assert b"application/json" in head.lower(), (what, status, head)
        error = json.loads(body)["error"]
        assert isinstance(error, str) and error and "\n" not in error, (what, error)


def no_trace(role: str, head: bytes, body: bytes, what: str) -> None:
    """Nothing of the hidden in an answer to any token but the GM's."""
    if role == "gm":
        return
    seen = (head + b"\n" + body).decode("utf-8", "replace")
    for probe in PROBES:  # (a prefix is echoed quoted only: what it matched stays)
        seen = seen.replace(repr(probe), "").replace(f'\\"{probe}\\"', "")
        seen = seen if probe == "wrai" else seen.replace(probe, "")
    for trace in TRACES:
        assert trace not in seen.casefold(), (what, trace, seen[:400])


def _variants(method: str):
    """Every odd body for a write; two for a read (which reads none), and
    none for a HEAD (the same route as GET, less the answer's body)."""
    yield "plain", b"", None, ""
    bodies = BODIES if method in ("POST", "PUT") else [] if method == "HEAD" else BODIES[:5:4]
    for n, body in enumerate(bodies):
        yield f"body {n}", body, None, ""
    for n, query in enumerate(QUERIES if method != "HEAD" else QUERIES[:1]):
        yield f"query {n}", b"", None, query
    for n, headers in enumerate(HEADERS):
        yield f"headers {n}", b"", headers, ""


def test_every_route_is_enumerated(server):
    found = routes()
    assert _state(server.db)[2:4] == ([], ["raid", "other"])  # (what the tests keep as it is)
    assert len({path for _, path in found}) == len(ROUTES)
    assert {"POST", "PUT", "GET", "HEAD"} <= {m for m, _ in found}


@pytest.mark.parametrize("method, path", routes(), ids=lambda x: x)
def test_every_route_with_every_role_refuses_hostile_requests_cleanly(server, method, path):
    writes = method in ("POST", "PUT")
    for role in ROLES:
        for name, body, headers, query in _variants(method):
            what = f"{method} {path} {role} {name}"
            before = _state(server.db) if writes else None
            answer = send(server, method, f"{path}?{query}" if query else path, role,
                          body, headers)
            check(server, answer, method, what, path, role)
            if not writes:
                continue
            after = _state(server.db)
            if answer[0] >= 400 or role not in WRITERS:
                assert after[:4] == before[:4], what  # nothing appended, archived or made
                assert set(after[4]) <= set(before[4]) | {"nobody"} and \
                    set(before[4]) <= set(after[4]), what  # no token revoked or made
            if role not in WRITERS and path.startswith(f"/api/encounters/{E}/"):
                assert answer[0] >= 400, what
        if role not in ("none", "forged") and method != "HEAD":  # where a browser puts it
            before = _state(server.db)
            answer = send(server, method, f"{path}?token={server.secrets[role]}", "none",
                          BODIES[2] if writes else b"")
            check(server, answer, method, f"{method} {path} ?token= {role}", path, role)
            if answer[0] >= 400 or role not in WRITERS:
                assert _state(server.db)[:4] == before[:4]


@pytest.mark.parametrize("path", sorted({p for _, p in routes()}))
def test_every_route_refuses_other_methods_with_one_line(server, path):
    allowed = {m for m, p in routes() if p == path}
    before = _state(server.db)
    for method in ("OPTIONS", "PATCH", "DELETE", "PUT", "POST", "TRACE"):
        if method in allowed:
            continue
        for role in ("gm", "view", "none"):
            answer = send(server, method, path, role, b'{"command": "end"}')
            check(server, answer, method, f"{method} {path} {role}", path, role)
            assert answer[0] == 405, (method, path, role, answer[0])
    assert _state(server.db)[:4] == before[:4]


@pytest.mark.parametrize("method, path", [(m, p) for m, p in routes() if "{" not in p
                                          and any(f"/{v}" in p for v in PARAMS.values())])
def test_every_route_with_odd_path_parameters_refuses_cleanly(server, method, path):
    before = _state(server.db)
    for odd in ODD_PARAMS:
        for value in PARAMS.values():
            if f"/{value}" not in path:
                continue
            odd_path = path.replace(f"/{value}", f"/{odd}", 1)
            for role in ("gm", "player", "none"):
                body = b'{"command": "note", "text": "hi"}' if method in ("POST", "PUT") else b""
                check(server, send(server, method, odd_path, role, body), method,
                      f"{method} {odd_path} {role}", path, role)
    assert _state(server.db)[:4] == before[:4]


def test_after_every_route_nothing_was_archived_made_or_revoked(server):
    """(Runs after the tests above, on the same server: the hostile requests
    left the table as it was, so each test saw the table it meant to.)"""
    state = _state(server.db)
    assert state[2:4] == ([], ["raid", "other"])
    assert {"gm", "ana", "tv", "prom", "oli", "gm-other"} <= set(state[4])


@pytest.fixture(scope="module")
def pg(tmp_path_factory):
    """The same table on PostgreSQL: a driver's message or the URL (user,
    socket, database, schema) must not reach a client either."""
    from helpers import pg_server
    url = pg_server().fresh_url()
    table(url)
    with_hidden(url)
    secrets = {"gm": token(url, "gm", "gm"), "player": token(url, "ana", "player", "ash"),
               "none": "", "forged": make("mallory", ["gm"], None, None)[0]}
    with served(url) as running:
        running.db, running.secrets = url, secrets
        yield running


def test_every_route_on_postgresql_refuses_cleanly_and_names_no_store(pg):
    from urllib.parse import parse_qs, urlsplit
    query = parse_qs(urlsplit(pg.db).query)
    secret_words = [pg.db, "postgresql:", "postgres@", *query.get("host", []),
                    query["options"][0].rsplit("=", 1)[-1]]  # (the schema's name)
    before = _head_pg(pg.db)
    for method, path in routes():
        paths = [path] + [path.replace(f"/{E}/", f"/{odd}/", 1) for odd in ODD_PARAMS[:3]
                          if f"/{E}/" in path]
        for where in paths:
            for role in ("gm", "player", "none", "forged"):
                for body in ([b"", BODIES[0], BODIES[2]] if method in ("POST", "PUT") else [b""]):
                    status, head, answer = send(pg, method, where, role, body)
                    what = f"{method} {where} {role}"
                    assert status < 500, (what, status, answer[:300])
                    no_trace(role, head, answer, what)
                    text = answer.decode("utf-8", "replace")
                    for word in secret_words + ["psycopg", "Traceback", "/tmp/"]:
                        assert word not in text, (what, word)
    assert _head_pg(pg.db) == before


def _head_pg(url):
    store = open_store(url)
    try:
        return store.head(E)
    finally:
        store.close()
