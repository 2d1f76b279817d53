"""The SQLite store's snapshots (a fold's state saved at a seq, so a
command reads from there), a mixin of the store."""
from __future__ import annotations

from typing import TYPE_CHECKING

from eventlog.stores.records import Snapshot, SnapshotMaker

if TYPE_CHECKING:
    from eventlog.stores.hosts import SqliteHost as _Host
else:
    _Host = object


class SnapshotsMixin(_Host):
    def snapshot(self, encounter: str, version: str) -> Snapshot | None:
        """The encounter's snapshot if it was taken by this fold version and
        the event at its seq still has the hash it recorded."""
        row = self._query(
            "SELECT s.seq, s.hash, s.state FROM snapshots s JOIN events e "
            "ON e.encounter = s.encounter AND e.seq = s.seq AND e.hash = s.hash "
            "WHERE s.encounter = ? AND s.version = ?", (encounter, version))
        return Snapshot._make(row[0]) if row else None

    def save_snapshot(self, encounter: str, seq: int, version: str,
                      maker: SnapshotMaker) -> None:
        self._write(lambda: self._put_snapshot(encounter, seq, version, maker))

    def _put_snapshot(self, encounter, seq, version, maker: SnapshotMaker) -> None:
        row = self.db.execute("SELECT hash FROM events WHERE encounter = ? AND seq = ?",
                              (encounter, seq)).fetchone()
        if row:
            self.db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?)",
                            (encounter, seq, row[0], version, maker(seq, row[0])))

    def drop_snapshot(self, encounter: str) -> None:
        self._write(lambda: self.db.execute(
            "DELETE FROM snapshots WHERE encounter = ?", (encounter,)))

