"""Several targets at once from play mode and the table server's API (on
SQLite and PostgreSQL): `t goblin-1,goblin-2 hp -3` and `{"command":
"track", "id": "ganger-1,ganger-2", ...}` are one batch, undone in one step;
a player never reads of a hidden target of such a batch."""
from __future__ import annotations

import pytest

from helpers import fresh_db
from serverkit import E, client, log, post, served, token
from serverkit import table as raid
from test_play import CTRL_Z, SETUP, SETUP_SEQ, events, lines
from test_play import table as table  # noqa: F401  (play mode's fixture)


def test_play_mode_track_of_several_targets_is_one_batch_undone_by_ctrl_z(table):
    played = table(lines(*SETUP),
                   lines("t ganger-1,ganger-2,rook hp 6"),
                   lines("t ganger-1,ganger-2 hp -2"),
                   CTRL_Z,
                   lines("effect ganger-1,ganger-2 stunned --rounds 1", "q"))
    assert "Traceback" not in played.out + played.err and played.err == ""
    assert "✓ ganger-1's and ganger-2's hp -2 (seq 14-15)" in played.out
    assert "↶ undone (seq 14-15): ganger-1's and ganger-2's hp -2" in played.out
    assert "✓ ganger-1 and ganger-2 are stunned (stunned, stunned-2) for 1 round" in played.out
    after = events(table.db)[SETUP_SEQ:]
    hits = [e for e in after if e["type"] == "TrackChanged" and e["data"]["delta"] == -2]
    assert [e["data"]["combatant"] for e in hits] == ["ganger-1", "ganger-2"]
    assert len({e["batch"] for e in hits}) == 1 and all(e["undone"] for e in hits)
    undo = next(e for e in after if e["type"] == "Undone")
    assert undo["data"]["batches"] == [hits[0]["batch"]]  # one step
    stunned = [e for e in after if e["type"] == "EffectApplied"]
    assert len(stunned) == 2 and stunned[0]["batch"] == stunned[1]["batch"]


def test_play_mode_refusal_names_the_target_and_appends_nothing(table):
    played = table(lines(*SETUP), lines("t ganger-1,vex hp -2", "q"))
    assert played.err.splitlines() == [
        "error: ganger-1 has no track 'hp': give it a value first (track ganger-1 hp N)"]
    assert len(events(table.db)) == SETUP_SEQ


@pytest.fixture(params=["sqlite", "postgres"])
def db(request, tmp_path):
    return fresh_db(request.param, tmp_path)


def test_api_track_of_several_targets_is_one_batch_undone_in_one_step(db):
    raid(db)
    gm = token(db, "gm", "gm")
    with served(db) as running, client(running, gm) as http:
        made = post(http, {"command": "track", "id": "ganger-1,ganger-2,boss", "name": "hp",
                           "value": 5, "max": 5})
        assert made.status_code == 200
        hit = post(http, {"command": "track", "id": "ganger-1,Ganger 2,boss", "name": "hp",
                          "delta": -3})
        assert hit.status_code == 200
        appended = hit.json()["events"]
        assert [e["data"]["combatant"] for e in appended] == ["ganger-1", "ganger-2", "boss"]
        assert len({e["batch"] for e in appended}) == 1
        assert post(http, {"command": "undo"}).status_code == 200
        status = http.get(f"/api/encounters/{E}/status").json()
        assert {c["id"]: c["tracks"]["hp"]["value"] for c in status["combatants"]
                if c["tracks"]} == {"ganger-1": 5, "ganger-2": 5, "boss": 5}
        stunned = post(http, {"command": "effect", "id": "ganger-1,ganger-2",
                              "name": "stunned", "rounds": 1})
        assert stunned.status_code == 200 and len(stunned.json()["events"]) == 2
        head = log(db)[-1]["seq"]
        refused = post(http, {"command": "track", "id": "boss,ash", "name": "hp", "delta": -1})
        assert refused.status_code == 409
        assert refused.json() == {"error": "ash has no track 'hp': give it a value first "
                                           "(track ash hp N)"}
        assert log(db)[-1]["seq"] == head


def test_api_players_read_a_batch_without_its_hidden_target(tmp_path):
    db = tmp_path / "table.db"
    raid(db)
    gm, ana = token(db, "gm", "gm"), token(db, "ana", "player", "ash")
    with served(db) as running, client(running, gm) as http, client(running, ana) as phone:
        assert post(http, {"command": "add", "name": "Sneak", "id": "sneak", "hidden": True}).status_code == 200
        assert post(http, {"command": "track", "id": "ash,sneak,bo", "name": "hp",
                           "value": 9}).status_code == 200
        head = log(db)[-1]["seq"]
        hidden = post(phone, {"command": "track", "id": "ash,sneak", "name": "hp", "delta": -1})
        assert hidden.status_code == 403 and "sneak" not in hidden.text  # (tracks are the GM's)
        assert log(db)[-1]["seq"] == head
        seen = phone.get(f"/api/encounters/{E}/log").json()
        assert "sneak" not in str(seen).lower()
        batch = [e["data"]["combatant"] for e in seen if e["type"] == "TrackChanged"]
        assert batch == ["ash", "bo"]


def test_play_mode_tab_completes_the_next_of_several_targets(table):
    from test_play import TAB, typist
    played = table(lines(*SETUP), meanwhile=typist(
        "track ganger-1,ganger-", TAB, " hp 4\r", "q\r"))
    assert "alley› track ganger-1,ganger-2 hp 4" in played.out
    assert "✓ ganger-1's and ganger-2's hp set to 4" in played.out


def test_shell_completion_offers_the_next_target_after_a_comma(tmp_path, monkeypatch):
    from cli.complete import target_ids
    raid(tmp_path / "table.db")
    monkeypatch.setenv("COMBAT_DB", str(tmp_path / "table.db"))
    monkeypatch.setenv("COMBAT_ENCOUNTER", E)
    assert target_ids(None, "ganger-1,") == ["ganger-1,ash", "ganger-1,bo", "ganger-1,boss",
                                             "ganger-1,ganger-2"]
    assert target_ids(None, "boss,ganger-1,g") == ["boss,ganger-1,ganger-2"]
    assert target_ids(None, "b") == ["bo", "boss"]
