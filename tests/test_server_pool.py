"""The table server on PostgreSQL: one store for every worker
thread on a pool of at most `--pool N` connections, and one LISTEN
connection of its own that comes back after a drop and re-reads from the
last seq it published, so a stream misses nothing an outside writer did
meanwhile."""
from __future__ import annotations

import threading

import httpx
import psycopg
import pytest
from httpx_sse import connect_sse

from eventlog.stores import open_store
from projections.domain import commands as c
from projections.ledger import Ledger
from serverkit import E, client, messages, post, served, table, token

STREAM = f"/api/encounters/{E}/stream"


@pytest.fixture
def pooled():
    from helpers import pg_server
    url = pg_server().fresh_url()
    table(url)
    secret = token(url, "gm", "gm")
    with served(url, pool=2) as running:
        running.db, running.secret = url, secret
        yield running


def ids(http, until: int, last: int, got: list) -> None:
    """The seqs of a stream's messages after `last`, until `until`."""
    with connect_sse(http, "GET", STREAM, headers={"Last-Event-ID": str(last)},
                     timeout=httpx.Timeout(30)) as source:
        for message in messages(source):
            got.append(int(message.id))
            if int(message.id) >= until:
                return


def test_one_pool_serves_every_thread_within_its_size(pooled):
    total, writers = 24, 6

    def writer(n):
        with client(pooled, pooled.secret) as http:
            for i in range(total // writers):
                assert post(http, {"command": "note", "text": f"{n}.{i}"}).status_code == 200
                assert http.get(f"/api/encounters/{E}/status").status_code == 200
    threads = [threading.Thread(target=writer, args=(n,)) for n in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    store = pooled.app.state.handles.store()
    assert store.threadsafe
    assert store._pool.get_stats()["pool_size"] <= 2
    assert store.head(E)[0] == 6 + total


def test_the_listen_connection_comes_back_after_a_drop_and_misses_nothing(pooled):
    store = pooled.app.state.handles.store()
    got: list[int] = []
    with client(pooled, pooled.secret) as http:
        reader = threading.Thread(target=ids, args=(http, 9, 6, got))
        reader.start()
        outside = Ledger(open_store(pooled.db))
        try:
            outside.execute(E, c.Note(text="before the drop"), "cli")
            with store._guard:
                pid = store._listener.info.backend_pid
            with psycopg.connect(pooled.db, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            outside.execute(E, c.Note(text="while it was down"), "cli")
            outside.execute(E, c.Note(text="after"), "cli")
        finally:
            outside.store.close()
        reader.join(60)
    assert got == [7, 8, 9]
    for _ in range(200):  # (bounded: the watcher finds the drop within its next wait)
        with store._guard:
            listener = store._listener
        if listener is not None and not listener.closed and listener.info.backend_pid != pid:
            break
        threading.Event().wait(0.05)
    assert listener is not None and listener.info.backend_pid != pid  # a new one


def test_one_server_of_several_delivers_the_webhooks():
    """The claim of hook delivery is one process's at a time, and passes on
    when that one's connection goes (a server that died)."""
    from helpers import pg_server
    from eventlog.stores.postgres import PostgresStore
    url = pg_server().fresh_url()
    first, second = PostgresStore(url, pool=1), PostgresStore(url, pool=1)
    try:
        assert first.claim_hooks() and first.claim_hooks()
        assert not second.claim_hooks()
        first.release_hooks()
        assert second.claim_hooks()
    finally:
        first.close()
        second.close()
