"""Several servers, one store: three `combat serve` processes on
one PostgreSQL database serve the same encounter; declarations made
through each, and by a CLI writer, reach every stream of every server in
order, once each; a server is killed midway and its phones resume on
another by Last-Event-ID with nothing missed or doubled; nothing an
answer acknowledged is lost."""
from __future__ import annotations

import threading

import httpx
import pytest

from eventlog.stores import open_store
from fleet import Follower, Server, check
from projections.domain import commands as c
from projections.ledger import Ledger
from serverkit import E, log, table, token

PER_PHASE = 6  # notes per writer before the kill, and again after it


@pytest.fixture
def fleet(tmp_path):
    from helpers import pg_server
    url = pg_server().fresh_url()
    table(url)
    servers: list[Server] = []
    try:
        for _ in range(3):
            servers.append(Server(url, tmp_path, pool=3))
        yield url, servers
    finally:
        for server in servers:
            server.stop()


def declare(urls: list[str], first: int, secret: str, text: str) -> int | None:
    """POST a note through urls[first], else the next that answers: its seq."""
    for k in range(len(urls)):
        url = urls[(first + k) % len(urls)]
        try:
            answer = httpx.post(f"{url}/api/encounters/{E}/commands", timeout=20,
                                json={"command": "note", "text": text},
                                headers={"Authorization": f"Bearer {secret}"})
        except httpx.HTTPError:
            continue  # (its server is gone: the next one)
        assert answer.status_code == 200, answer.text
        return answer.json()["seq"]
    return None


def writers(db: str, urls, secret, phase: str, acknowledged: dict) -> None:
    """A writer through each server (going on at the next when its own is
    gone) and a CLI writer on the store itself, all at once."""
    def one(n):
        for i in range(PER_PHASE):
            text = f"{phase} {n}.{i}"
            seq = declare(urls, n, secret, text)
            if seq is not None:
                acknowledged[text] = seq

    def cli():  # a CLI writer on the same store, beside the servers
        ledger = Ledger(open_store(db))
        try:
            for i in range(PER_PHASE // 2):
                ledger.execute(E, c.Note(text=f"{phase} cli.{i}"), "cli")
        finally:
            ledger.store.close()
    threads = [threading.Thread(target=one, args=(n,)) for n in range(len(urls))]
    threads.append(threading.Thread(target=cli))
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)


def test_many_servers_one_store_every_stream_whole_after_a_kill(fleet):
    url, servers = fleet
    gm, view = token(url, "gm", "gm"), token(url, "tv", "view")
    urls = [s.url for s in servers]
    followers = [Follower(urls, view, E, first=i % 3, last=6).start() for i in range(6)]
    for f in followers:
        assert f.opened.wait(30), "a stream never opened"
    acknowledged: dict[str, int] = {}
    writers(url, urls, gm, "before", acknowledged)
    servers[1].kill()  # midway: its phones and its writer go on elsewhere
    writers(url, urls, gm, "after", acknowledged)
    end = declare(urls, 0, gm, "the end")
    for f in followers:
        f.until = end
    declare(urls, 2, gm, "the last word")  # (wakes a stream that saw the end before it knew)
    for f in followers:
        f.thread.join(60)

    events = log(url)
    expected = [e["seq"] for e in events if 6 < e["seq"] <= end]
    streams = [[s for s, _ in f.seen if s <= end] for f in followers]
    problems = [p for i, seen in enumerate(streams) for p in check(seen, expected, f"stream {i}")]
    assert problems == []
    assert all(seen == expected for seen in streams)
    assert any(f.moves >= 1 for f in followers[1::3])  # the killed server's phones moved
    said = {e["data"]["text"]: e["seq"] for e in events if e["type"] == "NoteAdded"}
    assert all(said.get(text) == seq for text, seq in acknowledged.items())
    assert len(acknowledged) == 2 * 3 * PER_PHASE  # (every writer went on elsewhere)
