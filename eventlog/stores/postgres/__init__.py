"""The PostgreSQL store: many encounters in one schema (store.py), and its
parts, named as the SQLite store's are: connection (the URL as shown, errors
in one line, the table server's pool), schema (its tables, migrations, and
whether a schema is one of ours), snapshots, changes (each append's mark,
polled; NOTIFY on demand), statements (the append), tokens, hooks, imports
and tidy (archive, rename, delete).

psycopg is imported here only: `open_store` imports this package for a URL."""
from eventlog.stores.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
