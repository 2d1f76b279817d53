"""The reverse proxy of docs/operations.md, for real: Debian's HAProxy with
examples/proxy/haproxy.cfg in front of three `combat serve` processes on one
PostgreSQL store, all on loopback. Each encounter's declarations are
served by one server (the hash of its API address); a server killed under
a table's stream leaves the hash, and the stream goes on through the proxy
on another server with Last-Event-ID, nothing missed or doubled."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from fleet import Follower, Server, check
from serverkit import table, token

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "examples" / "proxy" / "haproxy.cfg"
HAPROXY = shutil.which("haproxy") or (
    "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None)
TABLES = [f"table-{n}" for n in range(6)]

pytestmark = pytest.mark.skipif(HAPROXY is None, reason="no haproxy installed (.ci/run installs it)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def served_by(servers: list[Server], encounter: str) -> set[int]:
    """Which servers logged a declaration of `encounter` (one JSON line each)."""
    found = set()
    for n, server in enumerate(servers):
        server.log.flush()
        for line in Path(server.log.name).read_text().splitlines():
            if line.startswith("{") and json.loads(line).get("encounter") == encounter:
                found.add(n)
    return found


def note(proxy: str, secret: str, encounter: str, text: str) -> int:
    """A note through the proxy; its seq (a request that meets a server
    going down is sent again, as a phone's page would)."""
    for _ in range(20):
        try:
            answer = httpx.post(f"{proxy}/api/encounters/{encounter}/commands", timeout=20,
                                json={"command": "note", "text": text},
                                headers={"Authorization": f"Bearer {secret}"})
        except httpx.HTTPError:
            time.sleep(0.25)
            continue
        if answer.status_code in (502, 503, 504):
            time.sleep(0.25)
            continue
        assert answer.status_code == 200, answer.text
        return answer.json()["seq"]
    raise AssertionError(f"no server answered for {encounter}")


@pytest.fixture
def proxied(tmp_path):
    """Three servers on a fresh PostgreSQL schema holding six tables, and
    HAProxy in front of them on loopback: (proxy URL, servers, GM secret)."""
    from helpers import pg_server
    url = pg_server().fresh_url()
    for encounter in TABLES:
        table(url, encounter)
    secret = token(url, "gm", "gm")
    servers = [Server(url, tmp_path, pool=3) for _ in range(3)]
    listen = f"127.0.0.1:{free_port()}"
    env = {**os.environ, "COMBAT_LISTEN": listen, **{
        f"COMBAT_SERVER_{n + 1}": s.url.removeprefix("http://") for n, s in enumerate(servers)}}
    proxy = subprocess.Popen([HAPROXY, "-db", "-f", str(CONFIG)], env=env,
                             stdout=subprocess.DEVNULL, stderr=open(tmp_path / "haproxy.log", "w"))
    try:
        deadline = time.monotonic() + 20
        while True:  # up, and every server passing its health check
            try:
                if httpx.get(f"http://{listen}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proxy.poll() is None and time.monotonic() < deadline, \
                (tmp_path / "haproxy.log").read_text()
            time.sleep(0.1)
        time.sleep(2.5)  # (two passed checks: rise 2, inter 1s)
        yield f"http://{listen}", servers, secret
    finally:
        proxy.terminate()
        proxy.wait(10)
        for server in servers:
            server.stop()


def test_each_table_is_served_by_one_server_and_tables_spread(proxied):
    proxy, servers, secret = proxied
    for encounter in TABLES:
        for i in range(3):
            note(proxy, secret, encounter, f"note {i}")
    owners = {encounter: served_by(servers, encounter) for encounter in TABLES}
    assert all(len(found) == 1 for found in owners.values()), owners
    assert len(set().union(*owners.values())) >= 2, owners  # the hash spreads the tables


def test_a_stream_survives_its_servers_kill_through_the_proxy(proxied):
    proxy, servers, secret = proxied
    encounter = TABLES[0]
    acknowledged = [note(proxy, secret, encounter, "before the stream")]
    follower = Follower([proxy], secret, encounter, limit_s=90, last=acknowledged[0]).start()
    assert follower.opened.wait(20)
    acknowledged += [note(proxy, secret, encounter, f"before {i}") for i in range(3)]
    (owner,) = served_by(servers, encounter)
    servers[owner].kill()                             # a crash: no goodbye to its streams
    acknowledged += [note(proxy, secret, encounter, f"after {i}") for i in range(3)]
    follower.until = acknowledged[-1]
    follower.thread.join(90)
    seen = [seq for seq, _ in follower.seen]
    assert not check(seen, acknowledged[1:], "the stream"), (seen, acknowledged)
    assert set(acknowledged[1:]) <= set(seen)
    assert follower.moves >= 1                        # it went on through the proxy
    survivors = [s for n, s in enumerate(servers) if n != owner]
    assert served_by(survivors, encounter)            # another server took the table


def test_the_docs_show_the_tested_configuration():
    page = (ROOT / "docs" / "operations.md").read_text()
    assert "```haproxy\n" + CONFIG.read_text() + "```" in page
