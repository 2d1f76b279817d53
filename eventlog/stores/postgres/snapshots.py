"""The PostgreSQL store's snapshots (a fold's state saved at a seq, so a
command reads from there), a mixin of the store."""
from __future__ import annotations

from typing import TYPE_CHECKING

from eventlog.stores.contract import Snapshot, SnapshotMaker

if TYPE_CHECKING:
    from eventlog.stores.hosts import PgHost as _Host
else:
    _Host = object


class SnapshotsMixin(_Host):
    def snapshot(self, encounter: str, version: str) -> Snapshot | None:
        row = self._query(
            "SELECT s.seq, s.hash, s.state FROM snapshots s JOIN events e "
            "ON e.encounter = s.encounter AND e.seq = s.seq AND e.hash = s.hash "
            "WHERE s.encounter = %s AND s.version = %s", (encounter, version), binary=True)
        return Snapshot._make(row[0]) if row else None

    @staticmethod
    def _put_snapshot(db, encounter, seq, digest, version, state: bytes) -> None:
        db.execute("INSERT INTO snapshots VALUES (%s, %s, %s, %s, %s) ON CONFLICT (encounter) "
                   "DO UPDATE SET seq = excluded.seq, hash = excluded.hash, "
                   "version = excluded.version, state = excluded.state",
                   (encounter, seq, digest, version, state))

    def save_snapshot(self, encounter: str, seq: int, version: str,
                      maker: SnapshotMaker) -> None:
        def work(db):
            row = db.execute("SELECT hash FROM events WHERE encounter = %s AND seq = %s",
                             (encounter, seq)).fetchone()
            if row:
                self._put_snapshot(db, encounter, seq, row[0], version, maker(seq, row[0]))
        self._write(work)

    def drop_snapshot(self, encounter: str) -> None:
        self._write(lambda db: db.execute("DELETE FROM snapshots WHERE encounter = %s",
                                          (encounter,)))

