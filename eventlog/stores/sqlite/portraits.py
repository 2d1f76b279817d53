"""The SQLite store's portraits: image bytes kept under their SHA-256, a
mixin of the store (its connection, `_query` and `_write`). Their table is
schema step 5 (schema.MIGRATIONS)."""
from __future__ import annotations

from hashlib import sha256
from typing import TYPE_CHECKING

from eventlog.stores.records import Portrait

if TYPE_CHECKING:
    from eventlog.stores.hosts import SqliteHost as _Host
else:
    _Host = object


class PortraitsMixin(_Host):
    """Portraits, on top of the store's connection."""

    def portrait(self, digest: str) -> Portrait | None:
        if not self._has("portraits"):
            return None
        rows = self._query("SELECT digest, media, data FROM portraits WHERE digest = ?",
                           (digest,))
        return Portrait(rows[0][0], rows[0][1], bytes(rows[0][2])) if rows else None

    def portraits(self) -> list[str]:
        if not self._has("portraits"):
            return []
        return [r[0] for r in self._query("SELECT digest FROM portraits ORDER BY digest")]

    def add_portrait(self, media: str, data: bytes) -> str:
        digest = sha256(data).hexdigest()
        self._write(lambda: self.db.execute(
            "INSERT OR IGNORE INTO portraits (digest, media, data) VALUES (?, ?, ?)",
            (digest, media, data)))
        return digest
