"""Forks (`combat fork SEQ --as NEW`): a new encounter with another's
history up to a batch, then its own (R31: it starts where the source stood
at that seq); `verify` proves the shared events with the source in the
store or gone (R30); `diff` says where two encounters part and what each
went on to; `list`, exports, imports and copies keep the link."""
from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from eventlog.chain import verify_chain
from eventlog.codec import GENESIS, decode_data, event_hash
from eventlog.errors import LedgerError, Refusal
from fights import play_rounds
from helpers import STORES, cli_env, in_process, make_store
from projections.domain import commands as c
from projections.forking import point_of, prove
from projections.ledger import Ledger
from projections.reports.diff import diff
from projections.reports.views import status

OWN = ("encounter", "title", "seq")


def _view(ledger: Ledger, encounter: str, at: int | None = None) -> dict:
    """`status --json`, less what is a fork's own (its id, title and seq)."""
    view = status(ledger.state(encounter, at))
    return {k: v for k, v in view.items() if k not in OWN}


def _ledger(combat) -> Ledger:
    """A ledger on the store an in-process `combat` reaches."""
    from eventlog.stores import open_store
    return Ledger(open_store(combat.db))


def _rows(store, encounter: str) -> list:
    return [tuple(r) for r in store.rows(encounter)]


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), rounds=st.integers(1, 3), where=st.floats(0, 1),
       kind=st.sampled_from(STORES))
def test_r31_a_fork_is_its_source_at_seq_and_never_changes_it(seed, rounds, where, kind):
    with tempfile.TemporaryDirectory() as folder:
        store = make_store(kind, Path(folder))
        ledger = Ledger(store)
        play_rounds(store, "source", rounds, seed)
        head, _ = store.head("source")
        seq = max(1, round(where * head))
        upto = store.batch_end("source", seq)
        source_rows, source_view = _rows(store, "source"), _view(ledger, "source")

        ledger.execute("source", c.Fork(seq=seq, id="what-if"), "gm")
        assert _view(ledger, "what-if") == _view(ledger, "source", upto)
        assert ledger.state("what-if").seq == upto  # a whole batch, nothing more

        ledger.execute("what-if", c.Note(text="played on apart"), "gm")
        try:  # an undo in the fork reaches back into the shared history
            ledger.execute("what-if", c.Undo(), "gm")
            ledger.execute("what-if", c.Undo(), "gm")
        except Refusal:
            pass  # (nothing left to undo: the fork was taken at the start)
        assert _rows(store, "source") == source_rows
        assert _view(ledger, "source") == source_view
        fork_view = _view(ledger, "what-if")

        for eid in ("source", "what-if"):
            assert verify_chain(store.rows(eid), store.head(eid)).ok
        assert prove(store, "what-if") == (point_of(store, "what-if"), None, "same")

        store.delete("source")
        assert verify_chain(store.rows("what-if"), store.head("what-if")).ok
        assert prove(store, "what-if").source == "gone"
        assert prove(store, "what-if").problem is None
        assert _view(Ledger(store), "what-if") == fork_view
        store.close()


@pytest.fixture
def raid(tmp_path):
    """A fight with a turn in progress, a hidden combatant, an effect and a
    track: Rook acting in round 1, the seize window closed."""
    combat = in_process(cli_env(tmp_path / "ledger.db"))
    for line in (["new", "raid", "--title", "The raid"], ["add", "Rook", "--pc", "--bonus", "3"],
                 ["add", "Vex", "--pc", "--grit", "1"], ["add", "Boss", "--id", "boss", "--hidden"],
                 ["add", "Ganger", "--count", "3", "--group", "gangers"],  # one batch, seq 6-8
                 ["roll", "rook", "--die", "9"], ["roll", "vex", "--die", "3"],
                 ["roll", "boss", "--die", "2"], ["roll", "gangers", "--die", "1"],
                 ["track", "boss", "hp", "12", "--max", "12"],          # seq 13
                 ["round"], ["effect", "vex", "prone", "--rounds", "2"],
                 ["act", "rook", "minor", "draws"]):                    # seq 16
        combat(*line)
    return combat


def test_a_fork_starts_where_the_source_stood(raid):
    ledger = _ledger(raid)
    head, _ = ledger.store.head("raid")
    raid("fork", head, "--as", "what-if")
    shown = json.loads(raid("status", "--json").stdout)
    assert shown["encounter"] == "what-if" and shown["acting"] == "rook"
    assert _view(ledger, "what-if") == _view(ledger, "raid")
    state = ledger.state("what-if")
    assert "boss" in state.hidden and state.tracks["boss"]["hp"].value == 12
    assert [e.name for e in state.effects.values()] == ["prone"]
    raid("act", "rook", "major", "shoots")          # the fork plays on from there
    assert ledger.state("raid").combatants["rook"].ap == 2


def test_a_seq_inside_a_batch_takes_the_whole_batch(raid):
    raid("fork", "7", "what-if")                     # the gangers joined at 6-8, in one batch
    shown = json.loads(raid("status", "--json").stdout)
    assert shown["seq"] == 8
    assert {c["id"] for c in shown["combatants"]} >= {"ganger-1", "ganger-2", "ganger-3"}


@pytest.mark.parametrize("words, said", [
    (["0", "--as", "x"], "seq 0 is not in the log of raid"),
    (["999", "--as", "x"], "seq 999 is not in the log of raid"),
    (["3", "--as", "raid"], "raid"),
    (["3", "--as", "Bad Id"], "Bad Id"),
    (["3", "one", "--as", "other"], "name the fork once"),
    (["3"], "name the fork"),
])
def test_a_refused_fork_says_why_and_makes_nothing(raid, words, said):
    before = sqlite3.connect(raid.db).execute("SELECT id FROM encounters").fetchall()
    result = raid("fork", *words, code=1 if "fork" not in said else 2)
    assert said in result.stderr or said in result.output
    assert sqlite3.connect(raid.db).execute("SELECT id FROM encounters").fetchall() == before


def test_a_fork_keeps_its_title_over_a_rename_in_the_shared_history(raid):
    raid("rename", "raid", "--title", "The raid, renamed")
    head, _ = _ledger(raid).store.head("raid")
    raid("fork", head, "--as", "what-if", "--title", "Another way")
    assert json.loads(raid("status", "--json").stdout)["title"] == "Another way"
    raid("--encounter", "raid", "fork", "3", "--as", "second")
    assert json.loads(raid("status", "--json").stdout)["title"] == "What if: The raid, from seq 3"


def test_list_shows_a_forks_parent(raid):
    raid("fork", "3", "--as", "what-if")
    raid("fork", "2", "--as", "again")                # a fork of the fork
    rows = {r["id"]: r for r in json.loads(raid("list", "--json").stdout)}
    assert "parent" not in rows["raid"]
    assert rows["what-if"]["parent"] == {"encounter": "raid", "seq": 3}
    assert rows["again"]["parent"] == {"encounter": "what-if", "seq": 2}
    assert "(fork of raid at seq 3)" in raid("list").stdout
    said = raid("verify").stdout                      # the fork of a fork proves its own
    assert "forked from what-if at seq 2" in said and "what-if still holds them" in said


def _rewrite(db: Path, encounter: str, seq: int, text: str) -> None:
    """Change the data of one event of `encounter` and hash its whole chain
    again, as a careful forger would: the chain alone then holds (R30)."""
    con = sqlite3.connect(db)
    rows = con.execute("SELECT seq, batch, type, at, actor, data FROM events "
                       "WHERE encounter = ? ORDER BY seq", (encounter,)).fetchall()
    prev = GENESIS
    for s, batch, kind, at, actor, data in rows:
        if s == seq:
            data = json.dumps({"text": text}, separators=(",", ":")).encode()
        digest = event_hash(s, batch, kind, at, actor, decode_data(kind, data), prev)
        con.execute("UPDATE events SET data = ?, prev_hash = ?, hash = ? "
                    "WHERE encounter = ? AND seq = ?", (data, prev, digest, encounter, s))
        prev = digest
    con.execute("UPDATE encounters SET head_hash = ? WHERE id = ?", (prev, encounter))
    con.commit()
    con.close()


@pytest.mark.sqlite
def test_r30_verify_refuses_a_fork_whose_shared_events_were_rewritten(raid):
    raid("note", "the door is open")                 # seq 17
    raid("fork", "17", "--as", "what-if")
    assert "the 17 shared events are raid's" in raid("verify").stdout
    _rewrite(raid.db, "what-if", 17, "the door was never open")
    result = raid("verify", code=1)
    assert "what-if is a fork of raid, but its events up to seq 17" in result.stderr
    assert json.loads(raid("verify", "--json", code=1).stdout)["fork"]["ok"] is False


def test_r30_verify_proves_the_shared_events_after_the_source_is_gone(raid):
    raid("fork", "8", "--as", "what-if")
    assert "raid still holds them" in raid("verify").stdout
    raid("archive", "raid")
    assert "raid still holds them" in raid("verify").stdout
    raid("delete", "raid", "--confirm", "raid")
    said = raid("verify").stdout
    assert "ok: 8 events of what-if" in said and "the hash kept at the fork proves them" in said
    raid("new", "raid")                               # another log under the old id
    assert "raid now holds another log" in raid("--encounter", "what-if", "verify").stdout


def test_export_import_and_copy_keep_the_link(raid, tmp_path):
    raid("fork", "8", "--as", "what-if")
    raid("export", "--format", "json", "-o", str(tmp_path / "fork.json"))
    raid("import", str(tmp_path / "fork.json"), "--as", "imported")
    rows = {r["id"]: r for r in json.loads(raid("list", "--json").stdout)}
    assert rows["imported"]["parent"] == {"encounter": "raid", "seq": 8}
    assert "raid still holds them" in raid("--encounter", "imported", "verify").stdout
    raid("copy", "--to", str(tmp_path / "elsewhere.db"))
    other = in_process(cli_env(tmp_path / "elsewhere.db"))
    said = other("--encounter", "what-if", "verify").stdout
    assert "forked from raid at seq 8" in said and "raid still holds them" in said


def test_diff_says_where_two_encounters_part_and_what_each_went_on_to(raid):
    ledger = _ledger(raid)
    raid("fork", "16", "--as", "what-if")             # rook has drawn; the turn goes on
    raid("act", "rook", "major", "shoots")
    raid("--encounter", "raid", "end-turn")
    raid("--encounter", "raid", "track", "boss", "hp", "-5")
    result = diff(ledger, "raid", "what-if")
    assert result["shared_until"] == 16
    assert result["relation"] == "what-if is a fork of raid at seq 16"
    raid_side, fork_side = ({x["id"]: x for x in side["combatants"]} for side in result["sides"])
    assert raid_side["rook"]["ap_spent"] == 0 and raid_side["rook"]["turns"] == 1
    assert fork_side["rook"]["ap_spent"] == 2 and fork_side["rook"]["turns"] == 1  # 0 AP left (R21)
    assert raid_side["boss"]["tracks"]["hp"] == {"value": 7, "max": 12}
    assert fork_side["boss"]["tracks"]["hp"] == {"value": 12, "max": 12}
    shown = raid("diff", "raid", "what-if").stdout
    assert "what-if is a fork of raid at seq 16: both hold seq 1 to 16, then part" in shown
    assert json.loads(raid("diff", "raid", "what-if", "--json").stdout) == json.loads(
        json.dumps(result))


def test_diff_of_two_unrelated_encounters_shares_nothing(raid):
    raid("new", "other")
    raid("add", "Rook", "--pc")
    result = json.loads(raid("diff", "raid", "other", "--json").stdout)
    assert result["shared_until"] == 0 and result["relation"] is None
    assert "share no history" in raid("diff", "raid", "other").stdout


@pytest.mark.parametrize("words, said", [
    (["raid", "raid"], "is given twice"), (["raid", "nowhere"], "nowhere")])
def test_diff_refuses_in_one_line(raid, words, said):
    assert said in raid("diff", *words, code=1).stderr


def test_a_fork_is_the_gms_alone_on_the_table_server(raid, tmp_path):
    from serverkit import client, served, token
    gm, scoped = token(raid.db, "gm", "gm"), token(raid.db, "gm-raid", "gm", encounter="raid")
    player = token(raid.db, "ana", "player", owns="rook", encounter="raid")
    with served(raid.db) as running:
        ask = {"command": "fork", "seq": 8, "as": "what-if"}
        for secret in (player, scoped):
            answer = client(running, secret).post("/api/encounters/raid/commands", json=ask)
            assert answer.status_code == 403 and list(answer.json()) == ["error"]
        answer = client(running, gm).post("/api/encounters/raid/commands", json=ask)
        assert answer.status_code == 200, answer.text
        assert answer.json()["status"]["encounter"] == "what-if"
        assert answer.json()["seq"] == 8
        wrong = client(running, gm).post("/api/encounters/raid/commands",
                                         json={"command": "fork", "seq": 8})
        assert wrong.status_code == 422 and "as required" in wrong.json()["error"]


def test_play_mode_reads_fork_seq_new():
    from cli.grammar import parse
    assert parse(["fork", "12", "what-if"]).command == c.Fork(seq=12, id="what-if")
    assert parse(["fork", "12", "--as", "x", "--title", "T"]).command == c.Fork(
        seq=12, id="x", title="T")


def test_the_report_of_a_fork_links_to_its_source_and_back(raid, tmp_path):
    raid("fork", "8", "--as", "what-if")
    raid("report", "-o", str(tmp_path / "what-if-report.html"))
    raid("--encounter", "raid", "report", "-o", str(tmp_path / "raid-report.html"))
    fork_page = (tmp_path / "what-if-report.html").read_text()
    source_page = (tmp_path / "raid-report.html").read_text()
    assert 'A fork of <a href="raid-report.html">raid</a>: the same fight up to seq 8' in fork_page
    assert '<a href="what-if-report.html">what-if</a> (from seq 8)' in source_page


def test_the_fork_event_is_refused_in_a_forged_import(raid, tmp_path):
    """A log that claims to be a fork still passes every check of an import:
    a first event naming a fork is just data, and the chain must hold."""
    raid("fork", "8", "--as", "what-if")
    raid("export", "--format", "json", "-o", str(tmp_path / "fork.json"))
    doc = json.loads((tmp_path / "fork.json").read_text())
    doc["events"][0]["data"]["fork"]["seq"] = 3          # without rehashing: the chain breaks
    (tmp_path / "forged.json").write_text(json.dumps(doc))
    result = raid("import", str(tmp_path / "forged.json"), "--as", "forged", code=1)
    assert "hash" in result.stderr
    with pytest.raises(LedgerError):
        _ledger(raid).store.head("forged")

