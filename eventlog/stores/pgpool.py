"""The table server's PostgreSQL connections: a psycopg_pool of at most N
(`combat serve --pool N`) shared by every worker thread of the process,
instead of a connection per thread. Each connection is set up as the
store's own (autocommit, lock_timeout); one that broke is dropped by the
pool and replaced. A thread that finds every connection lent waits up to
the store's lock wait, then is refused in one line.

psycopg_pool is imported here only, when a store is opened with a pool."""
from __future__ import annotations

from contextlib import contextmanager
from collections.abc import Iterator

import psycopg

from eventlog.errors import StoreError
from eventlog.stores import pgschema
from eventlog.stores.pgduties import CONNECT_TIMEOUT_S

WAIT_FLOOR_S = 2.0  # a connection is waited for at least this long


def make(store, size: int):
    """An open pool of 1..`size` connections for `store` (its first made now)."""
    from psycopg_pool import ConnectionPool
    if size < 1:
        raise StoreError(f"a pool holds at least one connection, not {size}")
    pool = ConnectionPool(
        store.url, min_size=1, max_size=size, open=False, name="combat-ledger",
        kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT_S,
                "application_name": "combat-ledger"},
        configure=store._configure, timeout=max(store.timeout, WAIT_FLOOR_S),
        reconnect_timeout=60)
    try:
        pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
    except Exception as exc:  # PoolTimeout: the server cannot be reached
        pool.close()
        try:  # (the reason, as the store words it for one connection)
            psycopg.connect(store.url, connect_timeout=CONNECT_TIMEOUT_S).close()
        except psycopg.Error as reason:
            raise pgschema.unreachable(reason, store.where) from None
        raise StoreError(f"cannot open connections to {store.where}: {exc}") from None
    return pool


@contextmanager
def lent(store) -> Iterator[psycopg.Connection]:
    """A connection of `store`'s pool for the work inside."""
    from psycopg_pool import PoolTimeout
    try:
        held = store._pool.connection()
        db = held.__enter__()
    except PoolTimeout:
        raise StoreError(f"all {store._pool.max_size} connections to {store.where} are busy: "
                         "try again, or serve with a larger --pool") from None
    except psycopg.Error as exc:
        raise pgschema.unreachable(exc, store.where) from None
    try:
        yield db
    except BaseException as exc:
        if not held.__exit__(type(exc), exc, exc.__traceback__):
            raise
    else:
        held.__exit__(None, None, None)
