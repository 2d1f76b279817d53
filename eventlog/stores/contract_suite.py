"""The whole store contract (contract.py's `EventStore`) as a test suite
any store that keeps both parts can run: the event log's suite
(contract_log.py), the table's records' (contract_records.py), and what
only a whole store promises (`WholeStoreContract`): a deleted encounter
takes along the records of its life, and a record written wakes the
log's `wait_changes`. A store of your own runs it as contract_log.py
shows, with `StoreContract` (from this module) in place of `LogContract`.

combat-ledger's own stores run each part in tests/test_store_contract.py.
It needs pytest (a dev dependency); the program never imports this module.
"""
from __future__ import annotations

import threading

from eventlog.stores.contract_log import E, LogContract, _created
from eventlog.stores.contract_records import RecordsContract, _token
from eventlog.stores.contract_seats import _join
from eventlog.stores.records import TOKENS_CHANGED, Hook, TableChoice


class WholeStoreContract:
    """The promises that span the log and the records: run it beside
    LogContract and RecordsContract (StoreContract is the three)."""

    def another_handle(self, store):
        """(StoreContract's: the same store through a handle of its own.)"""
        return store

    def test_contract_a_deleted_encounter_takes_its_tokens_with_it(self, store):
        """Its tokens belong to this encounter's life: a new one under the
        same id is reached by none (its requests and place on the table:
        contract_seats.py)."""
        _created(store, "a")
        _created(store, "b")
        for name, role, owns, encounter in (("ana", "player", ("rook",), "a"),
                                            ("tv", "view", (), "a"),
                                            ("cat", "player", ("mara",), "b"),
                                            ("gm", "gm", (), None)):
            store.add_token(_token(name, role, owns, encounter))
        store.delete("a")
        assert sorted(t.name for t in store.tokens()) == ["cat", "gm"]
        _created(store, "a")
        assert not [t for t in store.tokens() if t.encounter == "a"]

    def test_contract_a_deleted_encounter_takes_its_requests_and_place_on_the_table(self, store):
        _created(store, "a")
        _created(store, "b")
        store.add_join(_join("Ben", "a"))
        store.add_join(_join("Cat", "b"))
        store.choose_table(TableChoice("a", store.life("a")))
        store.delete("a")
        assert [j.name for j in store.joins()] == ["Cat"]
        assert store.table_choice() is None


    def test_contract_a_deleted_encounter_takes_its_hook_marks(self, store):
        _created(store, "a")
        _created(store, "b")
        hook = Hook("a1b2c3d4", "http://127.0.0.1:9/in", False, "s", "2026-01-01T00:00:00Z")
        store.add_hook(hook)
        store.mark_hook(hook.id, "a", 1)
        store.mark_hook(hook.id, "b", 1)
        store.delete("a")
        assert store.hook_marks(hook.id) == {"b": 1} and store.hooks() == [hook]

    def test_contract_a_record_written_by_another_handle_wakes_wait_changes(self, store):
        _created(store)
        store.wait_changes(0)  # (what this handle has seen so far)
        woke: list[set[str] | None] = []

        def waiter():
            woke.append(store.wait_changes(10))
        thread = threading.Thread(target=waiter)
        thread.start()
        other = self.another_handle(store)
        other.add_token(_token("ana", encounter=E))
        thread.join(20)
        assert woke, "wait_changes slept through a token written"
        assert woke[0] is None or TOKENS_CHANGED in woke[0] or E in woke[0]
        if other is not store:
            other.close()


class StoreContract(LogContract, RecordsContract, WholeStoreContract):
    """Every promise of the EventStore contract, one test each. A subclass
    gives the `store` fixture (a fresh, empty store, closed after the test)
    and, for a store other programs reach at once, `another_handle` (the
    same store through a connection of its own)."""
