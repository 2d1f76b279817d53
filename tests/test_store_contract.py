"""The store contract, part by part, proven against every store of
combat-ledger: SQLite, memory, PostgreSQL, and PostgreSQL on the table
server's pool. Each part is the suite a back end of that part alone would
run: the event log (eventlog/stores/contract_log.py), the table's records
(contract_records.py), and what only a whole store promises
(contract_suite.py's WholeStoreContract; its StoreContract is the three)."""
from __future__ import annotations

import pytest

from eventlog.stores.contract_log import LogContract
from eventlog.stores.contract_records import RecordsContract
from eventlog.stores.contract_suite import StoreContract, WholeStoreContract
from eventlog.stores.log import EventLog
from eventlog.stores.memory import MemoryStore
from eventlog.stores.tablerecords import TableRecords

from helpers import STORES, another_handle, make_store


class _EveryStore:
    @pytest.fixture(params=[*STORES, "postgres-pool"])
    def store(self, request, tmp_path):
        made = make_store(request.param, tmp_path)
        yield made
        made.close()

    def another_handle(self, store):
        return another_handle(store)


class TestEventLog(_EveryStore, LogContract):
    pass


class TestTableRecords(_EveryStore, RecordsContract):
    pass


class TestWholeStore(_EveryStore, WholeStoreContract):
    pass


class _Only:
    """A store seen through one part of the contract: any other method is
    an AttributeError, so a part's suite that strayed into the other part
    fails here."""

    def __init__(self, store, part) -> None:
        self._store = store
        self._names = ({n for n in dir(part) if not n.startswith("_")}
                       | set(getattr(part, "__annotations__", {})) | {"close"})

    def __getattr__(self, name):
        if name not in self._names:
            raise AttributeError(f"{name} is not part of this contract")
        return getattr(self._store, name)


def _alone(part):
    """The `store` fixture of a memory store seen through `part` alone."""
    @pytest.fixture
    def store(self):
        made = _Only(MemoryStore(), part)
        yield made
        made.close()
    return store


class TestTableRecordsAlone(RecordsContract):
    """The records' suite needs nothing of the log: a back end of records
    alone can pass it."""
    store = _alone(TableRecords)


class TestEventLogAlone(LogContract):
    """The log's suite needs nothing of the records."""
    store = _alone(EventLog)


class TestStoreContractAsImported(StoreContract):
    """The whole suite as a store kept elsewhere imports it, in one class
    (on the memory store: the parts above prove every store)."""

    @pytest.fixture
    def store(self):
        made = MemoryStore()
        yield made
        made.close()


def test_the_whole_suite_is_the_three_parts():
    tests = {name for name in dir(StoreContract) if name.startswith("test_")}
    parts = [{name for name in dir(part) if name.startswith("test_")}
             for part in (LogContract, RecordsContract, WholeStoreContract)]
    assert tests == set().union(*parts) and sum(map(len, parts)) == len(tests)
