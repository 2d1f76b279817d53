"""The table server's API (docs/server.md) against a real
uvicorn on 127.0.0.1: every command through it, every error code, who may
declare what by token (R3c, R29)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from serverkit import E, client, log, post, rolled, served, served_table, table, token

pytestmark = pytest.mark.sqlite


@pytest.fixture
def server(tmp_path):
    players = {"ash": ("ana", "ash"), "bo": ("ben", "bo")}
    with served_table(tmp_path / "table.db", players) as running:
        yield running


def cli(db, *args, env=None):
    done = subprocess.run([sys.executable, "-m", "cli", "--db", str(db), "--encounter", E, *args],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "XDG_STATE_HOME": str(db.parent / "state"), **(env or {})})
    return done.returncode, done.stdout, done.stderr


def as_(server, who):
    return client(server, server.secrets[who])


def started(server):
    """Initiative rolled (Ash 9+2, Bo 5+2, Boss 3+1, gangers 2), round 1 begun: Ash is up."""
    with as_(server, "gm") as gm:
        rolled(gm)


def test_api_status_and_log_are_exactly_the_cli_json(server):
    started(server)
    with as_(server, "tv") as tv:
        status = tv.get(f"/api/encounters/{E}/status").json()
        events = tv.get(f"/api/encounters/{E}/log").json()
        later = tv.get(f"/api/encounters/{E}/log", params={"after": 6}).json()
    assert status == json.loads(cli(server.db, "status", "--json")[1])
    # (a view reads no hashes: they would tell where a hidden event was)
    assert events == [{**e, "prev_hash": None, "hash": None}
                      for e in json.loads(cli(server.db, "log", "--json")[1])]
    assert later == [e for e in events if e["seq"] > 6] and later[0]["seq"] == 7


def test_api_encounters_lists_id_title_phase_and_seq(server):
    with as_(server, "ash") as ash:
        assert ash.get("/api/encounters").json() == [
            {"id": E, "title": "Warehouse raid", "phase": "setup", "seq": 6}]
        assert ash.get("/api/me").json() == {"name": "ana", "role": "player",
                                             "owns": ["ash"], "encounter": E}


def test_api_every_command_goes_through_the_api_as_the_gm(server):
    commands = [
        {"command": "group", "id": "gangers", "bonus": 1},
        {"command": "roll", "slots": ["ash"], "die": 9}, {"command": "roll", "slots": ["bo"], "die": 9},
        {"command": "roll"},
        {"command": "set-initiative", "slot": "boss", "total": 11, "reason": "ambush"},
        {"command": "order", "slots": ["bo", "ash"]},
        {"command": "round"}, {"command": "seize", "id": "ash"},
        {"command": "act", "id": "ash", "cost": "major", "label": "shoots"},
        {"command": "interrupt", "id": "bo", "cost": 1, "label": "ducks"},
        {"command": "act", "id": "ash", "cost": "free", "label": "shouts"},
        {"command": "end-turn"},
        {"command": "max-ap", "id": "bo", "n": 4, "reason": "stim"},
        {"command": "adjust-ap", "id": "bo", "delta": -1, "reason": "hit"},
        {"command": "grit", "id": "bo", "delta": 1, "reason": "a good line"},
        {"command": "effect", "id": "boss", "name": "Stunned", "max_ap": -1, "rounds": 1},
        {"command": "end-effect", "effect": "stunned", "reason": "shook it off"},
        {"command": "leave", "id": "ganger-2", "reason": "fled"}, {"command": "rejoin", "id": "ganger-2"},
        {"command": "note", "text": "the roof gives way"},
        {"command": "add", "name": "Vex", "pc": True, "bonus": 1},
        {"command": "load", "combatant": [{"name": "Drone", "count": 2}]},
        {"command": "undo"}, {"command": "redo"},
        {"command": "retract", "seq": 0}, {"command": "amend", "seq": 0, "label": "shoots twice"},
        {"command": "end"},
    ]
    with as_(server, "gm") as gm:
        for command in commands:
            if command["command"] == "retract":
                command["seq"] = next(e["seq"] for e in log(server.db)
                                      if e["type"] == "NoteAdded")
            if command["command"] == "amend":
                command["seq"] = next(e["seq"] for e in log(server.db) if e["type"] == "APSpent")
            answer = post(gm, command)
            assert answer.status_code == 200, (command, answer.text)
            body = answer.json()
            assert body["seq"] == body["status"]["seq"] == body["events"][-1]["seq"]
            assert {e["actor"] for e in body["events"]} == {"gm"}  # R29
            assert body["status"] == gm.get(f"/api/encounters/{E}/status").json()
        made = post(gm, {"command": "new", "id": "docks", "title": "The docks"}, "docks")
        assert made.status_code == 200 and made.json()["status"]["encounter"] == "docks"
    stored = log(server.db)
    assert len({e["type"] for e in stored}) >= 20
    assert stored[-1]["type"] == "EncounterEnded"


def test_r29_a_players_declarations_record_the_tokens_name(server):
    started(server)
    with as_(server, "ash") as ash:
        answer = post(ash, {"command": "act", "id": "ash", "cost": "minor", "label": "aims"})
    assert answer.status_code == 200
    assert [(e["actor"], e["type"]) for e in answer.json()["events"]] == [("ana", "APSpent")]
    assert log(server.db)[-1]["actor"] == "ana"


def test_r3c_a_player_refused_for_another_pc_with_403_and_nothing_appended(server):
    started(server)
    before = log(server.db)
    with as_(server, "bo") as bo:
        for command in ({"command": "act", "id": "ash", "cost": "minor"},
                        {"command": "interrupt", "id": "ash", "cost": 1},
                        {"command": "seize", "id": "ash"},
                        {"command": "end-turn"},  # the core ends Ash's turn: not Bo's
                        {"command": "end-turn", "id": "ash"}):
            answer = post(bo, command)
            assert answer.status_code == 403, command
            assert answer.json() == {"error": "ben declares for bo only, not for ash"}
    assert log(server.db) == before


def test_a_player_may_end_its_own_turn_bare(server):
    started(server)
    with as_(server, "ash") as ash:
        answer = post(ash, {"command": "end-turn"})
    assert answer.status_code == 200
    assert answer.json()["events"][0]["data"] == {"combatant": "ash"}


def test_a_player_rolls_for_its_own_lone_combatant_only(server):
    with as_(server, "ash") as ash:
        assert post(ash, {"command": "roll", "slots": ["ash"], "die": 4}).status_code == 200
        assert post(ash, {"command": "roll"}).status_code == 403  # every unrolled slot
        assert post(ash, {"command": "roll", "slots": ["gangers"]}).status_code == 403
    assert log(server.db)[-1]["data"]["slot"] == "ash"


def test_gm_commands_are_refused_to_a_player_with_403(server):
    started(server)
    before = log(server.db)
    with as_(server, "ash") as ash:
        for command in ({"command": "undo"}, {"command": "round"}, {"command": "note", "text": "x"},
                        {"command": "grit", "id": "ash", "delta": 5},
                        {"command": "adjust-ap", "id": "ash", "delta": 1},
                        {"command": "set-initiative", "slot": "ash", "total": 30}):
            answer = post(ash, command)
            assert answer.status_code == 403, command
            assert "is the GM's" in answer.json()["error"]
    assert log(server.db) == before


def test_r3c_a_player_orders_pc_slots_and_the_core_refuses_npcs(server):
    with as_(server, "gm") as gm:
        for slot, die in (("ash", 5), ("bo", 5), ("boss", 6)):
            post(gm, {"command": "roll", "slots": [slot], "die": die})
    with as_(server, "ash") as ash:
        assert post(ash, {"command": "order", "slots": ["ash", "bo"]}).status_code == 200
        refused = post(ash, {"command": "order", "slots": ["boss", "ash"]})
    assert refused.status_code == 409 and "(R3c)" in refused.json()["error"]


def test_a_gm_token_of_another_name_orders_npcs(tmp_path):
    db = tmp_path / "t.db"
    table(db)
    lead = token(db, "lead", "gm")
    with served(db) as running, client(running, lead) as gm:
        for slot, die in (("boss", 5), ("gangers", 6)):
            post(gm, {"command": "roll", "slots": [slot], "die": die})
        answer = post(gm, {"command": "order", "slots": ["gangers", "boss"]})
    assert answer.status_code == 200 and answer.json()["events"][0]["actor"] == "lead"


def test_the_view_token_is_refused_on_post(server):
    with as_(server, "tv") as tv:
        assert tv.get(f"/api/encounters/{E}/status").status_code == 200
        answer = post(tv, {"command": "note", "text": "hello"})
        line = tv.post(f"/api/encounters/{E}/line", json={"line": "note hello"})
    assert answer.status_code == line.status_code == 403
    assert answer.json() == {"error": "tv's token is a view: it reads only"}


def test_no_token_or_an_unknown_one_is_401(server):
    with client(server, None) as anyone, client(server, "not-a-token") as wrong:
        for http in (anyone, wrong):
            for answer in (http.get("/api/encounters"), http.get(f"/api/encounters/{E}/status"),
                           post(http, {"command": "round"}), http.get("/api/schema")):
                assert answer.status_code == 401
                assert set(answer.json()) == {"error"}


def test_a_revoked_token_is_refused_at_once(server):
    with as_(server, "ash") as ash:
        assert ash.get("/api/encounters").status_code == 200
        assert cli(server.db, "token", "revoke", "ana")[0] == 0
        assert ash.get("/api/encounters").status_code == 401


def test_the_query_token_works_where_a_browser_cannot_send_headers(server):
    with client(server, None) as http:
        answer = http.get(f"/api/encounters/{E}/status", params={"token": server.secrets["tv"]})
    assert answer.status_code == 200


def test_an_unknown_encounter_is_404(server):
    with as_(server, "gm") as gm:
        for answer in (gm.get("/api/encounters/nowhere/status"), gm.get("/api/encounters/nowhere/log"),
                       post(gm, {"command": "round"}, "nowhere"),
                       gm.get("/api/encounters/nowhere/stream")):
            assert answer.status_code == 404
            assert answer.json() == {"error": "no encounter 'nowhere' in the store"}


def test_a_malformed_command_is_422_and_appends_nothing(server):
    before = log(server.db)
    with as_(server, "gm") as gm:
        for body in (b"{", b"[]", b'{"command": "bogus"}', b'{"command": "act", "id": "ash"}',
                     b'{"command": "act", "id": "ash", "cost": "minor", "extra": 1}'):
            answer = gm.post(f"/api/encounters/{E}/commands", content=body)
            assert answer.status_code == 422, body
            assert answer.json()["error"].startswith("not a command: ")
        said = {body: gm.post(f"/api/encounters/{E}/commands", content=body).json()["error"]
                for body in (b'{"command": "roll", "id": "ash"}', b'{"command": "zap"}',
                             b'{"command": "act"}')}
        assert said == {  # what the command takes, so a script can be fixed from the line
            b'{"command": "roll", "id": "ash"}': "not a command: Object contains unknown field "
            "`id`; roll takes slots, die optional (see /api/schema)",
            b'{"command": "zap"}': "not a command: there is no command 'zap' (see /api/schema)",
            b'{"command": "act"}': "not a command: Object missing required field `id`; act "
            "takes id, cost required; label optional (see /api/schema)"}
        deep = b"[" * 20_000 + b"]" * 20_000  # within the 64 KiB a body may hold
        for body in (b'{"command": ' + deep + b"}", b'{"command": "act", "id": ' + deep + b"}",
                     b'{"x": ' + deep + b', "command": "act"}'):
            answer = gm.post(f"/api/encounters/{E}/commands", content=body)
            assert answer.status_code == 422 and answer.json()["error"].startswith(
                "not a command: "), answer.text[:200]
        assert gm.get(f"/api/encounters/{E}/log", params={"after": "x"}).status_code == 422
        assert gm.get(f"/api/encounters/{E}/stream",
                      headers={"Last-Event-ID": "nope"}).status_code == 422
    assert log(server.db) == before


def test_a_rules_refusal_is_409_with_the_clis_own_line(server):
    started(server)
    code, _, err = cli(server.db, "act", "bo", "minor")
    assert code == 1 and err.startswith("error: ")
    before = log(server.db)
    with as_(server, "gm") as gm:
        answer = post(gm, {"command": "act", "id": "bo", "cost": "minor"})
    assert answer.status_code == 409
    assert answer.json() == {"error": err.removeprefix("error: ").strip()}
    assert log(server.db) == before


def test_a_body_over_64_kib_is_413(server):
    with as_(server, "gm") as gm:
        answer = post(gm, {"command": "note", "text": "x" * 70_000})
    assert answer.status_code == 413 and "64 KiB" in answer.json()["error"]


def test_a_token_for_one_encounter_reaches_that_one_only(server):
    with as_(server, "gm") as gm:
        assert post(gm, {"command": "new", "id": "docks"}, "docks").status_code == 200
    docks = token(server.db, "dee", "player", "ash", encounter="docks")
    with client(server, docks) as dee:
        assert [e["id"] for e in dee.get("/api/encounters").json()] == ["docks"]
        answer = dee.get(f"/api/encounters/{E}/status")
        assert answer.status_code == 403
        assert answer.json() == {"error": "dee's token reaches encounter docks only, not raid"}


def test_the_schema_holds_commands_and_events(server):
    with as_(server, "tv") as tv:
        schema = tv.get("/api/schema").json()
    assert "act" in json.dumps(schema["commands"]) and "APSpent" in json.dumps(schema["events"])


def test_the_gms_command_box_declares_a_line(server):
    started(server)
    with as_(server, "gm") as gm:
        answer = gm.post(f"/api/encounters/{E}/line", json={"line": "act ash major shoots twice"})
        refused = gm.post(f"/api/encounters/{E}/line", json={"line": "status"})
        usage = gm.post(f"/api/encounters/{E}/line", json={"line": "act"})
    assert answer.status_code == 200
    assert answer.json()["events"][0]["data"]["label"] == "shoots twice"
    with as_(server, "gm") as gm:
        made = gm.post(f"/api/encounters/{E}/line", json={"line": "new docks --title 'The docks'"})
    assert made.status_code == 200 and made.json()["status"]["title"] == "The docks"
    assert refused.status_code == 422 and "declares nothing" in refused.json()["error"]
    assert usage.status_code == 422


def test_the_command_box_takes_play_modes_one_letter_words_and_its_careful_e(server):
    """`n` acts for whoever is acting, `m bo ...` for bo, `t` is track, `e`
    ends a turn, and a second `e` right after a turn that ended by itself is
    refused as at play mode's prompt (the same guards)."""
    started(server)
    said = lambda gm, line: gm.post(f"/api/encounters/{E}/line", json={"line": line})  # noqa: E731
    with as_(server, "gm") as gm:
        minor = said(gm, "n takes cover")
        assert minor.status_code == 200, minor.text
        assert minor.json()["events"][0]["data"] == {
            "combatant": "ash", "cost": 1, "category": "minor", "label": "takes cover"}
        tracked = said(gm, "t ash hp 10 --max 10")
        assert tracked.status_code == 200 and tracked.json()["events"][0]["type"] == "TrackChanged"
        major = said(gm, "m ash shoots")  # 3 of 3 AP: ash's turn ends by itself
        assert major.status_code == 200 and major.json()["status"]["acting"] == "bo"
        untouched = said(gm, "e")  # (bo's turn: nothing declared in it)
        assert untouched.status_code == 409, untouched.text
        assert said(gm, "e bo").status_code == 200  # named: the GM means it
        slip = said(gm, "m boo shoots")
        assert slip.status_code in (404, 409, 422) and "error" in slip.json()
    code, out, _ = cli(server.db, "log", "--last", "3")
    assert code == 0 and "bo ends their turn" in out


def test_pages_are_served_without_a_cdn_and_keep_the_token_in(server):
    with client(server, None) as http:
        page = http.get("/", params={"token": server.secrets["ash"]})
        script = http.get("/static/app.js")
    assert page.status_code == 200 and page.headers["referrer-policy"] == "no-referrer"
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "http" not in page.text.replace("http-equiv", "")
    assert script.status_code == 200 and "innerHTML" not in script.text


def test_api_lines_are_the_log_as_combat_log_words_it(server):
    """The GM page's last declarations: the CLI's sentences, the round, pass
    and turn, and what undid one, for the last N lines only."""
    started(server)
    with as_(server, "gm") as gm:
        assert post(gm, {"command": "act", "id": "ash", "cost": "major", "label": "shoots"}
                    ).status_code == 200
        assert post(gm, {"command": "undo"}).status_code == 200
        lines = gm.get(f"/api/encounters/{E}/lines", params={"last": 3}).json()
        assert [(x["seq"], x["actor"], x["context"], x["text"]) for x in lines] == [
            (11, "gm", "setup", "Round 1 starts: AP restored"),
            (12, "gm", "R1.1 ash", "ash spends 2 AP (major): shoots"),
            (13, "gm", "R1.1 ash", "Undo of seq 12")]
        assert lines[1]["undone_by"] == {"seq": 13, "kind": "undo", "reason": ""}
        assert lines[1]["fate"] == "undone at seq 13" and lines[0]["fate"] is None
        assert lines[0]["undone_by"] is None and lines[0]["amended_by"] is None
        # what amend may correct, as the core's correction() takes it
        assert [x["amendable"] for x in lines] == [[], ["cost", "label", "who"], []]
        every = gm.get(f"/api/encounters/{E}/lines", params={"last": 500}).json()
        assert [x["seq"] for x in every] == list(range(1, 14))
        for bad in ("0", "501", "x", "-1"):
            answer = gm.get(f"/api/encounters/{E}/lines", params={"last": bad})
            assert answer.status_code == 422 and "?last= takes a number of lines" in answer.text
        assert gm.get("/api/encounters/nowhere/lines").status_code == 404
    with as_(server, "tv") as tv:  # a read, as the log is
        assert tv.get(f"/api/encounters/{E}/lines").json()[-1]["text"] == "Undo of seq 12"
    code, out, _ = cli(server.db, "log", "--last", "2")
    assert code == 0 and "ash spends 2 AP (major): shoots" in out and "Undo of seq 12" in out


@pytest.mark.parametrize("option", ["--install-completion", "--show-completion", "--help",
                                    "--db", "--encounter", "--actor", "--version"])
def test_a_terminal_option_sent_as_a_line_is_422_and_writes_nothing(server, tmp_path,
                                                                  monkeypatch, option):
    """`--install-completion act rook minor` appended to the server
    user's ~/.bashrc and answered a traceback. A line is the grammar's: the
    shell's own options are wrong usage, and nothing outside the store moves."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    before = log(server.db)
    with as_(server, "gm") as gm:
        for text in (f"{option} act ash minor", f"act ash minor {option}", f"{option}=x round"):
            answer = gm.post(f"/api/encounters/{E}/line", json={"line": text})
            assert answer.status_code == 422, text
            assert list(answer.json()) == ["error"] and "\n" not in answer.json()["error"]
    assert list(home.iterdir()) == []
    assert log(server.db) == before


@pytest.mark.parametrize("who", ["ash", "tv"])
def test_the_command_box_refuses_a_player_or_view_before_reading_the_line(server, who):
    """The role is checked before any body is parsed: a player's or a view's
    line is refused whatever it holds, even bytes that are no JSON at all."""
    before = log(server.db)
    with as_(server, who) as them:
        for body in (b'{"line": "--install-completion act ash minor"}', b"\xff not json",
                     b'{"line": "act ash minor"}'):
            answer = them.post(f"/api/encounters/{E}/line", content=body)
            assert answer.status_code == 403, body
            assert "command box is the GM's" in answer.json()["error"] or \
                "is a view" in answer.json()["error"]
    assert log(server.db) == before
