"""The SQLite store's change hint (`wait_changes`), a mixin of the store.

A change made by any connection to the file, in this process or another,
moves `PRAGMA data_version` as seen from every *other* connection; the hint
asks it on a connection of its own, so the server's own appends and a CLI
process's alike wake it within one poll.
"""
from __future__ import annotations

import sqlite3
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from eventlog.stores.hosts import SqliteHost as _Host
else:
    _Host = object

POLL_S = 0.015  # how often wait_changes asks whether the file changed


class ChangesMixin(_Host):
    def wait_changes(self, timeout: float) -> None:
        """Return when the file changed since this handle last asked (at
        once if it did meanwhile), or after `timeout` seconds."""
        import threading  # here: only the table server watches (~2 ms of every command)
        lock = self.__dict__.setdefault("_watch_lock", threading.Lock())
        with lock:
            watch = self.__dict__.get("_watch")
            if watch is None:
                watch = sqlite3.connect(self.path, timeout=self.timeout,
                                        isolation_level=None, check_same_thread=False)
                self._watch = watch
                self._seen = watch.execute("PRAGMA data_version").fetchall()[0][0]
            deadline = time.monotonic() + timeout
            while True:
                try:
                    now = watch.execute("PRAGMA data_version").fetchall()[0][0]
                except sqlite3.DatabaseError:
                    now = self._seen  # (locked for a moment: ask again)
                if now != self._seen:
                    self._seen = now
                    return
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                time.sleep(min(POLL_S, left))

    def close_watch(self) -> None:
        watch = self.__dict__.pop("_watch", None)
        if watch is not None:
            watch.close()
