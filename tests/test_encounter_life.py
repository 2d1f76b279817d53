"""An encounter's tokens and streams belong to its life, not to its id: a
delete takes the tokens that reach it alone with it, so a new encounter
under the same id is reached by none of them; archiving or deleting ends
the streams open on it with a last `closed` message saying why. On a real
server, over SQLite and PostgreSQL, with the change made by another process
(the CLI) and through the server."""
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

from helpers import fresh_db
from serverkit import E, client, messages, served, table, token

STREAM = f"/api/encounters/{E}/stream"


@pytest.fixture(params=["sqlite", "postgres"])
def server(request, tmp_path):
    db = fresh_db(request.param, tmp_path)
    table(db)
    secrets = {"gm": token(db, "gm", "gm"), "ash": token(db, "ana", "player", "ash"),
               "tv": token(db, "tv", "view")}
    with served(db) as running:
        running.db, running.secrets, running.folder = db, secrets, tmp_path
        yield running


def combat(server, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_STATE_HOME": str(server.folder / "state")}
    return subprocess.run([sys.executable, "-m", "cli", "--db", str(server.db), *args],
                          env=env, capture_output=True, text=True, timeout=60)


def listening(http, events: list, path: str = STREAM) -> threading.Thread:
    """A stream read on a thread into `events` (event, data), until it ends."""
    def listen():
        try:
            with connect_sse(http, "GET", path, timeout=httpx.Timeout(20)) as source:
                for message in messages(source):
                    events.append((message.event, message.data))
        except httpx.HTTPError:  # (a read timeout, or the test closing its client)
            events.append(("ended", ""))
    listener = threading.Thread(target=listen)
    listener.start()
    deadline = time.monotonic() + 15
    while not events:
        assert time.monotonic() < deadline, "the stream never opened"
        time.sleep(0.01)
    return listener


def test_a_new_encounter_under_a_deleted_ones_id_is_reached_by_none_of_its_tokens(server):
    done = combat(server, "delete", E, "--confirm", E)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"deleted {E} from the store; 2 tokens that reached it alone ended"
    table(server.db)  # `new raid` again, the same combatants
    for who in ("ash", "tv"):
        with client(server, server.secrets[who]) as http:
            answer = http.get(f"/api/encounters/{E}/status")
            assert answer.status_code == 401, answer.text
    with client(server, server.secrets["gm"]) as http:  # (a GM token reaches every encounter)
        assert http.get(f"/api/encounters/{E}/status").status_code == 200


@pytest.mark.parametrize("how", ["archive", "delete"])
def test_archiving_or_deleting_ends_the_open_streams_with_why(server, how):
    streams = {who: [] for who in ("gm", "ash", "tv")}
    listeners = []
    https = [client(server, server.secrets[who]) for who in streams]
    try:
        for http, events in zip(https, streams.values()):
            listeners.append(listening(http, events))
        args = ["archive", E] if how == "archive" else ["delete", E, "--confirm", E]
        done = combat(server, *args)
        assert done.returncode == 0, done.stderr
        for listener in listeners:
            listener.join(10)
            assert not listener.is_alive()
    finally:
        for http in https:
            http.close()
    reason = "archived" if how == "archive" else "deleted"
    error = (f"{E} was archived: `combat unarchive {E}` brings it back" if how == "archive"
             else f"{E} was deleted from the store")
    for who, events in streams.items():
        assert events[0][0] == "status", who
        assert events[-1] == ("closed", json.dumps({"encounter": E, "reason": reason,
                                                    "error": error}, separators=(",", ":"))), who


def test_archiving_through_the_server_ends_its_streams_at_once(server):
    events: list = []
    with client(server, server.secrets["ash"]) as http, \
            client(server, server.secrets["gm"]) as gm:
        listener = listening(http, events)
        assert gm.post(f"/api/encounters/{E}/archive", json={"archived": True}).status_code == 200
        listener.join(5)
        assert not listener.is_alive()
        assert http.get(STREAM).status_code == 404  # (and a new one is not opened)
    assert events[-1][0] == "closed" and json.loads(events[-1][1])["reason"] == "archived"


def test_a_gm_reading_an_archived_encounter_on_purpose_reads_on(server):
    assert combat(server, "archive", E).returncode == 0
    events: list = []
    with client(server, server.secrets["gm"]) as http:
        listener = listening(http, events, STREAM + "?archived=1")
        time.sleep(3)  # (past the server's look at every encounter, every 2 s)
        assert listener.is_alive() and [e for e, _ in events] == ["status"]
        assert combat(server, "unarchive", E).returncode == 0
        assert combat(server, "--encounter", E, "note", "read on").returncode == 0
        deadline = time.monotonic() + 10
        while len(events) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        http.close()
        listener.join(10)
    assert [e for e, _ in events][:2] == ["status", "status"]


def test_a_page_says_why_its_stream_ended_and_does_not_reconnect(tmp_path):
    from browser import CHROMIUM, chromium
    if CHROMIUM is None:
        pytest.skip("no chromium installed (.ci/run installs it)")
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    table(db)
    gm, ash = token(db, "gm", "gm"), token(db, "ana", "player", "ash")
    with served(db) as running, chromium() as browser, client(running, gm) as http:
        phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        phone.goto(f"{running.url}/?token={ash}")
        expect(phone.locator("#live")).to_have_text("live")
        assert http.post(f"/api/encounters/{E}/archive", json={"archived": True}).status_code == 200
        expect(phone.locator("#message")).to_contain_text(
            f"{E} was archived: `combat unarchive {E}` brings it back")
        expect(phone.locator("#live")).to_have_text("offline")
        phone.wait_for_timeout(3500)  # (a page that reconnected would be "live" or say 404)
        expect(phone.locator("#live")).to_have_text("offline")


@pytest.mark.parametrize("changes", ["poll", "notify"])
def test_a_stream_on_another_server_ends_when_one_server_archives(monkeypatch, changes):
    """Two servers on one PostgreSQL store: the archive made through A reaches
    B by the store's change hint, not by B's slow look at every encounter
    (pushed out of this test's reach), and B's stream ends with why."""
    import cli.server.hub as hub
    from helpers import pg_server
    from serverkit import served
    monkeypatch.setattr(hub, "FULL_S", 3600.0)
    monkeypatch.setenv("COMBAT_PG_CHANGES", changes)
    db = pg_server().fresh_url()
    table(db)
    gm, ash = token(db, "gm", "gm"), token(db, "ana", "player", "ash")
    events: list = []
    with served(db) as a, served(db) as b, client(b, ash) as phone, client(a, gm) as http:
        listener = listening(phone, events)
        assert http.post(f"/api/encounters/{E}/archive", json={"archived": True}).status_code == 200
        listener.join(15)
        assert not listener.is_alive(), events
    assert events[-1][0] == "closed" and json.loads(events[-1][1])["reason"] == "archived"
