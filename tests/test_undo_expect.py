"""R26-R27: `undo --expect SEQ` and `redo --expect SEQ` take back (or bring
back) the batch the person saw as latest, or nothing: a declaration that
landed in between, or a second console's Ctrl-Z, is never the one taken."""
from __future__ import annotations

import re
import threading

import pytest
from typer.testing import CliRunner

from cli.app import app
from eventlog.errors import Refusal
from eventlog.stores import open_store
from helpers import fresh_db
from projections.domain import commands as c
from projections.ledger import Ledger
from serverkit import E, client, log, post, served_table

CLEAN_ENV = {"COMBAT_ENCOUNTER": None, "COMBAT_ACTOR": None, "COMBAT_DB": None}


def _fight(ledger: Ledger) -> None:
    ledger.execute(None, c.New(id=E), "gm")
    for command in (c.Add(name="Rook", pc=True), c.Add(name="Vex", pc=True),
                    c.Note(text="the alarm rings")):
        ledger.execute(E, command, "gm")


def test_r26_undo_expecting_another_batch_refused_naming_the_latest(tmp_path):
    ledger = Ledger(open_store(tmp_path / "l.db"))
    _fight(ledger)  # seq 1 created, 2 rook, 3 vex, 4 the note
    with pytest.raises(Refusal) as refused:
        ledger.execute(E, c.Undo(expect=3), "gm")
    assert str(refused.value) == ("the latest declaration is now seq 4 (Note: the alarm rings), "
                                  "not seq 3: nothing undone (R26)")
    assert ledger.store.head(E)[0] == 4  # nothing appended
    out = ledger.execute(E, c.Undo(expect=4), "gm")
    assert [e.data.batches for e in out.events] == [[4]]


def test_r27_redo_expecting_another_batch_refused_naming_the_latest_undone(tmp_path):
    ledger = Ledger(open_store(tmp_path / "l.db"))
    _fight(ledger)
    ledger.execute(E, c.Undo(), "gm")  # 4 undone (seq 5)
    ledger.execute(E, c.Undo(), "gm")  # 3 undone (seq 6)
    with pytest.raises(Refusal, match=r"^the latest undone declaration is now seq 3 "
                                      r"\(Vex \(vex, pc\) joins.*\), not seq 4: nothing redone"):
        ledger.execute(E, c.Redo(expect=4), "gm")
    assert ledger.store.head(E)[0] == 6
    assert ledger.execute(E, c.Redo(expect=3), "gm").events[0].data.batch == 3
    assert ledger.execute(E, c.Redo(expect=4), "gm").events[0].data.batch == 4
    with pytest.raises(Refusal, match=r"^there is nothing left to redo now, not seq 4"):
        ledger.execute(E, c.Redo(expect=4), "gm")


def test_r26_undo_expect_with_nothing_left_refused(tmp_path):
    ledger = Ledger(open_store(tmp_path / "l.db"))
    ledger.execute(None, c.New(id=E), "gm")
    with pytest.raises(Refusal, match=r"^there is nothing left to undo now, not seq 2: "
                                      r"nothing undone"):
        ledger.execute(E, c.Undo(expect=2), "gm")


def test_r26_undo_expect_on_the_command_line_and_dry_run(tmp_path):
    db = str(tmp_path / "l.db")
    ledger = Ledger(open_store(db))
    _fight(ledger)
    ledger.store.close()
    runner = CliRunner()
    for args in (["undo", "--expect", "3"], ["undo", "--expect", "3", "--dry-run"],
                 ["redo", "--expect", "4"]):
        result = runner.invoke(app, ["--db", db, "--encounter", E, *args], env=CLEAN_ENV)
        assert result.exit_code == 1, (args, result.output)
        assert result.output.count("\n") == 1 and result.output.startswith("error: "), args
    result = runner.invoke(app, ["--db", db, "--encounter", E, "undo", "--expect", "4",
                                 "--dry-run"], env=CLEAN_ENV)
    assert result.exit_code == 0, result.output
    assert len(log(db)) == 4  # a dry run appends nothing
    result = runner.invoke(app, ["--db", db, "--encounter", E, "undo", "--expect", "4"],
                           env=CLEAN_ENV)
    assert result.exit_code == 0 and "undone (seq 4)" in result.output, result.output
    assert log(db)[-1]["data"]["batches"] == [4]


def _db(kind: str, tmp_path):
    return fresh_db(kind, tmp_path, "ledger.db")


def _latest(db) -> int:
    ledger = Ledger(open_store(db))
    try:
        target = ledger.book(E).undo_target()
        assert target is not None
        return target
    finally:
        ledger.store.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_r26_two_consoles_pressing_undo_at_once_undo_one_batch(kind, tmp_path):
    with served_table(_db(kind, tmp_path)) as running, \
            client(running, running.secrets["gm"]) as one, \
            client(running, running.secrets["gm"]) as two:
        for i in range(6):
            assert post(one, {"command": "note", "text": f"note {i}"}).status_code == 200
        for _ in range(3):  # three double presses: three batches undone, not six
            seen = _latest(running.db)
            before = len(log(running.db))
            gate = threading.Barrier(2)
            answers: list = [None, None]

            def press(k, http):
                gate.wait()
                answers[k] = post(http, {"command": "undo", "expect": seen})
            threads = [threading.Thread(target=press, args=(k, h))
                       for k, h in enumerate((one, two))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            codes = sorted(a.status_code for a in answers)
            assert codes == [200, 409], [a.text for a in answers]
            refused = next(a for a in answers if a.status_code == 409).json()["error"]
            assert f"not seq {seen}: nothing undone" in refused
            events = log(running.db)
            assert len(events) == before + 1
            assert events[-1]["type"] == "Undone" and events[-1]["data"]["batches"] == [seen]


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_r26_a_players_action_just_before_the_gms_undo_is_not_undone(kind, tmp_path):
    with served_table(_db(kind, tmp_path)) as running, \
            client(running, running.secrets["gm"]) as gm, \
            client(running, running.secrets["ash"]) as ana:
        for command in ({"command": "roll", "slots": ["ash"], "die": 9},
                        {"command": "roll", "slots": ["bo"], "die": 2},
                        {"command": "roll", "slots": ["boss"], "die": 1},
                        {"command": "roll", "slots": ["gangers"], "die": 1},
                        {"command": "round"}):
            assert post(gm, command).status_code == 200, command
        seen = _latest(running.db)  # the round: what the GM's page shows as latest
        acted = post(ana, {"command": "act", "id": "ash", "cost": "major", "label": "shoots"})
        assert acted.status_code == 200, acted.text
        answer = post(gm, {"command": "undo", "expect": seen})
        assert answer.status_code == 409
        assert answer.json()["error"].startswith(
            f"the latest declaration is now seq {acted.json()['seq']} (ash spends 2 AP (major): shoots), not seq {seen}: nothing undone")
        assert log(running.db)[-1]["data"]["label"] == "shoots"  # still in force
        assert post(gm, {"command": "undo", "expect": "x"}).status_code == 422
        assert post(gm, {"command": "undo", "expect": acted.json()["seq"], "dry_run": True}
                    ).status_code == 200
        assert log(running.db)[-1]["data"]["label"] == "shoots"


def test_r26_play_mode_undo_takes_back_what_it_showed_not_what_landed_since(tmp_path, capsys):
    import io

    import typer
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.history import InMemoryHistory
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from cli.play import Play
    from cli.session import Session
    db = tmp_path / "l.db"
    ledger = Ledger(open_store(db))
    _fight(ledger)  # the console starts having shown seq 4
    output = Vt100_Output(io.StringIO(), lambda: Size(rows=40, columns=100), term="xterm",
                          enable_cpr=False)
    with create_pipe_input() as keyboard:
        console = Play(typer.main.get_command(app), Session(db, E, "gm"), input=keyboard,
                       output=output, history=InMemoryHistory())
        ledger.execute(E, c.Note(text="from another terminal"), "ana")  # seq 5, not shown
        console.handle("u", "Ctrl-Z")
        said = capsys.readouterr()
        assert ("the latest declaration is now seq 5 (Note: from another terminal), "
                "not seq 4: nothing undone") in " ".join((said.out + said.err).split())
        assert ledger.store.head(E)[0] == 5  # nothing appended
        console.handle("u", "Ctrl-Z")  # it has shown seq 5 now
        assert ledger.event_dicts(E)[-1]["data"]["batches"] == [5]
        console.handle("r", "Ctrl-Y")
        assert ledger.event_dicts(E)[-1]["data"] == {"batch": 5}


def test_r26_latest_names_what_undo_and_redo_would_act_on_for_the_gm_only(tmp_path):
    with served_table(tmp_path / "ledger.db") as running, \
            client(running, running.secrets["gm"]) as gm, \
            client(running, running.secrets["ash"]) as ana:
        assert post(gm, {"command": "note", "text": "the alarm \u00e9"}).status_code == 200
        assert post(gm, {"command": "undo"}).status_code == 200  # the note (seq 7) undone
        path = f"/api/encounters/{E}/latest"
        assert gm.get(path).json() == {
            "undo": {"seq": 5, "text": "Ganger 1 (ganger-1, npc) joins: bonus +0, 3 AP, "
                                       "0 Grit, in group gangers and 1 more"},
            "redo": {"seq": 7, "text": "Note: the alarm \u00e9"}}
        assert gm.get(path, params={"at": 7}).json() == {  # as a page drew seq 7
            "undo": {"seq": 7, "text": "Note: the alarm \u00e9"}, "redo": None}
        for odd in ("0", "-1", "x", "9" * 30):
            answer = gm.get(path, params={"at": odd})
            assert answer.status_code == 422 and "?at=" in answer.json()["error"], odd
        assert ana.get(path).status_code == 403
        assert gm.get("/api/encounters/nowhere/latest").status_code == 404


def test_r26_gm_page_ctrl_z_sends_the_batch_the_page_drew(tmp_path):
    import json

    from browser import CHROMIUM, chromium
    if CHROMIUM is None:
        pytest.skip("no chromium installed (.ci/run installs it)")
    from playwright.sync_api import expect
    with served_table(tmp_path / "ledger.db") as running, chromium() as browser, \
            client(running, running.secrets["gm"]) as http:
        assert post(http, {"command": "note", "text": "the alarm rings"}).status_code == 200
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        page.goto(f"{running.url}/?token={running.secrets['gm']}")
        page.wait_for_function("() => document.body.dataset.seq === '7'")
        with page.expect_request(lambda r: r.url.endswith("/commands")) as sent:
            page.locator("body").press("Control+z")
        assert json.loads(sent.value.post_data) == {"command": "undo", "expect": 7}
        expect(page.locator("#message")).to_contain_text("✓ undone seq 7: Note: the alarm rings")
        page.wait_for_function("() => document.body.dataset.seq === '8'")
        # A page that drew seq 8, pressing Ctrl-Z as a player's declaration
        # lands: the page's view of the log is the one sent back (R26).
        page.evaluate("() => { source.close(); }")  # (its stream slower than the note: shut)
        assert post(http, {"command": "note", "text": "a late note"}).status_code == 200
        assert page.evaluate("() => status.seq") == 8
        page.locator("body").press("Control+z")
        expect(page.locator("#message")).to_contain_text(
            "the latest declaration is now seq 9 (Note: a late note), not seq 5: nothing undone")
        assert log(running.db)[-1]["data"]["text"] == "a late note"
        page.locator("body").press("Control+y")
        expect(page.locator("#message")).to_contain_text(re.compile("nothing (left )?to redo"))
        # `u` typed in the command box is the same undo: of what the page drew
        page.evaluate("() => { status.seq = 8; }")
        with page.expect_request(lambda r: r.url.endswith("/line")) as sent:
            page.fill("#line", "u")
            page.locator("#line").press("Enter")
        assert json.loads(sent.value.post_data) == {"line": "u --expect 5"}
        expect(page.locator("#message")).to_contain_text("not seq 5: nothing undone")
        assert log(running.db)[-1]["data"]["text"] == "a late note"
