"""`combat party import FILE [--map FIELD=KEY...]`: the characters of a
spreadsheet's CSV or a Foundry VTT export join the party in one batch, with
their portraits; a fight started from the party shows them; a file with a
mistake, or a character the party refuses, adds no one (one line a mistake,
exit 1)."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from helpers import cli_env, in_process, pg_server

SHEETS = Path(__file__).resolve().parent / "fixtures" / "sheets"


@pytest.fixture(params=["sqlite", "postgres"])
def combat(request, tmp_path):
    if request.param == "sqlite":
        return in_process(cli_env(tmp_path / "ledger.db"))
    return in_process({**cli_env(tmp_path / "unused.db"), "COMBAT_DB": pg_server().fresh_url()})


def party(combat) -> dict:
    return json.loads(combat("party", "--json").stdout)


def test_a_csv_joins_the_party_with_its_portraits_and_fights_show_them(combat):
    said = combat("party", "import", SHEETS / "party.csv").stdout
    assert said.strip() == "✓ party seq 2: rook, vex, mara, tom join the party"
    people = {ch["id"]: ch for ch in party(combat)["characters"]}
    assert list(people) == ["rook", "vex", "mara", "tom"]
    assert people["rook"]["bonus"] == 5 and people["rook"]["grit"] == 1
    assert {"track": "hp", "value": 17, "max": 24} in people["rook"]["tracks"]
    rook = (SHEETS / "portraits" / "rook.png").read_bytes()
    assert people["rook"]["portrait"] == hashlib.sha256(rook).hexdigest()
    assert people["tom"]["portrait"] is None
    combat("new", "alley", "--party")
    joined = {e["data"]["id"]: e["data"].get("portrait")
              for e in json.loads(combat("log", "--json").stdout) if e["type"] == "CombatantJoined"}
    assert joined == {cid: ch["portrait"] for cid, ch in people.items()}


def test_a_foundry_actor_joins_by_the_gms_map(combat):
    combat("party", "import", SHEETS / "foundry-rook.json",
           "--map", "bonus=system.abilities.dex.mod",
           "--map", "track:hp=system.attributes.hp.value",
           "--map", "max:hp=system.attributes.hp.max")
    (rook,) = party(combat)["characters"]
    assert (rook["name"], rook["bonus"]) == ("Rook", 4)
    assert {"track": "hp", "value": 17, "max": 24} in rook["tracks"]


def test_a_file_with_mistakes_adds_no_one_and_says_each(combat, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("name,bonus,hp,colour\nRook,5,20,red\nRook,x,3,blue\n")
    combat("party", "import", bad, code=1)
    if "://" not in str(combat.db):  # (SQLite: no store is made for it)
        assert not combat.db.exists()
    combat("party", "add", "Vex")
    before = party(combat)
    out = combat("party", "import", bad, code=1)
    lines = out.stderr.splitlines()
    assert lines[0].startswith("error: bad.csv: ") and "nothing of the file was imported" in lines[0]
    assert len(lines) > 2 and any("colour" in line for line in lines)
    assert party(combat) == before


def test_a_character_the_party_holds_already_adds_no_one_and_keeps_no_portrait(combat):
    """The party refuses the batch: none of the file's portraits is kept
    either (a portrait is never removed once kept: it is kept only for a
    declaration the party takes)."""
    from eventlog.stores import open_store
    combat("party", "add", "Rook")
    out = combat("party", "import", SHEETS / "party.csv", code=1)
    assert out.stderr.strip() == "error: the id 'rook' is already in the party; choose another with --id"
    assert [ch["id"] for ch in party(combat)["characters"]] == ["rook"]
    store = open_store(combat.env["COMBAT_DB"])
    try:
        assert store.portraits() == []
    finally:
        store.close()
