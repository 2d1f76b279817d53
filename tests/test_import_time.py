"""An import whose times run backwards or reach into the
future (year 9999: `stats` reported an 8,000-year fight) is refused in one
line, nothing stored; and a roster adds at most 1,000 combatants."""
from __future__ import annotations

import json

import pytest

from helpers import one_error_line, real, rechain
from projections.inputs.roster import MAX_COMBATANTS


@pytest.fixture
def exported(tmp_path):
    db = tmp_path / "a.db"
    for args in (["new", "alley"], ["add", "Rook", "--pc"], ["note", "one"], ["note", "two"]):
        assert real(db, *args).returncode == 0
    return json.loads(real(db, "export").stdout)


@pytest.mark.parametrize("at, says", [
    ("9999-12-31T23:59:59.000000Z", "is in the future"),
    ("2001-01-01T00:00:00.000000Z", "runs backwards"),
])
def test_r29_an_import_whose_clock_is_wrong_is_refused(exported, tmp_path, at, says):
    exported["events"][2]["at"] = at
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(rechain(exported)))
    target = tmp_path / "b.db"
    assert real(target, "new", "other").returncode == 0
    before = real(target, "list", "--json").stdout
    err = one_error_line(real(target, "import", str(path), "--as", "forged"))
    assert f"event 3: its time {at} {says}" in err
    assert real(target, "list", "--json").stdout == before


def test_r29_an_import_with_its_times_in_order_is_kept(exported, tmp_path):
    path = tmp_path / "fine.json"
    path.write_text(json.dumps(exported))
    assert real(tmp_path / "b.db", "import", str(path)).returncode == 0


def test_a_roster_of_more_than_the_bound_is_refused_and_adds_nothing(tmp_path):
    # ~2 KB: 101 squads of 100 would add 10,100 combatants
    roster = tmp_path / "horde.toml"
    roster.write_text("".join(f'[[combatant]]\nname = "G{i}"\ngroup = "g{i}"\ncount = 100\n'
                              for i in range(101)))
    db = tmp_path / "a.db"
    assert real(db, "new", "alley").returncode == 0
    err = one_error_line(real(db, "load", str(roster)))
    assert f"adds 10100 combatants: a roster adds at most {MAX_COMBATANTS}" in err
    assert json.loads(real(db, "status", "--json").stdout)["combatants"] == []


def test_a_roster_at_the_bound_loads_and_status_reads_it(tmp_path):
    roster = tmp_path / "army.toml"
    roster.write_text("".join(f'[[combatant]]\nname = "G{i}"\ngroup = "g{i}"\ncount = 100\n'
                              for i in range(MAX_COMBATANTS // 100)))
    db = tmp_path / "a.db"
    assert real(db, "new", "alley").returncode == 0
    assert real(db, "load", str(roster)).returncode == 0
    assert len(json.loads(real(db, "status", "--json").stdout)["combatants"]) == MAX_COMBATANTS
