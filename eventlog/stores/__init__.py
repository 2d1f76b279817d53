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


# Write transactions committed in this process, by any store: once one is,
# a command succeeds whatever happens to its output (cli/base.py).
_commits = 0


def count_commit() -> None:
    global _commits
    _commits += 1


def commits() -> int:
    return _commits
