"""The memory store's table records (the TableRecords part of the contract):
tokens, join requests, the encounter on the table, `deciding()` (its one
lock held, and every record as it was put back when the decision fails),
and webhooks with their marks. A mixin of memory.py's store, which keeps
the log."""
from __future__ import annotations

import threading
from contextlib import contextmanager

from eventlog.stores.records import Hook, JoinRequest, TableChoice, Token
from eventlog.stores.shared import hook_taken, join_taken, token_taken


class RecordsMixin:
    _lock: threading.RLock
    _tokens: dict[str, Token]
    _joins: dict[str, JoinRequest]
    _table: TableChoice | None
    _hooks: dict[str, Hook]
    _marks: dict[tuple[str, str], int]

    def _wrote(self) -> None: ...

    @contextmanager
    def deciding(self):
        with self._lock:
            kept = (dict(self._tokens), dict(self._joins), self._table)
            try:
                yield
            except BaseException:
                self._tokens, self._joins, self._table = kept
                raise

    def joins(self) -> list[JoinRequest]:
        with self._lock:
            return sorted(self._joins.values())

    def join(self, digest: str) -> JoinRequest | None:
        with self._lock:
            return next((j for j in self._joins.values() if j.digest == digest), None)

    def add_join(self, join: JoinRequest) -> None:
        with self._lock:
            if join.name in self._joins:
                raise join_taken(join.name)
            self._joins[join.name] = join
        self._wrote()

    def answer_join(self, name: str, state: str, said: str = "") -> bool:
        with self._lock:
            found = self._joins.get(name)
            if found is not None:
                self._joins[name] = found._replace(state=state, said=said)
        self._wrote()
        return found is not None

    def drop_join(self, name: str) -> bool:
        with self._lock:
            found = self._joins.pop(name, None) is not None
        self._wrote()
        return found

    def table_choice(self) -> TableChoice | None:
        with self._lock:
            return self._table

    def choose_table(self, choice: TableChoice | None) -> None:
        with self._lock:
            self._table = choice
        self._wrote()

    # -- tokens of the table server ----------------------------------------

    def tokens(self) -> list[Token]:
        with self._lock:
            return sorted(self._tokens.values())

    def token(self, digest: str) -> Token | None:
        with self._lock:
            return next((t for t in self._tokens.values() if t.digest == digest), None)

    def add_token(self, token: Token) -> None:
        with self._lock:
            if token.name in self._tokens:
                raise token_taken(token.name)
            self._tokens[token.name] = token._replace(owns=tuple(token.owns))
        self._wrote()

    def set_token_language(self, name: str, language: str | None) -> bool:
        with self._lock:
            found = self._tokens.get(name)
            if found is not None:
                self._tokens[name] = found._replace(language=language)
        self._wrote()
        return found is not None

    def revoke_token(self, name: str) -> bool:
        with self._lock:
            found = self._tokens.pop(name, None) is not None
        self._wrote()
        return found

    # -- webhooks ----------------------------------------------------------

    def hooks(self) -> list[Hook]:
        with self._lock:
            return sorted(self._hooks.values())

    def add_hook(self, hook: Hook) -> None:
        with self._lock:
            if hook.id in self._hooks or any(h.url == hook.url for h in self._hooks.values()):
                raise hook_taken(hook.id)
            self._hooks[hook.id] = hook

    def remove_hook(self, hook_id: str) -> bool:
        with self._lock:
            self._marks = {k: v for k, v in self._marks.items() if k[0] != hook_id}
            return self._hooks.pop(hook_id, None) is not None

    def hook_marks(self, hook_id: str) -> dict[str, int]:
        with self._lock:
            return {e: seq for (h, e), seq in self._marks.items() if h == hook_id}

    def mark_hook(self, hook_id: str, encounter: str, seq: int) -> None:
        with self._lock:
            key = (hook_id, encounter)
            self._marks[key] = max(seq, self._marks.get(key, seq))

    def claim_hooks(self) -> bool:
        return True
