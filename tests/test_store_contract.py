"""The store contract (eventlog/stores/contract_suite.py), proven against
every store of combat-ledger: SQLite, memory, PostgreSQL, and PostgreSQL on
the table server's pool."""
from __future__ import annotations

import pytest

from eventlog.stores.contract_suite import StoreContract

from helpers import STORES, another_handle, make_store


class TestStores(StoreContract):
    @pytest.fixture(params=[*STORES, "postgres-pool"])
    def store(self, request, tmp_path):
        made = make_store(request.param, tmp_path)
        yield made
        made.close()

    def another_handle(self, store):
        return another_handle(store)
