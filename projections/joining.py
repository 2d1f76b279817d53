"""The encounter on the table and joining by the join page (the docs,
"Table server"), kept in the store so that every server over it agrees.

Both live beside the tokens, as rows a token check never accepts:
- the table: one row of role `table` naming the encounter the GM put there;
- a join request: a row of role `join`, holding the digest of the secret
  the phone was given and the PC it asks for. It is no token: it opens
  nothing until the GM approves it, and then the same row becomes a player
  token for that PC and encounter, so the phone that waited holds a token
  without anyone typing it. Denying it (`combat token revoke NAME`) removes
  the row.
"""
from __future__ import annotations

import hashlib
import secrets as random

from eventlog.codec import utc_now
from eventlog.errors import LedgerError, Refusal
from eventlog.stores.contract import Token
from eventlog.text import neutral

TABLE = "table"  # the role of the table's row
JOIN = "join"    # the role of a join request
TABLE_ROW = "(the table)"  # its name: no token name can read so (check_actor)
MAX_PENDING = 12  # join requests waiting at once, in the whole store


def on_table(store) -> str | None:
    """The encounter the GM put on the table, if any (and it still exists)."""
    row = next((t for t in store.tokens() if t.role == TABLE), None)
    if row is None or row.encounter is None:
        return None
    return row.encounter if row.encounter in {e.id for e in store.encounters()} else None


def put_on_table(store, encounter: str) -> None:
    """The GM's choice of the encounter every page follows."""
    if encounter not in {e.id for e in store.encounters()}:
        raise LedgerError(f"no encounter {neutral(encounter)!r} to put on the table "
                          "(`combat list` shows them)")
    if store.is_archived(encounter):  # out of the pages (the docs, `archive`)
        raise LedgerError(f"{neutral(encounter)} is archived: `combat unarchive "
                          f"{neutral(encounter)}` first, then put it on the table")
    store.revoke_token(TABLE_ROW)
    digest = hashlib.sha256(random.token_bytes(32)).hexdigest()  # (matches no secret)
    store.add_token(Token(TABLE_ROW, TABLE, (), encounter, digest, utc_now()))


def current_to_table(store, current: str | None) -> str | None:
    """Served without a choice of encounter: the GM's last choice stays; with
    none (or one deleted or archived since), `current`, the encounter the
    terminal that starts the server works in, goes on the table if it is
    there and not archived. What is on the table then."""
    chosen = on_table(store)
    if chosen is not None and not store.is_archived(chosen):
        return chosen
    if current is None or current not in {e.id for e in store.encounters()} \
            or store.is_archived(current):
        return None
    put_on_table(store, current)
    return current


def pending(store) -> list[Token]:
    return [t for t in store.tokens() if t.role == JOIN]


def open_seats(store, state) -> list[dict]:
    """The PCs of the encounter on the table a player may ask for: visible
    ones, each with whether a token owns it or a request waits for it."""
    claimed = {cid for t in store.tokens() if t.encounter == state.encounter
               and t.role in ("player", JOIN) for cid in t.owns}
    return [{"id": c.id, "name": c.name, "claimed": c.id in claimed}
            for c in state.combatants.values()
            if c.side == "pc" and c.active and c.id not in state.hidden]


def request(store, state, name: str, cid: str) -> str:
    """A join request for PC `cid` of the encounter on the table, under the
    name the player gives; the secret the phone keeps (a token once approved)."""
    from eventlog.text import check_actor
    from projections.access import check_unlike, digest
    check_actor(name)
    if name.strip().lower() == "gm":
        raise Refusal("the name gm is the GM's: give your own name")
    seats = {s["id"]: s for s in open_seats(store, state)}
    if cid not in seats:
        raise Refusal(f"{neutral(cid)!r} is no PC of {state.encounter}: pick one of "
                      f"{', '.join(seats) or 'none yet'}")
    if seats[cid]["claimed"]:
        raise Refusal(f"{seats[cid]['name']} is taken already: pick another PC")
    if len(pending(store)) >= MAX_PENDING:
        raise Refusal("too many requests are waiting: ask the GM to answer them first")
    check_unlike(name, [t.name for t in store.tokens()])
    secret = random.token_urlsafe(32)
    store.add_token(Token(name, JOIN, (cid,), state.encounter, digest(secret), utc_now()))
    return secret


def approve(store, name: str) -> Token:
    """The request `name` becomes a player token for its PC and encounter."""
    from projections.access import named
    found = named(pending(store), name)
    if found is None:
        waiting = ", ".join(neutral(t.name) for t in pending(store)) or "none"
        raise LedgerError(f"no join request named {neutral(name)!r} (waiting: {waiting})")
    token = found._replace(role="player", created_at=utc_now())
    store.revoke_token(found.name)
    store.add_token(token)
    return token
