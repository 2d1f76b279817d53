"""The log as people read it: each event with the round, pass and turn it was
declared in, and what later undid, retracted or amended it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from eventlog.codec import Envelope
from eventlog.events import CORRECTIONS, OVERRIDES, Amended, Redone, Undone

from .ledger import Ledger, envelope
from .state import State

AUDITED = OVERRIDES + ("OrderDeclared",) + CORRECTIONS


@dataclass
class Entry:
    env: Envelope
    round: int
    pass_: int
    turn: str | None
    undone_by: tuple[int, str, str] | None = None  # (seq, "undo"/"retract", reason)
    amended_by: int | None = None

    @property
    def who(self) -> str | None:
        data = self.env.data
        return getattr(data, "combatant", None) or getattr(data, "slot", None) \
            or getattr(data, "id", None)

    @property
    def context(self) -> str:
        if self.round == 0:
            return "setup"
        where = f"R{self.round}.{self.pass_}"
        return f"{where} {self.turn}" if self.turn else where


def timeline(ledger: Ledger, encounter: str) -> Iterator[Entry]:
    corrections = ledger.corrections(encounter)
    undone_by: dict[int, tuple[int, str, str]] = {}
    amended_by: dict[int, int] = {}
    for row in ledger.store.markers(encounter):
        env = envelope(row)
        if isinstance(env.data, Undone):
            for batch in env.data.batches:
                undone_by[batch] = (env.seq, env.data.kind, env.data.reason)
        elif isinstance(env.data, Redone):
            undone_by.pop(env.data.batch, None)
        elif isinstance(env.data, Amended) and env.batch not in corrections.undone:
            amended_by[env.data.batch] = env.seq
    state = State(encounter)
    for row in ledger.store.rows(encounter):
        env = envelope(row)
        yield Entry(env, state.round, state.pass_, state.turn if state.running else None,
                    undone_by.get(env.batch), amended_by.get(env.batch))
        state.seq = env.seq
        if env.batch in corrections.undone or env.type in CORRECTIONS:
            continue
        replaced = corrections.replaced.get(env.batch)
        if replaced is None:
            state.evolve(env.data)
        elif env.seq == env.batch:
            for payload in replaced:
                state.evolve(payload)
