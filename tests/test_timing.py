"""Time in `stats`, `stats --json` and the report, checked against an
encounter whose events carry chosen timestamps (R29: every event records
when it was appended): played, exported, given new `at` values, re-hashed
and imported, so the figures below are counted by hand."""
from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from helpers import rechain

BASE = datetime(2026, 12, 2, 20, 0, 0)
# seq -> seconds after BASE (see the log in `timed`)
AT = {1: 0, 2: 10, 3: 10, 4: 10, 5: 10, 6: 10, 7: 10, 8: 10, 9: 60, 10: 90, 11: 120,
      12: 150, 13: 200, 14: 240, 15: 300, 16: 330, 17: 345, 18: 400}
SCRIPT = [
    ("new", "timed-src"), ("add", "Rook", "--pc", "--bonus", "5"), ("add", "Vex", "--pc"),
    ("add", "Ganger", "--count", "2", "--group", "gangers"),
    ("roll", "rook", "--die", "9"), ("roll", "vex", "--die", "5"),
    ("roll", "gangers", "--die", "1"),
    ("round",),                                   # 9
    ("act", "rook", "major", "shoots"), ("end-turn",),  # 10, 11: rook 60 -> 120
    ("act", "vex", "minor"), ("act", "vex", "minor"), ("end-turn",),  # 12-14: vex 120 -> 240
    ("act", "ganger-2", "major"), ("end-turn", "ganger-2"),  # 15, 16: 240 -> 330
    ("end-turn", "ganger-1"),                     # 17: passes, 330 -> 345; pass 2 reaches rook
    ("end",),                                     # 18
]


def at(seconds: int) -> str:
    return (BASE + timedelta(seconds=seconds)).isoformat(timespec="microseconds") + "Z"


def timed_export(combat, tmp_path) -> str:
    for line in SCRIPT:
        combat(*line)
    src = tmp_path / "src.json"
    combat("export", "--format", "json", "-o", src)
    doc = json.loads(src.read_text())
    assert [e["seq"] for e in doc["events"]] == list(AT)
    for e in doc["events"]:
        e["at"] = at(AT[e["seq"]])
    doc["encounter"]["id"] = "timed-src"
    path = tmp_path / "timed.json"
    path.write_text(json.dumps(rechain(doc)))
    return str(path)


@pytest.fixture
def timed(combat, tmp_path):
    combat("import", timed_export(combat, tmp_path), "--as", "timed")
    return combat


def test_stats_json_time_of_turns_rounds_and_encounter(timed):
    numbers = json.loads(timed("stats", "--json").stdout)
    assert numbers["totals"]["duration_seconds"] == 400.0
    assert numbers["totals"]["turn_seconds"] == 60 + 120 + 90 + 15
    assert [r["seconds"] for r in numbers["rounds"]] == [340.0]
    people = {c["id"]: c for c in numbers["combatants"]}
    assert {cid: c["turn_seconds"] for cid, c in people.items()} == {
        "rook": 60.0, "vex": 120.0, "ganger-1": 15.0, "ganger-2": 90.0}
    assert people["vex"]["seconds_per_turn"] == 120.0
    slow = numbers["slowest_turns"]
    assert [(t["combatant"], t["seconds"]) for t in slow] == [
        ("vex", 120.0), ("ganger-2", 90.0), ("rook", 60.0), ("ganger-1", 15.0)]
    # a group member's turn starts when the previous member's ended (R8),
    # not at its own first declaration (seq 15)
    assert (slow[1]["start_seq"], slow[1]["end_seq"]) == (14, 16)
    assert slow[0]["started_at"] == at(120) and slow[0]["ended_at"] == at(240)
    assert [t["turn"] for t in numbers["turns"]] == [1, 2, 3, 4]


def test_stats_text_shows_the_time(timed):
    out = timed("stats").stdout
    assert "6m40s" in out  # the duration, 400 s
    assert "slowest turns" in out and "Vex 2m00s (round 1, pass 1)" in out


def test_stats_csv_is_one_row_per_turn_with_its_time(timed):
    import csv
    import io
    rows = list(csv.DictReader(io.StringIO(timed("stats", "--csv").stdout)))
    assert [(r["combatant"], r["side"], r["group"], r["seconds"], r["ap_spent"]) for r in rows] == [
        ("rook", "pc", "", "60.0", "2"), ("vex", "pc", "", "120.0", "2"),
        ("ganger-2", "npc", "gangers", "90.0", "2"), ("ganger-1", "npc", "gangers", "15.0", "0")]
    assert {r["encounter"] for r in rows} == {"timed"}


def test_report_shows_the_slowest_turns(timed, tmp_path):
    out = tmp_path / "r.html"
    timed("export", "--format", "html", "-o", out)
    html = out.read_text()
    assert 'id="time"' in html and "6m40s" in html and "2m00s" in html


def test_stats_refuses_conflicting_or_unknown_choices(timed):
    for args, said in ((("--json", "--csv"), "--json and --csv"),
                       (("--all", "--encounters", "timed"), "--all and --encounters"),
                       (("--encounters", "timed,nope"), "no encounter nope"),
                       (("--encounters", ","), "name at least one encounter")):
        result = timed("stats", *args, code=1)
        assert result.stderr.startswith("error: ") and said in result.stderr
        assert result.stderr.count("\n") == 1 and result.stdout == ""
