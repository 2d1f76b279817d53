"""Shared test helpers that are not fixtures: the stores every contract and
store-independent test runs against."""
from __future__ import annotations

import atexit
from pathlib import Path

import pytest

STORES = ["sqlite", "memory", "postgres"]
_server = None


def pg_server():
    """The PostgreSQL server of this test run (tests/pgserver.py), started on
    first use and stopped when the run ends; skips the test, in one line,
    when there is none."""
    global _server
    if _server is None:
        from pgserver import Server
        _server = Server()
        atexit.register(_server.close)
    if _server.url is None:
        pytest.skip(_server.why)
    return _server


def make_store(kind: str, folder: Path):
    """A fresh, empty store of `kind` (the file lives in `folder`; on
    PostgreSQL, a schema of its own)."""
    if kind == "sqlite":
        from eventlog.stores.sqlite import Store
        return Store(folder / f"contract-{len(list(folder.glob('contract-*')))}.db")
    if kind == "postgres":
        from eventlog.stores.postgres import PostgresStore
        return PostgresStore(pg_server().fresh_url())
    from eventlog.stores.memory import MemoryStore
    return MemoryStore()


def another_handle(store):
    """The same store as another program would reach it (its own connection)."""
    url = getattr(store, "url", None)
    if url is not None:
        from eventlog.stores.postgres import PostgresStore
        return PostgresStore(url)
    path = getattr(store, "path", None)
    if path is None:
        return store  # one process: the store is the handle
    from eventlog.stores.sqlite import Store
    return Store(path)
