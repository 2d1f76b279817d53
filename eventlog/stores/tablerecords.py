"""The table's records: the part of the store contract that keeps what the
table server decides outside any log (tokens, join requests, the encounter
on the table, webhooks and their delivery marks). Each is a record of its
own, in a table of its own in the SQL stores, named by its own key (a
token's name, a request's name, a hook's id); a record points at an
encounter (its id, and for a seat the life of that id) but needs no log to
be kept, so these methods never read one. Its suite is contract_records.py
(`RecordsContract`); the event log is the other part (log.py), and
`EventStore` (contract.py) is both.

Guarantees an implementation gives:
- a name or id taken is refused with the words of stores/shared.py, and
  nothing is kept.
- whatever is written is seen at once by every handle of the store; a
  token, a request or the table's choice written wakes the log's
  `wait_changes` (with TOKENS_CHANGED among the encounters, where it
  names them), since the table server re-reads its records on it.
- everything read and written inside `deciding()` is one transaction,
  serialized with every other `deciding()` and token write of the store.
"""
from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol

from eventlog.stores.records import Hook, JoinRequest, TableChoice, Token


class TableRecords(Protocol):
    # -- tokens of the table server ----------------------------------------

    def tokens(self) -> list[Token]:
        """Every token, by name."""

    def token(self, digest: str) -> Token | None:
        """The token with this SHA-256 hex digest, if not revoked."""

    def add_token(self, token: Token) -> None:
        """Keep `token`; LedgerError if its name is taken."""

    def revoke_token(self, name: str) -> bool:
        """Forget the token named `name` at once; False if there is none."""

    def set_token_language(self, name: str, language: str | None) -> bool:
        """The language the token's pages speak (None: the browser's);
        False if there is no token named `name`."""


    # -- join requests and the encounter on the table --------------------
    def deciding(self) -> AbstractContextManager[None]:
        """One write transaction for everything read and written inside,
        serialized with every other `deciding()` and token write of the
        store, from any process; an exception inside undoes all of it. An
        approval, a denial or a request is decided in one (re-entrant)."""

    def joins(self) -> list[JoinRequest]:
        """Every join request kept, by name (answered ones too, until dropped)."""

    def join(self, digest: str) -> JoinRequest | None:
        """The request whose secret has this SHA-256 hex digest."""

    def add_join(self, join: JoinRequest) -> None:
        """Keep `join`; LedgerError if a request of its name is kept."""

    def answer_join(self, name: str, state: str, said: str = "") -> bool:
        """Set the request's state (and what was said); False if there is none."""

    def drop_join(self, name: str) -> bool:
        """Forget the request named `name`; False if there is none."""

    def table_choice(self) -> TableChoice | None:
        """The encounter the GM put on the table, as chosen (it may be gone since)."""

    def choose_table(self, choice: TableChoice | None) -> None:
        """Put `choice` on the table (None: nothing)."""

    # -- webhooks of the table server --------------------------------------

    def hooks(self) -> list[Hook]:
        """Every webhook, by id."""

    def add_hook(self, hook: Hook) -> None:
        """Refusal when a hook with its URL (its id) is there already."""

    def remove_hook(self, hook_id: str) -> bool:
        """Whether one was removed (its marks go with it)."""

    def hook_marks(self, hook_id: str) -> dict[str, int]:
        """Per encounter, the last seq delivered to the hook."""

    def mark_hook(self, hook_id: str, encounter: str, seq: int) -> None:
        """Delivered up to `seq` (a mark only moves forward)."""

    def claim_hooks(self) -> bool:
        """Whether this handle is the one process that delivers webhooks now
        (PostgreSQL: an advisory lock held on a connection of its own, freed
        when the process dies; SQLite and memory: one server per store)."""
