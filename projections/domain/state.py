"""The encounter state, folded from the log (decider pattern: `evolve` only
sets fields, one step per event type in `evolve.py`; the rules that judge a
declaration live in `rules.py`).

Whose turn it is, which pass, and who may still act are derived here and never
stored as events. The pass is a cursor walking the order from the top: a slot
it walks past (finished, or with nobody able to act, R21) is `passed` for the
rest of the pass, and a slot placed above the cursor mid-pass waits for the
next pass (R23).

(No `from __future__ import annotations` here: msgspec builds the snapshot's
decoder from these annotations on every command, and evaluated ones spare it
reading each as a string: ~0.7 ms of every command's start.)
"""
from collections.abc import Callable
from typing import Any

import msgspec

from projections.domain import ties

TURN_LIMIT = 4  # R17
SIDE_RANK = {"pc": 0, "npc": 1}  # R3, R12: PCs first
# A fold's step or the judge's check of one event type (Any: the event of its key).
Step = Callable[["State", Any], None]


class Combatant(msgspec.Struct, gc=False):
    id: str
    name: str
    side: str
    bonus: int
    max_ap: int
    ap: int
    grit: int
    group: str | None
    joined: int
    active: bool = True
    spent_this_turn: int = 0
    seized: bool = False
    in_force: int = 0  # the maximum of the last restore (R14)
    portrait: str | None = None  # its image's SHA-256 (the store keeps it)


class Group(msgspec.Struct):
    id: str
    joined: int
    bonus: int | None = None
    members: list[str] = []


class Effect(msgspec.Struct, gc=False):
    """A timed change of a combatant's maximum AP, in force for rounds
    `first` to `last` (R14); with `delta` 0 a condition. `until_ended`: it
    lasts until the GM ends it (`last` is then FOREVER)."""
    id: str
    combatant: str
    name: str
    delta: int
    first: int
    last: int
    ended: bool = False
    until_ended: bool = False
    until_rest: bool = False  # it outlasts the fight: until the party rests
    fights: int | None = None  # ... or for this fight and the next, N in all

    @property
    def lasting(self) -> bool:
        """Whether it outlasts the fight (the carry takes it into the party)."""
        return self.until_rest or self.fights is not None

    def covers(self, round_: int) -> bool:
        return not self.ended and self.first <= round_ <= self.last


KEPT_COMPLETE = "."  # a kept mark (R28a): the round stays complete as lived
FOREVER = 2**62  # the last round of an effect that lasts until ended


class Track(msgspec.Struct, gc=False):
    """A named counter of a combatant (hp, stun, ammo): never below 0 nor
    above `max` (None: the project's range). `public`: players see an NPC's
    value; a PC's tracks are always shown to its player."""
    value: int
    max: int | None = None
    public: bool = False


class Slot(msgspec.Struct, gc=False):
    """A rolled place in the order: a lone combatant or a group (R1, R2)."""
    id: str
    die: int | None
    bonus: int | None
    total: int
    manual: bool
    joined: int
    side: str


class State(msgspec.Struct, dict=True):
    """Everything the fold knows; a snapshot is this struct encoded whole.
    The caches of the order live beside the fields (in the instance dict),
    so they are never stored."""
    encounter: str = ""
    title: str = ""
    seq: int = 0
    created: bool = False
    combatants: dict[str, Combatant] = {}
    groups: dict[str, Group] = {}
    slots: dict[str, Slot] = {}
    tie_rules: list[tuple[str, str]] = []  # declared orders (R3)
    effects: dict[str, Effect] = {}
    tracks: dict[str, dict[str, Track]] = {}  # combatant -> track name -> Track
    ended: bool = False
    round: int = 0
    pass_: int = 0
    round_complete: bool = False
    window: bool = False            # the seize window (R10)
    seizers: dict[str, int] = {}    # combatant -> seize order key (R12)
    passed: set[str] = set()        # slot keys the pass has walked past
    done: set[str] = set()          # combatants whose turn in this pass is over
    turn: str | None = None         # the combatant whose turn is in progress
    turn_started: bool = False      # they have declared something in it
    current: str | None = None      # the slot key the pass has reached
    spent_in_pass: int = 0          # AP spent in turns this pass (R23a)
    keys: int = 0                   # the last join/seize order key handed out
    hidden: set[str] = set()        # combatants the players do not see yet
    party: set[str] = set()         # the party's characters (`new --party`)

    auto_ended: str | None = None   # whose turn ended by itself (R21), until the next turn action

    def __post_init__(self) -> None:
        self._order: list[str] | None = None
        self._lineup: list[tuple[str, list[Combatant]]] | None = None
        self._regular: list[str] | None = None

    # -- derived views ---------------------------------------------------

    @property
    def phase(self) -> str:
        return "ended" if self.ended else ("combat" if self.round else "setup")

    @property
    def running(self) -> bool:
        """A round is in progress and not complete."""
        return self.round > 0 and not self.round_complete and not self.ended

    def max_ap_of(self, cid: str, round_: int | None = None) -> int:
        """The maximum AP in force in a round: the combatant's own, changed by
        the effects that cover that round (R14), never below 0."""
        c = self.combatants[cid]
        if not self.effects:
            return c.max_ap
        n = self.round if round_ is None else round_
        return max(0, c.max_ap + sum(e.delta for e in self.effects.values()
                                     if e.combatant == cid and e.covers(n)))

    def effects_on(self, cid: str) -> list[Effect]:
        """Effects not yet run out: in force now, or from the next round."""
        return [e for e in self.effects.values() if e.combatant == cid and not e.ended
                and e.last >= max(self.round, 1) and e.last >= e.first]

    def slot_of(self, cid: str) -> str:
        """The slot key a combatant acts in this round (seizers stand alone)."""
        c = self.combatants[cid]
        return c.group if c.group and cid not in self.seizers else cid

    def initiative_of(self, cid: str) -> Slot | None:
        c = self.combatants[cid]
        return self.slots.get(c.group or cid)

    def members(self, key: str) -> list[Combatant]:
        """Active combatants acting in slot `key` this round, in join order."""
        group = self.groups.get(key)
        if group is None:
            c = self.combatants[key]
            return [c] if c.active else []
        cs = self.combatants
        return [cs[m] for m in group.members if cs[m].active and m not in self.seizers]

    def up_in(self, key: str) -> list[str]:
        """Members of slot `key` who may still take their turn in this pass."""
        return [c.id for c in self.members(key) if c.ap > 0 and c.id not in self.done]

    def order(self) -> list[str]:
        """Slot keys for this round: seizers first (R11-R12), then by R2-R3."""
        if self._order is None:
            cs = self.combatants
            seized = [cid for cid in self.seizers if cs[cid].active]
            seized.sort(key=lambda cid: (SIDE_RANK[cs[cid].side], self.seizers[cid]))
            regular = [key for key in self.regular_order() if key not in self.seizers
                       and (key not in self.groups or self.members(key))]
            self._order = seized + regular
        return self._order

    def up(self) -> list[str]:
        if not self.running:
            return []
        if self.turn is not None:
            return [self.turn]
        return self.up_in(self.current) if self.current else []

    def ties(self) -> list[list[str]]:
        """Unresolved same-side ties (R3), in their current order."""
        return [arranged for arranged, resolved in self._runs() if not resolved]

    def regular_order(self) -> list[str]:
        """The order by initiative alone (R2-R3), seizes aside."""
        if self._regular is None:
            self._regular = [key for arranged, _ in self._runs() for key in arranged]
        return self._regular

    def _runs(self) -> list[tuple[list[str], bool]]:
        """Active slots by total, PCs first, as runs of tied slots (R2-R3)."""
        slots = [s for s in self.slots.values() if self.in_order(s.id)]
        slots.sort(key=lambda s: (-s.total, SIDE_RANK[s.side], s.joined))
        runs: list[list[Slot]] = []
        for slot in slots:
            if runs and (runs[-1][0].total, runs[-1][0].side) == (slot.total, slot.side):
                runs[-1].append(slot)
            else:
                runs.append([slot])
        return [ties.arrange([s.id for s in run], self.tie_rules) if len(run) > 1
                else ([run[0].id], True) for run in runs]

    def in_order(self, key: str) -> bool:
        group = self.groups.get(key)
        if group is None:
            return self.combatants[key].active
        return any(self.combatants[m].active for m in group.members)

    def group_bonus(self, gid: str) -> int | None:
        """The group's bonus: set (R7), else its members' common bonus."""
        group = self.groups[gid]
        if group.bonus is not None:
            return group.bonus
        bonuses = {self.combatants[m].bonus for m in group.members}
        return bonuses.pop() if len(bonuses) == 1 else None

    def side_of(self, key: str) -> str:
        group = self.groups.get(key)
        if group is not None:
            return self.combatants[group.members[0]].side if group.members else "npc"
        return self.combatants[key].side

    # -- the fold --------------------------------------------------------

    def next_key(self) -> int:
        self.keys += 1
        return self.keys

    def end_turn(self, cid: str) -> None:
        self.done.add(cid)
        if self.turn == cid:
            self.combatants[cid].spent_this_turn = 0
            self.turn, self.turn_started = None, False

    def keep_ended(self, cid: str) -> bool:
        """R28a: a correction left `cid` AP where the table saw its turn end
        by itself or its slot skipped: the turn stays ended there, the AP
        kept in reserve (R6). `cid` "": the next pass begins, as it did (with
        nobody able to act in it, the round stays complete in that pass);
        `cid` KEPT_COMPLETE: the pass just begun did not begin at the table,
        the round stays complete in the pass before. Whether anything changed."""
        if cid == KEPT_COMPLETE:
            if self.running and self.pass_ > 1 and not self.turn_started \
                    and not self.spent_in_pass:
                self.pass_ -= 1
                self.round_complete = True
                self.current = self.turn = None
                return True
            return False
        if not cid:
            if self.round_complete and not self.ended and self.round:
                self.pass_ += 1
                self.passed.clear()
                self.done.clear()
                self.spent_in_pass = 0
                if self._anyone_with_ap():
                    self.round_complete = False
                    self.advance()
                return True
            return False
        if self.running and cid in self.up():
            self.end_turn(cid)
            self.advance()
            return True
        return False

    def place(self, key: str) -> None:
        """A slot placed above the cursor mid-pass waits for the next pass (R23)."""
        if not self.running or self.current is None or key == self.current:
            return
        order = self.order()
        if key in order and self.current in order and \
                order.index(key) < order.index(self.current):
            self.passed.add(key)

    def _anyone_with_ap(self) -> bool:
        slots = self.slots
        # (a loop, not any() of a generator: a fold asks this at every pass's end)
        for c in self.combatants.values():  # noqa: SIM110
            if c.active and c.ap > 0 and (c.group or c.id) in slots:
                return True
        return False

    def reorder(self, initiative: bool = True) -> None:
        """The order or who stands in a slot may have changed; `initiative`:
        the order by initiative too, not only the seizes."""
        self._order = self._lineup = None
        if initiative:
            self._regular = None

    def advance(self) -> None:
        """Move the cursor to whoever is up; start a pass or complete the round.
        The hot path of a fold: `running` is spelled out, slot members cached."""
        if self.round_complete or self.ended or not self.round or self.turn_started:
            return
        passed, done, lineup = self.passed, self.done, self._lineup
        if lineup is None:
            lineup = self._lineup = [(key, self.members(key)) for key in self.order()]
        while True:
            for key, members in lineup:
                if key in passed:
                    continue
                for c in members:
                    if c.ap > 0 and c.id not in done:
                        self.current = key
                        self.turn = None if key in self.groups else key
                        return
                passed.add(key)
            if self.spent_in_pass and self._anyone_with_ap():  # R23 (a) and (b)
                self.pass_ += 1
                self.passed.clear()
                self.done.clear()
                self.spent_in_pass = 0
                continue
            self.round_complete = True
            self.current = self.turn = None
            return
