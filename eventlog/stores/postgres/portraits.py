"""The PostgreSQL store's portraits: image bytes kept under their SHA-256,
a mixin of the store (`_query`, `_write`). Their table is schema step 9."""
from __future__ import annotations

from hashlib import sha256
from typing import TYPE_CHECKING

from eventlog.stores.records import Portrait

if TYPE_CHECKING:
    from eventlog.stores.hosts import PgHost as _Host
else:
    _Host = object


class PortraitsMixin(_Host):
    def portrait(self, digest: str) -> Portrait | None:
        rows = self._query("SELECT digest, media, data FROM portraits WHERE digest = %s",
                           (digest,))
        return Portrait(rows[0][0], rows[0][1], bytes(rows[0][2])) if rows else None

    def portraits(self) -> list[str]:
        return [r[0] for r in self._query(
            'SELECT digest FROM portraits ORDER BY digest COLLATE "C"')]

    def add_portrait(self, media: str, data: bytes) -> str:
        digest = sha256(data).hexdigest()
        self._write(lambda db: db.execute(
            "INSERT INTO portraits VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
            (digest, media, data)))
        return digest
