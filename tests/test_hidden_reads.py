"""A hidden combatant does not exist for a player or a view (docs/server.md,
"What the players see"): the same fight played twice on one server, once
with hidden combatants (encounter E) and once without them ("twin"), reads
the same to a player's and a view's token, answer for answer, until the
reveal; that includes refusals, the numbers of the log (seq, batch) and
what a hidden combatant did to others."""
from __future__ import annotations

import json
import re

import httpx
import pytest
from httpx_sse import connect_sse

from eventlog.stores import open_store
from helpers import fresh_db
from projections import access
from projections.domain import commands as c
from projections.ledger import Ledger
from serverkit import E, client, messages, post, served, table, token

TWIN = "twin"
HIDDEN = (c.Add(name="Bosco", hidden=True, bonus=1),
          c.Add(name="Gangleader", hidden=True, bonus=3))


def twins(db) -> dict[str, str]:
    """E: the usual table plus hidden Bosco and Gangleader; TWIN: the usual
    table alone. Tokens: gm, and per encounter a player (Ana, ash) and a view."""
    table(db)
    table(db, TWIN)
    ledger = Ledger(open_store(db))
    for command in HIDDEN:
        ledger.execute(E, command, "gm")
    ledger.store.close()
    return {"gm": token(db, "gm", "gm"),
            "ana": token(db, "ana", "player", "ash"), "tv": token(db, "tv", "view"),
            "ana2": token(db, "twin-ana", "player", "ash", TWIN),
            "tv2": token(db, "twin-tv", "view", encounter=TWIN)}


@pytest.fixture(params=["sqlite", "postgres"])
def server(request, tmp_path):
    db = fresh_db(request.param, tmp_path)
    secrets = twins(db)
    with served(db) as running:
        running.db, running.secrets = db, secrets
        yield running


def both(running, command: dict) -> None:
    """The GM declares `command` in both encounters."""
    gm = client(running, running.secrets["gm"])
    for encounter in (E, TWIN):
        answer = post(gm, command, encounter)
        assert answer.status_code == 200, (encounter, answer.text)


def answers(running, who: str, command: dict) -> tuple[tuple, tuple]:
    """(status, body) of `command` sent by `who` to E, and by its twin to TWIN."""
    one = post(client(running, running.secrets[who]), command, E)
    two = post(client(running, running.secrets[who + "2"]), command, TWIN)
    return (one.status_code, one.text), (two.status_code, same(two.text))


def same(text: str) -> str:
    """A twin's read with its token's name as E's token is named."""
    return text.replace("twin-ana", "ana").replace("twin-tv", "tv")


@pytest.mark.parametrize("command", [
    {"command": "act", "id": "bosco", "cost": "minor", "label": "x"},  # a hidden id
    {"command": "act", "id": "Bosco", "cost": "minor", "label": "x"},  # its name
    {"command": "act", "id": "gangl", "cost": "minor", "label": "x"},  # a prefix of it only
    {"command": "act", "id": "bos", "cost": "minor", "label": "x"},  # boss and bosco
    {"command": "end-turn", "id": "bosco"},
    {"command": "seize", "id": "gangleader"},
    {"command": "roll", "slots": ["bosco"], "die": 5},
    {"command": "order", "slots": ["ash", "bosco"]},
    {"command": "order", "slots": ["ash", "bosc"]},
    {"command": "order", "slots": ["b", "ash"]},  # could be bo, boss (not bosco)
    {"command": "order", "slots": ["ash", "gang"]},  # gangers and its members only
])
def test_a_players_refusal_is_the_same_as_if_the_hidden_did_not_exist(server, command):
    """Same status, same words, for a hidden id, name or prefix as for the
    same fight without it: a player cannot probe for who is hidden."""
    with_hidden, without = answers(server, "ana", command)
    assert with_hidden == without
    typed = [command.get("id")] + command.get("slots", [])
    said = with_hidden[1]
    for word in typed:
        said = said.replace(repr(word), "").replace(str(word), "")
    assert "bosco" not in said.casefold() and "gangleader" not in said.casefold()


def test_a_hidden_word_reads_as_an_unknown_word(server):
    """`act bosco` (hidden) and `act zzzzz` (nothing) answer alike."""
    ana = client(server, server.secrets["ana"])
    hidden = post(ana, {"command": "act", "id": "bosco", "cost": "minor", "label": "x"})
    nothing = post(ana, {"command": "act", "id": "zzzzz", "cost": "minor", "label": "x"})
    assert hidden.status_code == nothing.status_code == 403
    assert hidden.json()["error"].replace("bosco", "W") == \
        nothing.json()["error"].replace("zzzzz", "W")


def test_a_gm_still_reaches_a_hidden_combatant_by_prefix(server):
    gm = client(server, server.secrets["gm"])
    assert post(gm, {"command": "grit", "id": "gangl", "delta": 1}).status_code == 200
    refused = post(gm, {"command": "grit", "id": "bos", "delta": 1})
    assert refused.status_code == 409 and "bosco" in refused.json()["error"]


def test_permit_gives_back_the_command_as_the_player_reads_it():
    """The core resolves a player's prefix among what the player sees."""
    from eventlog.events import CombatantHidden
    from eventlog.stores.contract import Token
    from helpers import given, npc, pc
    state = given(pc("ash"), npc("boss"), npc("bosco"), CombatantHidden(combatant="bosco"))
    ana = Token("ana", "player", ("ash",), E, "d", "2026-01-01T00:00:00Z")
    permit = access.permit_for(ana)
    chosen = permit(state, c.Order(slots=["ash", "bos"]))
    assert chosen.slots == ["ash", "boss"]


# -- every read, the same as the fight without them ----------------------------

TIME = re.compile(r'"at":\s*"[^"]*"')


def gm_only(running, command: dict) -> None:
    answer = post(client(running, running.secrets["gm"]), command, E)
    assert answer.status_code == 200, answer.text


def stream_reads(http: httpx.Client, encounter: str, last: str | None, head: int) -> list:
    """(id, data) of a stream's messages, from `last` up to players' seq `head`."""
    headers = {} if last is None else {"Last-Event-ID": last}
    out = []
    with connect_sse(http, "GET", f"/api/encounters/{encounter}/stream", headers=headers,
                     timeout=httpx.Timeout(15)) as source:
        for message in messages(source):
            out.append((message.id, message.data))
            if int(message.id) >= head:
                break
    return out


def everything(running, who: str, encounter: str) -> str:
    """Every read of `who`'s token of `encounter`, one text, timestamps out."""
    http = client(running, running.secrets[who])
    status = http.get(f"/api/encounters/{encounter}/status")
    head = status.json()["seq"]
    parts = [status.text, http.get("/api/encounters").text] + [
        http.get(f"/api/encounters/{encounter}/{path}").text
        for path in ("log", "log?after=3", "log?after=9", "lines?last=500")]
    for last in (None, "0", "3", "9", str(head - 1), str(head)):
        if last is None or int(last) < head:
            parts.append(json.dumps(stream_reads(http, encounter, last, head)))
    text = re.sub(rf"\b{TWIN}\b", E, same("\n".join(parts)))
    return TIME.sub('"at":""', text)


def played(running) -> None:
    """The same fight in E and TWIN; in E the hidden combatants too."""
    for command in ({"command": "roll", "slots": ["ash"], "die": 9},
                    {"command": "roll", "slots": ["bo"], "die": 7}):
        both(running, command)
    gm_only(running, {"command": "roll", "slots": ["bosco"], "die": 2})
    gm_only(running, {"command": "effect", "id": "bosco", "name": "Prone", "until_ended": True})
    both(running, {"command": "effect", "id": "ash", "name": "Prone", "until_ended": True})
    gm_only(running, {"command": "end-effect", "effect": "prone-bosco-hidden", "reason": "shakes off"})
    both(running, {"command": "roll", "slots": ["boss"], "die": 5})
    gm_only(running, {"command": "roll", "slots": ["gangleader"], "die": 1})
    both(running, {"command": "track", "id": "ash", "name": "hp", "value": 10})
    gm_only(running, {"command": "track", "id": "ash", "name": "hp", "delta": -3, "by": "bosco"})
    post(client(running, running.secrets["gm"]), {"command": "track", "id": "ash", "name": "hp",
                                                  "delta": -3}, TWIN)  # (bosco is not there)
    both(running, {"command": "roll", "slots": ["gangers"], "die": 3})
    both(running, {"command": "round"})
    both(running, {"command": "act", "id": "ash", "cost": "minor", "label": "shoots"})
    gm_only(running, {"command": "adjust-ap", "id": "bosco", "delta": -1, "reason": "hurt"})
    gm_only(running, {"command": "undo"})  # (bosco's adjustment: nothing a player saw)
    both(running, {"command": "undo"})  # ash's shot, in both
    both(running, {"command": "note", "text": "the fight goes on"})


def test_players_and_views_read_the_fight_as_if_the_hidden_were_not_there(server):
    played(server)
    for who in ("ana", "tv"):
        assert everything(server, who, E) == everything(server, who + "2", TWIN), who
    gm = client(server, server.secrets["gm"])
    assert "prone-bosco" in gm.get(f"/api/encounters/{E}/log").text


def test_a_players_declaration_answers_in_the_players_numbering(server):
    played(server)
    command = {"command": "act", "id": "ash", "cost": "minor", "label": "aims"}
    with_hidden, without = answers(server, "ana", command)
    assert with_hidden[0] == 200
    assert TIME.sub("", with_hidden[1]) == re.sub(rf"\b{TWIN}\b", E, TIME.sub("", without[1]))


def test_a_stream_resumed_across_a_reveal_gets_the_current_status(server):
    played(server)
    tv = client(server, server.secrets["tv"])
    before = tv.get(f"/api/encounters/{E}/status").json()["seq"]
    gm_only(server, {"command": "reveal", "id": "bosco"})
    now = tv.get(f"/api/encounters/{E}/status").json()
    assert now["seq"] > before + 1  # (bosco's past counts now)
    got = stream_reads(tv, E, str(before), now["seq"])
    assert [int(i) for i, _ in got] == [now["seq"]]
    assert json.loads(got[0][1]) == now
    log = tv.get(f"/api/encounters/{E}/log").json()
    assert [e["seq"] for e in log] == list(range(1, now["seq"] + 1))
