"""Whether this process may write a store: the table
server records declarations and tokens, and its watcher needs the store as
a writer would open it; a read-only one is refused before it serves."""
from __future__ import annotations

import os

from eventlog.language import _

# (PostgreSQL: a read-only session or a standby, or a role that may not
# append to the log or keep tokens.)
PG_READ_ONLY = """SELECT current_setting('transaction_read_only') = 'on'
    OR pg_is_in_recovery()
    OR NOT has_table_privilege('events', 'INSERT')
    OR NOT has_table_privilege('encounters', 'UPDATE')
    OR NOT has_table_privilege('tokens', 'INSERT, DELETE')"""


def read_only_why(store) -> str | None:
    """Why `store` cannot be written here, in a few words; None if it can."""
    path = getattr(store, "path", None)
    if path is None:
        return _("a read-only session or role") if store.refuses_writes() else None
    if not os.access(path, os.W_OK):
        return _("its file may not be written")
    if not os.access(path.parent, os.W_OK):
        return _("its folder may not be written (SQLite keeps its -wal and -shm files there)")
    for extra in (f"{path}-wal", f"{path}-shm"):
        if os.path.exists(extra) and not os.access(extra, os.W_OK):
            return _("{file} may not be written").format(file=os.path.basename(extra))
    return None
