"""Where a webhook may send: a receiver's redirect is never followed (a 3xx
is a failed delivery: retried, logged, never marked delivered); a
destination on this machine or a private network is refused at `hook add`
and again at delivery unless `--allow-private`; credentials written into a
URL are never printed, logged or answered.

This machine's network rules allow traffic to loopback only: destinations
off it are checked by resolution and validation alone, never connected to
(a literal address resolves without a lookup)."""
from __future__ import annotations

import base64
import logging
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from typer.testing import CliRunner

from cli.app import app
from cli.server import hooks
from eventlog.stores import open_store
from eventlog.stores.contract import Hook
from helpers import one_error_line, real
from serverkit import E, client, post, served, table, token

CLEAN_ENV = {"COMBAT_ENCOUNTER": None, "COMBAT_ACTOR": None, "COMBAT_DB": None}
REFUSED = ["http://127.0.0.1:8080/in", "http://10.0.0.5/in", "http://169.254.169.254/latest",
           "http://[::1]:9/in", "http://[::ffff:127.0.0.1]/in", "https://[::ffff:10.0.0.1]/in",
           "http://0.0.0.0/in", "http://224.0.0.1/in", "http://localhost:8080/in",
           "http://[fe80::1]/in", "http://[fc00::1]/in", "http://[2002:7f00:1::]/in",
           "http://192.168.1.20/in", "http://100.64.0.1/in", "http://[::]/in"]


class Receiver:
    """An HTTP receiver on 127.0.0.1 answering by `codes` in turn (then 204),
    a 3xx with `Location: to`; it keeps every request's headers and body."""

    def __init__(self, codes=(), to: str = ""):
        self.codes, self.got, self.tries = list(codes), [], 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                outer.tries += 1
                code = outer.codes.pop(0) if outer.codes else 204
                if code == 204:
                    outer.got.append((dict(self.headers), body))
                self.send_response(code)
                if 300 <= code < 400:
                    self.send_header("Location", to)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_POST = do_GET = _answer

            def log_message(self, *args):
                pass
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/in/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(hooks, "TIMEOUT_S", 0.5)
    monkeypatch.setattr(hooks, "BACKOFF_S", 0.02)
    monkeypatch.setattr(hooks, "BACKOFF_MAX_S", 0.05)
    monkeypatch.setattr(hooks, "POLL_S", 0.05)


def until(condition, limit: float = 30) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.02)


def marks(db, hook_id: str) -> dict:
    store = open_store(db)
    try:
        return store.hook_marks(hook_id)
    finally:
        store.close()


def cli(db, *args: str):
    return CliRunner().invoke(app, ["--db", str(db), *args], env=CLEAN_ENV)


def test_a_redirect_is_a_failed_delivery_never_followed_nor_marked(tmp_path, quick, caplog):
    db = tmp_path / "table.db"
    table(db)
    inside = Receiver()  # the internal address a redirect points at
    redirects = [301, 302, 307, 308] * 3
    outside = Receiver(redirects, to=inside.url)
    caplog.set_level(logging.WARNING, logger="combat.server")
    try:
        made = real(db, "hook", "add", outside.url, "--allow-private")
        hook_id = made.stdout.split()[1].rstrip(":")
        before = marks(db, hook_id)
        with served(db) as running, client(running, token(db, "gm", "gm")) as http:
            assert post(http, {"command": "note", "text": "the alarm"}).status_code == 200
            until(lambda: outside.tries >= 6)
            assert marks(db, hook_id) == before  # 3xx after 3xx: never delivered
            until(lambda: len(outside.got) == 1)  # then a 2xx: delivered once
            until(lambda: marks(db, hook_id) != before)
        assert outside.tries == len(redirects) + 1
        assert inside.tries == 0  # nothing ever went where the redirects pointed
        warned = [r.getMessage() for r in caplog.records if r.name == "combat.server"]
        for code in (301, 302, 307, 308):
            assert any(f"answered {code}, a redirect: not followed" in w for w in warned), code
    finally:
        inside.stop()
        outside.stop()


@pytest.mark.parametrize("url", REFUSED)
def test_a_destination_off_the_public_network_is_refused_at_add(tmp_path, url):
    db = tmp_path / "table.db"
    table(db)
    refused = cli(db, "hook", "add", url)
    assert refused.exit_code == 1, refused.output
    line = refused.output.strip()
    assert line.startswith("error: ") and "\n" not in line and "--allow-private" in line, line
    assert "address" in line
    assert cli(db, "hook", "list").output == "no hooks (combat hook add URL)\n"


def test_allow_private_is_the_gms_explicit_choice_kept_with_the_hook(tmp_path):
    db = tmp_path / "table.db"
    table(db)
    made = cli(db, "hook", "add", "http://192.168.1.20:8080/bot", "--allow-private")
    assert made.exit_code == 0 and "a private address allowed" in made.output, made.output
    public = cli(db, "hook", "add", "https://93.184.216.34/in")  # (a literal: no lookup)
    assert public.exit_code == 0, public.output
    listed = cli(db, "hook", "list").output.splitlines()
    assert sum("(a private address allowed)" in line for line in listed) == 1
    assert "192.168.1.20" in next(x for x in listed if "allowed" in x)
    offline = cli(db, "hook", "add", "https://discord.com/api/webhooks/1/TOKEN", "--discord")
    assert offline.exit_code == 0, offline.output  # (no lookup here: checked at delivery)
    assert "TOKEN" not in offline.output


def test_a_hook_checked_again_at_delivery_sends_nothing_to_a_private_address(
        tmp_path, quick, caplog):
    db = tmp_path / "table.db"
    table(db)
    receiver = Receiver()
    caplog.set_level(logging.WARNING, logger="combat.server")
    store = open_store(db)  # as if its name had resolved to a public address at `hook add`
    store.add_hook(Hook("feedbeef", receiver.url, False, "s", "2026-01-01T00:00:00Z"))
    store.close()
    try:
        with served(db) as running, client(running, token(db, "gm", "gm")) as http:
            assert post(http, {"command": "note", "text": "the alarm"}).status_code == 200
            until(lambda: sum("loopback address" in r.getMessage()
                              for r in caplog.records) >= 3)
        assert receiver.tries == 0 and marks(db, "feedbeef") == {}
    finally:
        receiver.stop()


def test_credentials_in_a_url_are_never_printed_logged_or_answered(tmp_path, quick, caplog):
    db = tmp_path / "table.db"
    table(db)
    receiver = Receiver([500, 302])
    url = receiver.url.replace("http://", "http://bot:hunter2@") + "/T0KEN?token=qs3cret"
    caplog.set_level(logging.DEBUG)
    said = [real(db, "hook", "add", url, "--allow-private"),
            real(db, "hook", "add", url, "--allow-private"),  # (there already)
            real(db, "hook", "list"),
            real(db, "hook", "add", url.replace("127.0.0.1", "10.0.0.7"))]  # refused
    assert one_error_line(said[1]) and one_error_line(said[3])
    try:
        with served(db) as running, client(running, token(db, "gm", "gm")) as http:
            assert post(http, {"command": "note", "text": "the alarm"}).status_code == 200
            until(lambda: len(receiver.got) == 1)
            metrics = http.get("/metrics").text
    finally:
        receiver.stop()
    headers, _ = receiver.got[0]
    assert headers["Authorization"] == "Basic " + base64.b64encode(b"bot:hunter2").decode()
    logged = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in caplog.records)
    assert "answered 500" in logged and "answered 302" in logged
    for text in [*(x.stdout + x.stderr for x in said), logged, metrics]:
        for secret in ("hunter2", "qs3cret", "T0KEN", "bot:", "bot@"):
            assert secret not in text, (secret, text)
