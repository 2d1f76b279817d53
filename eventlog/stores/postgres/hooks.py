"""The PostgreSQL store's webhooks of the table server (a mixin of
PostgresStore: `_query`, `_write`): the hooks, per hook and encounter the
last seq delivered (schema step 4, schema.MIGRATIONS), and the claim of
the one process that delivers them: an advisory lock held on a connection
of its own, freed by the server when that process dies, so another server
takes over from the marks."""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import psycopg

from eventlog.stores.shared import hook_taken
from eventlog.stores.contract import Hook
from eventlog.stores.postgres.connection import CONNECT_TIMEOUT_S

if TYPE_CHECKING:
    from eventlog.stores.hosts import PgHost as _Host
else:
    _Host = object

_HOOK = "id, url, discord, secret, created_at"
_HOOKS = (f"SELECT {_HOOK}, EXISTS (SELECT 1 FROM hook_private p WHERE p.hook = hooks.id) "
          "FROM hooks ORDER BY id")
_CLAIM = "SELECT pg_try_advisory_lock(hashtext(current_schema() || ':combat-hooks'))"
_RELEASE = "SELECT pg_advisory_unlock(hashtext(current_schema() || ':combat-hooks'))"


class HooksMixin(_Host):
    def hooks(self) -> list[Hook]:
        return [Hook(*r) for r in self._query(_HOOKS)]

    def add_hook(self, hook: Hook) -> None:
        def work(db):
            done = db.execute(f"INSERT INTO hooks ({_HOOK}) VALUES (%s, %s, %s, %s, %s) "
                              "ON CONFLICT DO NOTHING", tuple(hook)[:5])
            if done.rowcount != 1:
                raise hook_taken(hook.id)
            if hook.allow_private:
                db.execute("INSERT INTO hook_private VALUES (%s)", (hook.id,))
        self._write(work)

    def remove_hook(self, hook_id: str) -> bool:
        def work(db):
            db.execute("DELETE FROM hook_marks WHERE hook = %s", (hook_id,))
            db.execute("DELETE FROM hook_private WHERE hook = %s", (hook_id,))
            return db.execute("DELETE FROM hooks WHERE id = %s", (hook_id,)).rowcount > 0
        return self._write(work)

    def hook_marks(self, hook_id: str) -> dict[str, int]:
        return dict(self._query("SELECT encounter, seq FROM hook_marks WHERE hook = %s",
                                (hook_id,)))

    def mark_hook(self, hook_id: str, encounter: str, seq: int) -> None:
        self._write(lambda db: db.execute(
            "INSERT INTO hook_marks VALUES (%s, %s, %s) ON CONFLICT (hook, encounter) "
            "DO UPDATE SET seq = greatest(hook_marks.seq, excluded.seq)",
            (hook_id, encounter, seq)))

    def claim_hooks(self) -> bool:
        guard = self.__dict__.setdefault("_claim_guard", threading.Lock())
        with guard:
            db = self.__dict__.get("_claim")
            try:
                if db is not None and not db.closed and not db.broken:
                    db.execute("SELECT 1")  # (still there: the lock is still held)
                    return True
                if db is not None:
                    db.close()
                self._claim = None
                db = psycopg.connect(self.url, autocommit=True,
                                     connect_timeout=CONNECT_TIMEOUT_S,
                                     application_name="combat-ledger-hooks")
                if (db.execute(_CLAIM).fetchone() or (False,))[0]:
                    self._claim = db
                    return True
                db.close()
                return False
            except psycopg.Error:
                if db is not None:
                    db.close()
                self._claim = None
                return False

    def release_hooks(self) -> None:
        db = self.__dict__.pop("_claim", None)
        if db is not None:
            try:  # at once: a closed connection's lock is freed when its backend ends
                db.execute(_RELEASE)
            except psycopg.Error:
                pass  # (a lost connection: its lock went with it)
            db.close()
