"""The SQLite store's tables, its forward-only migrations, and whether a
database is one of ours: asked before anything is written to it.

A store carries its own marker, SQLite's `application_id` header field. A
store from before the marker is recognised by its tables, column for
column, and its `meta.schema_version`; a foreign database that merely has
tables of the same names is left alone, byte for byte.
"""
from __future__ import annotations

import sqlite3

from eventlog.language import N_, _

SCHEMA_VERSION = 8  # 2: the table server's tokens, 3: its webhooks, 4: the hooks
# the GM let send to a private address, 5: portraits, 6: join requests and the
# table's choice in tables of their own, 7: archive and import marks in tables
# of their own, 8: the language a token's pages speak (MIGRATIONS below)
SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE encounters (
    id TEXT PRIMARY KEY, title TEXT NOT NULL, created_at TEXT NOT NULL,
    head_seq INTEGER NOT NULL, head_hash TEXT NOT NULL);
CREATE TABLE events (
    encounter TEXT NOT NULL, seq INTEGER NOT NULL, batch INTEGER NOT NULL,
    type TEXT NOT NULL, at TEXT NOT NULL, actor TEXT NOT NULL,
    data BLOB NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (encounter, seq)) WITHOUT ROWID;
CREATE INDEX events_by_type ON events (encounter, type, seq);
CREATE TABLE snapshots (
    encounter TEXT PRIMARY KEY, seq INTEGER NOT NULL, hash TEXT NOT NULL,
    version TEXT NOT NULL, state BLOB NOT NULL);
"""
HOOKS_TABLES = (
    "CREATE TABLE hooks (id TEXT PRIMARY KEY, url TEXT NOT NULL UNIQUE, "
    "discord INTEGER NOT NULL, secret TEXT NOT NULL, created_at TEXT NOT NULL)",
    "CREATE TABLE hook_marks (hook TEXT NOT NULL, encounter TEXT NOT NULL, "
    "seq INTEGER NOT NULL, PRIMARY KEY (hook, encounter))",
)
TOKENS_TABLE = (
    "CREATE TABLE tokens (name TEXT PRIMARY KEY, role TEXT NOT NULL, "
    "owns TEXT NOT NULL, encounter TEXT, digest TEXT NOT NULL UNIQUE, "
    "created_at TEXT NOT NULL)")
# The schema version each step reaches, and its statements: a store of an
# older version is brought forward step by step when it is opened.
HOOK_PRIVATE_TABLE = "CREATE TABLE hook_private (hook TEXT PRIMARY KEY)"
# Images kept under their SHA-256 (an event names one by digest; never removed).
PORTRAITS_TABLE = ("CREATE TABLE portraits (digest TEXT PRIMARY KEY, media TEXT NOT NULL, "
                   "data BLOB NOT NULL)")
# Join requests and the encounter on the table, each bound to one life of
# its encounter (the hash of its first event). They were rows of `tokens`
# (roles `join` and `table`) before: moved here, a request as expired.
_FIRST = "coalesce((SELECT hash FROM events e WHERE e.encounter = t.encounter AND e.seq = 1), '')"
SEATS_TABLES = (
    "CREATE TABLE joins (name TEXT PRIMARY KEY, pc TEXT NOT NULL, seat TEXT NOT NULL, "
    "encounter TEXT NOT NULL, "
    "life TEXT NOT NULL, digest TEXT NOT NULL UNIQUE, address TEXT NOT NULL, "
    "asked_at TEXT NOT NULL, expires_at TEXT NOT NULL, state TEXT NOT NULL, said TEXT NOT NULL)",
    "CREATE TABLE on_table (encounter TEXT NOT NULL, life TEXT NOT NULL)",
    f"INSERT INTO joins SELECT t.name, t.owns, t.owns, t.encounter, {_FIRST}, t.digest, '', "
    "t.created_at, t.created_at, 'waiting', '' FROM tokens t "
    "WHERE t.role = 'join' AND t.encounter IS NOT NULL",
    f"INSERT INTO on_table SELECT t.encounter, {_FIRST} FROM tokens t "
    "WHERE t.role = 'table' AND t.encounter IS NOT NULL",
    "DELETE FROM tokens WHERE role IN ('join', 'table')",
)
# The encounters set aside by `archive`, and per encounter brought in by
# `import` the seq up to which its log came from a file. They were rows of
# `meta` (keys `archived:ID` and `imported:ID`) before: moved here.
MARKS_TABLES = (
    "CREATE TABLE archived (encounter TEXT PRIMARY KEY)",
    "CREATE TABLE imported (encounter TEXT PRIMARY KEY, upto INTEGER NOT NULL)",
    "INSERT INTO archived SELECT substr(key, 10) FROM meta WHERE key LIKE 'archived:%'",
    "INSERT INTO imported SELECT substr(key, 10), value FROM meta WHERE key LIKE 'imported:%'",
    "DELETE FROM meta WHERE key LIKE 'archived:%' OR key LIKE 'imported:%'",
)
# The language a token's pages speak, where the GM chose one (`token add
# --lang`): a table of its own, so that a token's row keeps its shape.
LANGUAGES_TABLE = "CREATE TABLE token_languages (name TEXT PRIMARY KEY, language TEXT NOT NULL)"
MIGRATIONS: dict[int, tuple[str, ...]] = {2: (TOKENS_TABLE,), 3: HOOKS_TABLES,
                                          4: (HOOK_PRIVATE_TABLE,), 5: (PORTRAITS_TABLE,),
                                          6: SEATS_TABLES, 7: MARKS_TABLES, 8: (LANGUAGES_TABLE,)}

APPLICATION_ID = 0x436C6467  # "Cldg": combat-ledger, in the database header
# The columns of a store's tables, as version 1 wrote them.
COLUMNS = {
    "meta": ("key", "value"),
    "encounters": ("id", "title", "created_at", "head_seq", "head_hash"),
    "events": ("encounter", "seq", "batch", "type", "at", "actor", "data",
               "prev_hash", "hash", "version"),
}


def recognised(db: sqlite3.Connection, tables: set[str]) -> bool:
    """Whether the (non-empty) database is a combat-ledger store."""
    marker = db.execute("PRAGMA application_id").fetchone()[0]
    if marker == APPLICATION_ID:
        return True
    if marker != 0:
        return False  # another program's own marker
    for table, columns in COLUMNS.items():
        if table not in tables:
            return False
        found = tuple(r[1] for r in db.execute(f"PRAGMA table_info({table})"))
        if found != columns:
            return False
    row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return row is not None


def schema_version(value) -> int | None:
    """meta.schema_version as a number, if it is a short one (a 4,000-digit
    version is damage, not a version, and must not be echoed whole)."""
    text = str(value)
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def schema_objects(*scripts: str) -> dict[str, tuple[str, str]]:
    """{name: (type, sql as sqlite_master keeps it, spaces folded)} of the
    tables and indexes `scripts` create."""
    made: dict[str, tuple[str, str]] = {}
    for script in scripts:
        for statement in script.split(";"):
            words = statement.split()
            if words[:1] == ["CREATE"]:
                kind = words[1].lower()
                made[words[2]] = (kind, " ".join(words))
    return made


FOREIGN = {  # a thing in a store that is not ours, by its kind
    "table": N_("a table {name} that combat-ledger did not make"),
    "index": N_("an index {name} that combat-ledger did not make"),
    "view": N_("a view {name} that combat-ledger did not make"),
    "trigger": N_("a trigger {name} that combat-ledger did not make")}


def foreign_object(rows, made: dict[str, tuple[str, str]]) -> str | None:
    """The first object in a store's sqlite_master rows (type, name, table,
    sql) that combat-ledger did not make as it is (a trigger, a view, a table
    or index of another shape), said in a few words; None if there is none.
    A table or index of ours may be missing (older stores lack some)."""
    ours = {name for name, (kind, _sql) in made.items() if kind == "table"}
    for kind, name, table, sql in rows:
        if kind == "index" and sql is None and table in ours and name.startswith(
                f"sqlite_autoindex_{table}_") and name.rsplit("_", 1)[-1].isdigit():
            continue  # (a PRIMARY KEY's or UNIQUE's own index)
        want = made.get(name)
        if want is None or want != (kind, " ".join(str(sql).split())):
            said = FOREIGN.get(kind, N_("a {kind} {name} that combat-ledger did not make"))
            return _(said).format(kind=kind, name=repr(str(name)[:60]))
    return None


# Every table and index a store of any version may hold:
# anything else in the file (a trigger, a view, a table of another shape)
# was put there by someone else, and the file is not opened.
MADE = schema_objects(SCHEMA, *(s for step in MIGRATIONS.values() for s in step))
