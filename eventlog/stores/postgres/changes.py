"""The PostgreSQL store's change hint (LISTEN on its channel, `combat_ledger_` and the store id) and its
probe, a mixin of the store (its connection, `_guard`, `_held`, `_wrap`)."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING

import psycopg

from eventlog.stores.postgres.connection import CONNECT_TIMEOUT_S

if TYPE_CHECKING:
    from eventlog.stores.hosts import PgHost as _Host
else:
    _Host = object


class ChangesMixin(_Host):
    def wait_changes(self, timeout: float) -> set[str] | None:
        """LISTEN on the store's channel (one connection of its own, outside any
        pool); back after a notification or `timeout` with the encounters
        notified (payload `encounter:seq`). None when they are unknown: the
        listener was (re)connected, so what was sent meanwhile is lost, or
        the server is lost; the caller re-reads every encounter's head from
        the last seq it saw. A lost notification only costs a later look."""
        started = time.monotonic()
        try:
            with self._guard:
                fresh = self._listener is None or self._listener.closed or self._listener.broken
                if fresh:
                    self._listener = psycopg.connect(
                        self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                        application_name="combat-ledger-listen")
                    self._listener.execute(f"LISTEN {self.channel}")
                listener = self._listener
            if fresh or listener is None:
                return None
            said = [n.payload for n in listener.notifies(timeout=timeout, stop_after=1)]
            said += [n.payload for n in listener.notifies(timeout=0)]  # the rest of a burst
            return {p.rpartition(":")[0] for p in said}
        except psycopg.Error:
            with self._guard:
                if self._listener is not None:
                    self._listener.close()
                self._listener = None
            time.sleep(max(0.0, timeout - (time.monotonic() - started)))
            return None

    def probe(self) -> None:
        """A write transaction that locks nothing another waits on (SKIP
        LOCKED) and is rolled back: a standby, a read-only role or a lost
        server fails it."""
        try:
            with self._held() as db, db.transaction(force_rollback=True):
                db.execute("SELECT 1 FROM encounters LIMIT 1 FOR UPDATE SKIP LOCKED")
        except psycopg.Error as exc:
            raise self._wrap(exc, writing=True) from None

