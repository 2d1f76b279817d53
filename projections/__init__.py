"""combat-ledger's core, for scripts and servers: execute the table's
commands against a store, read the state, words and reports back.

    from projections import Ledger, commands as c, open_store, status
    ledger = Ledger(open_store("campaign.db"))
    ledger.execute(None, c.New(id="alley"))
    ledger.execute("alley", c.Add(name="Rook", pc=True, bonus=3))

Everything here is imported on first use, so `import projections` stays
as light as the command line needs it to be."""
from __future__ import annotations

from importlib import import_module

# name -> the module that holds it
_PUBLIC = {
    "Ledger": "projections.ledger",
    "Outcome": "projections.ledger",
    "commands": "projections.domain.commands",
    "State": "projections.domain.state",
    "status": "projections.reports.views",
    "open_store": "eventlog.stores",
    "MemoryStore": "eventlog.stores.memory",
    "LedgerError": "eventlog.errors",
    "Refusal": "eventlog.errors",
    "Conflict": "eventlog.errors",
    "UnknownEncounter": "eventlog.errors",
    "InvalidFile": "eventlog.errors",
}
__all__ = sorted(_PUBLIC)


def __getattr__(name: str):
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'projections' has no attribute {name!r}")
    if name == "commands":
        return import_module(module)
    return getattr(import_module(module), name)
