"""What the stores' mixins use of the store they are mixed into, for the type
checker only: each mixin module imports its host under TYPE_CHECKING and
derives from `object` at run time, so nothing here runs or shadows the
store's own methods. SqliteHost: what sqlite/store.py's Store gives the
mixins beside it (changes, foldreads, hooks, imports, snapshots, tidy, tokens);
PgHost: the same of postgres/store.py's PostgresStore."""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol, TypeVar

import psycopg

from eventlog.errors import StoreError

T = TypeVar("T")


class SqliteHost(Protocol):
    db: sqlite3.Connection
    path: Path
    timeout: float
    indexed: bool  # the events_by_type index is there
    _deciding: bool  # inside `deciding()` (seats.py)

    def _has(self, table: str) -> bool: ...
    def _immediate(self) -> AbstractContextManager[None]: ...
    def _query(self, sql: str, args: Sequence[Any] = ()) -> list[Any]: ...
    def _write(self, work: Callable[[], T], count: bool = True) -> T: ...
    def _wrap(self, exc: Exception) -> StoreError: ...
    def head(self, encounter: str) -> tuple[int, str]: ...


class PgHost(Protocol):
    url: str
    channel: str
    timeout: float
    _guard: threading.Lock
    _listener: psycopg.Connection[Any] | None = None  # (a value: the mixin assigns it)
    notify: bool
    _horizon: str | None
    _marks: dict[str, str]
    _heads: dict[str, tuple[int, str]]
    _local: threading.local

    def _held(self) -> AbstractContextManager[psycopg.Connection[Any]]: ...
    def _query(self, sql: str, args: Sequence[Any] = (), binary: bool = False) -> list[Any]: ...
    def _write(self, work: Callable[[psycopg.Connection[Any]], T]) -> T: ...
    def _wrap(self, exc: Exception, writing: bool = False) -> StoreError: ...
    def _tokens_changed(self, db: psycopg.Connection[Any]) -> None: ...
    def head(self, encounter: str) -> tuple[int, str]: ...
