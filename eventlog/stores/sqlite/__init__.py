"""The SQLite store: many encounters in one file (store.py), and its parts,
named as the PostgreSQL store's are: connection (which file may be a store
and how it is opened), schema (its tables, migrations, and whether a file is
one of ours), snapshots, changes (the hint the table server waits on),
tokens, hooks, imports and tidy (archive, rename, delete)."""
from eventlog.stores.sqlite.store import Store

__all__ = ["Store"]
