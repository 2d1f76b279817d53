"""The party and the sessions from the GM's command box (`POST .../line`), on
a real server over SQLite and PostgreSQL: the same words as the shell's,
declared on the party's log; a player's token or a GM token that reaches one
encounter only may not change the party (docs/rules.md, "The party")."""
from __future__ import annotations

import pytest
from serverkit import E, client, served, table, token

from eventlog.stores import open_store
from projections.party.book import PartyBook


@pytest.fixture(params=["sqlite", "postgres"])
def db(request, tmp_path):
    if request.param == "sqlite":
        return tmp_path / "table.db"
    from helpers import pg_server
    return pg_server().fresh_url()


def party_of(db):
    store = open_store(db)
    try:
        return PartyBook(store).state()
    finally:
        store.close()


def line(http, text: str):
    return http.post(f"/api/encounters/{E}/line", json={"line": text})


def test_gm_box_declares_the_party_and_a_session(db):
    table(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, client(running, secret) as http:
        added = line(http, "party add Rook --bonus 5 --track hp=20/20 --track stun=0/5")
        assert added.status_code == 200, added.text
        assert added.json()["party"] == ["✓ party seq 2: rook joins the party"]
        assert added.json()["events"] == [] and added.json()["status"]["encounter"] == E
        assert line(http, 'session start "Night two"').json()["party"] == [
            "✓ party seq 3: session s1 started"]
        assert line(http, "party set rook --track hp=12").status_code == 200
        assert line(http, "party rest --full --reason inn").json()["party"][0].endswith(
            "the party rests (a full rest)")
        refused = line(http, "party remove nobody")
        assert refused.status_code == 409 and "no character 'nobody'" in refused.json()["error"]
        wrong = line(http, "party nap")
        assert wrong.status_code == 422 and "`party add|set|remove|rest|carry|undo|redo`" in \
            wrong.json()["error"]
    party = party_of(db)
    assert party.characters["rook"].tracks["hp"].value == 20
    assert [s.title for s in party.sessions] == ["Night two"]


@pytest.mark.parametrize("who", ["player", "one encounter's gm"])
def test_party_line_refused_to_a_token_that_may_not_change_it(tmp_path, who):
    db = tmp_path / "table.db"
    table(db)
    secret = (token(db, "ana", "player", owns="ash") if who == "player"
              else token(db, "deputy", "gm", encounter=E))
    with served(db) as running, client(running, secret) as http:
        answer = http.post(f"/api/encounters/{E}/commands",
                           json={"command": "party-rest"})
        assert answer.status_code == 403, answer.text
    assert party_of(db).seq == 0


def test_gm_box_end_and_a_correction_answer_with_the_carry(db):
    table(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, client(running, secret) as http:
        line(http, "party add Rook --track hp=20/20")
        assert line(http, "new bridge --party").status_code == 200
        shot = http.post("/api/encounters/bridge/line", json={"line": "track rook hp -5"})
        ended = http.post("/api/encounters/bridge/line", json={"line": "end"}).json()
        assert ended["carried"][0].startswith("carried into the party (party seq 4, from "
                                              "bridge at seq 5)")
        fixed = http.post("/api/encounters/bridge/line", json={
            "line": f"retract {shot.json()['seq']} --reason missed"}).json()
        assert fixed["carried"] == [
            "the party would now differ by what bridge left (as of seq 6):",
            "  rook  hp 15/20 -> 20/20",
            "`combat party carry bridge` carries it into the party"]
        carried = line(http, "party carry bridge --reason missed").json()["party"]
        assert carried[1] == "  rook  hp 15/20 -> 20/20"
