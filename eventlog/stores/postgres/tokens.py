"""The PostgreSQL store's tokens of the table server (only their SHA-256
digests), a mixin of the store (`_query`, `_write`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from eventlog.errors import Refusal
from eventlog.stores.contract import Token

if TYPE_CHECKING:
    from eventlog.stores.hosts import PgHost as _Host
else:
    _Host = object


class TokensMixin(_Host):
    _TOKEN = "name, role, owns, encounter, digest, created_at"

    def tokens(self) -> list[Token]:
        return [self._token(r) for r in self._query(
            f'SELECT {self._TOKEN} FROM tokens ORDER BY name COLLATE "C"')]

    def token(self, digest: str) -> Token | None:
        row = self._query(f"SELECT {self._TOKEN} FROM tokens WHERE digest = %s", (digest,))
        return self._token(row[0]) if row else None

    @staticmethod
    def _token(row) -> Token:
        name, role, owns, encounter, digest, created_at = row
        return Token(name, role, tuple(owns), encounter, digest, created_at)

    def add_token(self, token: Token) -> None:
        def work(db):
            done = db.execute(
                "INSERT INTO tokens VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (token.name, token.role, list(token.owns), token.encounter, token.digest,
                 token.created_at))
            if done.rowcount != 1:
                raise Refusal(f"a token named {token.name!r} exists already: "
                              "revoke it first or choose another name")
        self._write(work)

    def revoke_token(self, name: str) -> bool:
        return self._write(lambda db: db.execute(
            "DELETE FROM tokens WHERE name = %s", (name,)).rowcount > 0)

