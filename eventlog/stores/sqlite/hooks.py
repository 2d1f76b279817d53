"""The SQLite store's webhooks of the table server (a mixin of the store:
its connection, `_query` and `_write`): the hooks, and per hook and
encounter the last seq delivered. Schema step 3 (schema.MIGRATIONS)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from eventlog.stores.shared import hook_taken
from eventlog.stores.records import Hook

if TYPE_CHECKING:
    from eventlog.stores.hosts import SqliteHost as _Host
else:
    _Host = object

_HOOK = "id, url, discord, secret, created_at"


class HooksMixin(_Host):
    def hooks(self) -> list[Hook]:
        if not self._has("hooks"):
            return []
        private = ("EXISTS (SELECT 1 FROM hook_private p WHERE p.hook = hooks.id)"
                   if self._has("hook_private") else "0")  # (before schema 4)
        return [Hook(i, u, bool(d), s, c, bool(p)) for i, u, d, s, c, p in self._query(
            f"SELECT {_HOOK}, {private} FROM hooks ORDER BY id")]

    def add_hook(self, hook: Hook) -> None:
        def work():
            if self.db.execute("SELECT 1 FROM hooks WHERE id = ? OR url = ?",
                               (hook.id, hook.url)).fetchone():
                raise hook_taken(hook.id)
            self.db.execute(f"INSERT INTO hooks ({_HOOK}) VALUES (?, ?, ?, ?, ?)",
                            (hook.id, hook.url, int(hook.discord), hook.secret, hook.created_at))
            if hook.allow_private:
                self.db.execute("INSERT INTO hook_private VALUES (?)", (hook.id,))
        self._write(work)

    def remove_hook(self, hook_id: str) -> bool:
        if not self._has("hooks"):
            return False

        def work():
            self.db.execute("DELETE FROM hook_marks WHERE hook = ?", (hook_id,))
            self.db.execute("DELETE FROM hook_private WHERE hook = ?", (hook_id,))
            return self.db.execute("DELETE FROM hooks WHERE id = ?", (hook_id,)).rowcount > 0
        return self._write(work)

    def hook_marks(self, hook_id: str) -> dict[str, int]:
        if not self._has("hooks"):
            return {}
        return dict(self._query("SELECT encounter, seq FROM hook_marks WHERE hook = ?",
                                (hook_id,)))

    def mark_hook(self, hook_id: str, encounter: str, seq: int) -> None:
        self._write(lambda: self.db.execute(
            "INSERT INTO hook_marks VALUES (?, ?, ?) ON CONFLICT (hook, encounter) "
            "DO UPDATE SET seq = max(seq, excluded.seq)", (hook_id, encounter, seq)))

    def claim_hooks(self) -> bool:
        return True  # (one server per SQLite store: several need PostgreSQL)
