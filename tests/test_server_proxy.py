"""Behind a reverse proxy: `--root-path` for a proxy that serves
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


async def _hold(request):
    """A stream that stays open (as an SSE stream does), after its head."""
    import asyncio

    from starlette.responses import StreamingResponse

    async def forever():
        yield b"open\n"
        while True:
            await asyncio.sleep(1)
            yield b":\n"
    return StreamingResponse(forever(), media_type="text/event-stream")

HOLD = Starlette(routes=[Route("/hold", _hold)])


def _streams(url: str, clients: list[str | None]) -> list[bool]:
    """Open one held stream per entry of `clients` (its X-Forwarded-For, or
    none), all at once; which of them got their answer's head."""
    import socket
    host, port = url.removeprefix("http://").split(":")
    socks, opened = [], []
    try:
        for client in clients:
            s = socket.create_connection((host, int(port)), timeout=5)
            socks.append(s)
            forwarded = f"X-Forwarded-For: {client}\r\n" if client else ""
            s.sendall(f"GET /hold HTTP/1.1\r\nHost: x\r\n{forwarded}\r\n".encode())
            try:
                opened.append(s.recv(100).startswith(b"HTTP/1.1 200"))
            except OSError:
                opened.append(False)
    finally:
        for s in socks:
            s.close()
    return opened


def _all_closed(running) -> None:
    """Wait until the server has counted out every stream of the test's last call."""
    import time
    counts = running.server.config.__dict__.setdefault("open_per_client", {})
    deadline = time.monotonic() + 10
    while counts and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not counts, counts


def test_streams_through_a_named_proxy_are_capped_per_forwarded_client(monkeypatch):
    from cli.server import limits
    monkeypatch.setattr(limits, "PER_CLIENT", 3)
    ana, bo = "203.0.113.7", "198.51.100.20"
    with Running(app=HOLD, forwarded_allow_ips="127.0.0.1") as running:
        # three each: six streams through the one proxy address, all open
        assert _streams(running.url, [ana, bo] * 3) == [True] * 6
        _all_closed(running)
        # a fourth of Ana's is over her cap; Bo's and a third client's are not
        assert _streams(running.url, [ana] * 4 + [bo, "192.0.2.99"]) == [True] * 3 + [False, True, True]
        _all_closed(running)
        # a forwarded chain counts its client, not a proxy on the way
        assert _streams(running.url, [f"{ana}, 127.0.0.1"] * 4) == [True] * 3 + [False]


def test_streams_from_a_proxy_not_named_count_for_its_own_address(monkeypatch):
    from cli.server import limits
    monkeypatch.setattr(limits, "PER_CLIENT", 3)
    with Running(app=HOLD, forwarded_allow_ips="10.0.0.1") as running:
        got = _streams(running.url, ["203.0.113.7", "198.51.100.20", "192.0.2.1", "192.0.2.2"])
    assert got == [True] * 3 + [False]  # (its X-Forwarded-For chooses nothing)
