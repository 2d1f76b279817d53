"""On a real server: a number in Last-Event-ID,
?after= or ?last= is ASCII digits (a superscript `²` passed isdigit() and
crashed into a 500), and no answer to any token names where the store lives
(its file path, its PostgreSQL URL) or repeats a driver's message."""
from __future__ import annotations

import pytest

from cli.server.run import Running
from eventlog.stores import open_store
from helpers import pg_server
from serverkit import E, client, served, table, token

ROLES = ("gm", "player", "view")
NOT_ASCII = ["\u00b2", "1\u00b2", "\u0663", "\uff11", "\u2460", "\U0001d7d9"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("answers") / "ledger.db"
    table(db)
    secrets = {"gm": token(db, "gm", "gm"), "player": token(db, "ana", "player", "ash"),
               "view": token(db, "tv", "view")}
    with served(db) as running:
        running.db, running.secrets = db, secrets
        yield running


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("digits", NOT_ASCII)
def test_a_number_that_is_not_ascii_digits_is_422(server, role, digits):
    with client(server, server.secrets[role]) as http:
        for path, params in ((f"/api/encounters/{E}/log", {"after": digits}),
                             (f"/api/encounters/{E}/lines", {"last": digits})):
            answer = http.get(path, params=params)
            if role != "gm" and path.endswith("lines"):
                assert answer.status_code in (403, 422)
                continue
            assert answer.status_code == 422, (path, answer.text)
            assert "error" in answer.json()
        answer = http.get(f"/api/encounters/{E}/stream",
                          headers={"Last-Event-ID": digits.encode()})
        assert answer.status_code == 422, answer.text


def _leaks(text: str, *where: str) -> list[str]:
    return [w for w in where if w and w in text]


@pytest.mark.parametrize("role", ROLES)
def test_no_answer_names_the_store_file(server, role):
    db = server.db
    where = (str(db), str(db.resolve()), str(db.parent), db.name)
    with client(server, server.secrets[role]) as http:
        for answer in (http.get("/api/encounters/nowhere/status"),
                       http.get("/api/encounters/nowhere/log"),
                       http.get("/api/encounters/nowhere/lines"),
                       http.get("/api/encounters/nowhere/stream"),
                       http.post("/api/encounters/nowhere/commands", json={"command": "undo"}),
                       http.get("/api/encounters/a%00b/status"),
                       http.get("/no/such/page")):
            assert answer.status_code in (403, 404), answer.text
            assert _leaks(answer.text, *where) == [], answer.text


def test_pg_no_answer_names_the_url_or_repeats_the_driver(tmp_path):
    url = pg_server().fresh_url()
    db = open_store(url)
    db.close()
    from projections.access import make
    secret, kept = make("gm", ["gm"], None, None)
    store = open_store(url)
    store.add_token(kept)
    store.close()
    from eventlog.stores import shown
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    where = [url, shown(url), parts.path, parts.query, "search_path", "NUL", "0x00"]
    with Running(lambda: open_store(url)) as running, client(running, secret) as http:
        for answer in (http.get("/api/encounters/nowhere/status"),
                       http.get("/api/encounters/a%00b/status"),
                       http.get("/api/encounters/a%00b/log"),
                       http.post("/api/encounters/a%00b/commands", json={"command": "undo"})):
            assert answer.status_code == 404, answer.text
            assert _leaks(answer.text, *where) == [], answer.text
