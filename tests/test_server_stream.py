"""The table server's live stream on a real server, read with httpx-sse:
one message per batch, `id:` its last seq, the status after it; resuming
from Last-Event-ID with nothing missed and nothing twice; declarations of
a CLI process appear too; a revoked token is cut off mid-stream."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import httpx
import pytest
from httpx_sse import connect_sse

from eventlog.stores import open_store
from helpers import fresh_db
from projections.ledger import Ledger
from projections.reports.views import status as status_view
from serverkit import E, client, log, messages, post, rolled, served, table, token

STREAM = f"/api/encounters/{E}/stream"


@pytest.fixture(params=["sqlite", "postgres"])
def server(request, tmp_path):
    """A served table on either store: on PostgreSQL another process's
    declarations reach the stream by LISTEN/NOTIFY, on SQLite by polling."""
    db = fresh_db(request.param, tmp_path)
    table(db)
    secrets = {"gm": token(db, "gm", "gm"), "ash": token(db, "ana", "player", "ash")}
    with served(db) as running:
        running.db, running.secrets, running.folder = db, secrets, tmp_path
        yield running


def batch_ends(db) -> list[int]:
    events = log(db)
    return [e["seq"] for i, e in enumerate(events)
            if i + 1 == len(events) or events[i + 1]["batch"] != e["batch"]]


def status_at(db, seq: int) -> dict:
    ledger = Ledger(open_store(db))
    try:
        return status_view(ledger.state(E, at=seq))
    finally:
        ledger.store.close()


def read(http, until: int, headers=None, seen=None, limit: float = 15) -> list:
    """(id, status) of each message until one with id >= `until` (a player's
    `mine` and `on_deck` set aside: test_players and test_alerts check them)."""
    got = [] if seen is None else seen
    with connect_sse(http, "GET", STREAM, headers=headers or {},
                     timeout=httpx.Timeout(limit)) as source:
        for message in messages(source):
            assert message.event == "status"
            view = json.loads(message.data)
            view.pop("mine", None)
            view.pop("on_deck", None)
            got.append((int(message.id), view))
            if int(message.id) >= until:
                break
    return got


def connected(got: list, limit: float = 15) -> None:
    """Wait until a listener has its first message (the stream is open)."""
    deadline = time.monotonic() + limit
    while not got:
        assert time.monotonic() < deadline, "the stream never opened"
        time.sleep(0.01)


def test_the_stream_starts_with_the_current_status(server):
    with client(server, server.secrets["ash"]) as http:
        got = read(http, 6)
    assert got == [(6, status_at(server.db, 6))]


def test_each_batch_is_one_message_with_its_status_in_order(server):
    seen: list = []
    with client(server, server.secrets["ash"]) as http:
        listener = threading.Thread(target=read, args=(http, 0), kwargs={"seen": seen})
        # (until=0: stops after the first message; the second reader below goes on)
        listener.start()
        listener.join(10)
        with client(server, server.secrets["gm"]) as gm:
            rolled(gm)
        got = read(http, 11, headers={"Last-Event-ID": "6"})
    assert [seq for seq, _ in got] == [7, 8, 9, 10, 11] == batch_ends(server.db)[-5:]
    assert all(view == status_at(server.db, seq) for seq, view in got)


def test_resume_after_a_dropped_connection_misses_nothing_and_doubles_nothing(server):
    with client(server, server.secrets["gm"]) as gm:
        first = read(gm, 6)
        post(gm, {"command": "note", "text": "while away"})
        post(gm, {"command": "add", "name": "Drone", "count": 3})  # one batch of three
        post(gm, {"command": "undo"})
        resumed = read(gm, 11, headers={"Last-Event-ID": str(first[-1][0])})
    assert [seq for seq, _ in resumed] == [7, 10, 11]
    assert [view["seq"] for _, view in resumed] == [7, 10, 11]
    assert resumed[-1][1] == status_at(server.db, 11)  # the undo is in (R26)
    assert [c["id"] for c in resumed[1][1]["combatants"]][-3:] == ["drone-1", "drone-2", "drone-3"]


def test_concurrent_declarations_reach_a_listener_each_once_in_order(server):
    total = 40
    got: list = []
    with client(server, server.secrets["gm"]) as gm:
        ready = read(gm, 6)
        listener = threading.Thread(target=read, args=(gm, 6 + total),
                                    kwargs={"headers": {"Last-Event-ID": "6"}, "seen": got})
        listener.start()

        def writer(n):
            with client(server, server.secrets["gm"]) as mine:
                for i in range(total // 4):
                    assert post(mine, {"command": "note", "text": f"{n}.{i}"}).status_code == 200
        writers = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
        for w in writers:
            w.start()
        for w in writers:
            w.join(60)
        listener.join(30)
    assert ready[0][0] == 6
    assert [seq for seq, _ in got] == list(range(7, 7 + total))


def test_declarations_from_a_cli_process_appear_in_the_stream(server):
    env = {**os.environ, "XDG_STATE_HOME": str(server.folder / "state")}
    got: list = []
    with client(server, server.secrets["ash"]) as http:
        listener = threading.Thread(target=read, args=(http, 8), kwargs={"seen": got})
        listener.start()
        connected(got)
        for args in (["roll", "ash", "--die", "7"], ["note", "from the terminal"]):
            done = subprocess.run([sys.executable, "-m", "cli", "--db", str(server.db),
                                   "--encounter", E, *args], env=env, capture_output=True,
                                  text=True, timeout=60)
            assert done.returncode == 0, done.stderr
        listener.join(15)
    assert [seq for seq, _ in got] == [6, 7, 8]
    assert got[1][1]["combatants"][0]["initiative"] == 9


def test_a_revoked_token_is_cut_off_mid_stream(server):
    events: list = []
    with client(server, server.secrets["ash"]) as http:
        def listen():
            with connect_sse(http, "GET", STREAM, timeout=httpx.Timeout(15)) as source:
                for message in messages(source):
                    events.append((message.event, message.data))
        listener = threading.Thread(target=listen)
        listener.start()
        connected(events)
        store = open_store(server.db)
        store.revoke_token("ana")  # as `combat token revoke` does, from its own handle
        store.close()
        started = time.monotonic()
        listener.join(10)
        assert not listener.is_alive() and time.monotonic() - started < 5
        assert http.get(STREAM).status_code == 401
    assert events[0][0] == "status"
    assert events[-1] == ("refused", json.dumps(
        {"error": "unknown or revoked token: ask the GM for a new link"}, separators=(",", ":")))


def test_a_listener_far_behind_is_told_to_reconnect_and_catch_up():
    import asyncio

    from cli.server.hub import Listener, Message

    async def fall_behind():
        listener = Listener(E, "digest")
        listener.BACKLOG = 3
        for seq in range(1, 6):
            listener.send(Message(seq, "{}"))
            await asyncio.sleep(0)
        return listener
    listener = asyncio.run(fall_behind())
    assert listener.behind  # the stream ends; EventSource resumes from Last-Event-ID
    assert listener.queue.qsize() == 5 and listener.queue.get_nowait().seq == 1


def test_keep_alive_pings_neither_end_nor_double_a_stream(server, monkeypatch):
    import cli.server.stream
    monkeypatch.setattr(cli.server.stream, "PING_S", 0.1)
    got: list = []
    raw: list = []
    with client(server, server.secrets["gm"]) as http:
        def listen():
            with connect_sse(http, "GET", STREAM, timeout=httpx.Timeout(15)) as source:
                for message in source.iter_sse():
                    raw.append(message)
                    if message.data:
                        got.append(int(message.id))
                    if len(got) == 3:
                        return
        listener = threading.Thread(target=listen)
        listener.start()
        for text in ("a", "b"):
            time.sleep(0.4)
            post(http, {"command": "note", "text": text})
        listener.join(10)
    assert got == [6, 7, 8]
    assert any(not m.data for m in raw)  # (pings were sent, and are not messages)
