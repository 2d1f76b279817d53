"""Wall-clock time of an encounter, read from the `at` of its events (R29).

- The **duration** runs from the first event to the last.
- A **round** lasts from its `RoundStarted` to the next round's start or the
  encounter's end (an open round: to the last event so far).
- A **turn** lasts from the moment the table waits on it to the declaration
  that ends it. The table waits on a turn from the moment the pass reaches
  its slot (a lone combatant: the declaration that moved the pass there); in
  a group slot, whose members act in any order (R8), from the moment the
  slot was reached or the previous member's turn ended, whichever is later,
  so a member's turn starts at its first declaration at the latest.
  A turn passed or ended at once has the time since the table last moved.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

SLOWEST = 5  # turns listed as the slowest


def seconds_between(start: str, end: str) -> float:
    """Seconds from one `at` to another (ISO 8601 UTC, `Z`)."""
    if not start or not end:
        return 0.0
    delta = datetime.fromisoformat(end[:-1]) - datetime.fromisoformat(start[:-1])
    return max(delta.total_seconds(), 0.0)


def duration(seconds: float) -> str:
    """Seconds as people read a clock: 45s, 6m40s, 1h05m."""
    whole = int(round(seconds))
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"


@dataclass
class Turn:
    """One turn taken: where, who, what it spent, and how long it took."""
    index: int
    round: int
    pass_: int
    combatant: str
    ap_spent: int
    started_at: str
    ended_at: str
    start_seq: int
    end_seq: int

    @property
    def seconds(self) -> float:
        return round(seconds_between(self.started_at, self.ended_at), 3)


class Timing:
    """Fed by `Stats` as the fold goes: when the table moved on, when each
    turn started and ended, when each round started."""

    def __init__(self) -> None:
        self.turns: list[Turn] = []
        self.round_start: dict[int, str] = {}
        self.round_end: dict[int, str] = {}
        self.ready_at = ""      # when the table last moved on (a turn, a pass, a round)
        self.ready_seq = 0
        self.started: dict[str, tuple[str, int]] = {}  # turns in progress: (at, seq)
        self.holder: str | None = None

    def round_started(self, n: int, previous: int, at: str) -> None:
        if previous:
            self.round_end.setdefault(previous, at)
        self.round_start[n] = at

    def encounter_ended(self, round_: int, at: str) -> None:
        if round_:
            self.round_end.setdefault(round_, at)

    def turn_closed(self, cid: str, round_: int, pass_: int, spent: int,
                    at: str, seq: int) -> None:
        start_at, start_seq = self.started.pop(cid, (self.ready_at or at, self.ready_seq or seq))
        self.turns.append(Turn(len(self.turns) + 1, round_, pass_, cid, spent,
                               start_at, at, start_seq, seq))

    def after(self, holder: str | None, declared_by: str | None, moved: bool,
              at: str, seq: int) -> None:
        """After each declaration: who holds the turn now, and whether the
        table moved on (a turn closed, the pass or the round changed)."""
        if holder is not None and holder != self.holder and holder not in self.started:
            # reached by the pass now, or (a group member) waited on since the
            # table last moved
            self.started[holder] = (self.ready_at or at, self.ready_seq or seq) \
                if declared_by == holder else (at, seq)
        if moved or holder != self.holder:
            self.ready_at, self.ready_seq = at, seq
        self.holder = holder

    # -- the result ------------------------------------------------------

    def round_seconds(self, n: int, last_at: str) -> float:
        return round(seconds_between(self.round_start.get(n, ""),
                                     self.round_end.get(n, last_at)), 3)

    def per_combatant(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for t in self.turns:
            out[t.combatant] = round(out.get(t.combatant, 0.0) + t.seconds, 3)
        return out

    def slowest(self, names: dict[str, str]) -> list[dict]:
        ranked = sorted(self.turns, key=lambda t: (-t.seconds, t.index))[:SLOWEST]
        return [turn_dict(t, names) for t in ranked]


def turn_dict(t: Turn, names: dict[str, str]) -> dict:
    return {"turn": t.index, "round": t.round, "pass": t.pass_, "combatant": t.combatant,
            "name": names.get(t.combatant, t.combatant), "ap_spent": t.ap_spent,
            "seconds": t.seconds, "started_at": t.started_at, "ended_at": t.ended_at,
            "start_seq": t.start_seq, "end_seq": t.end_seq}
