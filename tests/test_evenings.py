"""`--session ID` and `--campaign` on stats, report, export and replay: the
fights an evening held (those started while it was open), or every
session's, session by session; a fight deleted since is left out; an unknown
session, no sessions, or two selections at once get one line and exit 1."""
from __future__ import annotations

import csv
import re
import io
import json

import pytest

from helpers import cli_env, in_process, pg_server


def evening(combat, fights: list[str], title: str) -> None:
    """A session in which each fight of `fights` is played: Vex takes
    one hp more in each (1, 2, 3...), and the fight ends (carried)."""
    combat("session", "start", title)
    for n, fight in enumerate(fights, 1):
        combat("new", fight, "--party")
        combat("add", "Ganger")
        for slot, die in (("rook", 9), ("vex", 5), ("ganger", 2)):
            combat("roll", slot, "--die", die)
        combat("round")
        combat("act", "rook", "major", "shoots")
        combat("track", "vex", "hp", f"-{n}", "--by", "ganger")
        combat("end")
    combat("session", "end")


@pytest.fixture(params=["sqlite", "postgres"])
def campaign(request, tmp_path):
    """Two evenings: s1 (alley, docks) and s2 (tower), and a fight outside
    any session (skirmish)."""
    env = cli_env(tmp_path / "ledger.db")
    if request.param == "postgres":
        env = {**env, "COMBAT_DB": pg_server().fresh_url()}
    combat = in_process(env)
    combat("party", "add", "Rook", "--bonus", "2", "--track", "hp=20/20")
    combat("party", "add", "Vex", "--track", "hp=15/15")
    evening(combat, ["alley", "docks"], "Night one")
    evening(combat, ["tower"], "Night two")
    combat("new", "skirmish")
    return combat


def fights_of(combat, *selection) -> list[str]:
    return [e["encounter"] for e in json.loads(
        combat("stats", "--json", *selection).stdout)["encounters"]]


def test_a_session_selects_its_fights_and_the_campaign_every_sessions(campaign):
    assert fights_of(campaign, "--session", "s1") == ["alley", "docks"]
    assert fights_of(campaign, "--session", "S2") == ["tower"]  # (ids in any case)
    assert fights_of(campaign, "--campaign") == ["alley", "docks", "tower"]  # (not skirmish)
    numbers = json.loads(campaign("stats", "--json", "--session", "s1").stdout)
    rook = next(c for c in numbers["combatants"] if c["id"] == "rook")
    assert (rook["encounters"], rook["turns"], rook["ap_in_turns"]) == (2, 2, 4)


def test_a_fight_deleted_since_is_left_out_of_its_session(campaign):
    campaign("delete", "docks", "--confirm", "docks")
    assert fights_of(campaign, "--session", "s1") == ["alley"]
    assert fights_of(campaign, "--campaign") == ["alley", "tower"]


@pytest.mark.parametrize("args,said", [
    (["stats", "--session", "s9"],
     "error: no session 's9': the sessions are s1, s2 (`combat session` lists them)\n"),
    (["stats", "--session", "s1", "--all"], "error: --all and --session: give one of them\n"),
    (["report", "--campaign", "--encounters", "alley"],
     "error: --encounters and --campaign: give one of them\n"),
    (["export", "--campaign", "--format", "json"],
     "error: --format json writes one encounter: a session or the campaign is exported as "
     "csv or jsonl (one table of every fight); its html is `combat report --campaign`\n"),
    (["replay", "--campaign", "--to", "3"],
     "error: --campaign and --to: a session or the campaign is replayed whole, fight by "
     "fight; give one of them\n"),
])
def test_a_selection_that_cannot_be_read_is_one_line(campaign, args, said):
    refused = campaign(*args, code=1)
    assert (refused.stdout, refused.stderr) == ("", said)


def test_no_sessions_yet_says_how_to_open_one(tmp_path):
    combat = in_process(cli_env(tmp_path / "ledger.db"))
    combat("new", "alley")
    refused = combat("stats", "--campaign", code=1)
    assert refused.stderr == ("error: there are no sessions yet: `combat session start "
                              "[TITLE]` opens one and the fights started then belong to it\n")


def test_the_campaign_csv_is_every_fights_rows_with_session_and_encounter(campaign):
    table = list(csv.reader(io.StringIO(campaign("export", "--campaign", "--format", "csv").stdout)))
    head, rows = table[0], table[1:]
    assert head[:3] == ["session", "encounter", "seq"]
    for session, fight in (("s1", "alley"), ("s1", "docks"), ("s2", "tower")):
        alone = list(csv.reader(io.StringIO(campaign("--encounter", fight, "export",
                                                     "--format", "csv").stdout)))
        assert alone[0] == head[2:]
        assert [r[2:] for r in rows if r[1] == fight] == alone[1:]
        assert {r[0] for r in rows if r[1] == fight} == {session}
    hurt = [(r[1], r[head.index("track_change")]) for r in rows
            if r[head.index("type")] == "TrackChanged" and r[head.index("by")] == "ganger"]
    assert hurt == [("alley", "-1"), ("docks", "-2"), ("tower", "-1")]


def test_a_sessions_jsonl_is_its_events_each_naming_session_and_encounter(campaign):
    lines = [json.loads(x) for x in campaign("export", "--session", "s1", "--format",
                                             "jsonl").stdout.splitlines()]
    assert {(x["session"], x["encounter"]) for x in lines} == {("s1", "alley"), ("s1", "docks")}
    alley = [x for x in lines if x["encounter"] == "alley"]
    assert [x["seq"] for x in alley] == list(range(1, len(alley) + 1))


def test_the_campaign_report_and_replay_hold_every_fight_in_order(campaign, tmp_path):
    written = campaign("report", "--campaign", "-o", tmp_path / "campaign.html")
    assert "wrote the report of 3 encounters" in written.stdout
    page = (tmp_path / "campaign.html").read_text()
    assert all(fight in page for fight in ("alley", "docks", "tower"))
    assert "skirmish" not in page
    played = campaign("replay", "--campaign", "--delay", "0").stdout
    heads = [line for line in played.splitlines() if "· session s" in line]
    assert [h.split("·")[0].strip(" ─") for h in heads] == ["alley", "docks", "tower"]
    assert "fight 3 of 3" in heads[-1]


def test_the_documented_duckdb_recipe_sums_each_fights_damage(campaign, tmp_path):
    """docs/formats.md's query over `export --campaign --format csv`."""
    duckdb = pytest.importorskip("duckdb")
    import re
    from pathlib import Path
    page = (Path(__file__).resolve().parents[1] / "docs" / "formats.md").read_text()
    query = re.search(r'duckdb -c "(SELECT session.*?)"', page, re.S).group(1)
    campaign("export", "--campaign", "--format", "csv", "-o", tmp_path / "campaign.csv")
    con = duckdb.connect()
    con.execute(f"SET file_search_path = '{tmp_path}'")
    assert con.sql(query).fetchall() == [("s1", "alley", 1), ("s1", "docks", 2), ("s2", "tower", 1)]


def test_the_players_campaign_keeps_every_secret_and_counts_the_harm(tmp_path):
    """A hidden combatant that hurt Vex: the GM's campaign page names it, the
    players' has no trace of it (name, id, column), yet Vex's lost hp are
    there, told without who dealt them."""
    combat = in_process(cli_env(tmp_path / "ledger.db"))
    combat("party", "add", "Rook", "--track", "hp=20/20")
    combat("party", "add", "Vex", "--track", "hp=15/15")
    evening(combat, ["alley"], "Night one")
    combat("session", "start", "Night two")
    combat("new", "crypt", "--party")
    combat("add", "Zyxlurker Prime", "--hidden")
    for slot, die in (("rook", 9), ("vex", 5), ("zyxlurker-prime", 2)):
        combat("roll", slot, "--die", die)
    combat("round")
    combat("track", "vex", "hp", "-4", "--by", "zyxlurker-prime")
    combat("end")
    gm = tmp_path / "gm.html"
    players = tmp_path / "players.html"
    combat("report", "--campaign", "-o", gm)
    combat("report", "--campaign", "--for", "players", "-o", players)
    assert "Zyxlurker" in gm.read_text() and "zyxlurker-prime" in gm.read_text()
    page = players.read_text()
    assert "zyxlurker" not in page.lower()
    assert "<h1>The players&#39; campaign: 2 encounters</h1>" in page
    numbers = json.loads(combat("stats", "--campaign", "--json").stdout)
    vex = next(c for c in numbers["combatants"] if c["id"] == "vex")
    assert (vex["hp_taken"], numbers["harm"]["taken"]["vex"]) == (5, [1, 4])
    lost = re.search(r'<tr data-combatant="vex">(.*?)</tr>', page, re.S).group(1)
    assert re.findall(r"<td>([^<]*)</td>", lost)[10] == "5"  # hp lost: 1 in alley, 4 in the crypt


def test_stats_of_the_campaign_in_the_terminal_names_sessions_and_harm(campaign):
    out = campaign("stats", "--campaign").stdout
    rows = [line.split() for line in out.splitlines()]
    assert ["s1", "alley"] in [r[:2] for r in rows] and ["s2", "tower"] in [r[:2] for r in rows]
    assert "hp: Vex lost 4, dealt 0, healed 0; Ganger lost 0, dealt 4, healed 0" in out
    assert all(len(line) <= 80 for line in out.splitlines())


def test_each_session_sums_its_characters_spotlight_grit_and_harm(campaign, tmp_path):
    numbers = json.loads(campaign("stats", "--campaign", "--json").stdout)
    sums = {(x["session"], q["id"]): (q["fights"], q["turns"], q["ap_in_turns"], q["hp_taken"])
            for x in numbers["sessions"] for q in x["people"]}
    assert sums == {("s1", "rook"): (2, 2, 4, 0), ("s1", "vex"): (2, 0, 0, 3),
                    ("s2", "rook"): (1, 1, 2, 0), ("s2", "vex"): (1, 0, 0, 1)}
    assert [x["fights"] for x in numbers["sessions"]] == [["alley", "docks"], ["tower"]]
    campaign("report", "--campaign", "-o", tmp_path / "c.html")
    page = (tmp_path / "c.html").read_text()
    row = re.search(r'<tr data-session="s1" data-character="vex">(.*?)</tr>', page, re.S).group(1)
    assert re.findall(r"<td>([^<]*)</td>", row) == ["Vex", "s1", "2", "0", "0", "0s", "0", "0",
                                                   "3", "0"]
    assert 'id="chart-campaign-sessions"' in page
