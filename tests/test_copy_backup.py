"""`combat copy --to` onto an older copy of the same store
brings the backup up to date (it was refused as "another log"); a copy that
diverged is still refused, nothing written. SQLite to SQLite, and to
PostgreSQL."""
from __future__ import annotations

import pytest

from helpers import damage, one_error_line, pg_server, real


def _fight(db):
    for args in (["new", "alley"], ["add", "Rook", "--pc"], ["note", "one"]):
        assert real(db, *args).returncode == 0


def _backup(tmp_path, kind: str) -> str:
    if kind == "pg":
        return pg_server().fresh_url()
    return str(tmp_path / "backup.db")


@pytest.mark.parametrize("kind", ["sqlite", "pg"])
def test_copy_onto_an_older_copy_brings_it_up_to_date(tmp_path, kind):
    db = tmp_path / "home.db"
    _fight(db)
    backup = _backup(tmp_path, kind)
    assert real(db, "copy", "--to", backup).returncode == 0
    for args in (["note", "two"], ["add", "Vex"], ["note", "three"]):
        assert real(db, *args).returncode == 0
    done = real(db, "copy", "--to", backup)
    assert done.returncode == 0, done.stderr
    assert "alley: brought up to date, events 4 to 6 added" in done.stdout
    for line in (["log", "--json"], ["status", "--json"]):
        assert real(backup, "--encounter", "alley", *line).stdout == \
            real(db, "--encounter", "alley", *line).stdout
    assert real(backup, "--encounter", "alley", "verify").returncode == 0
    again = real(db, "copy", "--to", backup)
    assert "already there with the same chain" in again.stdout


def test_copy_onto_a_copy_that_diverged_is_refused_and_writes_nothing(tmp_path):
    db = tmp_path / "home.db"
    _fight(db)
    backup = tmp_path / "backup.db"
    assert real(db, "copy", "--to", str(backup)).returncode == 0
    assert real(backup, "--encounter", "alley", "note", "only in the backup").returncode == 0
    assert real(db, "note", "only at home").returncode == 0
    before = real(backup, "--encounter", "alley", "log", "--json").stdout
    err = one_error_line(real(db, "copy", "--to", str(backup)))
    assert "with another log" in err
    assert real(backup, "--encounter", "alley", "log", "--json").stdout == before


@pytest.mark.parametrize("kind", ["sqlite", "pg"])
def test_copy_carries_the_archive_marks(tmp_path, kind):
    db = tmp_path / "home.db"
    _fight(db)
    for args in (["new", "prep"], ["note", "set aside"], ["archive", "prep"]):
        assert real(db, *args).returncode == 0
    backup = _backup(tmp_path, kind)
    assert real(db, "copy", "--to", backup).returncode == 0
    listed = real(backup, "list").stdout
    assert "alley" in listed and "prep" not in listed
    prep = [ln for ln in real(backup, "list", "--all").stdout.splitlines() if "prep" in ln]
    assert prep and "(archived)" in prep[0]
    # unarchived at home, the next copy brings it back there too
    assert real(db, "unarchive", "prep").returncode == 0
    assert real(db, "copy", "--to", backup).returncode == 0
    assert "prep" in real(backup, "list").stdout


def test_the_backup_recipe_verifies_every_encounter_of_the_backup(tmp_path):
    # docs/operations.md: `combat --db BACKUP verify` checks the whole backup,
    # where no encounter is current; `verify --all` does anywhere.
    db = tmp_path / "home.db"
    _fight(db)
    for args in (["new", "docks"], ["add", "Vex"]):
        assert real(db, *args).returncode == 0
    backup = tmp_path / "backup.db"
    assert real(db, "copy", "--to", backup).returncode == 0
    done = real(backup, "verify")
    assert (done.returncode, done.stderr) == (0, "")
    assert [line.split(" events of ")[1].split(",")[0] for line in done.stdout.splitlines()] \
        == ["alley", "docks"]
    assert real(db, "verify").stdout.count("ok: ") == 1  # docks is current here
    assert real(db, "verify", "--all").stdout.count("ok: ") == 2
    damage(backup, "UPDATE events SET data = replace(data, 'one', 'two') "
                   "WHERE encounter = 'alley' AND seq = 3")
    done = real(backup, "verify")
    assert done.returncode == 1
    assert one_error_line(done).startswith("error: the log of alley is broken at seq 3")
    assert "ok: 2 events of docks" in done.stdout
    refused = real(db, "verify", "--all", "--against", tmp_path / "x.head")
    assert one_error_line(refused) == \
        "error: --against checks one encounter: name it with --encounter\n"
