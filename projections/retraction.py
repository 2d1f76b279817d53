"""Retraction (R28) and amendment of an earlier declaration: the history is
re-judged without it (or with its correction in its place).

A change is accepted only if every later effective declaration is still
legal; otherwise the ones that would become illegal are listed, and a
cascading retraction retracts them in the same append.
"""
from __future__ import annotations

from itertools import groupby
from typing import Iterable

from eventlog.codec import Envelope
from eventlog.errors import Refusal
from eventlog.events import CORRECTIONS, Payload
from eventlog.undo import Corrections

from .ledger import apply
from .narrate import describe
from .rules import judge
from .state import State


class Casualty:
    """A later declaration that the change would make illegal."""

    def __init__(self, env: Envelope, payload: Payload, why: str):
        self.env, self.payload, self.why = env, payload, why

    def __str__(self) -> str:
        who = getattr(self.payload, "combatant", None) or getattr(self.payload, "slot", "")
        whom = f" by {who}" if who else ""
        return (f"seq {self.env.seq} {type(self.payload).__name__}{whom} "
                f"({describe(self.payload)}): {self.why}")


def casualties(envelopes: Iterable[Envelope], corrections: Corrections, target: int,
               encounter: str, replacement: list[Payload] | None = None) -> list[Casualty]:
    """Fold the effective history with batch `target` left out (or replaced),
    judging every batch after it; a refused batch is listed and left out."""
    state = State(encounter)
    lost: list[Casualty] = []
    for batch, group in groupby(envelopes, key=lambda e: e.batch):
        envs = list(group)
        if batch in corrections.undone or envs[0].type in CORRECTIONS:
            continue
        if batch == target:
            if replacement is not None:
                try:
                    state = apply(state, replacement)
                except Refusal as exc:
                    raise Refusal(f"the correction of seq {target} is itself "
                                  f"illegal: {exc}") from None
            continue
        payloads = corrections.replaced.get(batch) or [e.data for e in envs]
        if batch < target:
            for p in payloads:
                state.evolve(p)
            continue
        try:
            if len(payloads) == 1:
                judge(state, payloads[0])
                state.evolve(payloads[0])
            else:
                state = apply(state, payloads)
        except Refusal as exc:
            lost.append(Casualty(envs[0], payloads[0], str(exc)))
    return lost


def listing(lost: list[Casualty]) -> str:
    return (f"{len(lost)} later declaration{'s' if len(lost) != 1 else ''} "
            f"illegal: " + "; ".join(str(c) for c in lost))
