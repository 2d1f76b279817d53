"""Realistic encounters for the benchmarks, built through the library.

Every declaration is chosen from what is legal now and passed through the
judge, so the log is one a table could have written: 10 combatants (two PCs
with Grit, a boss, a drone, a squad of four gangers sharing one roll, two
more NPCs), rounds of several passes, seizes, interrupts, free actions,
notes, and corrections spread through it as a long campaign's log has them:
undos, retractions of earlier notes and amended labels of free actions
(corrections of what the fold leaves out, so the log stays legal).
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from eventlog.events import (  # noqa: E402
    Amended, APSpent, CombatantJoined, FreeActionTaken, GritAdjusted, InitiativeRolled,
    InterruptTaken, MomentSeized, NoteAdded, Payload, RoundStarted, TurnEnded, Undone,
)
from eventlog.stores.sqlite import Store  # noqa: E402
from projections.domain.rules import judge  # noqa: E402
from projections.domain.state import State  # noqa: E402
from projections.domain.evolve import evolve

CAST = [("rook", "pc", 3, 3, "", 1), ("vex", "pc", 2, 4, "", 1),
        ("boss", "npc", 4, 4, "", 0), ("drone", "npc", 1, 3, "", 0),
        ("ganger-1", "npc", 1, 3, "gangers", 0), ("ganger-2", "npc", 1, 3, "gangers", 0),
        ("ganger-3", "npc", 1, 3, "gangers", 0), ("ganger-4", "npc", 1, 3, "gangers", 0),
        ("sniper", "npc", 2, 3, "", 0), ("medic", "npc", 0, 3, "", 0)]
CHUNK = 5000


class Builder:
    def __init__(self, store: Store, encounter: str, seed: int = 7, corrected: float = 0.0):
        self.store, self.encounter = store, encounter
        self.corrected = corrected  # the share of declarations taken back at once (undo)
        self.rng = random.Random(seed)
        self.state = State(encounter)
        self.pending: list[list[Payload]] = []
        self.seq = 0
        store.create(encounter, _created(encounter), "gm")
        evolve(self.state, _created(encounter))
        self.state.seq = self.seq = 1
        self.head = 1
        self.earlier: dict[str, tuple[int, str]] = {}  # batches a later correction names

    def declare(self, *payloads: Payload) -> None:
        for p in payloads:
            judge(self.state, p)
            evolve(self.state, p)
        self.pending.append(list(payloads))
        self.seq += len(payloads)
        if len(self.pending) >= CHUNK:
            self.flush()

    def undo_last_note(self, text: str) -> None:
        """A note declared and undone: the undo leaves the state as it was."""
        self.declare(NoteAdded(text=text))
        self.pending.append([Undone([self.seq], "undo", "typo")])
        self.seq += 1

    def correct_earlier(self) -> None:
        """A note retracted, or a free action's label amended, a few batches
        after it was declared (R28)."""
        if "note" in self.earlier:
            self.pending.append([Undone([self.earlier.pop("note")[0]], "retract", "wrong")])
            self.seq += 1
        if "free" in self.earlier:
            batch, who = self.earlier.pop("free")
            self.pending.append([Amended(batch, [FreeActionTaken(combatant=who,
                                                                 label="ducks")])])
            self.seq += 1

    def flush(self) -> None:
        if self.pending:
            self.head = self.store.append_batches(self.encounter, self.head,
                                                  self.pending, "gm")
            self.pending = []

    def setup(self) -> None:
        self.declare(*[CombatantJoined(id=c, name=c.title(), side=side, bonus=b,
                                       max_ap=ap, grit=grit, group=g or None)
                       for c, side, b, ap, g, grit in CAST])
        for slot in ("rook", "vex", "boss", "drone", "gangers", "sniper", "medic"):
            bonus = 1 if slot == "gangers" else self.state.combatants[slot].bonus
            die = self.rng.randint(1, 10)
            self.declare(InitiativeRolled(slot=slot, die=die, bonus=bonus,
                                          total=die + bonus, manual=False))

    def play_round(self) -> None:
        s, rng = self.state, self.rng
        self.declare(RoundStarted(round=s.round + 1))
        for pc in ("rook", "vex"):
            if s.combatants[pc].grit and rng.random() < 0.3:
                self.declare(MomentSeized(combatant=pc))
        while s.running:
            if self.corrected and rng.random() < self.corrected:
                self.undo_last_note("said at the wrong table")
                continue
            roll = rng.random()
            if roll < 0.05:
                self.declare(NoteAdded(text=f"round {s.round}: the fire spreads"))
                self.earlier.setdefault("note", (self.seq, ""))
                continue
            if roll < 0.12:
                who = rng.choice(list(s.combatants))
                self.declare(FreeActionTaken(combatant=who, label="shouts"))
                self.earlier.setdefault("free", (self.seq, who))
                continue
            if roll < 0.18:
                others = [c for c in s.combatants.values()
                          if c.ap > 0 and c.id != s.turn and c.active]
                if others:
                    c = rng.choice(others)
                    self.declare(InterruptTaken(combatant=c.id, cost=1, category="minor",
                                                label="dodges"))
                continue
            if roll < 0.19:
                self.undo_last_note("wrong table")
                continue
            if roll < 0.2:
                self.correct_earlier()
                continue
            who = s.turn or rng.choice(s.up())
            c = s.combatants[who]
            room = min(c.ap, 4 - c.spent_this_turn)
            if room and rng.random() < 0.75:
                cost = rng.choice([1, 2] if room >= 2 else [1])
                self.declare(APSpent(combatant=who, cost=cost,
                                     category="minor" if cost == 1 else "major",
                                     label="shoots" if cost == 2 else "moves"))
            else:
                self.declare(TurnEnded(combatant=who))
        if rng.random() < 0.2:
            self.declare(GritAdjusted(combatant=rng.choice(["rook", "vex"]), delta=1,
                                      reason="a good plan"))


def _created(encounter: str):
    from eventlog.events import EncounterCreated
    return EncounterCreated(encounter=encounter, title=f"benchmark {encounter}")


def build(store: Store, encounter: str, events: int, seed: int = 7,
          corrected: float = 0.0) -> int:
    """An encounter of about `events` events; returns the exact count.
    `corrected`: the share of declarations undone at once, on top of the
    usual corrections (0.8: most of the log is corrections in force)."""
    b = Builder(store, encounter, seed, corrected)
    b.setup()
    while b.seq < events:
        b.play_round()
    b.flush()
    return b.seq


if __name__ == "__main__":
    import time
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/bench.db")
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    t = time.perf_counter()
    count = build(Store(path), f"bench-{n}", n)
    print(f"{count} events in {time.perf_counter() - t:.1f} s into {path}")
