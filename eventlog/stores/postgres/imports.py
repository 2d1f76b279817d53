"""The PostgreSQL store's import (staged in a temporary table, judged, then
copied in one short write transaction) and `extend_log` (`copy --to`
bringing a copy up to date). A mixin of the store: its connection, `_query`
and `_write`.
"""
from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, TypeVar
from collections.abc import Callable, Iterable, Iterator

import psycopg

from eventlog.codec import GENESIS, Envelope, encode_data, utc_now
from eventlog.stores.postgres.statements import MARK
from eventlog.stores.postgres.statements import ROW as _ROW
from eventlog.stores.shared import EVENT_VERSION, encounter_taken, moved, import_mark, not_text

if TYPE_CHECKING:
    from eventlog.stores.hosts import PgHost as _Host
else:
    _Host = object

T = TypeVar("T")
PAGE = 10_000
IMPORT_CHUNK = 1000


class ImportMixin(_Host):
    # -- archive, titles, deletion ------------------------------------------

    # -- tokens of the table server ----------------------------------------

    def import_log(self, encounter: str, title: str, envelopes: Iterable[Envelope],
                   then: Callable[[Iterator[tuple]], T], imported: bool | int = True) -> T:
        """Store `envelopes` verbatim as a new encounter, all or nothing: they
        are staged in a temporary table of this session, judged by `then`
        from there, and copied into the log in one short write transaction,
        marked as imported up to `imported` (the contract)."""
        with self._held() as db:
            return self._import(db, encounter, title, envelopes, then, imported)

    def imported(self, encounter: str) -> int:
        row = self._query("SELECT upto FROM imported WHERE encounter = %s", (encounter,))
        return row[0][0] if row else 0

    def _import(self, db, encounter: str, title: str, envelopes: Iterable[Envelope],
                then: Callable[[Iterator[tuple]], T], imported: bool | int) -> T:
        try:
            if self._query("SELECT 1 FROM encounters WHERE id = %s", (encounter,)):
                raise encounter_taken(encounter)
            db.execute("CREATE TEMP TABLE IF NOT EXISTS combat_staged (seq bigint PRIMARY KEY, "
                       "batch bigint, type text, at text, actor text, data bytea, "
                       "prev_hash text, hash text)")
            db.execute("TRUNCATE combat_staged")
            try:
                events = iter(envelopes)
                while chunk := list(islice(events, IMPORT_CHUNK)):
                    with db.cursor().copy(f"COPY combat_staged ({_ROW}) FROM STDIN") as copy:
                        for e in chunk:
                            copy.write_row((e.seq, e.batch, e.type, e.at, e.actor,
                                            encode_data(e.data), e.prev_hash, e.hash))
                result = then(self._staged())
                self._write(lambda db: self._copy_staged(db, encounter, title, imported))
                return result
            finally:
                if not db.broken:
                    db.execute("TRUNCATE combat_staged")
        except psycopg.Error as exc:
            raise self._wrap(exc, writing=True) from None
        except UnicodeEncodeError as exc:
            raise not_text(exc) from None

    def _staged(self) -> Iterator[tuple]:
        after = 0
        while True:
            page = self._query("SELECT seq, batch, type, data FROM combat_staged WHERE seq > %s "
                               "ORDER BY seq LIMIT %s", (after, PAGE), binary=True)
            yield from page
            if len(page) < PAGE:
                return
            after = page[-1][0]

    def _copy_staged(self, db, encounter: str, title: str, imported: bool | int) -> None:
        head = db.execute("SELECT seq, hash FROM combat_staged ORDER BY seq DESC LIMIT 1"
                          ).fetchone() or (0, GENESIS)
        done = db.execute("INSERT INTO encounters VALUES (%s, %s, %s, %s, %s) "
                          "ON CONFLICT DO NOTHING", (encounter, title, utc_now(), *head))
        if done.rowcount != 1:  # another writer made it meanwhile
            raise encounter_taken(encounter)
        db.execute(f"INSERT INTO events SELECT %s, {_ROW}, %s FROM combat_staged ORDER BY seq",
                   (encounter, EVENT_VERSION))
        upto = import_mark(imported, head[0])
        if upto > 0:
            db.execute("INSERT INTO imported VALUES (%s, %s)", (encounter, upto))
        db.execute(MARK, (encounter, encounter, head[0]))
        if self.notify:
            db.execute("SELECT pg_notify(%s, %s)", (self.channel, f"{encounter}:{head[0]}"))

    def extend_log(self, encounter: str, head: tuple[int, str],
                   envelopes: Iterable[Envelope]) -> None:
        """Append `envelopes` verbatim after `head`, the encounter's (seq,
        hash), all or nothing (`copy --to` bringing a copy up to date)."""
        def work(db):
            row = self._head_as_judged(db, encounter, head[0])
            if tuple(row) != tuple(head):
                raise moved(encounter)
            last = None
            events = iter(envelopes)
            while chunk := list(islice(events, IMPORT_CHUNK)):
                db.cursor().executemany(
                    f"INSERT INTO events ({_ROW}, encounter, version) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    [(e.seq, e.batch, e.type, e.at, e.actor, encode_data(e.data),
                      e.prev_hash, e.hash, encounter, EVENT_VERSION) for e in chunk])
                last = chunk[-1]
            if last is not None:
                db.execute("UPDATE encounters SET head_seq = %s, head_hash = %s WHERE id = %s",
                           (last.seq, last.hash, encounter))
                db.execute(MARK, (encounter, encounter, last.seq))
                if self.notify:
                    db.execute("SELECT pg_notify(%s, %s)",
                               (self.channel, f"{encounter}:{last.seq}"))
        try:
            self._write(work)
        except UnicodeEncodeError as exc:
            raise not_text(exc) from None
