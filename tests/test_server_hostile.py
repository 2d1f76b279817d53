"""Hostile requests to the table server (its security against bad
input): odd tokens, paths, queries, headers and bodies, sent raw over a
socket so nothing is tidied on the way. Every answer is a 4xx with one
`{"error": ...}` line (never a 5xx, never a traceback), and nothing is
appended."""
from __future__ import annotations

import json
import socket

import pytest

from serverkit import E, log, served_table

pytestmark = pytest.mark.sqlite

DEEP = b"[" * 20_000 + b"]" * 20_000


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served_table(tmp_path_factory.mktemp("hostile") / "table.db") as running:
        yield running


def raw(server, head: bytes, body: bytes = b"") -> tuple[int, bytes]:
    """Send one request as these bytes; (status, body) of the answer."""
    host, port = server.url.split("//", 1)[1].rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(head + body)
        got = b""
        while chunk := sock.recv(65536):
            got += chunk
    status_line, _, rest = got.partition(b"\r\n")
    _, _, answer = rest.partition(b"\r\n\r\n")
    return int(status_line.split()[1]), answer


def request(server, method: str, path: str, who: str | None = "gm", body: bytes = b"",
            headers: dict[str, bytes] | None = None) -> tuple[int, bytes]:
    lines = [f"{method} {path} HTTP/1.1".encode(), b"Host: 127.0.0.1", b"Connection: close"]
    if who is not None:
        lines.append(b"Authorization: Bearer " + server.secrets[who].encode())
    for name, value in (headers or {}).items():
        lines.append(name.encode() + b": " + value)
    if body or method == "POST":
        lines += [b"Content-Type: application/json", f"Content-Length: {len(body)}".encode()]
    return raw(server, b"\r\n".join(lines) + b"\r\n\r\n", body)


def refused(status: int, body: bytes) -> str:
    """The answer is a client error with one line, and that line."""
    assert 400 <= status < 500, (status, body[:300])
    error = json.loads(body)["error"]
    assert "\n" not in error and "Traceback" not in error
    return error


COMMANDS = f"/api/encounters/{E}/commands"
LINE = f"/api/encounters/{E}/line"

BODIES = [
    b"\xff\xfe not utf-8",
    b'{"command": "note", "text": "\\u0000"}',
    b'{"command": "note", "text": "\\u001b[31mred"}',
    b'{"command": "note", "text": "\\u202eevil"}',
    b'{"command": "note", "text": "' + b"x" * 60_000 + b'"}',
    b'{"command": "roll", "slots": ["ash"], "die": 100000000000000000000000000000}',
    b'{"command": "roll", "slots": ["ash"], "die": -5}',
    b'{"command": "roll", "slots": ["ash"], "die": 7.5}',
    b'{"command": "add", "name": "X", "count": 1000000000}',
    b'{"command": "add", "name": "' + ("\u00e9" * 3000).encode() + b'"}',
    b'{"command": "act", "id": "ash", "cost": 100000000000000000000}',
    b'{"command": "act", "id": "\\u0000", "cost": "minor"}',
    b'{"command": "act", "id": "ash", "cost": "minor", "command": "undo"}',
    b'{"command": "' + b"z" * 5000 + b'"}',
    b'{"command": ' + DEEP + b"}",
    b'{"command": "act", "id": ' + DEEP + b"}",
    b'{"x": ' + DEEP + b', "command": "act"}',
    b"null", b"0", b'""', b"{}", b"[]",
]

LINES = [
    "", "   ", "help", "--help", "act --help", "status", "log", "export --format json",
    "act ash major --db /tmp/other.db", "note --actor mallory hi", "act 'ash",
    "load /etc/passwd", "roll ash --die 99999999999999999999", "add X --count 1000000000",
    "note \x1b[31mred", "note \u202eevil", "x" * 60_000, "act ash major; rm -rf /",
]


def test_hostile_command_bodies_are_refused_with_one_line_and_append_nothing(server):
    before = log(server.db)
    for body in BODIES:
        refused(*request(server, "POST", COMMANDS, body=body))
    assert log(server.db) == before


def test_hostile_gm_lines_are_refused_with_one_line_and_append_nothing(server):
    before = log(server.db)
    for text in LINES:
        body = json.dumps({"line": text}).encode()
        refused(*request(server, "POST", LINE, body=body))
    for body in (b'{"line": ' + DEEP + b"}", b'{"line": 5}', b"[]", b"\xff",
                 b'{"line": "note hi", "x": ' + DEEP + b"}"):
        refused(*request(server, "POST", LINE, body=body))
    assert log(server.db) == before


@pytest.mark.parametrize("auth", [
    b"Bearer " + b"x" * 8000, b"Bearer", b"Bearer  ", b"Basic Z206Z20=", b"bearer \xff\xfe",
    b"Bearer " + "\u00e9".encode() * 40, b"Bearer a b c",
])
def test_odd_authorization_headers_are_401(server, auth):
    status, body = request(server, "GET", f"/api/encounters/{E}/status", who=None,
                           headers={"Authorization": auth})
    assert status == 401, (status, body[:200])
    refused(status, body)


@pytest.mark.parametrize("path", [
    "/api/encounters/%00/status", "/api/encounters/%1b%5b31m/status",
    "/api/encounters/" + "e" * 5000 + "/status", "/api/encounters/%c3%28/status",
    "/api/encounters/..%2f..%2fetc/status", f"/api/encounters/{E}/log?after=-1",
    f"/api/encounters/{E}/log?after=999999999999999999999", f"/api/encounters/{E}/log?after=1e3",
    f"/api/encounters/{E}/log?after=%00", "/api/encounters/%00/commands",
    "/api/nowhere", "/static/%2e%2e/app.py", "/static/../../eventlog/codec.py",
])
def test_odd_paths_and_queries_are_refused_with_one_line(server, path):
    method = "POST" if path.endswith("/commands") else "GET"
    body = b'{"command": "note", "text": "hi"}' if method == "POST" else b""
    before = log(server.db)
    refused(*request(server, method, path, body=body))
    assert log(server.db) == before


@pytest.mark.parametrize("query", ["token=%00", "token=" + "x" * 5000, "token=%ff%fe",
                                   "token=a&token=b"])
def test_an_odd_token_in_the_address_is_401(server, query):
    status, body = request(server, "GET", f"/api/encounters?{query}", who=None)
    assert status == 401 and refused(status, body)


def test_a_wrong_method_is_405_with_one_line(server):
    status, body = request(server, "GET", COMMANDS)
    assert status == 405 and refused(status, body) == "GET is not allowed here"
    status, body = request(server, "DELETE", f"/api/encounters/{E}/status")
    assert status == 405 and refused(status, body) == "DELETE is not allowed here"


@pytest.mark.parametrize("last", [b"-1", b"9" * 100, b"abc", b"1e3", b"\xff"])
def test_an_odd_last_event_id_is_refused_with_one_line(server, last):
    refused(*request(server, "GET", f"/api/encounters/{E}/stream",
                     headers={"Last-Event-ID": last}))


def test_a_body_over_the_bound_without_a_length_is_413_and_appends_nothing(server):
    before = log(server.db)
    chunk = b"x" * 8192
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(10)) + b"0\r\n\r\n"
    head = (f"POST {COMMANDS} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            f"Authorization: Bearer {server.secrets['gm']}\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n").encode()
    status, body = raw(server, head, chunked)
    assert status == 413 and refused(status, body).startswith("a request holds at most 64 KiB")
    assert log(server.db) == before
