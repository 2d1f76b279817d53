"""The PostgreSQL store's tokens of the table server (only their SHA-256
digests), a mixin of the store (`_query`, `_write`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from eventlog.stores.contract import Token
from eventlog.stores.postgres.schema import MARK
from eventlog.stores.postgres.seats import SEATS_LOCK
from eventlog.stores.records import TOKENS_CHANGED
from eventlog.stores.shared import token_taken

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
            db.execute(SEATS_LOCK)  # (an approval's check of a seat sees it, or it waits)
            done = db.execute(
                "INSERT INTO tokens VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (token.name, token.role, list(token.owns), token.encounter, token.digest,
                 token.created_at))
            if done.rowcount != 1:
                raise token_taken(token.name)
            self._tokens_changed(db)
        self._write(work)

    def revoke_token(self, name: str) -> bool:
        def work(db):
            db.execute(SEATS_LOCK)
            gone = db.execute("DELETE FROM tokens WHERE name = %s", (name,)).rowcount > 0
            if gone:
                self._tokens_changed(db)
            return gone
        return self._write(work)

    def _tokens_changed(self, db) -> None:
        """Tell every server, in this transaction, that the tokens changed
        (they re-read them on it, not at every look: changes.py)."""
        if self.notify:
            db.execute("SELECT pg_notify(%s, %s)", (self.channel, f"{TOKENS_CHANGED}:0"))
        else:
            db.execute(MARK, {"e": TOKENS_CHANGED})

