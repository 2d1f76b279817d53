"""Behind a reverse proxy (issue 28): `--root-path` for a proxy that serves
the table under a prefix, and the client address read from
X-Forwarded-For only when `--forwarded-allow-ips` names the proxy (the
per-address limits count by that address: a client must not choose it)."""
from __future__ import annotations

import httpx
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from cli.server.run import Running
from eventlog.stores import open_store
from serverkit import table
from helpers import real, one_error_line


async def _who(request):
    return JSONResponse({"client": request.client.host,
                         "root": request.scope.get("root_path", "")})

ECHO = Starlette(routes=[Route("/who", _who)])
SPOOF = {"X-Forwarded-For": "203.0.113.9"}


def test_forwarded_for_is_ignored_by_default():
    with Running(app=ECHO) as running:
        seen = httpx.get(f"{running.url}/who", headers=SPOOF, timeout=10).json()
    assert seen["client"] == "127.0.0.1"


def test_forwarded_for_is_read_from_an_allowed_proxy():
    with Running(app=ECHO, forwarded_allow_ips="127.0.0.1") as running:
        seen = httpx.get(f"{running.url}/who", headers=SPOOF, timeout=10).json()
    assert seen["client"] == "203.0.113.9"


def test_forwarded_for_from_a_peer_not_allowed_is_ignored():
    with Running(app=ECHO, forwarded_allow_ips="10.0.0.1") as running:
        seen = httpx.get(f"{running.url}/who", headers=SPOOF, timeout=10).json()
    assert seen["client"] == "127.0.0.1"


def test_root_path_serves_the_table_behind_a_stripping_proxy(tmp_path):
    db = tmp_path / "table.db"
    table(db)
    with Running(lambda: open_store(db), root_path="/combat") as running:
        health = httpx.get(f"{running.url}/health", timeout=10)
        page = httpx.get(f"{running.url}/", timeout=10)
        script = httpx.get(f"{running.url}/static/app.js", timeout=10)
    assert health.json() == {"ok": True}
    assert 'src="static/app.js"' in page.text  # (relative: under /combat/ too)
    assert script.status_code == 200 and 'fetch("." + path' in script.text


def test_root_path_must_be_a_path(tmp_path):
    db = tmp_path / "table.db"
    table(db)
    result = real(db, "serve", "--root-path", "combat/", "--port", "0")
    assert result.returncode == 1
    assert one_error_line(result).startswith("error: --root-path is a path")


def _answered(url: str, connections: int) -> int:
    """How many of `connections` held open at once get an answer."""
    import socket
    host, port = url.removeprefix("http://").split(":")
    socks = [socket.create_connection((host, int(port)), timeout=5) for _ in range(connections)]
    answered = 0
    try:
        for s in socks:
            try:
                s.sendall(b"GET /who HTTP/1.1\r\nHost: x\r\n\r\n")
                answered += s.recv(100).startswith(b"HTTP/1.1 200")
            except OSError:
                pass
    finally:
        for s in socks:
            s.close()
    return answered


def test_the_cap_per_address_spares_an_allowed_proxy(monkeypatch):
    from cli.server import limits
    monkeypatch.setattr(limits, "PER_CLIENT", 2)
    with Running(app=ECHO) as running:
        alone = _answered(running.url, 4)
    with Running(app=ECHO, forwarded_allow_ips="127.0.0.1") as running:
        proxied = _answered(running.url, 4)
    assert alone == 2  # (a client: capped)
    assert proxied == 4  # (the proxy carries many clients)
