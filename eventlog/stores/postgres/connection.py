"""The PostgreSQL store's connections: how a server is named to the user
(its URL without the password), its errors said in one line, and the table
server's pool: a psycopg_pool of at most N
(`combat serve --pool N`) shared by every worker thread of the process,
instead of a connection per thread. Each connection is set up as the
store's own (autocommit, lock_timeout); one that broke is dropped by the
pool and replaced. A thread that finds every connection lent waits up to
the store's lock wait, then is refused in one line.

psycopg_pool is imported here only, when a store is opened with a pool."""
from __future__ import annotations

import re
from contextlib import contextmanager
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit
from collections.abc import Iterator

import psycopg

from eventlog.errors import StoreError
from eventlog.language import _
from eventlog.text import neutral

CONNECT_TIMEOUT_S = 10
WAIT_FLOOR_S = 2.0  # a connection is waited for at least this long


def make(store, size: int):
    """An open pool of 1..`size` connections for `store` (its first made now)."""
    from psycopg_pool import ConnectionPool
    if size < 1:
        raise StoreError(_("a pool holds at least one connection, not {size}").format(size=size))
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
            raise unreachable(reason, store.where) from None
        raise StoreError(_("cannot open connections to {where}: {problem}").format(
            where=store.where, problem=exc)) from None
    return pool


@contextmanager
def lent(store) -> Iterator[psycopg.Connection]:
    """A connection of `store`'s pool for the work inside."""
    from psycopg_pool import PoolTimeout
    try:
        held = store._pool.connection()
        db = held.__enter__()
    except PoolTimeout:
        raise StoreError(_("all {n} connections to {where} are busy: try again, or serve with a "
                           "larger --pool").format(n=store._pool.max_size,
                                                   where=store.where)) from None
    except psycopg.Error as exc:
        raise unreachable(exc, store.where) from None
    try:
        yield db
    except BaseException as exc:
        if not held.__exit__(type(exc), exc, exc.__traceback__):
            raise
    else:
        held.__exit__(None, None, None)


def shown(url: str) -> str:
    """`url` without its password (the store's name in messages and identity)."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:  # (`postgresql://[::1`: a bracket never closed)
        hidden = re.sub(r"(://[^:/@]*):[^@/]*@", r"\1@", url)
        raise StoreError(_("{url} is not a PostgreSQL URL ({problem})").format(
            url=neutral(hidden)[:200], problem=exc)) from None
    netloc = parts.netloc
    if "@" in netloc:
        user, host = netloc.rsplit("@", 1)
        netloc = f"{user.split(':', 1)[0]}@{host}"
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = parts.query if all(k != "password" for k, _value in pairs) else urlencode(
        [(k, v) for k, v in pairs if k != "password"], safe="/=")
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def wrap(exc: Exception, where: str, timeout: float, writing: bool) -> StoreError:
    """A psycopg error as one line of the table's language."""
    import psycopg
    from psycopg import errors as e
    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    if isinstance(exc, (e.LockNotAvailable, e.QueryCanceled)):
        return StoreError(_("{where} is locked by a concurrent writer; gave up after {s} s")
                          .format(where=where, s=f"{timeout:g}"))
    if isinstance(exc, e.UndefinedTable):
        return StoreError(_("{where} is not a combat-ledger database (a table is missing: "
                            "{problem})").format(where=where, problem=first))
    if isinstance(exc, e.InsufficientPrivilege):
        return StoreError(_("{where}: permission denied ({problem})").format(
            where=where, problem=first))
    if isinstance(exc, e.ReadOnlySqlTransaction):
        return StoreError(_("{where} is read-only here ({problem})").format(
            where=where, problem=first))
    if isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError)):
        if writing:
            return StoreError(_("lost the connection to {where} ({problem}) before the "
                                "declaration was confirmed: `combat log` shows whether it was "
                                "recorded").format(where=where, problem=first))
        return StoreError(_("lost the connection to {where} ({problem})").format(
            where=where, problem=first))
    return StoreError(_("{where}: {problem}").format(where=where, problem=first))


def unreachable(exc: Exception, where: str) -> StoreError:
    """A server that could not be reached at all."""
    text = str(exc)
    reason = (_("connection refused") if "refused" in text or "No such file" in text
              else (text.strip().splitlines() or [_("unknown error")])[-1].strip())
    if "does not exist" in text and "database" in text:
        reason = _("no such database")
    elif "authentication" in text or "password" in text:
        reason = _("authentication failed")
    return StoreError(_("cannot reach the PostgreSQL server of {where}: {reason}").format(
        where=where, reason=reason))
