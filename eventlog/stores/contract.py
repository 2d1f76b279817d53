"""The store contract: what every store does, whatever keeps the bytes
(SQLite, PostgreSQL, memory), in two parts, each with its own suite:

- the event log (log.py, `EventLog`; suite contract_log.py): the
  encounters' logs, their fold reads, snapshots, marks and portraits;
- the table's records (tablerecords.py, `TableRecords`; suite
  contract_records.py): tokens, join requests, the table's choice, webhooks.

`EventStore` is both, for the callers that need both (the ledger, the
table server); contract_suite.py (`StoreContract`) runs both suites and
what only a whole store promises: a deleted encounter takes its records
along. tests/test_store_contract.py proves each implementation against
them.
"""
from __future__ import annotations

from typing import Protocol

from eventlog.stores.log import EventLog
from eventlog.stores.records import (  # noqa: F401  (the contract's records, named here too)
    EncounterInfo, FoldRow, Hook, JoinRequest, Portrait, Snapshot, SnapshotMaker, StoredEvent,
    TableChoice, Token,
)
from eventlog.stores.tablerecords import TableRecords

__all__ = ["EventLog", "EventStore", "TableRecords"]


class EventStore(EventLog, TableRecords, Protocol):
    """The event log and the table's records in one store: `delete` drops an
    encounter's records with its log, in one transaction."""
