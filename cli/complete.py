"""Shell completion (`combat --install-completion`): Tab on an ID or SLOT
argument offers the ids of the current encounter.

Completion runs inside the shell's prompt: it must be quiet and quick, and
it must never fail. Whatever goes wrong (no store yet, a locked or foreign
file, no current encounter) offers nothing.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from eventlog.stores.contract import EventStore

KINDS = ("combatants", "groups")  # "slots": lone combatants, groups, seizers


def encounter_ids(ctx=None, incomplete: str = "", kinds=KINDS, typed=()) -> list[str]:
    """Ids of the current encounter starting with `incomplete`: combatants,
    groups, both, or slots (`kinds`), leaving out those already `typed`.

    The store and encounter are found as a command finds them: `--db` /
    COMBAT_DB / the default path, and `--encounter` / COMBAT_ENCOUNTER / the
    current one."""
    def read(store, chosen):
        from eventlog.userstate import current
        from projections.ledger import Ledger
        eid = chosen or current(store.identity)
        if not eid:
            return []
        state = Ledger(store).state(eid)
        ids = [*(state.combatants if "combatants" in kinds else ()),
               *(state.groups if "groups" in kinds else ())]
        if "slots" in kinds:  # a member is no slot, unless it seized (R7, R11)
            ids = [c.id for c in state.combatants.values() if c.group is None or c.seized]
            ids += list(state.groups)
        return [i for i in ids if i.startswith(incomplete or "") and i not in typed]
    return _quietly(ctx, read)


def encounter_names(ctx=None, incomplete: str = "") -> list[str]:
    """Ids of the encounters in the store (`use`, `new --carry-grit`)."""
    return _quietly(ctx, lambda store, _: [
        row[0] for row in store.encounters() if row[0].startswith(incomplete or "")])


def _quietly(ctx, read) -> list[str]:
    """`read(store, chosen encounter)`, or [] whatever goes wrong."""
    try:
        db, chosen = _where(ctx)
        from eventlog.stores import is_url
        store: EventStore
        if is_url(db):
            from eventlog.stores.postgres import PostgresStore
            store = PostgresStore(str(db), create=False)  # never create a store to complete a word
        elif not Path(db).is_file():
            return []
        else:
            from eventlog.stores.sqlite import Store
            store = Store(db)
        try:
            return read(store, chosen)
        finally:
            store.close()
    except Exception:  # noqa: BLE001 - a shell prompt must never see a traceback
        return []


def _where(ctx) -> tuple[Path | str, str | None]:
    from cli.session import default_db
    root = ctx.find_root() if ctx is not None else None
    obj = getattr(root, "obj", None)
    from eventlog.stores import is_url
    if obj is not None and hasattr(obj, "chosen"):  # a Session (the play console)
        return (obj.db if is_url(obj.db) else Path(obj.db)), obj.chosen
    params = getattr(root, "params", None) or {}
    db = params.get("db") or os.environ.get("COMBAT_DB") or default_db()
    chosen = params.get("encounter") or os.environ.get("COMBAT_ENCOUNTER") or None
    return (db if is_url(db) else Path(db)), chosen


# The callbacks wired with `autocompletion=`. The ids already typed in the
# command are left out, so `order vex <Tab>` does not offer vex again.

def combatant_ids(ctx, incomplete: str) -> list[str]:
    return encounter_ids(ctx, incomplete, ("combatants",), _typed(ctx))


def target_ids(ctx, incomplete: str) -> list[str]:
    """`track`'s and `effect`'s ID: a list between commas, so after
    `goblin-1,` Tab offers the next target (not one already listed)."""
    head, comma, tail = incomplete.rpartition(",")
    listed = set(head.split(",")) if comma else set()
    return [head + comma + i for i in
            encounter_ids(ctx, tail, ("combatants",), _typed(ctx) | listed)]


def group_ids(ctx, incomplete: str) -> list[str]:
    return encounter_ids(ctx, incomplete, ("groups",), _typed(ctx))


def slot_ids(ctx, incomplete: str) -> list[str]:
    return encounter_ids(ctx, incomplete, ("slots",), _typed(ctx))


def _typed(ctx) -> set[str]:
    typed = set()
    for value in (getattr(ctx, "params", None) or {}).values():
        if isinstance(value, str):
            typed.add(value)
        elif isinstance(value, (list, tuple)):
            typed.update(v for v in value if isinstance(v, str))
    return typed
