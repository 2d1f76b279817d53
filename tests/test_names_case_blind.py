"""Join names and token names are matched case-blind, like ids: `Rook` and
`rook` are one name, for uniqueness, approve, deny and revoke, from the
command line and from the GM page's routes."""
from __future__ import annotations

from helpers import cli_env, in_process
from serverkit import E, client, served, token
from test_players import with_three_pcs


def test_a_token_is_revoked_by_its_name_in_any_case(tmp_path):
    combat = in_process(cli_env(tmp_path / "ledger.db"))
    combat("new", "alley")
    combat("token", "add", "Rook", "--view", "--encounter", "alley")
    taken = combat("token", "add", "rook", "--view", "--encounter", "alley", code=1)
    assert "reads as the token 'Rook'" in taken.stderr
    assert combat("token", "revoke", "ROOK").stdout == "revoked Rook\n"
    assert "Rook" not in combat("token", "list").stdout


def test_join_requests_are_answered_and_revoked_by_name_in_any_case(tmp_path):
    db = tmp_path / "table.db"
    with_three_pcs(db)
    gm_secret = token(db, "gm", "gm")
    with served(db) as running:
        anyone, gm = client(running, None), client(running, gm_secret)
        ben = anyone.post("/api/join", json={"name": "Ben", "pc": "bo"}).json()["token"]
        cat = anyone.post("/api/join", json={"name": "Cat", "pc": "cy"}).json()["token"]
        assert gm.post("/api/joins/BEN", json={"approve": True}).json() == {
            "name": "Ben", "approved": True}
        assert client(running, ben).get("/api/me").json()["owns"] == ["bo"]
        assert gm.post("/api/joins/cat", json={"approve": False}).json() == {
            "name": "Cat", "approved": False}
        assert client(running, cat).get("/api/me").status_code == 401
        assert gm.post("/api/players/ben/revoke").json() == {"name": "Ben", "revoked": True}
        assert client(running, ben).get(f"/api/encounters/{E}/status").status_code == 401
