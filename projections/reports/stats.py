"""Post-game numbers: a projection fed by the same fold as `status`.

Per combatant: turns taken, AP spent in turns and on interrupts, actions by
category, AP left unspent when a round ended, seizes, Grit spent and gained.
Per round: passes, turns per pass, AP, actions, seizes, unspent AP. And the
encounter's totals. Only declarations in effect count: undone and retracted
ones do not, amended ones count as amended.

A turn is counted when it ends: declared ended (an empty turn if nothing was
spent in it), ended by the rules (no AP left, 4 AP spent: R21), or cut short
after AP was spent in it (the combatant left, the next round started, the
encounter ended). A round's unspent AP is the AP active combatants still had
when the next round started or the encounter ended (R15: it is lost).
"""
from __future__ import annotations

from collections import Counter
from typing import Any
from dataclasses import dataclass, field

from eventlog.events import (
    APSpent, CombatantJoined, EncounterEnded, FreeActionTaken,
    GritAdjusted, InterruptTaken, MomentSeized, RoundStarted, TurnEnded,
)

from projections.ledger import Ledger
from projections.reports.harm import Harm
from projections.domain.state import State
from projections.reports.timing import Timing, seconds_between, turn_dict
from projections.reports.walk import Before, Step, Track, in_turn, no_track, steps

CATEGORIES = ("free", "minor", "major", "custom")


def _categories() -> Counter:
    return Counter({c: 0 for c in CATEGORIES})


@dataclass
class Tally:
    """What one combatant did over the encounter."""
    turns: int = 0
    empty_turns: int = 0
    ap_in_turns: int = 0
    ap_on_interrupts: int = 0
    actions: Counter = field(default_factory=_categories)
    interrupts: int = 0
    ap_unspent: int = 0
    seizes: int = 0
    grit_spent: int = 0
    grit_gained: int = 0


@dataclass
class RoundTally:
    round: int
    passes: int = 1
    turns_per_pass: Counter = field(default_factory=Counter)
    ap_in_turns: int = 0
    ap_on_interrupts: int = 0
    actions: Counter = field(default_factory=_categories)
    interrupts: int = 0
    seizes: list[str] = field(default_factory=list)
    ap_unspent: int | None = None   # None while the round has not ended
    ap_by_combatant: Counter = field(default_factory=Counter)
    present: list[str] = field(default_factory=list)  # combatants in it, join order


class Stats:
    """Feed it every step of the fold; `result` gives `stats --json`."""

    def __init__(self) -> None:
        self.combatants: dict[str, Tally] = {}
        self.rounds: dict[int, RoundTally] = {}
        self.open_spent: dict[str, int] = {}   # AP spent in each turn in progress
        self.events = self.undone = 0
        self.amended: set[int] = set()
        self.first_at = self.last_at = ""
        self.timing = Timing()
        self.harm = Harm()  # tracks named hp, and conditions

    def feed(self, step: Step) -> None:
        self._record_event(step)
        if step.payload is None or step.before is None:  # (a step in effect has both)
            return
        p, before, after = step.payload, step.before, step.state
        env = step.entry.env
        self.harm.feed(step)
        match p:
            case CombatantJoined(id=cid):
                self.combatants[cid] = Tally()
                if after.round:
                    self._round(after.round).present.append(cid)
            case RoundStarted(round=n):
                self._round_ends(before)
                self.timing.round_started(n, before.round, env.at)
                self._round(n).present.extend(
                    c.id for c in after.combatants.values() if c.active)
            case EncounterEnded():
                self._round_ends(before)
                self.timing.encounter_ended(before.round, env.at)
            case MomentSeized(combatant=cid):
                self.combatants[cid].seizes += 1
                self.combatants[cid].grit_spent += 1
                self._round(before.round).seizes.append(cid)
            case APSpent(combatant=cid, cost=cost, category=cat):
                self.open_spent[cid] = self.open_spent.get(cid, 0) + cost
                self._spent(cid, cost, cat, before.round, interrupt=False)
            case InterruptTaken(combatant=cid, cost=cost, category=cat):
                self._spent(cid, cost, cat, before.round, interrupt=True)
            case FreeActionTaken(combatant=cid):
                self.combatants[cid].actions["free"] += 1
                if before.round:
                    self._round(before.round).actions["free"] += 1
            case GritAdjusted(combatant=cid, delta=delta):
                tally = self.combatants[cid]
                if delta < 0:
                    tally.grit_spent -= delta
                else:
                    tally.grit_gained += delta
        closed = self._turns_closed(p, before, after, env.at, env.seq)
        self.timing.after(after.turn if after.running else None, getattr(p, "combatant", None),
                          bool(closed) or (after.round, after.pass_) != (before.round, before.pass_),
                          env.at, env.seq)
        if after.round:
            r = self._round(after.round)
            r.passes = max(r.passes, after.pass_)

    def _record_event(self, step: Step) -> None:
        env = step.entry.env
        if step.amended:
            self.amended.add(env.batch)
            return
        self.events += 1
        self.first_at = self.first_at or env.at
        self.last_at = env.at
        if step.entry.undone_by is not None:
            self.undone += 1

    def _round(self, n: int) -> RoundTally:
        r = self.rounds.get(n)
        if r is None:
            r = self.rounds[n] = RoundTally(n)
        return r

    def _spent(self, cid: str, cost: int, category: str, round_: int, interrupt: bool) -> None:
        tally, r = self.combatants[cid], self._round(round_)
        tally.actions[category] += 1
        r.actions[category] += 1
        r.ap_by_combatant[cid] += cost
        if interrupt:
            tally.interrupts += 1
            tally.ap_on_interrupts += cost
            r.interrupts += 1
            r.ap_on_interrupts += cost
        else:
            tally.ap_in_turns += cost
            r.ap_in_turns += cost

    def _turns_closed(self, p, before: Before, after: State, at: str, seq: int) -> int:
        """Count the turns this declaration ended (see the module's doc)."""
        was, now = before.turn, in_turn(after)
        closed = []
        if was is not None and now != was:
            closed.append(was)
        if isinstance(p, (APSpent, TurnEnded)) and p.combatant not in (was, now):
            closed.append(p.combatant)  # started and ended at once, or an empty turn
        for cid in closed:
            spent = self.open_spent.pop(cid, 0)
            tally = self.combatants[cid]
            tally.turns += 1
            tally.empty_turns += spent == 0
            self._round(before.round).turns_per_pass[before.pass_] += 1
            self.timing.turn_closed(cid, before.round, before.pass_, spent, at, seq)
        return len(closed)

    def _round_ends(self, before: Before) -> None:
        if before.round == 0 or before.ended:
            return
        unspent = 0
        for cid, pool in before.pools.items():
            if pool.active:
                self.combatants[cid].ap_unspent += pool.ap
                unspent += pool.ap
        self._round(before.round).ap_unspent = unspent

    # -- the result ------------------------------------------------------

    def result(self, state: State, turns: bool = True) -> dict:
        """The numbers; without `turns`, less the list of every turn (the md
        export's tables do not show it, and it is the one part as long as
        the log)."""
        combatants: list[dict[str, Any]] = []
        seconds = self.timing.per_combatant()
        for cid, t in self.combatants.items():
            c = state.combatants[cid]
            combatants.append({
                "id": cid, "name": c.name, "side": c.side, "group": c.group,
                "active": c.active, "turns": t.turns, "empty_turns": t.empty_turns,
                "ap_spent": t.ap_in_turns + t.ap_on_interrupts,
                "ap_in_turns": t.ap_in_turns, "ap_on_interrupts": t.ap_on_interrupts,
                "actions": dict(t.actions), "interrupts": t.interrupts,
                "ap_unspent": t.ap_unspent, "seizes": t.seizes,
                "grit_spent": t.grit_spent, "grit_gained": t.grit_gained,
                "turn_seconds": seconds.get(cid, 0.0),
                "seconds_per_turn": round(seconds.get(cid, 0.0) / t.turns, 3) if t.turns else None,
            })
        rounds: list[dict[str, Any]] = []
        for n in sorted(self.rounds):
            r = self.rounds[n]
            per_pass = [r.turns_per_pass[i] for i in range(1, r.passes + 1)]
            rounds.append({
                "round": n, "passes": r.passes, "turns": sum(per_pass),
                "turns_per_pass": per_pass,
                "ap_spent": r.ap_in_turns + r.ap_on_interrupts,
                "ap_in_turns": r.ap_in_turns, "ap_on_interrupts": r.ap_on_interrupts,
                "actions": dict(r.actions), "interrupts": r.interrupts,
                "seizes": list(r.seizes), "ap_unspent": r.ap_unspent,
                "ap_by_combatant": {cid: r.ap_by_combatant[cid] for cid in r.present},
                "seconds": self.timing.round_seconds(n, self.last_at),
            })

        def total(key: str) -> int:
            return sum(c[key] for c in combatants)

        actions = _categories()
        for row in combatants:
            actions.update(row["actions"])
        totals = {
            "rounds": len(rounds), "passes": sum(r["passes"] for r in rounds),
            "turns": total("turns"), "empty_turns": total("empty_turns"),
            "ap_spent": total("ap_spent"), "ap_in_turns": total("ap_in_turns"),
            "ap_on_interrupts": total("ap_on_interrupts"), "actions": dict(actions),
            "interrupts": total("interrupts"), "ap_unspent": total("ap_unspent"),
            "seizes": total("seizes"), "grit_spent": total("grit_spent"),
            "grit_gained": total("grit_gained"),
            "events": self.events, "undone": self.undone, "amended": len(self.amended),
            "first_at": self.first_at or None, "last_at": self.last_at or None,
            "duration_seconds": round(seconds_between(self.first_at, self.last_at), 3),
            "turn_seconds": round(sum(seconds.values()), 3),
        }
        names = {c["id"]: c["name"] for c in combatants}
        return {"encounter": state.encounter, "title": state.title, "seq": state.seq,
                "phase": state.phase, "totals": totals, "combatants": combatants,
                "rounds": rounds, "slowest_turns": self.timing.slowest(names),
                "turns": [turn_dict(t, names) for t in self.timing.turns] if turns else [],
                **self.harm.result(state)}


def stats(ledger: Ledger, encounter: str, track: Track = no_track) -> dict:
    """`stats --json` of an encounter."""
    tally, state = Stats(), State(encounter)
    for step in steps(ledger, encounter, track):
        tally.feed(step)
        state = step.state
    return tally.result(state)
