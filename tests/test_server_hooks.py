"""Webhooks: `combat hook add URL [--discord]`, `hook list`,
`hook remove`; the server POSTs each batch once, in order per encounter,
signed with HMAC-SHA256 over the body, retrying with backoff a receiver on
127.0.0.1 that fails, stalls and restarts; a Discord hook gets the turn and
round changes in Discord's message format, and an undo posts a
correction."""
from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from cli.server import hooks
from helpers import one_error_line, real
from hookkit import Receiver
from serverkit import E, client, post, served, table, token


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(hooks, "TIMEOUT_S", 0.3)
    monkeypatch.setattr(hooks, "BACKOFF_S", 0.02)
    monkeypatch.setattr(hooks, "BACKOFF_MAX_S", 0.1)
    monkeypatch.setattr(hooks, "POLL_S", 0.05)


def secret_of(output: str) -> str:
    return output.split("shown once: ")[1].split()[0]


def test_each_batch_once_in_order_signed_through_failures_stalls_and_a_restart(tmp_path, quick):
    db = tmp_path / "table.db"
    table(db)
    receiver = Receiver(["fail", "fail", "stall", "fail"])
    made = real(db, "hook", "add", receiver.url, "--allow-private")
    assert made.returncode == 0, made.stderr
    secret = secret_of(made.stdout)
    gm = token(db, "gm", "gm")
    with served(db) as running, client(running, gm) as http:
        for text in ("one", "two", "three"):
            assert post(http, {"command": "note", "text": text}).status_code == 200
        assert post(http, {"command": "undo"}).status_code == 200
        receiver.wait(4)
        receiver.stop()  # the receiver goes away; declarations go on
        before = receiver.got
        for text in ("four", "five"):
            assert post(http, {"command": "note", "text": text}).status_code == 200
        receiver = Receiver(port=receiver.port)  # and comes back
        receiver.wait(2)
    receiver.stop()
    bodies = [json.loads(body) for _, body in before + receiver.got]
    assert [b["seq"] for b in bodies] == [7, 8, 9, 10, 11, 12]  # once each, in order
    assert [b["events"][0]["type"] for b in bodies][3] == "Undone"
    for headers, body in before + receiver.got:
        want = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        assert headers["X-Combat-Signature"] == f"sha256={want}"


def test_signature_and_correction(tmp_path, quick):
    db = tmp_path / "table.db"
    table(db)
    receiver = Receiver(["fail", "stall"])
    secret = secret_of(real(db, "hook", "add", receiver.url, "--allow-private").stdout)
    gm = token(db, "gm", "gm")
    with served(db) as running, client(running, gm) as http:
        for text in ("one", "two"):
            post(http, {"command": "note", "text": text})
        post(http, {"command": "undo"})
        receiver.wait(3)
    receiver.stop()
    assert receiver.tries >= 5  # (a failure and a stall were retried)
    seqs = [json.loads(body)["seq"] for _, body in receiver.got]
    assert seqs == [7, 8, 9]  # each batch once, in order
    for headers, body in receiver.got:
        want = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        assert headers["X-Combat-Signature"] == f"sha256={want}"
        assert f":{E}:{json.loads(body)['seq']}:" in headers["X-Combat-Delivery"]
    undo = json.loads(receiver.got[-1][1])
    assert undo["correction"] is True and undo["events"][0]["type"] == "Undone"
    assert undo["events"][0]["data"]["batches"] == [8]


def test_discord_hook_posts_turn_and_round_changes_and_corrections(tmp_path, quick):
    db = tmp_path / "table.db"
    table(db)
    receiver = Receiver()
    made = real(db, "hook", "add", receiver.url, "--discord", "--allow-private")
    assert made.returncode == 0 and "shown once" not in made.stdout
    gm = token(db, "gm", "gm")
    with served(db) as running, client(running, gm) as http:
        for slot, die in (("ash", 9), ("bo", 5), ("boss", 3), ("gangers", 2)):
            post(http, {"command": "roll", "slots": [slot], "die": die})
        post(http, {"command": "note", "text": "quiet"})
        assert post(http, {"command": "round"}).status_code == 200
        assert post(http, {"command": "undo"}).status_code == 200
        receiver.wait(2)
    receiver.stop()
    said = [json.loads(body)["content"] for _, body in receiver.got]
    assert len(said) == 2, said
    assert said[0].startswith("**Warehouse raid**: round 1:")
    assert "Correction" in said[1] and "undone" in said[1]
    assert all("X-Combat-Signature" not in h for h, _ in receiver.got)


def test_hook_list_and_remove(tmp_path):
    db = tmp_path / "table.db"
    table(db)
    url = "https://discord.com/api/webhooks/123/SECRET-TOKEN"
    made = real(db, "hook", "add", url, "--discord")
    hook_id = made.stdout.split()[1].rstrip(":")
    listed = real(db, "hook", "list").stdout
    assert hook_id in listed and "discord" in listed and "SECRET-TOKEN" not in listed
    again = real(db, "hook", "add", url, "--discord")
    assert "there already" in one_error_line(again)
    assert real(db, "hook", "remove", hook_id).returncode == 0
    assert "no hooks" in real(db, "hook", "list").stdout
    assert "no hook" in one_error_line(real(db, "hook", "remove", hook_id))
    assert "http://" in one_error_line(real(db, "hook", "add", "ftp://example.org/x"))


def test_a_hook_far_behind_is_caught_up_a_page_at_a_time_each_batch_once(tmp_path):
    """Declarations made while no server ran (the backlog
    is read a page at a time, cli/server/catchup.py): every batch reaches
    the hook once, in order, with the status after it. (At the sender's own
    timeout: with the tests' short one, a receiver slowed by a loaded
    machine is given up on, and the batch rightly sent again.)"""
    from cli.server.catchup import PAGE_BATCHES
    from eventlog.events import NoteAdded
    from eventlog.stores import open_store
    db = tmp_path / "table.db"
    table(db)
    receiver = Receiver()
    assert real(db, "hook", "add", receiver.url, "--allow-private").returncode == 0
    store = open_store(db)
    head = store.head(E)[0]
    count = PAGE_BATCHES * 2 + 7
    store.append_batches(E, head, [[NoteAdded(text=f"n{i}")] for i in range(count)], "gm")
    store.close()
    with served(db):
        receiver.wait(count)
    receiver.stop()
    bodies = [json.loads(body) for _, body in receiver.got]
    assert [b["seq"] for b in bodies] == list(range(head + 1, head + count + 1))
    assert all(b["status"]["seq"] == b["seq"] for b in bodies)
