"""Against a real `combat serve` on 127.0.0.1 started with
the usual 1,024-file soft limit: 2,000 idle sockets (half of them with
headers that never finish), spread over 40 loopback source addresses, and
every legitimate request still answered within a second; one address's
excess connections closed as they come; headers that never finish closed
at the deadline. Every loop is bounded in count and time."""
from __future__ import annotations

import socket

import httpx
import pytest

from cli.server.limits import HEADERS_S, PER_CLIENT
from serverkit import serving, table, token

IDLE, ADDRESSES = 2000, 40
PARTIAL = b"GET /api/encounters HTTP/1.1\r\nHost: 127.0.0.1\r\n"


@pytest.fixture
def served_table(tmp_path):
    db = tmp_path / "ledger.db"
    table(db)
    secret = token(db, "gm", "gm")
    with serving(db) as url:
        yield url, secret


def _idle(port: int, source: str, count: int, partial: bool) -> list[socket.socket]:
    held = []
    for _ in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((source, 0))
        sock.setblocking(True)
        sock.settimeout(10)
        sock.connect(("127.0.0.1", port))
        if partial:
            sock.sendall(PARTIAL)
        held.append(sock)
    return held


def _answered(url: str, secret: str, times: int = 20) -> None:
    """Each request answered within a second (the client's timeout)."""
    with httpx.Client(base_url=url, timeout=1.0,
                      headers={"Authorization": f"Bearer {secret}"}) as http:
        for _ in range(times):
            assert http.get("/api/encounters").status_code == 200


def _closed_by_server(socks: list[socket.socket], within: float) -> int:
    """How many of `socks` the server closed within `within` seconds."""
    import selectors
    import time
    closed = 0
    with selectors.DefaultSelector() as watch:  # (epoll: select() stops at fd 1024)
        for sock in socks:
            watch.register(sock, selectors.EVENT_READ)
        deadline = time.monotonic() + within
        while watch.get_map() and time.monotonic() < deadline:
            for key, _ in watch.select(0.5):
                try:
                    gone = key.fileobj.recv(1) == b""
                except OSError:
                    gone = True
                closed += gone
                watch.unregister(key.fileobj)
    return closed


def test_2000_idle_sockets_leave_every_legitimate_request_answered(served_table):
    url, secret = served_table
    port = int(url.rsplit(":", 1)[1])
    held = []
    try:
        for n in range(ADDRESSES):  # 127.0.0.2-41: loopback, under the cap each
            held += _idle(port, f"127.0.0.{n + 2}", IDLE // ADDRESSES, partial=n % 2 == 0)
        assert len(held) == IDLE
        _answered(url, secret)
    finally:
        for sock in held:
            sock.close()


def test_one_address_holds_at_most_its_share_of_connections(served_table):
    url, secret = served_table
    port = int(url.rsplit(":", 1)[1])
    held = _idle(port, "127.0.0.2", 4 * PER_CLIENT, partial=False)
    try:
        closed = _closed_by_server(held, within=10)
        assert closed >= 3 * PER_CLIENT, closed
        _answered(url, secret, times=5)
    finally:
        for sock in held:
            sock.close()


def test_headers_that_never_finish_are_closed_at_the_deadline(served_table):
    url, _ = served_table
    port = int(url.rsplit(":", 1)[1])
    slow = _idle(port, "127.0.0.2", 3, partial=True)
    silent = _idle(port, "127.0.0.3", 3, partial=False)
    try:
        assert _closed_by_server(slow + silent, within=HEADERS_S + 20) == 6
    finally:
        for sock in slow + silent:
            sock.close()
