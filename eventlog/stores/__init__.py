"""The event stores: one contract in two parts (contract.py: the event log,
log.py, and the table's records, tablerecords.py), several implementations."""
from __future__ import annotations

import os

from eventlog.stores.shared import (  # noqa: F401  (the stores' shared names, for their users)
    BUSY_TIMEOUT_S,
    EVENT_VERSION,
    busy_timeout,
    commits,
    conflict,
    count_commit,
    judged_head,
    not_text,
)

URL_SCHEMES = ("postgresql://", "postgres://")


def is_url(target: str | os.PathLike) -> bool:
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


def shown(target: str | os.PathLike) -> str:
    """How a store is named to the user: a URL without its password."""
    if is_url(target):
        from eventlog.stores.postgres.connection import shown as without_password
        return without_password(str(target))
    return str(target)


def open_store(target: str | os.PathLike[str], pool: int | None = None):
    """The store `target` names: a PostgreSQL URL, else a SQLite file path.
    Each store's library is imported only when that kind is used. `pool`: a
    PostgreSQL store shared by every thread, on a pool of at most that many
    connections (the table server); SQLite keeps a handle per thread."""
    if is_url(target):
        from eventlog.stores.postgres import PostgresStore
        return PostgresStore(str(target), pool=pool)
    from eventlog.stores.sqlite import Store
    return Store(target)
