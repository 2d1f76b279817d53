"""The event stores: one contract (contract.py), several implementations."""
from __future__ import annotations

import os

URL_SCHEMES = ("postgresql://", "postgres://")


def is_url(target: str | os.PathLike) -> bool:
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


def open_store(target: str | os.PathLike):
    """The store `target` names: a PostgreSQL URL, else a SQLite file path.
    Each store's library is imported only when that kind is used."""
    if is_url(target):
        from eventlog.stores.postgres import PostgresStore
        return PostgresStore(str(target))
    from eventlog.stores.sqlite import Store
    return Store(target)
