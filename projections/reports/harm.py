"""What tracks and conditions tell after the fight, fed by the
same fold as the stats: damage taken, dealt and healed per combatant and
round when a track named hp is used, and the conditions on each combatant
in each round.

Damage is a fall of hp, healing a rise (a track's first value is neither).
Damage dealt goes to whoever the change names (`track ... --by ID`), else to
whoever's turn it was declared in, when that is someone else; otherwise it
is dealt by nobody the log names and counts as taken only.
"""
from __future__ import annotations

from collections import Counter

from eventlog.events import EffectApplied, RoundStarted, TrackChanged

from projections.domain.state import State
from projections.reports.walk import Step, where

HP = "hp"


class Harm:
    """Feed it every step of the fold; `result` gives the `hp` and
    `conditions` keys of `stats --json`."""

    def __init__(self) -> None:
        self.hp: dict[str, int] = {}            # each combatant's hp as last seen
        self.used = False                        # a track named hp was declared
        self.taken: Counter = Counter()
        self.dealt: Counter = Counter()
        self.healed: Counter = Counter()
        self.rounds: dict[int, dict[str, Counter]] = {}   # round -> taken/dealt by cid
        self.conditions: dict[int, dict[str, list[str]]] = {}

    def feed(self, step: Step) -> None:
        p = step.payload
        if isinstance(p, TrackChanged) and p.track == HP:
            self._hp(step, p)
        elif isinstance(p, EffectApplied) and not p.max_ap:
            self._on(step.state.round, p.combatant, p.name)
        elif isinstance(p, RoundStarted):
            for e in step.state.effects.values():
                if not e.delta and e.covers(p.round):
                    self._on(p.round, e.combatant, e.name)

    def _on(self, round_: int, cid: str, name: str) -> None:
        if round_:
            names = self.conditions.setdefault(round_, {}).setdefault(cid, [])
            if name not in names:
                names.append(name)

    def _hp(self, step: Step, p: TrackChanged) -> None:
        self.used = True
        cid = p.combatant
        now = step.state.tracks[cid][HP].value
        was = self.hp.get(cid)
        self.hp[cid] = now
        if was is None or now == was:
            return
        round_, _, turn = where(step)
        if now > was:
            self.healed[cid] += now - was
            return
        harm = was - now
        self.taken[cid] += harm
        by = p.by if p.by is not None else turn if turn not in (None, cid) else None
        per = self.rounds.setdefault(round_, {"taken": Counter(), "dealt": Counter()})
        per["taken"][cid] += harm
        if by is not None:
            self.dealt[by] += harm
            per["dealt"][by] += harm

    def result(self, state: State) -> dict:
        ids = list(state.combatants)
        hp = {"used": self.used, "combatants": [
            {"id": cid, "name": state.combatants[cid].name, "taken": self.taken[cid],
             "dealt": self.dealt[cid], "healed": self.healed[cid],
             "hp": state.tracks[cid][HP].value
             if HP in state.tracks.get(cid, {}) else None}
            for cid in ids] if self.used else [],
            "rounds": [{"round": n,
                        "taken": {c: v for c, v in self.rounds[n]["taken"].items() if v},
                        "dealt": {c: v for c, v in self.rounds[n]["dealt"].items() if v}}
                       for n in sorted(self.rounds)]}
        conditions = [{"round": n, "on": {cid: list(names) for cid, names in
                                          self.conditions[n].items()}}
                      for n in sorted(self.conditions)]
        return {"hp": hp, "conditions": conditions}
