"""A player or view token
reaches one encounter, the one named with --encounter, else the current one
when it is made; its owned ids are ids in that encounter. A GM token reaches
every encounter unless one is named. Tried on a real server."""
from __future__ import annotations

import re

import pytest

from eventlog.stores import open_store
from eventlog.stores.contract import Token
from projections.access import digest
from serverkit import client, served
from helpers import one_error_line, real


def secret_of(done) -> str:
    assert done.returncode == 0, done.stderr
    return re.search(r"shown once: (\S+)", done.stdout).group(1)


@pytest.fixture
def two(tmp_path):
    """Rook in both dock and alley; alley made last, so current."""
    db = tmp_path / "ledger.db"
    for args in (["new", "dock"], ["add", "Rook", "--pc"], ["new", "alley"],
                 ["add", "Rook", "--pc"]):
        assert real(db, *args).returncode == 0, args
    return db


def test_a_player_token_reaches_the_current_encounter_only(two):
    ana = secret_of(real(two, "token", "add", "ana", "--player", "--owns", "rook"))
    tv = secret_of(real(two, "token", "add", "tv", "--view"))
    gm = secret_of(real(two, "token", "add", "anna", "--gm"))
    before = real(two, "--encounter", "dock", "log", "--json").stdout
    with served(two) as running:
        with client(running, ana) as http:
            assert [e["id"] for e in http.get("/api/encounters").json()] == ["alley"]
            assert http.get("/api/encounters/dock/status").status_code == 403
            assert http.get("/api/encounters/dock/log").status_code == 403
            refused = http.post("/api/encounters/dock/commands",
                                json={"command": "roll", "id": "rook", "die": 7})
            assert refused.status_code == 403
            assert http.get("/api/encounters/alley/status").status_code == 200
        with client(running, tv) as http:
            assert [e["id"] for e in http.get("/api/encounters").json()] == ["alley"]
            assert http.get("/api/encounters/dock/status").status_code == 403
        with client(running, gm) as http:
            assert sorted(e["id"] for e in http.get("/api/encounters").json()) == ["alley", "dock"]
    assert real(two, "--encounter", "dock", "log", "--json").stdout == before


def test_a_player_token_names_its_encounter_with_encounter(two):
    ana = secret_of(real(two, "token", "add", "ana", "--player", "--owns", "rook",
                         "--encounter", "dock"))
    with served(two) as running, client(running, ana) as http:
        assert [e["id"] for e in http.get("/api/encounters").json()] == ["dock"]
        assert http.get("/api/encounters/alley/status").status_code == 403


def test_a_player_token_without_any_encounter_is_refused_in_one_line(tmp_path):
    db = tmp_path / "empty.db"
    open_store(db).close()
    err = one_error_line(real(db, "token", "add", "ana", "--player", "--owns", "rook"))
    assert "reaches one encounter" in err


def test_a_player_token_made_before_binding_reaches_nothing(two):
    store = open_store(two)
    store.add_token(Token("old", "player", ("rook",), None, digest("s" * 43), "2026-01-01T00:00:00Z"))
    store.close()
    with served(two) as running, client(running, "s" * 43) as http:
        assert http.get("/api/encounters").json() == []
        answer = http.get("/api/encounters/alley/status")
        assert answer.status_code == 403 and "--encounter" in answer.json()["error"]


# -- an archived encounter is out of every token's reach (docs/server.md, archive) ----

def test_token_add_refuses_an_archived_encounter(two):
    assert real(two, "archive", "dock").returncode == 0
    before = [t.name for t in open_store(str(two)).tokens()]
    err = one_error_line(real(two, "token", "add", "tv", "--view", "--encounter", "dock"))
    assert "dock is archived" in err and "unarchive dock" in err
    assert real(two, "use", "dock").returncode == 0  # the current one, archived
    err = one_error_line(real(two, "token", "add", "ana", "--player", "--owns", "rook"))
    assert "dock is archived" in err
    assert [t.name for t in open_store(str(two)).tokens()] == before


def test_archived_encounter_answers_404_on_the_server(two):
    tv = secret_of(real(two, "token", "add", "tv", "--view", "--encounter", "dock"))
    ana = secret_of(real(two, "token", "add", "ana", "--player", "--owns", "rook",
                         "--encounter", "dock"))
    gm = secret_of(real(two, "token", "add", "anna", "--gm"))
    assert real(two, "archive", "dock").returncode == 0
    before = real(two, "--encounter", "dock", "log", "--json").stdout
    with served(two) as running:
        for secret in (tv, ana, gm):
            with client(running, secret) as http:
                assert "dock" not in [e["id"] for e in http.get("/api/encounters").json()]
                for path in ("status", "log", "lines"):
                    answer = http.get(f"/api/encounters/dock/{path}")
                    assert answer.status_code == 404, (secret, path)
                    assert "dock is archived" in answer.json()["error"]
                refused = http.post("/api/encounters/dock/commands",
                                    json={"command": "note", "text": "x"})
                assert refused.status_code == 404
        with client(running, ana) as http:  # ?archived is the GM's only
            assert http.get("/api/encounters/dock/status?archived=1").status_code == 404
        with client(running, gm) as http:
            assert http.get("/api/encounters/dock/status?archived=1").json()["encounter"] == "dock"
            assert http.get("/api/encounters/dock/log?archived=1").status_code == 200
            assert http.put("/api/table", json={"encounter": "dock"}).status_code == 404
    assert real(two, "--encounter", "dock", "log", "--json").stdout == before


def test_serve_refuses_to_put_an_archived_encounter_on_the_table(two):
    assert real(two, "archive", "dock").returncode == 0
    err = one_error_line(real(two, "serve", "--port", "0", "--encounter", "dock", timeout=30))
    assert "dock is archived" in err and "unarchive dock" in err
