"""The PostgreSQL store's part for keeping the list tidy (archive, rename,
delete), a mixin of the store (`head`, `_query`, `_write`, `_heads`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from eventlog.stores.postgres.schema import MARK
from eventlog.stores.postgres.seats import SEATS_LOCK
from eventlog.stores.shared import DELETED_WITH_AN_ENCOUNTER

if TYPE_CHECKING:
    from eventlog.stores.hosts import PgHost as _Host
else:
    _Host = object


class TidyMixin(_Host):
    def archived(self) -> set[str]:
        return {r[0] for r in self._query("SELECT encounter FROM archived")}

    def is_archived(self, encounter: str) -> bool:
        return bool(self._query("SELECT 1 FROM archived WHERE encounter = %s", (encounter,)))

    def set_archived(self, encounter: str, archived: bool) -> None:
        self.head(encounter)  # an unknown encounter is refused
        sql = ("INSERT INTO archived VALUES (%s) ON CONFLICT DO NOTHING" if archived
               else "DELETE FROM archived WHERE encounter = %s")
        def work(db):
            db.execute(SEATS_LOCK)  # (an approval under way decides before, or sees it)
            db.execute(sql, (encounter,))
            self._encounter_changed(db, encounter)  # (every server ends its streams now)
        self._write(work)

    def _encounter_changed(self, db, encounter: str) -> None:
        """Tell every server, in this transaction, that `encounter` changed
        without an append (changes.py: its mark, or a NOTIFY)."""
        if self.notify:
            db.execute("SELECT pg_notify(%s, %s)", (self.channel, f"{encounter}:0"))
        else:
            db.execute(MARK, {"e": encounter})

    def retitle(self, encounter: str, title: str) -> None:
        self.head(encounter)
        self._write(lambda db: db.execute("UPDATE encounters SET title = %s WHERE id = %s",
                                          (title, encounter)))

    def delete(self, encounter: str) -> None:
        self.head(encounter)
        def work(db):
            db.execute(SEATS_LOCK)  # (an approval under way decides before, or sees it gone)
            for table, column in DELETED_WITH_AN_ENCOUNTER:
                db.execute(f"DELETE FROM {table} WHERE {column} = %s", (encounter,))
            self._encounter_changed(db, encounter)  # (servers end its streams at once)
            self._tokens_changed(db)  # (and re-read the tokens it took along)
        self._write(work)
        self._heads.pop(encounter, None)

