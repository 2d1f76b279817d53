"""The PostgreSQL store's tables, its forward-only migrations, whether a
database is one of ours (asked before anything is written to it), and its
errors said in one line (connection.py).

Events keep the exact canonical bytes that are hashed (`bytea`): jsonb
reorders keys, so `verify` could never recompute a hash from it.
"""
from __future__ import annotations

from eventlog.errors import StoreError
from eventlog.language import _
from eventlog.stores.postgres.connection import wrap
from eventlog.text import neutral

APP = "combat-ledger"
CHANNEL = "combat_ledger"  # + "_" + the store id's first 16 digits; payload `encounter:seq`


def channel(store_id: str) -> str:
    """The store's own NOTIFY channel: a channel is the whole database's, and
    stores in other schemas of it must not wake this one's listeners."""
    return f"{CHANNEL}_{store_id[:16]}"

# Forward-only: version N is reached by applying every step up to N in order;
# a step never rewrites an event (that would break the hash chain).
MIGRATIONS: list[tuple[int, str]] = [
    (1, """
CREATE TABLE encounters (
    id text PRIMARY KEY, title text NOT NULL, created_at text NOT NULL,
    head_seq bigint NOT NULL, head_hash text NOT NULL);
CREATE TABLE events (
    encounter text NOT NULL REFERENCES encounters (id), seq bigint NOT NULL,
    batch bigint NOT NULL, type text NOT NULL, at text NOT NULL, actor text NOT NULL,
    data bytea NOT NULL, prev_hash text NOT NULL, hash text NOT NULL,
    version integer NOT NULL DEFAULT 1,
    PRIMARY KEY (encounter, seq));
CREATE INDEX events_by_type ON events (encounter, type, seq);
CREATE TABLE snapshots (
    encounter text PRIMARY KEY REFERENCES encounters (id), seq bigint NOT NULL,
    hash text NOT NULL, version text NOT NULL, state bytea NOT NULL);
"""),
    (2, """
CREATE TABLE tokens (
    name text PRIMARY KEY, role text NOT NULL, owns text[] NOT NULL,
    encounter text, digest text NOT NULL UNIQUE, created_at text NOT NULL);
"""),
    # An event row's encounter is vouched for by the statement that inserts
    # it: the append locks that encounter's head row and inserts only while
    # it reads as judged (an import, only while the head is as staged), and
    # no encounter is ever deleted. The foreign key checked it again, row by
    # row, at a third of a 100-event batch's time.
    (3, """
ALTER TABLE events DROP CONSTRAINT IF EXISTS events_encounter_fkey;
"""),
    # Encounters set aside by `archive`: their logs are kept (the docs).
    (4, """
CREATE TABLE archived (encounter text PRIMARY KEY);
"""),
    # The table server's webhooks, and per hook and encounter the last seq
    # delivered (hooks.py).
    (5, """
CREATE TABLE hooks (
    id text PRIMARY KEY, url text NOT NULL UNIQUE, discord boolean NOT NULL,
    secret text NOT NULL, created_at text NOT NULL);
CREATE TABLE hook_marks (
    hook text NOT NULL, encounter text NOT NULL, seq bigint NOT NULL,
    PRIMARY KEY (hook, encounter));
"""),
    # Per encounter brought in by `combat import`, the seq up to which its
    # log came from a file: `log` marks those entries as imported (their
    # actors are the file's claim). No event is touched.
    (6, """
CREATE TABLE imported (encounter text PRIMARY KEY, upto bigint NOT NULL);
"""),
    # Per encounter, the transaction that last appended to it (changes.py):
    # a server asks for the rows of transactions at or after the oldest one
    # still running when it last asked, so it misses no late commit, and no
    # append takes NOTIFY's lock, which is the whole cluster's.
    (7, """
CREATE TABLE changes (encounter text PRIMARY KEY, xid xid8 NOT NULL);
CREATE INDEX changes_by_xid ON changes (xid);
"""),
    # The hooks the GM let send to a private address (`hook add
    # --allow-private`, a bot on the table's own network).
    (8, """
CREATE TABLE hook_private (hook text PRIMARY KEY);
"""),
    # Portraits: image bytes under their SHA-256 (an event names one by
    # digest; never removed).
    (9, """
CREATE TABLE portraits (digest text PRIMARY KEY, media text NOT NULL, data bytea NOT NULL);
"""),
    # Join requests and the encounter on the table, each bound to one life
    # of its encounter (the hash of its first event). They were rows of
    # `tokens` (roles `join` and `table`) before: moved here, a request as
    # expired.
    (10, """
CREATE TABLE joins (
    name text PRIMARY KEY, pc text NOT NULL, seat text NOT NULL, encounter text NOT NULL,
    life text NOT NULL,
    digest text NOT NULL UNIQUE, address text NOT NULL, asked_at text NOT NULL,
    expires_at text NOT NULL, state text NOT NULL, said text NOT NULL);
CREATE TABLE on_table (encounter text NOT NULL, life text NOT NULL);
INSERT INTO joins SELECT t.name, coalesce(t.owns[1], ''), coalesce(t.owns[1], ''), t.encounter,
    coalesce((SELECT e.hash FROM events e WHERE e.encounter = t.encounter AND e.seq = 1), ''),
    t.digest, '', t.created_at, t.created_at, 'waiting', ''
    FROM tokens t WHERE t.role = 'join' AND t.encounter IS NOT NULL;
INSERT INTO on_table SELECT t.encounter,
    coalesce((SELECT e.hash FROM events e WHERE e.encounter = t.encounter AND e.seq = 1), '')
    FROM tokens t WHERE t.role = 'table' AND t.encounter IS NOT NULL;
DELETE FROM tokens WHERE role IN ('join', 'table');
"""),
    # The language a token's pages speak, where the GM chose one (`token
    # add --lang`): a table of its own, so that a token's row keeps its shape.
    (11, """
CREATE TABLE token_languages (name text PRIMARY KEY, language text NOT NULL);
"""),
]
SCHEMA_VERSION = MIGRATIONS[-1][0]
_VERSION_TABLE = ("CREATE TABLE schema_version (app text NOT NULL, version integer NOT NULL, "
                  "store_id text NOT NULL)")
_TABLES = """SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')"""
# Every object in the store's schema, one row each (kind, name, shape): its
# relations (a table's columns, an index's definition, row security), the
# triggers (not the constraints' own), rules and policies on them, and the
# constraints. Asked once at open.
_OBJECTS = """SELECT 'relation', c.relname, c.relkind::text
  || CASE WHEN c.relrowsecurity THEN ' row security' ELSE '' END || ': '
  || CASE WHEN c.relkind = 'i' THEN regexp_replace(pg_get_indexdef(c.oid), ' ON \\S+\\.', ' ON ')
     ELSE coalesce((SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
       || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
       || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), ''), ', ' ORDER BY a.attnum)
       FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
       WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '') END
FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace
UNION ALL SELECT 'trigger', t.tgname, '' FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal
UNION ALL SELECT 'rule', r.rulename, '' FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind <> 'v'
UNION ALL SELECT 'policy', p.polname, '' FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid
WHERE c.relnamespace = current_schema()::regnamespace
UNION ALL SELECT 'constraint', o.conname, pg_get_constraintdef(o.oid) FROM pg_constraint o
WHERE o.connamespace = current_schema()::regnamespace"""
# What the migrations make (_OBJECTS' rows of a store of any version; one of
# an older version lacks some). Anything else was put there by someone else.
_MADE = {
    ("relation", "schema_version"):
        "r: app text not null, version integer not null, store_id text not null",
    ("relation", "encounters"):
        "r: id text not null, title text not null, created_at text not null, "
        "head_seq bigint not null, head_hash text not null",
    ("relation", "events"):
        "r: encounter text not null, seq bigint not null, batch bigint not null, "
        "type text not null, at text not null, actor text not null, data bytea not null, "
        "prev_hash text not null, hash text not null, version integer not null default 1",
    ("relation", "snapshots"):
        "r: encounter text not null, seq bigint not null, hash text not null, "
        "version text not null, state bytea not null",
    ("relation", "tokens"):
        "r: name text not null, role text not null, owns text[] not null, encounter text, "
        "digest text not null, created_at text not null",
    ("relation", "encounters_pkey"):
        "i: CREATE UNIQUE INDEX encounters_pkey ON encounters USING btree (id)",
    ("relation", "events_pkey"):
        "i: CREATE UNIQUE INDEX events_pkey ON events USING btree (encounter, seq)",
    ("relation", "events_by_type"):
        "i: CREATE INDEX events_by_type ON events USING btree (encounter, type, seq)",
    ("relation", "snapshots_pkey"):
        "i: CREATE UNIQUE INDEX snapshots_pkey ON snapshots USING btree (encounter)",
    ("relation", "tokens_pkey"):
        "i: CREATE UNIQUE INDEX tokens_pkey ON tokens USING btree (name)",
    ("relation", "tokens_digest_key"):
        "i: CREATE UNIQUE INDEX tokens_digest_key ON tokens USING btree (digest)",
    ("constraint", "encounters_pkey"): "PRIMARY KEY (id)",
    ("constraint", "events_pkey"): "PRIMARY KEY (encounter, seq)",
    ("constraint", "snapshots_pkey"): "PRIMARY KEY (encounter)",
    ("constraint", "snapshots_encounter_fkey"):
        "FOREIGN KEY (encounter) REFERENCES encounters(id)",
    ("constraint", "events_encounter_fkey"):  # (schema 1 and 2)
        "FOREIGN KEY (encounter) REFERENCES encounters(id)",
    ("relation", "hooks"):
        "r: id text not null, url text not null, discord boolean not null, "
        "secret text not null, created_at text not null",
    ("relation", "hook_marks"):
        "r: hook text not null, encounter text not null, seq bigint not null",
    ("relation", "hooks_pkey"): "i: CREATE UNIQUE INDEX hooks_pkey ON hooks USING btree (id)",
    ("relation", "hooks_url_key"):
        "i: CREATE UNIQUE INDEX hooks_url_key ON hooks USING btree (url)",
    ("relation", "hook_marks_pkey"):
        "i: CREATE UNIQUE INDEX hook_marks_pkey ON hook_marks USING btree (hook, encounter)",
    ("constraint", "hooks_pkey"): "PRIMARY KEY (id)",
    ("constraint", "hooks_url_key"): "UNIQUE (url)",
    ("constraint", "hook_marks_pkey"): "PRIMARY KEY (hook, encounter)",
    ("constraint", "tokens_pkey"): "PRIMARY KEY (name)",
    ("constraint", "tokens_digest_key"): "UNIQUE (digest)",
    ("relation", "archived"): "r: encounter text not null",  # (schema 4)
    ("relation", "archived_pkey"):
        "i: CREATE UNIQUE INDEX archived_pkey ON archived USING btree (encounter)",
    ("constraint", "archived_pkey"): "PRIMARY KEY (encounter)",
    ("relation", "imported"): "r: encounter text not null, upto bigint not null",  # (schema 6)
    ("relation", "imported_pkey"):
        "i: CREATE UNIQUE INDEX imported_pkey ON imported USING btree (encounter)",
    ("constraint", "imported_pkey"): "PRIMARY KEY (encounter)",
    ("relation", "changes"): "r: encounter text not null, xid xid8 not null",  # (schema 7)
    ("relation", "changes_pkey"):
        "i: CREATE UNIQUE INDEX changes_pkey ON changes USING btree (encounter)",
    ("relation", "changes_by_xid"):
        "i: CREATE INDEX changes_by_xid ON changes USING btree (xid)",
    ("constraint", "changes_pkey"): "PRIMARY KEY (encounter)",
    ("relation", "hook_private"): "r: hook text not null",  # (schema 8)
    ("relation", "hook_private_pkey"):
        "i: CREATE UNIQUE INDEX hook_private_pkey ON hook_private USING btree (hook)",
    ("constraint", "hook_private_pkey"): "PRIMARY KEY (hook)",
    ("relation", "portraits"):  # (schema 9)
        "r: digest text not null, media text not null, data bytea not null",
    ("relation", "portraits_pkey"):
        "i: CREATE UNIQUE INDEX portraits_pkey ON portraits USING btree (digest)",
    ("constraint", "portraits_pkey"): "PRIMARY KEY (digest)",
    ("relation", "joins"):  # (schema 10)
        "r: name text not null, pc text not null, seat text not null, encounter text not null, "
        "life text not null, digest text not null, address text not null, "
        "asked_at text not null, expires_at text not null, state text not null, "
        "said text not null",
    ("relation", "joins_pkey"): "i: CREATE UNIQUE INDEX joins_pkey ON joins USING btree (name)",
    ("relation", "joins_digest_key"):
        "i: CREATE UNIQUE INDEX joins_digest_key ON joins USING btree (digest)",
    ("constraint", "joins_pkey"): "PRIMARY KEY (name)",
    ("constraint", "joins_digest_key"): "UNIQUE (digest)",
    ("relation", "on_table"): "r: encounter text not null, life text not null",
    ("relation", "token_languages"): "r: name text not null, language text not null",  # (11)
    ("relation", "token_languages_pkey"):
        "i: CREATE UNIQUE INDEX token_languages_pkey ON token_languages USING btree (name)",
    ("constraint", "token_languages_pkey"): "PRIMARY KEY (name)",
}
# An encounter's change mark: the transaction appending to it (its head row
# locked already, so the mark adds no wait of its own).
MARK = ("INSERT INTO changes VALUES (%(e)s, pg_current_xact_id()) "
        "ON CONFLICT (encounter) DO UPDATE SET xid = excluded.xid")
_LOCK = "SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':combat-ledger'))"


def prepare(db, where: str, create: bool = True) -> str:
    """Create, recognise or migrate the store in `db`'s current schema; its
    store id. Refuses a database that is not ours, or a newer one, in one
    line, having written nothing to it."""
    if not {r[0] for r in db.execute(_TABLES)}:
        if not create:
            raise StoreError(_("{where} holds no store yet").format(where=where))
        with db.transaction():
            db.execute(_LOCK)  # two first opens at once: one creates
            if not db.execute(_TABLES).fetchone():
                if db.execute("SELECT current_schema()").fetchone()[0] is None:
                    path = db.execute("SHOW search_path").fetchone()[0]
                    raise StoreError(_("{where}: its search_path ({path}) names no schema this "
                                       "role may use: create the schema, or grant the role "
                                       "USAGE and CREATE on it").format(
                                           where=where, path=neutral(path)[:100]))
                import os
                db.execute(_VERSION_TABLE)
                db.execute("INSERT INTO schema_version VALUES (%s, 0, %s)",
                           (APP, os.urandom(16).hex()))
    version, store_id = _recognised(db, where)
    if version > SCHEMA_VERSION:
        raise StoreError(_("{path} was written by a newer combat-ledger (schema {version}; "
                           "this one reads {reads})").format(
                               path=where, version=version, reads=SCHEMA_VERSION))
    if version < SCHEMA_VERSION:
        with db.transaction():
            db.execute(_LOCK)
            version, _store_id = _recognised(db, where)
            for step, sql in MIGRATIONS:
                if step > version:
                    db.execute(sql)
            db.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION,))
    return store_id


def _recognised(db, where: str) -> tuple[int, str]:
    """(schema version, store id) of one of our stores; else StoreError."""
    import psycopg
    refused = StoreError(_("{where} is not a combat-ledger database (it holds tables of "
                           "another program); nothing was changed").format(where=where))
    columns = [r[0] for r in db.execute(
        "SELECT a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
        "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() "
        "AND c.relname = 'schema_version' AND a.attnum > 0 AND NOT a.attisdropped "
        "ORDER BY a.attnum")]
    if columns != ["app", "version", "store_id"]:
        raise refused
    try:
        rows = db.execute("SELECT app, version, store_id FROM schema_version").fetchall()
    except psycopg.errors.InsufficientPrivilege as exc:  # ours, but not this role's
        raise wrap(exc, where, 0, writing=False) from None
    except psycopg.Error:
        raise refused from None
    if len(rows) != 1 or rows[0][0] != APP:
        raise refused
    for kind, name, shape in db.execute(_OBJECTS):
        if _MADE.get((kind, name)) != shape:
            raise StoreError(_("{where} is not a combat-ledger store as this program made it: "
                               "it holds a {kind} {name!r} that combat-ledger did not make; "
                               "nothing was changed").format(
                                   where=where, kind=kind, name=neutral(name)[:60]))
    return rows[0][1], rows[0][2]


