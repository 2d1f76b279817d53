"""The SQLite store's part for keeping the list tidy (the docs: archive,
rename, delete), a mixin of the store, which keeps the connection,
`head`, `_query` and `_write`. Archive marks live in `meta` (`archived:ID`,
as import marks, `imported:ID`):
no new table, so no new schema version."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from eventlog.stores.hosts import SqliteHost as _Host
else:
    _Host = object


class TidyMixin(_Host):
    def archived(self) -> set[str]:
        return {r[0][len("archived:"):] for r in self._query(
            "SELECT key FROM meta WHERE key LIKE 'archived:%'")}

    def is_archived(self, encounter: str) -> bool:
        return bool(self._query("SELECT 1 FROM meta WHERE key = ?", (f"archived:{encounter}",)))

    def set_archived(self, encounter: str, archived: bool) -> None:
        self.head(encounter)  # an unknown encounter is refused
        sql = ("INSERT OR REPLACE INTO meta VALUES (?, '1')" if archived
               else "DELETE FROM meta WHERE key = ?")
        self._write(lambda: self.db.execute(sql, (f"archived:{encounter}",)))

    def retitle(self, encounter: str, title: str) -> None:
        self.head(encounter)
        self._write(lambda: self.db.execute(
            "UPDATE encounters SET title = ? WHERE id = ?", (title, encounter)))

    def delete(self, encounter: str) -> None:
        self.head(encounter)

        def work():
            for sql in ("DELETE FROM events WHERE encounter = ?",
                        "DELETE FROM snapshots WHERE encounter = ?",
                        "DELETE FROM hook_marks WHERE encounter = ?",
                        # (its tokens, join requests and place on the table
                        # belong to this encounter's life, not to its id)
                        "DELETE FROM tokens WHERE encounter = ?",
                        "DELETE FROM encounters WHERE id = ?"):
                self.db.execute(sql, (encounter,))
            if self._has_seats():
                self.db.execute("DELETE FROM joins WHERE encounter = ?", (encounter,))
                self.db.execute("DELETE FROM on_table WHERE encounter = ?", (encounter,))
            for mark in ("archived", "imported"):
                self.db.execute("DELETE FROM meta WHERE key = ?", (f"{mark}:{encounter}",))
        self._write(work)
