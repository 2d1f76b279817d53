"""Seen from outside: GET /metrics in the Prometheus text format
for a GM token or a metrics token (which reads nothing else), and one
structured log line per declaration (encounter, actor, seq, latency),
never a token."""
from __future__ import annotations

import json
import logging

import httpx
from prometheus_client.parser import text_string_to_metric_families

from projections.access import make
from eventlog.stores import open_store
from serverkit import E, client, post, served, table, token


def metrics_token(db) -> str:
    secret, kept = make("monitor", ["metrics"], None, None)
    store = open_store(db)
    try:
        store.add_token(kept)
    finally:
        store.close()
    return secret


def samples(text: str) -> dict:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_metrics_count_declarations_refusals_streams_and_latencies(tmp_path, caplog):
    db = tmp_path / "table.db"
    table(db)
    gm, tv = token(db, "gm", "gm"), token(db, "tv", "view")
    caplog.set_level(logging.INFO, logger="combat.server")
    with served(db) as running, client(running, gm) as http, client(running, tv) as view:
        assert post(http, {"command": "note", "text": "one"}).status_code == 200
        assert post(http, {"command": "roll", "slots": ["nobody"], "die": 3}).status_code == 409
        assert post(view, {"command": "note", "text": "no"}).status_code == 403
        assert post(http, {"command": "bogus"}).status_code == 422
        answer = http.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    seen = samples(answer.text)
    assert seen[("combat_declarations_total", ())] == 1
    assert seen[("combat_refusals_total", (("code", "409"),))] == 1
    assert seen[("combat_refusals_total", (("code", "403"),))] == 1
    assert seen[("combat_refusals_total", (("code", "422"),))] == 1
    assert seen[("combat_append_seconds_count", ())] == 1
    assert seen[("combat_fanout_seconds_count", (("origin", "here"),))] == 1
    assert seen[("combat_open_streams", ())] == 0
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "combat.server"]
    assert len(lines) == 1
    assert lines[0]["encounter"] == E and lines[0]["actor"] == "gm" and lines[0]["seq"] == 7
    assert lines[0]["latency_ms"] >= 0
    assert all(gm not in r.getMessage() and tv not in r.getMessage() for r in caplog.records)


def test_metrics_are_for_gm_and_metrics_tokens_only(tmp_path):
    db = tmp_path / "table.db"
    table(db)
    tv, ana = token(db, "tv", "view"), token(db, "ana", "player", "ash")
    monitor = metrics_token(db)
    with served(db) as running:
        assert httpx.get(f"{running.url}/metrics", timeout=10).status_code == 401
        for secret in (tv, ana):
            with client(running, secret) as http:
                refused = http.get("/metrics")
                assert refused.status_code == 403 and "metrics" in refused.json()["error"]
        with client(running, monitor) as http:
            assert http.get("/metrics").status_code == 200
            assert http.get("/api/encounters").json() == []  # it reads nothing else
            assert http.get(f"/api/encounters/{E}/status").status_code == 403
            assert post(http, {"command": "note", "text": "x"}).status_code == 403


def test_open_streams_are_counted(tmp_path):
    from httpx_sse import connect_sse
    db = tmp_path / "table.db"
    table(db)
    gm = token(db, "gm", "gm")
    with served(db) as running, client(running, gm) as http, client(running, gm) as other:
        with connect_sse(http, "GET", f"/api/encounters/{E}/stream") as source:
            events = source.iter_sse()  # (kept: a dropped generator closes the stream)
            next(events)  # (open: its first message came)
            during = samples(other.get("/metrics").text)[("combat_open_streams", ())]
    assert during == 1


def test_metrics_token_is_made_by_the_cli(tmp_path):
    from helpers import real
    db = tmp_path / "table.db"
    table(db)
    made = real(db, "token", "add", "monitor", "--metrics")
    assert made.returncode == 0, made.stderr
    listed = real(db, "token", "list")
    assert "monitor" in listed.stdout and "metrics" in listed.stdout
