"""GET /api/party on a real server: the GM reads every character, the fight
holding some and the carry a correction left waiting; a player reads only
the characters their token owns; a view, or a GM token that reaches one
encounter, reads nothing of the party (403, one line)."""
from __future__ import annotations

import pytest

from helpers import cli_env, fresh_db, in_process
from serverkit import client, served, token


def played(combat):
    """Rook and Vex from the party: `alley` ended (carried: Rook hurt,
    poisoned until the party rests); `docks` running with Vex and a ganger,
    rolled."""
    combat("party", "add", "Rook", "--grit", "2", "--track", "hp=20/20")
    combat("party", "add", "Vex", "--track", "hp=15/15")
    combat("new", "alley", "--party")
    combat("effect", "rook", "poisoned", "--until-rest")
    combat("track", "rook", "hp", "-6")
    combat("end")
    combat("new", "docks", "--party", "vex")
    combat("add", "Ganger")
    combat("roll", "vex", "--die", "7")
    combat("roll", "ganger", "--die", "3")
    return combat


@pytest.fixture(params=["sqlite", "postgres"])
def campaign(request, tmp_path):
    db = fresh_db(request.param, tmp_path)
    return db, played(in_process({**cli_env(tmp_path / "unused.db"), "COMBAT_DB": str(db)}))


def test_the_gm_reads_the_whole_party_and_where_each_is(campaign):
    db, _ = campaign
    with served(db) as running, client(running, token(db, "gm", "gm")) as gm:
        party = gm.get("/api/party")
        assert party.status_code == 200, party.text
        sheets = {ch["id"]: ch for ch in party.json()["characters"]}
        assert sheets["rook"]["tracks"] == [{"track": "hp", "value": 14, "max": 20}]
        assert sheets["rook"]["conditions"] == ["poisoned (until rest)"]
        assert (sheets["rook"]["fight"], sheets["vex"]["fight"]) == (None, "docks")
        assert party.json()["waiting"] == []


def test_a_correction_after_the_carry_is_waiting_for_the_gm(campaign):
    db, combat = campaign
    combat("--encounter", "alley", "undo")  # (the end: alley runs again)
    combat("--encounter", "alley", "undo")  # (the hp: 20 again)
    combat("--encounter", "alley", "end")
    with served(db) as running, client(running, token(db, "gm", "gm")) as gm:
        rook = next(ch for ch in gm.get("/api/party").json()["characters"] if ch["id"] == "rook")
        assert rook["tracks"] == [{"track": "hp", "value": 20, "max": 20}]


def test_a_player_reads_their_own_characters_only(campaign):
    db, _ = campaign
    secret = token(db, "ana", "player", "rook", "alley")
    with served(db) as running, client(running, secret) as ana:
        party = ana.get("/api/party").json()
        assert [ch["id"] for ch in party["characters"]] == ["rook"]
        assert set(party) == {"seq", "characters"}  # (no session, fights or carries)
        assert party["characters"][0]["tracks"] == [{"track": "hp", "value": 14, "max": 20}]


@pytest.mark.parametrize("role,why", [("view", "is a view's"),
                                      ("gm", "reaches encounter alley only")])
def test_a_view_or_a_gm_of_one_encounter_reads_nothing_of_the_party(campaign, role, why):
    db, _ = campaign
    with served(db) as running, client(running, token(db, "tv", role, None, "alley")) as tv:
        refused = tv.get("/api/party")
        assert refused.status_code == 403
        assert refused.json() == {"error": f"tv's token {why}: the party is the whole campaign's"}
