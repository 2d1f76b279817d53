"""Portraits on the table server (docs/characters.md, "Portraits"; docs/server.md):
an encounter's map of who has which, the image by its digest with its own
type, cached by digest, never sniffed; a hidden combatant's portrait never
reaches a player or a view. On a real server, over SQLite and PostgreSQL."""
from __future__ import annotations

import pytest

from eventlog.stores import open_store
from projections.domain import commands as c
from projections.ledger import Ledger

from helpers import pg_server
from pictures import image
from serverkit import E, client, served, table, token

ROOK, SHADE = image("PNG", colour=(20, 90, 160)), image("WEBP", colour=(140, 20, 20))


@pytest.fixture(params=["sqlite", "postgres"])
def running(request, tmp_path):
    db = tmp_path / "ledger.db" if request.param == "sqlite" else pg_server().fresh_url()
    table(db)
    store = open_store(db)
    try:
        rook, shade = store.add_portrait("image/png", ROOK), store.add_portrait("image/webp", SHADE)
        Ledger(store).execute(E, c.Load(combatant=[
            c.RosterCombatant(name="Rook", side="pc", portrait=rook),
            c.RosterCombatant(name="Shade", id="shade", hidden=True, portrait=shade)]), "gm")
    finally:
        store.close()
    secrets = {"gm": token(db, "gm", "gm"), "player": token(db, "ana", "player", "rook"),
               "tv": token(db, "tv", "view"), "elsewhere": token(db, "eve", "view",
                                                                 encounter="other")}
    with served(db) as server:
        server.secrets, server.digests = secrets, {"rook": rook, "shade": shade}
        yield server


def test_portrait_map_shows_the_gm_every_combatant_with_one(running):
    with client(running, running.secrets["gm"]) as http:
        answer = http.get(f"/api/encounters/{E}/portraits")
    assert answer.status_code == 200 and answer.json() == {"portraits": running.digests}


@pytest.mark.parametrize("role", ["player", "tv"])
def test_portrait_map_of_a_player_or_view_leaves_out_the_hidden(running, role):
    with client(running, running.secrets[role]) as http:
        answer = http.get(f"/api/encounters/{E}/portraits")
        assert answer.json() == {"portraits": {"rook": running.digests["rook"]}}
        shade = http.get(f"/api/portraits/{running.digests['shade']}")
    assert shade.status_code == 404 and list(shade.json()) == ["error"]


def test_portrait_of_a_revealed_combatant_reaches_the_players(running):
    with client(running, running.secrets["gm"]) as gm:
        assert gm.post(f"/api/encounters/{E}/commands",
                       json={"command": "reveal", "id": "shade"}).status_code == 200
    with client(running, running.secrets["tv"]) as http:
        assert http.get(f"/api/encounters/{E}/portraits").json()["portraits"] == running.digests
        assert http.get(f"/api/portraits/{running.digests['shade']}").content == SHADE


@pytest.mark.parametrize(("role", "who", "media", "data"), [
    ("gm", "shade", "image/webp", SHADE), ("player", "rook", "image/png", ROOK),
    ("tv", "rook", "image/png", ROOK)])
def test_portrait_is_served_by_digest_with_its_type(running, role, who, media, data):
    digest = running.digests[who]
    with client(running, None) as http:
        answer = http.get(f"/api/portraits/{digest}", params={"token": running.secrets[role]})
        again = http.get(f"/api/portraits/{digest}", params={"token": running.secrets[role]},
                         headers={"If-None-Match": f'"{digest}"'})
    assert answer.status_code == 200 and answer.content == data
    assert answer.headers["content-type"] == media
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["content-security-policy"] == "default-src 'none'; sandbox"
    assert answer.headers["cache-control"] == "private, max-age=31536000, immutable"
    assert answer.headers["etag"] == f'"{digest}"'
    assert again.status_code == 304 and again.content == b""


@pytest.mark.parametrize("digest", ["0" * 64, "A" * 64, "zz", "..%2f..%2fetc%2fpasswd",
                                    "%00" * 3, "f" * 200])
def test_portrait_unknown_digest_is_404_in_one_line(running, digest):
    with client(running, running.secrets["gm"]) as http:
        answer = http.get(f"/api/portraits/{digest}")
    assert answer.status_code == 404 and list(answer.json()) == ["error"]
    assert "no portrait" in answer.json()["error"] or "no such page" in answer.json()["error"]


def test_portrait_needs_a_token_and_its_encounter(running):
    digest = running.digests["rook"]
    with client(running, None) as http:
        assert http.get(f"/api/portraits/{digest}").status_code == 401
        assert http.get(f"/api/encounters/{E}/portraits").status_code == 401
    with client(running, running.secrets["elsewhere"]) as http:  # a view of another fight
        assert http.get(f"/api/portraits/{digest}").status_code == 404
        assert http.get(f"/api/encounters/{E}/portraits").status_code == 403
