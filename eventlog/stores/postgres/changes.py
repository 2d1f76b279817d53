"""The PostgreSQL store's change hint and its probe, a mixin of the store
(its connection, `_guard`, `_held`, `_wrap`).

How a server learns that another process appended: every append marks its
encounter's row of `changes` with its transaction id (statements.py), and
`wait_changes` asks, every POLL_S, for the rows marked by transactions at
or after the oldest one still running when it last asked (the `xmin` of its
snapshot then). A transaction that had not committed at one look has an id
at or after that look's `xmin`, so the next look finds it once it has:
nothing is missed, whatever order transactions commit in, and no append
takes a lock beyond its own encounter's. NOTIFY, the other way, serialises
every notifying commit of the whole cluster on one lock held through the
commit's flush (PostgreSQL's notification queue); with
COMBAT_PG_CHANGES=notify a process also NOTIFYs on each append and LISTENs
instead of asking (docs/operations.md: what each costs, measured)."""
from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

import psycopg

from eventlog.errors import StoreError
from eventlog.language import _
from eventlog.stores.postgres.connection import CONNECT_TIMEOUT_S

if TYPE_CHECKING:
    from eventlog.stores.hosts import PgHost as _Host
else:
    _Host = object

POLL_S = 0.05  # between two looks: the median wait it adds is half of it
MODES = ("poll", "notify")
# The marks since `horizon`, and the horizon for the next look: one
# statement, so one snapshot for both.
LOOK = ("SELECT pg_snapshot_xmin(pg_current_snapshot())::text, coalesce(array_agg(encounter), "
        "'{}'), coalesce(array_agg(xid::text), '{}') FROM changes WHERE xid >= %s::xid8")
HORIZON = "SELECT pg_snapshot_xmin(pg_current_snapshot())::text"


def notifying() -> bool:
    """Whether this process NOTIFYs and LISTENs (COMBAT_PG_CHANGES=notify)
    rather than asking for the marks (the default, poll)."""
    mode = os.environ.get("COMBAT_PG_CHANGES", "poll").strip().lower() or "poll"
    if mode not in MODES:
        raise StoreError(_("COMBAT_PG_CHANGES is {mode!r}: it is poll or notify").format(
            mode=mode[:20]))
    return mode == "notify"


def _one(cursor) -> tuple:
    row = cursor.fetchone()
    assert row is not None  # (an aggregate, or a bare SELECT: always one row)
    return row


class ChangesMixin(_Host):
    def wait_changes(self, timeout: float) -> set[str] | None:
        """Back after another process's append or `timeout` with the
        encounters that changed. None when they are unknown: the connection
        was (re)made, so what happened before is not known, or the server is
        lost; the caller re-reads every encounter's head from the last seq
        it saw."""
        started = time.monotonic()
        try:
            with self._guard:
                fresh = self._listener is None or self._listener.closed or self._listener.broken
                if fresh:
                    self._listener = psycopg.connect(
                        self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                        application_name="combat-ledger-changes")
                    if self.notify:
                        self._listener.execute(f"LISTEN {self.channel}")
                    else:  # what is marked now is the baseline: the caller re-reads it all
                        horizon = _one(self._listener.execute(HORIZON))[0]
                        self._horizon, encounters, xids = _one(
                            self._listener.execute(LOOK, (horizon,)))
                        self._marks = dict(zip(encounters, xids))
                listener = self._listener
            if fresh or listener is None:
                return None
            if self.notify:
                return self._notified(listener, timeout)
            return self._looked(listener, started + timeout)
        except psycopg.Error:
            with self._guard:
                if self._listener is not None:
                    self._listener.close()
                self._listener = None
            time.sleep(max(0.0, timeout - (time.monotonic() - started)))
            return None

    def _looked(self, db: psycopg.Connection, deadline: float) -> set[str]:
        """Ask until a mark not seen before turns up, or the deadline. A
        transaction still running anywhere in the database holds the horizon
        back, so a mark can come back look after look: it is told once."""
        while True:
            self._horizon, encounters, xids = _one(db.execute(LOOK, (self._horizon,)))
            marks = dict(zip(encounters, xids))
            changed = {e for e, xid in marks.items() if self._marks.get(e) != xid}
            self._marks = marks  # (a mark no longer at the horizon will not come back)
            left = deadline - time.monotonic()
            if changed or left <= 0:
                return changed
            time.sleep(min(POLL_S, left))

    def _notified(self, listener: psycopg.Connection, timeout: float) -> set[str]:
        said = [n.payload for n in listener.notifies(timeout=timeout, stop_after=1)]
        said += [n.payload for n in listener.notifies(timeout=0)]  # the rest of a burst
        return {p.rpartition(":")[0] for p in said}

    def probe(self) -> None:
        """A write transaction that locks nothing another waits on (SKIP
        LOCKED) and is rolled back: a standby, a read-only role or a lost
        server fails it."""
        try:
            with self._held() as db, db.transaction(force_rollback=True):
                db.execute("SELECT 1 FROM encounters LIMIT 1 FOR UPDATE SKIP LOCKED")
        except psycopg.Error as exc:
            raise self._wrap(exc, writing=True) from None
