"""`--dry-run` on retract, amend, undo, redo and round (docs/commands.md): the
core judges the command as it would execute it, appends nothing, and says
what would change in the table's words; exit 0 if it would be accepted, 1
if not."""
from __future__ import annotations

import pytest

from eventlog.errors import Refusal
from eventlog.events import RoundStarted
from projections.domain import commands as c

from helpers import end, npc, pc, rolled, spend
from test_corrections_kept import E, HOUNDS, WARDEN_FIGHT, table


def head(ledger) -> int:
    return ledger.store.head(E)[0]


def test_dry_run_retract_says_who_gets_ap_back_and_appends_nothing():
    ledger, seqs = table(*WARDEN_FIGHT)
    before = head(ledger)
    out = ledger.execute(E, c.Retract(seq=seqs[7], dry_run=True))
    assert out.events == [] and head(ledger) == before
    assert any(line.startswith(f"seq {seqs[7]} would be retracted: warden interrupts")
               for line in out.preview)
    assert "warden would get 1 AP back (0 → 1)" in out.preview
    assert any("R28a" in line for line in out.preview)


def test_dry_run_amend_who_says_whose_turn_moves():
    ledger, seqs = table(*HOUNDS)
    out = ledger.execute(E, c.Amend(seq=seqs[8], who="hound-3", dry_run=True))
    assert head(ledger) == seqs[-1]
    assert any(line.startswith(f"seq {seqs[9]} would read: hound-3 ends their turn")
               for line in out.preview)
    assert "hound-2 would get 1 AP back (2 → 3)" in out.preview
    assert "hound-3 would lose 1 AP (3 → 2)" in out.preview


def test_dry_run_a_refused_correction_is_refused_the_same():
    ledger, seqs = table(pc("ash"), npc("brute"), rolled("ash", 9), rolled("brute", 5),
                         RoundStarted(round=1), spend("ash", 1), end("ash"))
    with pytest.raises(Refusal, match="would make 2 later declarations illegal"):
        ledger.execute(E, c.Retract(seq=seqs[4], dry_run=True))
    out = ledger.execute(E, c.Retract(seq=seqs[4], cascade=True, dry_run=True))
    assert any("would fall with it (--cascade)" in line for line in out.preview)
    assert head(ledger) == seqs[-1]


def test_dry_run_round_says_what_ap_would_be_lost():
    ledger, seqs = table(pc("ash"), npc("brute"), rolled("ash", 9), rolled("brute", 5),
                         RoundStarted(round=1), spend("ash", 1))
    out = ledger.execute(E, c.Round(dry_run=True))
    assert out.preview[0] == "round 2 would start: AP restored (R15)"
    assert "unspent AP lost: ash 2 AP, brute 3 AP (R15, R24)" in out.preview[1]
    assert head(ledger) == seqs[-1]


def test_dry_run_undo_and_redo(combat):
    for args in (["new", "x"], ["add", "Ash", "--pc"], ["roll", "ash", "--die", "5"],
                 ["round"], ["act", "ash", "minor"]):
        combat(*args)
    out = combat("undo", "--dry-run").stdout
    assert "seq 5 would be undone: ash spends 1 AP (minor)" in out
    assert "ash would get 1 AP back (2 → 3)" in out
    combat("undo")
    out = combat("redo", "--dry-run").stdout
    assert "seq 5 would come back: ash spends 1 AP (minor)" in out
    assert combat("redo", "--dry-run").stdout == out  # nothing appended in between
    err = combat("retract", "99", "--dry-run", code=1).stderr
    assert err.startswith("error: there is no seq 99")


def test_dry_run_round_on_the_command_line_exits_0_and_appends_nothing(combat):
    for args in (["new", "x"], ["add", "Ash", "--pc"], ["roll", "ash", "--die", "5"],
                 ["round"]):
        combat(*args)
    out = combat("round", "--dry-run").stdout
    assert "dry run, nothing appended" in out and "round 2 would start" in out
    assert "unspent AP lost: ash 3 AP" in out
    import json
    assert json.loads(combat("status", "--json").stdout)["round"] == 1


def test_dry_run_through_the_table_server_previews_and_appends_nothing(tmp_path):
    from serverkit import E as SE, client, log, post, rolled, served, table, token
    db = tmp_path / "table.db"
    table(db)
    gm_secret = token(db, "gm", "gm")
    with served(db) as running, client(running, gm_secret) as gm:
        rolled(gm)
        before = log(db, SE)
        answer = post(gm, {"command": "round", "dry_run": True})
        assert answer.status_code == 200
        body = answer.json()
        assert body["events"] == [] and body["preview"][0] == "round 2 would start: AP restored (R15)"
        assert body["status"]["round"] == 1 and log(db, SE) == before
        assert "preview" not in post(gm, {"command": "note", "text": "hi"}).json()
