"""GET /health (docs/server.md): no token; {"ok": true} while
the server can read and write its store, else 503 with one error line that
names no path or URL (anyone may ask)."""
from __future__ import annotations

import sqlite3

import httpx
import pytest

from cli.server.health import plain
from serverkit import served, table


def test_health_answers_ok_without_a_token(tmp_path):
    db = tmp_path / "table.db"
    table(db)
    with served(db) as running:
        answer = httpx.get(f"{running.url}/health", timeout=10)
    assert answer.status_code == 200
    assert answer.json() == {"ok": True}


def test_health_is_503_while_the_store_cannot_be_written(tmp_path, monkeypatch):
    db = tmp_path / "secret-place" / "table.db"
    db.parent.mkdir()
    table(db)
    monkeypatch.setenv("COMBAT_BUSY_TIMEOUT", "0.2")
    with served(db) as running:
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock
        try:
            answer = httpx.get(f"{running.url}/health", timeout=20)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        again = httpx.get(f"{running.url}/health", timeout=20)
    assert answer.status_code == 503
    body = answer.json()
    assert body["ok"] is False and body["error"]
    assert "secret-place" not in body["error"] and str(tmp_path) not in body["error"]
    assert again.json() == {"ok": True}


def test_health_on_postgres_names_no_url_when_the_store_is_gone():
    from helpers import pg_server
    import psycopg
    url = pg_server().fresh_url()
    table(url)
    with served(url) as running:
        assert httpx.get(f"{running.url}/health", timeout=10).json() == {"ok": True}
        with psycopg.connect(url, autocommit=True) as db:
            db.execute("ALTER TABLE encounters RENAME TO encounters_gone")
        try:
            answer = httpx.get(f"{running.url}/health", timeout=20)
        finally:
            with psycopg.connect(url, autocommit=True) as db:
                db.execute("ALTER TABLE encounters_gone RENAME TO encounters")
    assert answer.status_code == 503
    error = answer.json()["error"]
    assert "postgresql://" not in error and "/" not in error


@pytest.mark.parametrize("said", [
    "cannot write /srv/combat/table.db: disk full",
    "lost postgresql://gm:pw@db.local/combat?options=x",
    "no encounters in ./tables/x.db",
])
def test_health_error_hides_paths_and_urls(said):
    assert "/" not in plain(said)
