"""The seats' part of the table's records contract (contract_records.py):
join requests and the table's choice kept in records of their own, and
`deciding()`, one transaction serialized with every other. A mixin of
RecordsContract; it reads no log (an encounter's life: contract_log.py)."""
from __future__ import annotations

import threading

import pytest

from eventlog.errors import LedgerError
from eventlog.stores.records import JoinRequest, TableChoice, Token

AT = "2026-12-03T12:00:00.000000Z"


def _join(name: str, encounter: str = "a", life: str = "L", pc: str = "rook") -> JoinRequest:
    return JoinRequest(name, pc, pc.title(), encounter, life, name.encode().hex().ljust(64, "1"),
                       "10.0.0.2", AT, "2026-12-03T12:10:00.000000Z")


class SeatsContract:
    def another_handle(self, store):
        """(RecordsContract's: the same store through a handle of its own.)"""
        return store

    def test_contract_a_join_request_is_kept_found_by_its_digest_and_answered(self, store):
        ben = _join("Ben")
        assert store.joins() == [] and store.join(ben.digest) is None
        store.add_join(ben)
        store.add_join(_join("Ada"))
        assert [j.name for j in store.joins()] == ["Ada", "Ben"]
        assert store.join(ben.digest) == ben
        with pytest.raises(LedgerError):
            store.add_join(ben._replace(digest="f" * 64))
        assert store.answer_join("Ben", "given", "Ada")
        assert store.join(ben.digest) == ben._replace(state="given", said="Ada")
        assert not store.answer_join("nobody", "denied")
        assert store.drop_join("Ben") and not store.drop_join("Ben")
        assert store.join(ben.digest) is None
        assert store.tokens() == []  # (a request is no token)

    def test_contract_the_table_holds_one_choice(self, store):
        assert store.table_choice() is None
        store.choose_table(TableChoice("a", "L1"))
        store.choose_table(TableChoice("b", "L2"))
        assert store.table_choice() == TableChoice("b", "L2")
        store.choose_table(None)
        assert store.table_choice() is None

    def test_contract_a_failed_decision_leaves_nothing(self, store):
        store.add_join(_join("Ben"))
        with pytest.raises(RuntimeError), store.deciding():
            store.drop_join("Ben")
            store.add_token(Token("Ben", "player", ("rook",), "a", "e" * 64, AT))
            store.choose_table(TableChoice("a", "L"))
            raise RuntimeError("refused half way")
        assert [j.name for j in store.joins()] == ["Ben"]
        assert store.tokens() == [] and store.table_choice() is None

    def test_contract_decisions_are_taken_one_at_a_time(self, store):
        """Each decision reads how many requests there are and adds the next:
        taken at once from several handles, none reads what another is
        about to change (no number twice, none lost)."""
        failures: list[BaseException] = []

        def decide() -> None:
            handle = self.another_handle(store)  # (made in the thread that uses it)
            try:
                for _ in range(5):
                    with handle.deciding():
                        n = len(handle.joins())
                        handle.add_join(_join(f"p{n:02}"))
            except BaseException as exc:  # noqa: BLE001 (reported below)
                failures.append(exc)
            finally:
                if handle is not store:
                    handle.close()
        threads = [threading.Thread(target=decide) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert failures == [], failures
        assert [j.name for j in store.joins()] == [f"p{n:02}" for n in range(20)]
