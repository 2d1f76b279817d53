"""The SQLite store's import: a whole log stored verbatim as a new
encounter, all or nothing, streamed through a staging table (a mixin of
the store, which keeps the connection, `_write` and `_wrap`)."""
from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import TYPE_CHECKING, TypeVar

from eventlog.codec import GENESIS, Envelope, encode_data, utc_now
from eventlog.stores.shared import EVENT_VERSION, encounter_taken, moved, import_mark, read_mark

if TYPE_CHECKING:
    from eventlog.stores.hosts import SqliteHost as _Host
else:
    _Host = object

IMPORT_CHUNK = 1000  # events staged per statement
ROW = "seq, batch, type, at, actor, data, prev_hash, hash"  # a StoredEvent's columns
T = TypeVar("T")


class ImportMixin(_Host):
    def import_log(self, encounter: str, title: str, envelopes: Iterable[Envelope],
                   then: Callable[[Iterator[tuple]], T], imported: bool | int = True) -> T:
        """Store `envelopes` verbatim as the log of the new encounter, all or
        nothing, streamed, marked as imported up to `imported` (the
        contract). They are staged a chunk at a
        time in a temporary table (a file of SQLite's own), so `envelopes` may
        be checked as they are read and `then(rows)` reads the staged (seq,
        batch, type, data) rows back in seq order to judge them, without
        holding the write lock; the log is then copied in one short write
        transaction. An error raised by either stores nothing. Returns what
        `then` returns."""
        db = self.db
        try:
            self._refuse_existing(encounter)
            db.execute("CREATE TEMP TABLE staged (seq INTEGER PRIMARY KEY, batch INTEGER, "
                       "type TEXT, at TEXT, actor TEXT, data BLOB, prev_hash TEXT, hash TEXT)")
            try:
                events = iter(envelopes)
                while chunk := list(islice(events, IMPORT_CHUNK)):
                    db.executemany(
                        "INSERT INTO temp.staged VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        [(e.seq, e.batch, e.type, e.at, e.actor, encode_data(e.data),
                          e.prev_hash, e.hash) for e in chunk])
                rows = db.execute("SELECT seq, batch, type, data FROM temp.staged ORDER BY seq")
                try:
                    result = then(rows)
                finally:
                    rows.close()  # (a table being read cannot be dropped)
                self._write(lambda: self._copy_staged(encounter, title, imported))
                return result
            finally:
                db.execute("DROP TABLE temp.staged")
        except sqlite3.DatabaseError as exc:
            raise self._wrap(exc) from None

    def _refuse_existing(self, encounter: str) -> None:
        if self.db.execute("SELECT 1 FROM encounters WHERE id = ?", (encounter,)).fetchone():
            raise encounter_taken(encounter)

    def _copy_staged(self, encounter: str, title: str, imported: bool | int) -> None:
        self._refuse_existing(encounter)  # (again: another writer may have made it)
        head = self.db.execute(
            "SELECT seq, hash FROM temp.staged ORDER BY seq DESC LIMIT 1").fetchone()
        self.db.execute("INSERT INTO encounters VALUES (?, ?, ?, ?, ?)",
                        (encounter, title, utc_now(), *(head or (0, GENESIS))))
        self.db.execute(f"INSERT INTO events SELECT ?, {ROW}, ? FROM temp.staged ORDER BY seq",
                        (encounter, EVENT_VERSION))
        upto = import_mark(imported, head[0] if head else 0)
        if upto > 0:
            self.db.execute("INSERT OR REPLACE INTO imported VALUES (?, ?)", (encounter, upto))

    def imported(self, encounter: str) -> int:
        """The seq up to which the encounter's log came from a file (0: none)."""
        if self._has("archived"):
            row = self._query("SELECT upto FROM imported WHERE encounter = ?", (encounter,))
        else:  # (a store read without schema step 7: its marks are in `meta`)
            row = self._query("SELECT value FROM meta WHERE key = ?", (f"imported:{encounter}",))
        return read_mark(row[0][0] if row else None)

    def extend_log(self, encounter: str, head: tuple[int, str],
                   envelopes: Iterable[Envelope]) -> None:
        """Append `envelopes` verbatim after `head`, the encounter's (seq,
        hash), all or nothing: a copy brought up to date (`copy --to`);
        Conflict if another writer moved the head meanwhile."""
        def work():
            row = self._head_as_judged(encounter, head[0])
            if tuple(row) != tuple(head):
                raise moved(encounter)
            events = iter(envelopes)
            while chunk := list(islice(events, IMPORT_CHUNK)):
                self._insert_envelopes(encounter, chunk)
        self._write(work)
