"""Shared test helpers that are not fixtures: the stores every contract and
store-independent test runs against."""
from __future__ import annotations

from pathlib import Path

STORES = ["sqlite", "memory"]


def make_store(kind: str, folder: Path):
    """A fresh, empty store of `kind` (the file lives in `folder`)."""
    if kind == "sqlite":
        from eventlog.stores.sqlite import Store
        return Store(folder / f"contract-{len(list(folder.glob('contract-*')))}.db")
    from eventlog.stores.memory import MemoryStore
    return MemoryStore()


def another_handle(store):
    """The same store as another program would reach it (its own connection)."""
    path = getattr(store, "path", None)
    if path is None:
        return store  # one process: the store is the handle
    from eventlog.stores.sqlite import Store
    return Store(path)
