"""The GM's evening over HTTP: a new encounter from an uploaded
roster (the strict checks of `combat load`: a hostile file refused whole
with one line, nothing appended), archive and unarchive; GM tokens only."""
from __future__ import annotations

import pytest

from serverkit import E, client, log, served, table, token

ROSTER = """
[[combatant]]
name = "Vex"
side = "pc"
grit = 1
tracks = {hp = 10}

[[combatant]]
name = "Hound"
group = "hounds"
count = 2
"""


def test_the_gm_starts_an_encounter_from_an_uploaded_roster(tmp_path):
    db = tmp_path / "table.db"
    table(db)
    with served(db) as running, client(running, token(db, "gm", "gm")) as gm:
        answer = gm.post("/api/encounters/docks", json={
            "title": "The docks", "roster": {"file": "party.toml", "text": ROSTER}})
        assert answer.status_code == 200, answer.text
        status = answer.json()["status"]
        assert status["encounter"] == "docks" and status["title"] == "The docks"
        assert [x["name"] for x in status["combatants"]] == ["Vex", "Hound 1", "Hound 2"]
        assert status["combatants"][0]["tracks"]["hp"]["value"] == 10
        assert "docks" in [e["id"] for e in gm.get("/api/encounters").json()]
        again = gm.post("/api/encounters/docks", json={"title": "twice"})
        assert again.status_code == 409 and "error" in again.json()


@pytest.mark.parametrize("file, text, said", [
    ("party.toml", '[[combatant]]\nname = "Vex"\nhp = 3\n', "unknown key 'hp'"),
    ("party.toml", "[[combatant]\nname=", "is not valid TOML"),
    ("party.toml", '[[combatant]]\nname = "Vex"\ncount = 1000000\n', "100 or less"),
    ("party.exe", "whatever", "a roster is .toml, .yaml, .yml or .json"),
    ("party.json", "", "is not valid JSON"),
    ("../../etc/\x1b[31mparty.yaml", "- 1\n", "party.yaml"),
])
def test_a_hostile_roster_is_refused_whole_with_one_line(tmp_path, file, text, said):
    db = tmp_path / "table.db"
    table(db)
    with served(db) as running, client(running, token(db, "gm", "gm")) as gm:
        answer = gm.post("/api/encounters/docks", json={"roster": {"file": file, "text": text}})
        assert answer.status_code == 422, answer.text
        assert list(answer.json()) == ["error"] and said in answer.json()["error"]
        assert "\n" not in answer.json()["error"] and "\x1b" not in answer.json()["error"]
        assert gm.get("/api/encounters/docks/status").status_code == 404  # nothing appended


@pytest.mark.parametrize("body", [b"{", b'{"roster": 3}', b'{"title": "x", "extra": 1}', b"[]"])
def test_a_malformed_create_is_one_error_line(tmp_path, body):
    db = tmp_path / "table.db"
    table(db)
    with served(db) as running, client(running, token(db, "gm", "gm")) as gm:
        answer = gm.post("/api/encounters/docks", content=body)
        assert answer.status_code == 422 and list(answer.json()) == ["error"]


def test_archive_and_unarchive_from_the_page(tmp_path):
    db = tmp_path / "table.db"
    table(db)
    with served(db) as running, client(running, token(db, "gm", "gm")) as gm:
        assert gm.post(f"/api/encounters/{E}/archive", json={"archived": True}).json() == {
            "encounter": E, "archived": True}
        assert gm.get("/api/encounters").json() == []
        assert gm.get("/api/encounters?all=1").json()[0]["archived"] is True
        gm.post(f"/api/encounters/{E}/archive", json={"archived": False})
        assert [e["id"] for e in gm.get("/api/encounters").json()] == [E]
        assert gm.post("/api/encounters/nowhere/archive", json={"archived": True}).status_code == 404
        assert gm.post(f"/api/encounters/{E}/archive", json={"archived": "yes"}).status_code == 422


def test_players_and_views_may_not_run_the_evening(tmp_path):
    db = tmp_path / "table.db"
    table(db)
    before = len(log(db))
    secrets = [token(db, "ana", "player", "ash"), token(db, "tv", "view")]
    with served(db) as running:
        for secret in secrets:
            with client(running, secret) as other:
                made = other.post("/api/encounters/docks", json={"title": "mine"})
                assert made.status_code == 403 and list(made.json()) == ["error"]
                hid = other.post(f"/api/encounters/{E}/archive", json={"archived": True})
                assert hid.status_code == 403
                assert "archived" not in other.get("/api/encounters?all=1").json()[0]
        with client(running, token(db, "gm", "gm")) as gm:
            assert [e["id"] for e in gm.get("/api/encounters").json()] == [E]
    assert len(log(db)) == before


def test_a_gm_token_bound_to_one_encounter_starts_and_archives_no_other(tmp_path):
    db = tmp_path / "table.db"
    table(db)
    table(db, "other")
    with served(db) as running, client(running, token(db, "gm2", "gm", encounter=E)) as gm:
        made = gm.post("/api/encounters/docks", json={"title": "mine"})
        assert made.status_code == 403 and "reaches encounter raid only" in made.json()["error"]
        hid = gm.post("/api/encounters/other/archive", json={"archived": True})
        assert hid.status_code == 403 and list(hid.json()) == ["error"]
        assert gm.post(f"/api/encounters/{E}/archive", json={"archived": True}).status_code == 200
