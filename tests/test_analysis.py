"""The csv and turns exports as an analyst reads them: values in force after
an amendment of cost and of `--who` (R28), the same sums as `stats`, typed
columns in DuckDB, the README's recipes answered, a parquet file from them."""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import duckdb
import pytest

RECIPES = Path(__file__).resolve().parent.parent / "docs" / "formats.md"
SCRIPT = [
    ("new", "alley"), ("add", "Rook", "--pc", "--bonus", "5"), ("add", "Vex", "--pc"),
    ("add", "Boss", "--bonus", "1"), ("add", "Ganger", "--count", "2", "--group", "gangers"),
    ("roll", "rook", "--die", "9"), ("roll", "vex", "--die", "5"), ("roll", "boss", "--die", "3"),
    ("roll", "gangers", "--die", "1"), ("round",),
    ("act", "rook", "major", "shoots"),           # 12: amended to minor
    ("interrupt", "boss", "minor", "ducks"),      # 13: amended to ganger-1
    ("end-turn",), ("act", "vex", "major"), ("end-turn",),
    ("act", "boss", "minor"), ("end-turn",), ("act", "ganger-2", "major"), ("end-turn",),
    ("end-turn", "ganger-1"), ("end",),
]


@pytest.fixture
def amended(combat, tmp_path):
    for line in SCRIPT:
        combat(*line)
    combat("amend", "12", "--cost", "minor", "--reason", "a quick shot")
    combat("amend", "13", "--who", "ganger-1", "--reason", "it was the ganger")
    fight, turns = tmp_path / "fight.csv", tmp_path / "turns.csv"
    combat("export", "--format", "csv", "-o", fight)
    turns.write_text(combat("stats", "--csv").stdout)
    return combat, fight, turns


def _rows(path: Path) -> dict[int, dict]:
    return {int(r["seq"]): r for r in csv.DictReader(io.StringIO(path.read_text()))}


def test_r28_csv_carries_the_amended_values_and_the_originals(amended):
    _, fight, _ = amended
    rows = _rows(fight)
    shot, duck = rows[12], rows[13]
    assert (shot["cost"], shot["category"], shot["original_cost"], shot["original_category"]) \
        == ("1", "minor", "2", "major")
    assert (duck["combatant"], duck["name"], duck["side"], duck["group"]) == \
        ("ganger-1", "Ganger 1", "npc", "gangers")
    assert duck["original_combatant"] == "boss" and duck["amended_by"] == "24"
    assert rows[1]["original_cost"] == "" and "recorded_at" in rows[1] and "at" not in rows[1]


def test_r28_csv_sums_match_stats_after_amendments(amended):
    combat, fight, _ = amended
    numbers = json.loads(combat("stats", "--json").stdout)
    expected = {c["id"]: c["ap_spent"] for c in numbers["combatants"] if c["ap_spent"]}
    got = dict(duckdb.sql(
        f"SELECT combatant, sum(cost) FROM '{fight}' WHERE NOT undone "
        "AND type IN ('APSpent', 'InterruptTaken') GROUP BY ALL").fetchall())
    assert got == expected == {"rook": 1, "vex": 2, "boss": 1, "ganger-1": 1, "ganger-2": 2}


def test_duckdb_reads_the_csvs_with_typed_columns(amended):
    _, fight, turns = amended
    types = dict(duckdb.sql(f"DESCRIBE SELECT * FROM '{fight}'").fetchall()[i][:2]
                 for i in range(24))
    assert types["seq"] == "BIGINT" and types["cost"] == "BIGINT"
    assert types["undone"] == "BOOLEAN" and types["recorded_at"].startswith("TIMESTAMP")
    turn_types = {r[0]: r[1] for r in duckdb.sql(f"DESCRIBE SELECT * FROM '{turns}'").fetchall()}
    assert turn_types["seconds"] == "DOUBLE" and turn_types["ap_spent"] == "BIGINT"
    assert turn_types["started_at"].startswith("TIMESTAMP")
    assert duckdb.sql(f"SELECT min(recorded_at) < max(recorded_at) FROM '{fight}'").fetchall() == [(True,)]


def recipes() -> list[str]:
    """The SQL blocks of the analyst recipes (docs/formats.md)."""
    text = RECIPES.read_text()
    part = text[text.index("## Analysis recipes"):]
    part = part[:part.index("\n## ")]
    return re.findall(r"```sql\n(.*?)```", part, re.S)


def test_readme_recipes_answer_on_the_exports(amended, tmp_path, monkeypatch):
    combat, fight, turns = amended
    numbers = json.loads(combat("stats", "--json").stdout)
    monkeypatch.chdir(tmp_path)  # the recipes name fight.csv, turns.csv, exports/
    (tmp_path / "exports").mkdir()
    for name in ("alley", "alley-copy"):  # two encounters' exports, for the campaign file
        (tmp_path / "exports" / f"{name}.csv").write_text(fight.read_text())
    found = recipes()
    assert len(found) == 6
    db = duckdb.connect()
    answers = []
    for sql in found:
        rel = db.sql(sql)
        answers.append(rel.fetchall() if rel is not None else None)
    ap, by_side, slowest, per_round, _, _ = answers
    assert dict(ap) == {c["id"]: c["ap_spent"] for c in numbers["combatants"] if c["ap_spent"]}
    sides = {s: (turns_, ap_) for s, turns_, ap_, _ in by_side}
    assert sides == {"npc": (3, 3), "pc": (2, 3)}
    assert [r[0] for r in slowest] == [t["name"] for t in numbers["slowest_turns"]][:len(slowest)]
    assert [r[0] for r in per_round] == [1]
    assert db.sql("SELECT count(*) FROM 'fight.parquet'").fetchall() == [(len(_rows(fight)),)]
    parquet = dict(db.sql("DESCRIBE SELECT * FROM 'fight.parquet'").fetchall()[i][:2]
                   for i in range(24))
    assert parquet["cost"] == "BIGINT" and parquet["recorded_at"].startswith("TIMESTAMP")
    campaign = db.sql("SELECT filename, count(*), sum(cost) FROM 'campaign.parquet' "
                      "WHERE NOT undone GROUP BY ALL ORDER BY ALL").fetchall()
    assert [(Path(f).name, n) for f, n, _ in campaign] == [
        ("alley-copy.csv", len(_rows(fight))), ("alley.csv", len(_rows(fight)))]
