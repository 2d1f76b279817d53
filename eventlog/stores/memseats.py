"""The memory store's seats of the table server: join requests, the
encounter on the table, and `deciding()` (its one lock held, and every
record as it was put back when the decision fails). A mixin of
memory.py's store."""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any

from eventlog.stores.records import JoinRequest, TableChoice, Token
from eventlog.stores.shared import join_taken


class SeatsMixin:
    _lock: threading.RLock
    _logs: dict[str, Any]  # (memory.py's logs: their events)
    _tokens: dict[str, Token]
    _joins: dict[str, JoinRequest]
    _table: TableChoice | None

    def _wrote(self) -> None: ...

    @contextmanager
    def deciding(self):
        with self._lock:
            kept = (dict(self._tokens), dict(self._joins), self._table)
            try:
                yield
            except BaseException:
                self._tokens, self._joins, self._table = kept
                raise

    def life(self, encounter: str) -> str | None:
        with self._lock:
            log = self._logs.get(encounter)
            return log.events[0].hash if log is not None and log.events else None

    def joins(self) -> list[JoinRequest]:
        with self._lock:
            return sorted(self._joins.values())

    def join(self, digest: str) -> JoinRequest | None:
        with self._lock:
            return next((j for j in self._joins.values() if j.digest == digest), None)

    def add_join(self, join: JoinRequest) -> None:
        with self._lock:
            if join.name in self._joins:
                raise join_taken(join.name)
            self._joins[join.name] = join
        self._wrote()

    def answer_join(self, name: str, state: str, said: str = "") -> bool:
        with self._lock:
            found = self._joins.get(name)
            if found is not None:
                self._joins[name] = found._replace(state=state, said=said)
        self._wrote()
        return found is not None

    def drop_join(self, name: str) -> bool:
        with self._lock:
            found = self._joins.pop(name, None) is not None
        self._wrote()
        return found

    def table_choice(self) -> TableChoice | None:
        with self._lock:
            return self._table

    def choose_table(self, choice: TableChoice | None) -> None:
        with self._lock:
            self._table = choice
        self._wrote()
