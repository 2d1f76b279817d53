"""One store handle per worker thread: a SQLite connection serves only the
thread that opened it, and the server's requests run on a pool of threads.
A handle lives as long as its thread (the pool retires idle threads), and
whatever is still open is closed when the server stops."""
from __future__ import annotations

import threading
import weakref
from typing import Callable

from projections.ledger import Ledger


class Handles:
    def __init__(self, open_store: Callable[[], object]):
        self._open = open_store
        self._local = threading.local()
        self._all: weakref.WeakSet = weakref.WeakSet()
        self._lock = threading.Lock()
        self.hidden: set[str] = set()  # how the store is named: never told a client

    def ledger(self) -> Ledger:
        """This thread's ledger over its own store handle."""
        ledger = getattr(self._local, "ledger", None)
        if ledger is None:
            ledger = self._local.ledger = Ledger(self._open())
            with self._lock:
                self._all.add(ledger.store)
                self.hidden |= names_of(ledger.store)
        return ledger

    def store(self):
        return self.ledger().store

    def close(self) -> None:
        with self._lock:
            stores, self._all = list(self._all), weakref.WeakSet()
        for store in stores:
            try:
                store.close()
            except Exception:  # (another thread's connection: it goes with the process)
                pass


def names_of(store) -> set[str]:
    """Every way a message may name where `store` lives (its path as given
    and resolved, its URL with and without the password, its identity)."""
    names = set()
    path = getattr(store, "path", None)
    if path is not None:
        names |= {str(path), str(path.resolve()), str(path.parent.resolve())}
    for name in ("url", "where", "identity"):
        value = getattr(store, name, None)
        if isinstance(value, str):
            names.add(value)
    return {n for n in names if len(n) > 1}
