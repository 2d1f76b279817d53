"""The SQLite store's tokens of the table server (only their SHA-256
digests), a mixin of the store (its connection, `_query` and `_write`).
Their table is schema step 2 (schema.MIGRATIONS)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from eventlog.stores.records import Token
from eventlog.stores.shared import token_taken

if TYPE_CHECKING:
    from eventlog.stores.hosts import SqliteHost as _Host
else:
    _Host = object

_TOKEN = "name, role, owns, encounter, digest, created_at"


def _token(row) -> Token:
    name, role, owns, encounter, digest, created_at = row
    return Token(name, role, tuple(x for x in owns.split(",") if x), encounter,
                 digest, created_at)


class TokensMixin(_Host):
    """Tokens, on top of the store's connection."""

    # -- tokens ----------------------------------------------------------

    def tokens(self) -> list[Token]:
        if not self._has("tokens"):
            return []
        return [_token(r) for r in self._query(f"SELECT {_TOKEN} FROM tokens ORDER BY name")]

    def token(self, digest: str) -> Token | None:
        if not self._has("tokens"):
            return None
        rows = self._query(f"SELECT {_TOKEN} FROM tokens WHERE digest = ?", (digest,))
        return _token(rows[0]) if rows else None

    def add_token(self, token: Token) -> None:
        def work():
            if self.db.execute("SELECT 1 FROM tokens WHERE name = ?", (token.name,)).fetchone():
                raise token_taken(token.name)
            self.db.execute(f"INSERT INTO tokens ({_TOKEN}) VALUES (?, ?, ?, ?, ?, ?)",
                            (token.name, token.role, ",".join(token.owns), token.encounter,
                             token.digest, token.created_at))
        self._write(work)

    def revoke_token(self, name: str) -> bool:
        if not self._has("tokens"):
            return False
        return self._write(lambda: self.db.execute(
            "DELETE FROM tokens WHERE name = ?", (name,)).rowcount > 0)

    # -- the change hint ---------------------------------------------------

