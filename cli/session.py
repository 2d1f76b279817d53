"""What every command shares: the store, the current encounter, the actor."""
from __future__ import annotations

import os
from functools import cached_property
from pathlib import Path

from eventlog.errors import LedgerError, UnknownEncounter
from eventlog.events import Payload
from eventlog.store import Store
from projections.ledger import Decide, Ledger
from projections.state import State


def print_json(value) -> None:
    """JSON for scripts, indented by two and UTF-8 as is (msgspec writes what
    json.dumps(indent=2, ensure_ascii=False) would, without importing json)."""
    import msgspec

    from .output import json_text, write
    write(json_text(msgspec.json.format(msgspec.json.encode(value), indent=2).decode()) + "\n")


def default_db() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "combat-ledger" / "ledger.db"


class Session:
    def __init__(self, db: Path | None, encounter: str | None, actor: str,
                 quiet: bool = False):
        self.db = db or default_db()
        self.chosen = encounter
        self.actor = actor or "gm"
        self.quiet = quiet  # the demo plays commands without a table each

    def as_actor(self, actor: str) -> "Session":
        other = Session(self.db, self.chosen, actor, self.quiet)
        other.__dict__["ledger"] = self.ledger
        return other

    @cached_property
    def ledger(self) -> Ledger:
        return Ledger(Store(self.db))

    @property
    def encounter(self) -> str:
        eid = self.chosen or self.ledger.store.current()
        if not eid:
            raise LedgerError("no current encounter: start one with `combat new ID`")
        self.ledger.store.head(eid)  # raises UnknownEncounter
        return eid

    def state(self, at: int | None = None) -> State:
        return self.ledger.state(self.encounter, at)

    def declare(self, decide: Decide) -> None:
        state, envs = self.ledger.declare(self.encounter, decide, self.actor)
        self.report(state, [("✓", e.data) for e in envs])

    def report(self, state: State, lines: list[tuple[str, Payload]]) -> None:
        """Show what a command did, a line per (mark, declaration) and then
        the table; a quiet session (the demo, play mode) shows nothing."""
        if not self.quiet:
            from .render import show_done
            show_done(state, lines)


__all__ = ["Session", "UnknownEncounter", "default_db"]
