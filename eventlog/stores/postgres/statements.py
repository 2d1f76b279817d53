"""The PostgreSQL store's append, as statements: a batch's rows, the whole
append in one statement, and how each append says which encounter moved
(changes.py reads it)."""
from __future__ import annotations

from eventlog.stores.shared import EVENT_VERSION

ROW = "seq, batch, type, at, actor, data, prev_hash, hash"

# The batch's rows, one array a column, sent in binary (%b): as text, 100
# events' arrays cost more to write out and parse than the insert itself.
BATCH_ROWS = (f"SELECT %(e)s, *, {EVENT_VERSION} FROM unnest(%(seqs)b::bigint[], "
              "%(batches)b::bigint[], %(types)b::text[], %(ats)b::text[], %(actors)b::text[], "
              "%(datas)b::bytea[], %(prevs)b::text[], %(hashes)b::text[])")

# An append, whole: the head row locked (FOR UPDATE, bounded by lock_timeout),
# the seq and hash the batch was judged on checked, and only then the events
# inserted, the head moved, the change marked and the snapshot kept; in
# autocommit one statement is one transaction. The locked head is returned:
# when it is not the one judged on, the statement wrote nothing (Conflict).
APPEND = f"""
WITH locked AS (SELECT head_seq, head_hash FROM encounters WHERE id = %(e)s FOR UPDATE),
ok AS (SELECT 1 FROM locked WHERE head_seq = %(seq)s AND head_hash = %(hash)s),
ins AS (INSERT INTO events {BATCH_ROWS} WHERE EXISTS (SELECT 1 FROM ok)),
upd AS (UPDATE encounters SET head_seq = %(new)s, head_hash = %(new_hash)s
    WHERE id = %(e)s AND EXISTS (SELECT 1 FROM ok)),
mark AS (INSERT INTO changes SELECT %(e)s, pg_current_xact_id() WHERE EXISTS (SELECT 1 FROM ok)
    ON CONFLICT (encounter) DO UPDATE SET xid = excluded.xid)
/* snapshot */
SELECT head_seq, head_hash /* notify */
FROM locked"""
# With COMBAT_PG_CHANGES=notify (changes.py): the NOTIFY too, as before the marks.
NOTIFY = ", CASE WHEN EXISTS (SELECT 1 FROM ok) THEN pg_notify(%(channel)s, %(said)s) END"
SNAPSHOT = """, snap AS (INSERT INTO snapshots SELECT %(e)s, %(new)s, %(new_hash)s, %(version)s,
    %(state)s WHERE EXISTS (SELECT 1 FROM ok) ON CONFLICT (encounter) DO UPDATE SET
    seq = excluded.seq, hash = excluded.hash, version = excluded.version, state = excluded.state)"""



# The mark of an append made in several statements (a pipeline, an import):
# only while the head reads as the batch left it.
MARK = ("INSERT INTO changes SELECT %s, pg_current_xact_id() WHERE EXISTS (SELECT 1 FROM "
        "encounters WHERE id = %s AND head_seq = %s) "
        "ON CONFLICT (encounter) DO UPDATE SET xid = excluded.xid")
