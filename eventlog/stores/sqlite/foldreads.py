"""The SQLite store's reads for the fold (projections/history.py), a mixin of
the store, which keeps the connection, `_query` and `_wrap`: the events a
fold steps through, in as few columns as it needs (each column of each row
costs a tenth of a fold's read), and the markers it reads first."""
from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from eventlog.stores.records import StoredEvent
from eventlog.stores.shared import not_text
from eventlog.stores.sqlite.imports import ROW as _ROW

if TYPE_CHECKING:
    from eventlog.stores.hosts import SqliteHost as _Host
else:
    _Host = object


class FoldReadsMixin(_Host):
    def fold_rows(self, encounter: str, after: int = 0, upto: int | None = None,
                  skip: Sequence[str] = ()) -> sqlite3.Cursor:
        """(seq, batch, type, data) of the events after seq `after`, in seq
        order, less the types in `skip` (events that change nothing in a
        fold), streamed."""
        return self._fold_query("seq, batch, type, data", encounter, after, upto, skip)

    def fold_data(self, encounter: str, after: int = 0, upto: int | None = None,
                  skip: Sequence[str] = ()) -> sqlite3.Cursor:
        """(type, data) of the same: SQLite hands over half the columns."""
        return self._fold_query("type, data", encounter, after, upto, skip)

    def fold_batched(self, encounter: str, after: int = 0, upto: int | None = None,
                     skip: Sequence[str] = ()) -> sqlite3.Cursor:
        """(batch, type, data) of the same: a column fewer than fold_rows
        (each costs a tenth of a fold's read)."""
        return self._fold_query("batch, type, data", encounter, after, upto, skip)

    def types_at(self, encounter: str, seqs: Iterable[int]) -> dict[int, str]:
        wanted = list(seqs)
        found: dict[int, str] = {}
        for i in range(0, len(wanted), 500):  # (a statement takes at most 32766 parameters)
            some = wanted[i:i + 500]
            found.update(self._query(f"SELECT seq, type FROM events WHERE encounter = ? "
                                     f"AND seq IN ({', '.join('?' * len(some))})",
                                     [encounter, *some]))
        return found

    def _fold_query(self, columns: str, encounter: str, after: int, upto: int | None,
                    skip: Sequence[str]) -> sqlite3.Cursor:
        sql = f"SELECT {columns} FROM events WHERE encounter = ? AND seq > ?"
        args: list = [encounter, after]
        if skip:
            sql += f" AND type NOT IN ({', '.join('?' * len(skip))})"
            args.extend(skip)
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        try:
            return self.db.execute(sql + " ORDER BY seq", args)
        except sqlite3.DatabaseError as exc:
            raise self._wrap(exc) from None
        except UnicodeEncodeError as exc:
            raise not_text(exc) from None

    def markers(self, encounter: str, upto: int | None = None,
                after: int = 0) -> list[StoredEvent]:
        """The Undone, Redone and Amended events after `after`, in seq order:
        what a fold must know about earlier batches before it starts."""
        return [StoredEvent._make(r) for r in self._markers(_ROW, encounter, upto, after)]

    def fold_markers(self, encounter: str, upto: int | None = None,
                     after: int = 0) -> list[tuple[int, str, bytes]]:
        """(seq, type, data) of the same: what the fold's corrections read
        (each marker's row is a look-up: a third of its columns, a third
        less time at 1M events)."""
        return self._markers("seq, type, data", encounter, upto, after)

    def _markers(self, columns: str, encounter: str, upto: int | None, after: int) -> list:
        # (Without the hint SQLite walks the whole log in seq order to spare
        # itself a sort of the few markers: 344 ms instead of 64 at 1M events.)
        hint = "INDEXED BY events_by_type" if self.indexed else ""  # (a dropped index: slower)
        sql = (f"SELECT {columns} FROM events {hint} WHERE encounter = ? "
               "AND type IN ('Undone', 'Redone', 'Amended') AND seq > ?")
        args: list = [encounter, after]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        return self._query(sql + " ORDER BY seq", args)
