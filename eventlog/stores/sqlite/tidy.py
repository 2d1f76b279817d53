"""The SQLite store's part for keeping the list tidy (the docs: archive,
rename, delete), a mixin of the store, which keeps the connection,
`head`, `_query` and `_write`. Archive marks are rows of `archived` (schema
step 7); a store read without that migration (a read-only file) keeps them
in `meta` still, as `archived:ID`, and is read there."""
from __future__ import annotations

from typing import TYPE_CHECKING

from eventlog.stores.shared import DELETED_WITH_AN_ENCOUNTER

if TYPE_CHECKING:
    from eventlog.stores.hosts import SqliteHost as _Host
else:
    _Host = object

_OLD_MARK = "archived:"  # (the key prefix of a mark in `meta`, before schema 7)


class TidyMixin(_Host):
    def archived(self) -> set[str]:
        if not self._has("archived"):
            return {r[0][len(_OLD_MARK):] for r in self._query(
                "SELECT key FROM meta WHERE key LIKE 'archived:%'")}
        return {r[0] for r in self._query("SELECT encounter FROM archived")}

    def is_archived(self, encounter: str) -> bool:
        if not self._has("archived"):
            return bool(self._query("SELECT 1 FROM meta WHERE key = ?",
                                    (_OLD_MARK + encounter,)))
        return bool(self._query("SELECT 1 FROM archived WHERE encounter = ?", (encounter,)))

    def set_archived(self, encounter: str, archived: bool) -> None:
        self.head(encounter)  # an unknown encounter is refused
        sql = ("INSERT OR IGNORE INTO archived VALUES (?)" if archived
               else "DELETE FROM archived WHERE encounter = ?")
        self._write(lambda: self.db.execute(sql, (encounter,)))

    def retitle(self, encounter: str, title: str) -> None:
        self.head(encounter)
        self._write(lambda: self.db.execute(
            "UPDATE encounters SET title = ? WHERE id = ?", (title, encounter)))

    def delete(self, encounter: str) -> None:
        self.head(encounter)

        def work():
            for table, column in DELETED_WITH_AN_ENCOUNTER:
                self.db.execute(f"DELETE FROM {table} WHERE {column} = ?", (encounter,))
        self._write(work)
