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
    _TOKEN = ("SELECT t.name, role, owns, encounter, digest, created_at, l.language "
              "FROM tokens t LEFT JOIN token_languages l ON l.name = t.name")

    def tokens(self) -> list[Token]:
        return [self._token(r) for r in self._query(
            f'{self._TOKEN} ORDER BY t.name COLLATE "C"')]

    def token(self, digest: str) -> Token | None:
        row = self._query(f"{self._TOKEN} WHERE digest = %s", (digest,))
        return self._token(row[0]) if row else None

    @staticmethod
    def _token(row) -> Token:
        name, role, owns, encounter, digest, created_at, language = row
        return Token(name, role, tuple(owns), encounter, digest, created_at, language)

    def add_token(self, token: Token) -> None:
        def work(db):
            db.execute(SEATS_LOCK)  # (an approval's check of a seat sees it, or it waits)
            done = db.execute(
                "INSERT INTO tokens VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (token.name, token.role, list(token.owns), token.encounter, token.digest,
                 token.created_at))
            if done.rowcount != 1:
                raise token_taken(token.name)
            if token.language is not None:
                db.execute("INSERT INTO token_languages VALUES (%s, %s)",
                           (token.name, token.language))
            self._tokens_changed(db)
        self._write(work)

    def set_token_language(self, name: str, language: str | None) -> bool:
        def work(db):
            db.execute(SEATS_LOCK)
            if not db.execute("SELECT 1 FROM tokens WHERE name = %s", (name,)).fetchone():
                return False
            db.execute("DELETE FROM token_languages WHERE name = %s", (name,))
            if language is not None:
                db.execute("INSERT INTO token_languages VALUES (%s, %s)", (name, language))
            self._tokens_changed(db)
            return True
        return self._write(work)

    def revoke_token(self, name: str) -> bool:
        def work(db):
            db.execute(SEATS_LOCK)
            db.execute("DELETE FROM token_languages WHERE name = %s", (name,))
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

