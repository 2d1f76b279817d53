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
_READ = ("SELECT t.name, role, owns, encounter, digest, created_at, l.language FROM tokens t "
         "LEFT JOIN token_languages l ON l.name = t.name")
_BEFORE_LANGUAGES = f"SELECT {_TOKEN}, NULL FROM tokens t"  # (a read-only store of schema < 8)


def _token(row) -> Token:
    name, role, owns, encounter, digest, created_at, language = row
    return Token(name, role, tuple(x for x in owns.split(",") if x), encounter,
                 digest, created_at, language)


class TokensMixin(_Host):
    """Tokens, on top of the store's connection."""

    # -- tokens ----------------------------------------------------------

    def tokens(self) -> list[Token]:
        if not self._has("tokens"):
            return []
        return [_token(r) for r in self._query(f"{self._read()} ORDER BY t.name")]

    def token(self, digest: str) -> Token | None:
        if not self._has("tokens"):
            return None
        rows = self._query(f"{self._read()} WHERE digest = ?", (digest,))
        return _token(rows[0]) if rows else None

    def _read(self) -> str:
        return _READ if self._has("token_languages") else _BEFORE_LANGUAGES

    def add_token(self, token: Token) -> None:
        def work():
            if self.db.execute("SELECT 1 FROM tokens WHERE name = ?", (token.name,)).fetchone():
                raise token_taken(token.name)
            self.db.execute(f"INSERT INTO tokens ({_TOKEN}) VALUES (?, ?, ?, ?, ?, ?)",
                            (token.name, token.role, ",".join(token.owns), token.encounter,
                             token.digest, token.created_at))
            if token.language is not None:
                self.db.execute("INSERT INTO token_languages VALUES (?, ?)",
                                (token.name, token.language))
        self._write(work)

    def set_token_language(self, name: str, language: str | None) -> bool:
        def work():
            if not self.db.execute("SELECT 1 FROM tokens WHERE name = ?", (name,)).fetchone():
                return False
            self.db.execute("DELETE FROM token_languages WHERE name = ?", (name,))
            if language is not None:
                self.db.execute("INSERT INTO token_languages VALUES (?, ?)", (name, language))
            return True
        return self._has("tokens") and self._write(work)

    def revoke_token(self, name: str) -> bool:
        if not self._has("tokens"):
            return False
        def work():
            self.db.execute("DELETE FROM token_languages WHERE name = ?", (name,))
            return self.db.execute("DELETE FROM tokens WHERE name = ?", (name,)).rowcount > 0
        return self._write(work)

    # -- the change hint ---------------------------------------------------

