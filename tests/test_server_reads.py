"""Against `combat serve` in its own process: 200 clients
asking a long log and never reading it, and 30 streams resuming from
Last-Event-ID: 0, by one player's token; the server's memory stays near
where it was, the excess gets 429, and the GM is answered within a second
all along. Every loop is bounded in count and time."""
from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest

from cli.server.bounded import PER_SERVER, PER_TOKEN
from eventlog.events import NoteAdded
from eventlog.stores import open_store
from serverkit import E, serving, table, token

EVENTS, READERS, STREAMS = 20000, 200, 30


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@pytest.fixture
def long_log(tmp_path):
    db = tmp_path / "ledger.db"
    table(db)
    store = open_store(db)
    head = store.head(E)[0]
    store.append_batches(E, head, [[NoteAdded(text=f"note {i} " + "x" * 60)]
                                   for i in range(EVENTS)], "gm")
    store.close()
    return db, token(db, "ana", "player", "ash"), token(db, "gm", "gm")


def _request(port: int, path: str, secret: str, extra: str = "") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # (a reader that never reads)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {secret}"
                 f"\r\n{extra}\r\n".encode())
    return sock


def _status(sock: socket.socket) -> int:
    head = sock.recv(64)
    return int(head.split()[1]) if head.startswith(b"HTTP/1.1 ") else 0


def test_slow_log_readers_and_streams_from_zero_are_bounded(long_log):
    db, player, gm = long_log
    with serving(db, with_pid=True) as (url, pid):
        port = int(url.rsplit(":", 1)[1])
        with httpx.Client(base_url=url, timeout=1.0,
                          headers={"Authorization": f"Bearer {gm}"}) as http:
            assert http.get("/api/encounters").status_code == 200
            before = rss_kib(pid)
            held = []
            try:
                for _ in range(READERS):
                    held.append(_request(port, f"/api/encounters/{E}/log", player))
                for _ in range(STREAMS):
                    held.append(_request(port, f"/api/encounters/{E}/stream", player,
                                         "Last-Event-ID: 0\r\n"))
                codes = [_status(sock) for sock in held]
                assert codes.count(429) >= READERS + STREAMS - PER_TOKEN, codes
                assert codes.count(200) <= PER_TOKEN
                for _ in range(10):
                    assert http.get(f"/api/encounters/{E}/status").status_code == 200
                assert rss_kib(pid) - before < 64 * 1024, (before, rss_kib(pid))
            finally:
                for sock in held:
                    sock.close()
        assert PER_TOKEN <= PER_SERVER


def test_a_log_read_in_pages_is_the_whole_log(long_log):
    db, player, _ = long_log
    with serving(db) as url, httpx.Client(
            base_url=url, timeout=30, headers={"Authorization": f"Bearer {player}"}) as http:
        events = http.get(f"/api/encounters/{E}/log").json()
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        assert len(events) > EVENTS
        later = http.get(f"/api/encounters/{E}/log", params={"after": len(events) - 3}).json()
        assert later == events[-3:]
        assert http.get(f"/api/encounters/{E}/log", params={"after": 10**9}).json() == []
