"""`replay`: the encounter played back event by event, each frame the state
as the table saw it then (R31), from the store, an import or an export file."""
from __future__ import annotations

import json
import re


import pytest
from typer.testing import CliRunner

from cli.app import app
from eventlog.stores.sqlite import Store
from projections.domain.commands import Amend
from projections.ledger import Ledger
from projections.domain.phrases import correction
from projections.reports.replay import frames
from projections.reports.views import status

from helpers import pc, rolled, street_fight

FRAME = re.compile(r"^seq (\d+) of (\d+) · \d\d:\d\d:\d\d UTC · (\S+) · (.+?) ─", re.M)


@pytest.fixture
def demo(tmp_path):
    """examples/street-fight.combat played into a fresh store, by `combat demo`."""
    env = street_fight(tmp_path, columns=160)
    db = env["COMBAT_DB"]
    runner = CliRunner()

    def combat(*args, code=0, input=None, db=db):
        done = runner.invoke(app, [str(a) for a in args], env={**env, "COMBAT_DB": str(db)},
                             input=input)
        assert done.exit_code == code, (args, done.output, done.exception)
        return done
    store = Store(db)
    yield Ledger(store), "demo-1", combat
    store.close()


def _frames(output: str) -> list[int]:
    return [int(m.group(1)) for m in FRAME.finditer(output)]


def _batch_ends(ledger, eid) -> set[int]:
    """The seqs at which a command's batch ends: where the table was shown."""
    events = ledger.event_dicts(eid)
    return {e["seq"] for e, after in zip(events, events[1:] + [None])
            if after is None or after["batch"] != e["batch"]}


def test_r31_every_frame_is_the_state_as_it_stood_at_its_seq(demo):
    ledger, eid, _ = demo
    seen, ends = [], _batch_ends(ledger, eid)
    for entry, state in frames(ledger, eid):
        assert state.seq == entry.env.seq
        if entry.env.seq in ends:
            assert status(state) == status(ledger.state(eid, at=entry.env.seq)), entry.env.seq
        seen.append(entry.env.seq)
    assert seen == list(range(1, 49))
    assert len(ends) > 40  # the demo's commands are mostly one event each


def test_r31_frames_follow_undo_retraction_and_amendment(ledger):
    ledger.new("raid", "", "gm")
    ledger.declare("raid", lambda s: [pc("rook", bonus=2), pc("vex")], "gm")
    ledger.declare("raid", lambda s: [rolled("rook", 3, 2), rolled("vex", 4)], "gm")
    ledger.execute("raid", Amend(seq=4, die=9, reason="misread"))
    ledger.declare("raid", lambda s: [pc("ash")], "gm")
    ledger.undo("raid", "gm")
    ledger.redo("raid", "gm")
    ledger.retract("raid", 7, cascade=False, actor="gm")
    head, ends = ledger.store.head("raid")[0], _batch_ends(ledger, "raid")
    for entry, state in frames(ledger, "raid"):
        if entry.env.seq in ends:
            assert status(state) == status(ledger.state("raid", at=entry.env.seq)), entry.env.seq
    assert entry.env.seq == head
    assert [seq for seq, _ in ((e.env.seq, s) for e, s in frames(ledger, "raid", upto=5))] == \
        [1, 2, 3, 4, 5]


def test_replay_shows_each_event_above_the_status_table(demo):
    _, _, combat = demo
    out = combat("replay").stdout
    assert _frames(out) == list(range(1, 49))
    assert out.count("demo-1 · A street crew jumps two runners") == 48
    assert "▸ rook seizes the moment (1 Grit)" in out
    assert ("▸ rook spends 2 AP (major): shoots at the drone "
            "(later undone at seq 38: Rook is out of ammo)") in out
    frame_13 = out[out.index("seq 13 of 48"):out.index("seq 14 of 48")]
    assert "seize window open" in frame_13 and "seized" in frame_13
    contexts = {int(m.group(1)): m.group(4) for m in FRAME.finditer(out)}
    assert contexts[12] == "setup" and contexts[14] == "R1.1 rook"
    assert contexts[38] == "R2.1 rook"  # as it stood then: rook's shot was in effect


def test_replay_to_and_from_bound_the_frames(demo):
    _, _, combat = demo
    assert _frames(combat("replay", "--to", 12).stdout) == list(range(1, 13))
    out = combat("replay", "--from", 30, "--to", 32).stdout
    assert _frames(out) == [30, 31, 32]
    assert "seq 30 of 32" in out


def test_replay_refuses_seqs_outside_the_log_in_one_line(demo):
    _, _, combat = demo
    result = combat("replay", "--to", 99, code=1)
    assert result.output == "error: --to 99: the log of demo-1 ends at seq 48\n"
    assert combat("replay", "--from", 20, "--to", 10, code=1).output == \
        "error: --from 20 is after --to 10\n"
    combat("replay", "--to", 0, code=2)
    combat("replay", "--delay", -1, code=2)


def test_replay_step_waits_for_enter_and_q_stops(demo):
    _, _, combat = demo
    out = combat("replay", "--step", input="\n\nq\n").stdout
    assert _frames(out) == [1, 2, 3]
    assert out.count("Enter: next event") == 3
    assert "replay stopped at seq 3 of 48" in out
    out = combat("replay", "--step", "--from", 47, input="").stdout  # no input: stops
    assert _frames(out) == [47]


def test_replay_delay_pauses_between_events(demo, monkeypatch):
    _, _, combat = demo
    naps = []
    monkeypatch.setattr("time.sleep", naps.append)
    combat("replay", "--delay", 0.25, "--to", 5)
    assert naps == [0.25] * 4  # between frames, not after the last
    naps.clear()
    combat("replay", "--to", 5)  # not a terminal: no pause unless asked
    assert naps == []


def test_replay_works_on_an_imported_export_and_straight_from_the_file(demo, tmp_path):
    _, _, combat = demo
    original = combat("replay").stdout
    export = tmp_path / "demo.json"
    combat("export", "-o", export)
    other_db = tmp_path / "other.db"
    combat("import", export, db=other_db)
    assert combat("replay", db=other_db).stdout == original
    third_db = tmp_path / "third.db"
    from_file = combat("replay", "--file", export, db=third_db).stdout
    assert from_file == original
    assert not third_db.exists()  # nothing stored, no store made


def test_replay_of_a_bad_file_is_one_error_line(demo, tmp_path):
    _, _, combat = demo
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "combat-ledger", "version": 1, "events": []}')
    result = combat("replay", "--file", bad, code=1)
    assert result.output.startswith("error: ") and result.output.count("\n") == 1
    result = combat("replay", "--file", tmp_path / "missing.json", code=1)
    assert result.output.startswith("error: cannot read ")


def test_replay_of_a_fight_with_tracks_and_conditions_shows_them(tmp_path):
    """Each frame's table shows the tracks and conditions as they
    stood then, and the event line above it words the change."""
    from helpers import cli_env, in_process
    combat = in_process(cli_env(tmp_path / "ledger.db"))
    for args in (["new", "pit"], ["add", "Rook", "--pc"], ["add", "Ganger"],
                 ["track", "rook", "hp", "10", "--max", "10"],
                 ["roll", "rook", "--die", "9"], ["roll", "ganger", "--die", "2"], ["round"],
                 ["track", "rook", "hp", "-3", "--reason", "knifed"],
                 ["effect", "ganger", "prone", "--rounds", "2"]):
        combat(*args)
    out = combat("replay").stdout
    last = out[out.rindex("seq "):]
    assert "hp 7/10" in last and "prone" in last
    assert "hp 10/10" in out[out.index("seq 4 of"):out.index("seq 5 of")]
    assert "rook's hp" in out and "prone" in out[out.index("seq 9 of"):]
