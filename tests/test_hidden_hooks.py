"""Webhooks read as a view does (docs/server.md, "What the players see"):
one fight played on two real servers, one with hidden combatants (a lone
one and a group all of whose members are hidden) and one without them,
posts the same to a signed hook and to a Discord hook, body for body
(timestamps aside), until the reveal: no hidden id, name, group or effect,
no declaration of theirs, seq and batch counted as a view counts them.
After the reveal the posts go on in the view's new numbering."""
from __future__ import annotations

import json
import re
import time

import pytest

from cli.server import hooks
from eventlog.stores import open_store
from helpers import real
from hookkit import Receiver
from projections.domain import commands as c
from projections.ledger import Ledger
from serverkit import E, client, post, served, table, token

TIME = re.compile(r'"at":\s*"[^"]*"')
SECRETS = ("bosco", "thug", "crew", "-hidden")


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(hooks, "TIMEOUT_S", 2.0)
    monkeypatch.setattr(hooks, "BACKOFF_S", 0.02)
    monkeypatch.setattr(hooks, "POLL_S", 0.05)


def store_url(kind: str, tmp_path, name: str):
    if kind == "postgres":
        from helpers import pg_server
        return pg_server().fresh_url()
    return tmp_path / f"{name}.db"


def prepared(db, hidden: bool) -> tuple[Receiver, Receiver]:
    """The usual table (with hidden Bosco and the hidden crew of two thugs
    if `hidden`), a signed hook and a Discord hook on local receivers."""
    table(db)
    if hidden:
        ledger = Ledger(open_store(db))
        for command in (c.Add(name="Bosco", hidden=True, bonus=1),
                        c.Add(name="Thug", count=2, group="crew", hidden=True)):
            ledger.execute(E, command, "gm")
        ledger.store.close()
    signed, discord = Receiver(), Receiver()
    assert real(db, "hook", "add", signed.url, "--allow-private").returncode == 0
    assert real(db, "hook", "add", discord.url, "--discord", "--allow-private").returncode == 0
    return signed, discord


FIGHT = [  # (command, for the fight with the hidden only)
    ({"command": "roll", "slots": ["ash"], "die": 9}, False),
    ({"command": "roll", "slots": ["bosco"], "die": 2}, True),
    ({"command": "roll", "slots": ["crew"], "die": 1}, True),
    ({"command": "effect", "id": "bosco", "name": "Prone", "until_ended": True}, True),
    ({"command": "effect", "id": "ash", "name": "Prone", "until_ended": True}, False),
    ({"command": "end-effect", "effect": "prone-bosco-hidden", "reason": "up"}, True),
    ({"command": "roll", "slots": ["bo"], "die": 7}, False),
    ({"command": "roll", "slots": ["boss"], "die": 5}, False),
    ({"command": "roll", "slots": ["gangers"], "die": 3}, False),
    ({"command": "track", "id": "ash", "name": "hp", "value": 10}, False),
    ({"command": "track", "id": "ash", "name": "hp", "delta": -3, "by": "bosco"}, True),
    ({"command": "round"}, False),
    ({"command": "act", "id": "ash", "cost": "minor", "label": "shoots"}, False),
    ({"command": "adjust-ap", "id": "thug-hidden-1", "delta": -1, "reason": "hurt"}, True),
    ({"command": "undo"}, True),  # (the thug's adjustment: nothing a view read)
    ({"command": "undo"}, False),  # ash's shot
    ({"command": "note", "text": "before the reveal"}, False),
]


def play(running, hidden: bool) -> None:
    gm = client(running, running.secret)
    for command, only_hidden in FIGHT:
        if only_hidden and not hidden:
            if command.get("by"):  # (the same change, by nobody)
                command = {k: v for k, v in command.items() if k != "by"}
            else:
                continue
        answer = post(gm, command)
        assert answer.status_code == 200, (command, answer.text)


def wait_for(receiver: Receiver, done, limit: float = 60) -> list:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        got = [json.loads(body) for _, body in receiver.got]
        if done(got):
            return got
        time.sleep(0.05)
    raise AssertionError(f"not delivered in {limit} s: {receiver.got[-3:]}")


def noted(text: str):
    return lambda got: any(e["type"] == "NoteAdded" and e["data"]["text"] == text
                           for b in got for e in b["events"])


def said(text: str):
    return lambda got: any(text in b["content"] for b in got)


def flat(bodies: list) -> str:
    return TIME.sub('"at":""', json.dumps(bodies, sort_keys=True))


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_hooks_post_as_a_view_reads_the_same_as_without_the_hidden(tmp_path, quick, kind):
    posted = {}
    for hidden in (True, False):
        db = store_url(kind, tmp_path, f"hidden-{hidden}")
        signed, discord = prepared(db, hidden)
        gm, tv = token(db, "gm", "gm"), token(db, "tv", "view")
        with served(db) as running:
            running.secret = gm
            play(running, hidden)
            before = wait_for(signed, noted("before the reveal"))
            if hidden:
                seen = client(running, tv).get(f"/api/encounters/{E}/status").json()["seq"]
                gm_http = client(running, gm)
                for command in ({"command": "reveal", "id": "bosco"},
                                {"command": "note", "text": "after"}, {"command": "end"}):
                    assert post(gm_http, command).status_code == 200
                after = wait_for(signed, noted("after"))[len(before):]
                view_log = client(running, tv).get(f"/api/encounters/{E}/log").json()
            else:
                assert post(client(running, gm), {"command": "end"}).status_code == 200
            told = wait_for(discord, said("the fight is over"))
        signed.stop()
        discord.stop()
        posted[hidden] = (before, told)
    (with_hidden, told), (without, told_twin) = posted[True], posted[False]
    assert flat(with_hidden) == flat(without)
    assert [b["content"] for b in told] == [b["content"] for b in told_twin]
    text = flat(with_hidden) + json.dumps(told)
    for word in SECRETS:
        assert word not in text.casefold(), word
    seqs = [e["seq"] for b in with_hidden for e in b["events"]]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # (no gap: nothing hidden counts)
    assert [b["seq"] for b in with_hidden][-1] == seen
    # The reveal shows bosco's past: the posts go on in the view's new numbering.
    reveal, note = after[:2]
    assert reveal["events"][0]["type"] == "CombatantRevealed"
    assert reveal["seq"] == reveal["status"]["seq"] > seen + 1
    assert note["seq"] == reveal["seq"] + 1
    assert [e["seq"] for e in view_log[-3:-1]] == [reveal["seq"], note["seq"]]
    assert "bosco" in json.dumps(reveal["status"])
