"""Random legal and illegal declarations played on a Ledger; invariants after
every step (R13, R14, R17, R21, R26, R27, R31); an export imported elsewhere
reproduces status and log at any step (R31)."""
from __future__ import annotations

import copy
import json
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine, initialize, invariant, rule,
)

from eventlog.errors import Refusal
from eventlog.events import (
    APAdjusted, APSpent, CombatantHidden, CombatantLeft, CombatantRejoined,
    CombatantRevealed, EncounterEnded,
    FreeActionTaken, GritAdjusted, GroupBonusSet, InitiativeOverridden,
    InitiativeRolled, InterruptTaken, MaxAPChanged, MomentSeized, NoteAdded,
    OrderDeclared, RoundStarted, TurnEnded,
)
from eventlog.chain import verify_chain
from eventlog.stores.sqlite import Store
from projections.ledger import Ledger, apply
from projections.inputs.transfer import export_json, import_log, read_export
from projections.reports.views import status

from helpers import as_logged_at_the_source, npc, pc, unmarked

E = "prop"
ROSTER = [
    pc("rook", bonus=2, ap=3, grit=1),
    pc("vex", bonus=2, ap=6, grit=2),
    npc("g-1", bonus=1, ap=3, group="gangers"),
    npc("g-2", bonus=1, ap=2, group="gangers"),
    npc("boss", bonus=0, ap=5, grit=1),
]
BONUS = {"rook": 2, "vex": 2, "gangers": 1, "boss": 0}
PEOPLE = ["rook", "vex", "g-1", "g-2", "boss"]
IDS = st.sampled_from(PEOPLE + ["gangers", "ghost"])
WHO = st.sampled_from(PEOPLE)
SLOTS = st.sampled_from(["rook", "vex", "gangers", "boss", "g-1", "ghost"])
COST = st.integers(-1, 5)
CATEGORY = st.sampled_from(["minor", "major", "custom"])
REASON = st.sampled_from(["", "because", "  "])


class LedgerMachine(RuleBasedStateMachine):
    """The model: `inc`, a State kept by applying each accepted declaration
    incrementally (never re-folded), plus per-(round, pass, combatant) AP
    spent in turns and the highest max AP in force since the last restore."""

    def __init__(self):
        super().__init__()
        self.dir = tempfile.mkdtemp(prefix="combat-prop-")
        self.store = Store(Path(self.dir) / "p.db")
        self.store.db.execute("PRAGMA synchronous = OFF")  # a scratch file: speed over durability
        self.ledger = Ledger(self.store)
        self.inc = None
        self.spent: dict[tuple, int] = {}
        self.cap: dict[str, int] = {}
        self.history: list = []   # (payloads, model before) per effective declaration
        self.redoable: list = []  # the same, popped by undo

    def teardown(self):
        self.store.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    # -- model -----------------------------------------------------------

    def _model(self):
        return (copy.deepcopy(self.inc), dict(self.spent), dict(self.cap))

    def _restore(self, model):
        inc, spent, cap = model
        self.inc, self.spent, self.cap = copy.deepcopy(inc), dict(spent), dict(cap)

    def _head(self) -> int:
        return self.store.head(E)[0]

    def _fold(self):
        return self.ledger.state(E)

    def _fresh(self):
        """A fold of the stored log from its first event (`at` skips any
        stored shortcut the ledger may keep)."""
        return self.ledger.state(E, at=self._head())

    def _account(self, before, payloads, after):
        """Track AP spent per turn, and the AP ceiling (R14: a new maximum
        takes effect at the next restore)."""
        for p in payloads:
            if isinstance(p, APSpent):
                key = (before.round, before.pass_, p.combatant)
                self.spent[key] = self.spent.get(key, 0) + p.cost
        restored = any(isinstance(p, RoundStarted) for p in payloads)
        for c in after.combatants.values():
            if restored and c.active:
                self.cap[c.id] = c.max_ap
            else:
                self.cap[c.id] = max(self.cap.get(c.id, c.max_ap), c.max_ap)

    def declare(self, *payloads):
        before_status = status(self._fold())
        head = self._head()
        model = self._model()
        try:
            returned, envs = self.ledger.declare(E, lambda s: list(payloads), "gm")
        except Refusal:
            # refused: nothing appended, nothing changed
            assert self._head() == head
            assert status(self._fold()) == before_status
            assert status(self._fresh()) == before_status
            return False
        self.inc = apply(self.inc, payloads)  # the incremental state
        self.inc.seq = envs[-1].seq
        assert envs[-1].seq == head + len(payloads)
        assert status(returned) == status(self.inc)
        self._account(model[0], payloads, self.inc)
        self.history.append((list(payloads), model))
        self.redoable.clear()
        return True

    # -- setup -----------------------------------------------------------

    @initialize(start=st.sampled_from([True, True, True, False]), dice=st.integers(0, 99))
    def setup(self, start, dice):
        self.inc = self.ledger.new(E, "Property", "gm")
        assert self.declare(*ROSTER)
        if start:  # most runs begin in combat, where most rules bite
            self.roll_everyone(dice)
            assert self.declare(RoundStarted(round=1))

    # -- declarations, legal or not ---------------------------------------

    @rule(dice=st.integers(0, 99))
    def roll_everyone(self, dice):
        state = self._fold()
        out = []
        for slot, bonus in BONUS.items():
            if slot not in state.slots:
                die = 1 + (dice + 3 * len(out)) % 10
                out.append(InitiativeRolled(slot=slot, die=die, bonus=bonus, total=die + bonus))
        if out:
            self.declare(*out)

    @rule(slot=SLOTS, die=st.integers(0, 11), good_bonus=st.booleans(), good_total=st.booleans())
    def roll(self, slot, die, good_bonus, good_total):
        bonus = BONUS.get(slot, 0) if good_bonus else 7
        total = die + bonus if good_total else die + bonus + 1
        self.declare(InitiativeRolled(slot=slot, die=die, bonus=bonus, total=total))

    @rule(next_one=st.sampled_from([True, True, False]), other=st.integers(0, 4))
    def new_round(self, next_one, other):
        n = self.inc.round + 1 if next_one else other
        self.declare(RoundStarted(round=n))

    @rule(who=IDS)
    def seize(self, who):
        self.declare(MomentSeized(combatant=who))

    @rule(cost=st.integers(0, 4), category=CATEGORY, last=st.booleans())
    def spend_by_whoever_is_up(self, cost, category, last):
        up = self._fold().up()
        if up:
            self.declare(APSpent(combatant=up[-1 if last else 0], cost=cost,
                                 category=category))

    @rule(cost=st.integers(1, 2))
    def spend_minor_or_major_by_whoever_is_up(self, cost):
        up = self._fold().up()
        if up:
            self.declare(APSpent(combatant=up[0], cost=cost,
                                 category="minor" if cost == 1 else "major"))

    @rule()
    def spend_up_to_the_turn_limit(self):
        state = self._fold()
        up = state.up()
        if up:
            c = state.combatants[up[0]]
            cost = min(c.ap, 4 - c.spent_this_turn)
            self.declare(APSpent(combatant=c.id, cost=cost, category="custom"))

    @rule(first=st.integers(1, 4), second=st.integers(1, 4))
    def spend_twice_by_whoever_is_up(self, first, second):
        up = self._fold().up()
        if up:
            for cost in (first, second):
                self.declare(APSpent(combatant=up[0], cost=cost, category="custom"))

    @rule(who=WHO, cost=st.integers(0, 2))
    def interrupt_by_someone_else(self, who, cost):
        if who != self._fold().turn:
            self.declare(InterruptTaken(combatant=who, cost=cost, category="custom"))

    @rule(who=IDS, cost=COST, category=CATEGORY)
    def spend(self, who, cost, category):
        self.declare(APSpent(combatant=who, cost=cost, category=category))

    @rule(who=IDS, cost=COST, category=CATEGORY)
    def interrupt(self, who, cost, category):
        self.declare(InterruptTaken(combatant=who, cost=cost, category=category))

    @rule(who=IDS)
    def free_action(self, who):
        self.declare(FreeActionTaken(combatant=who, label="free"))

    @rule()
    def end_turn_of_whoever_is_up(self):
        up = self._fold().up()
        if up:
            self.declare(TurnEnded(combatant=up[0]))

    @rule(who=IDS)
    def end_turn(self, who):
        self.declare(TurnEnded(combatant=who))

    @rule(who=IDS)
    def hide(self, who):
        """(A hidden one shows itself when its turn starts, or when it
        interrupts or seizes: the fold from the first event must agree.)"""
        self.declare(CombatantHidden(combatant=who))

    @rule(who=IDS)
    def reveal(self, who):
        self.declare(CombatantRevealed(combatant=who))

    @rule(who=IDS)
    def leave(self, who):
        self.declare(CombatantLeft(combatant=who, reason="down"))

    @rule(who=IDS)
    def rejoin(self, who):
        self.declare(CombatantRejoined(combatant=who))

    @rule(who=IDS, n=st.integers(-1, 7), reason=REASON)
    def max_ap(self, who, n, reason):
        self.declare(MaxAPChanged(combatant=who, max_ap=n, reason=reason))

    @rule(who=IDS, delta=st.integers(-4, 4), reason=REASON)
    def adjust_ap(self, who, delta, reason):
        self.declare(APAdjusted(combatant=who, delta=delta, reason=reason))

    @rule(who=IDS, delta=st.integers(-2, 2))
    def grit(self, who, delta):
        self.declare(GritAdjusted(combatant=who, delta=delta, reason="r"))

    @rule(slot=SLOTS, total=st.integers(-2, 14), reason=REASON)
    def override(self, slot, total, reason):
        self.declare(InitiativeOverridden(slot=slot, total=total, reason=reason))

    @rule(slots=st.lists(SLOTS, min_size=1, max_size=3),
          context=st.sampled_from(["tie", "seize"]))
    def order(self, slots, context):
        self.declare(OrderDeclared(slots=slots, context=context))

    @rule(bonus=st.integers(-1, 3))
    def group_bonus(self, bonus):
        self.declare(GroupBonusSet(group="gangers", bonus=bonus))

    @rule(text=st.sampled_from(["", "a note", " "]))
    def note(self, text):
        self.declare(NoteAdded(text=text))

    @rule(roll=st.integers(0, 9))
    def end_encounter(self, roll):
        if roll == 0:  # rarely: the end leaves little to explore
            self.declare(EncounterEnded())

    # -- undo / redo ------------------------------------------------------

    @rule()
    def undo_then_redo(self):
        before = status(self._fold())
        head = self._head()
        try:
            self.ledger.undo(E, "gm")
        except Refusal:
            assert not self.history  # only the creation is left (R26)
            assert self._head() == head
            return
        after, _ = self.ledger.redo(E, "gm")
        assert self._head() == head + 2
        now = status(self._fold())
        assert status(after) == now
        assert {**now, "seq": before["seq"]} == before
        self.inc.seq = head + 2

    @rule()
    def undo(self):
        head = self._head()
        try:
            after, _ = self.ledger.undo(E, "gm")
        except Refusal:
            assert not self.history  # only the creation is left (R26)
            assert self._head() == head
            return
        payloads, model = self.history.pop()
        self.redoable.append((payloads, self._model()))
        self._restore(model)
        self.inc.seq = head + 1
        assert status(after) == status(self.inc)

    @rule()
    def redo(self):
        head = self._head()
        try:
            after, envs = self.ledger.redo(E, "gm")
        except Refusal:
            assert not self.redoable
            assert self._head() == head
            return
        assert self.redoable
        payloads, model = self.redoable.pop()
        assert [e.data for e in envs] == payloads
        self.history.append((payloads, self._model()))
        self._restore(model)
        self.inc.seq = head + 1
        assert status(after) == status(self.inc)

    # -- export and import (R31) ------------------------------------------

    @rule()
    def export_then_import_reproduces_status_and_log(self):
        raw = json.dumps(export_json(self.ledger, E)).encode()
        other = Store(":memory:")
        copied = Ledger(other)
        try:
            state = import_log(copied, read_export(raw, "prop.json"), None)
            assert status(state) == status(self.inc)
            assert status(copied.state(E)) == status(self.inc)
            assert as_logged_at_the_source(copied.event_dicts(E)) == \
                unmarked(self.ledger.event_dicts(E))
            assert verify_chain(other.rows(E), other.head(E)).ok
        finally:
            other.close()

    # -- invariants -------------------------------------------------------

    @invariant()
    def fresh_fold_equals_incremental_state(self):
        if self.inc is not None:
            assert status(self._fresh()) == status(self.inc)
            assert status(self._fold()) == status(self.inc)

    @invariant()
    def ap_within_bounds(self):
        if self.inc is None:
            return
        for c in status(self.inc)["combatants"]:
            assert 0 <= c["ap"] <= self.cap[c["id"]], c
            assert 0 <= c["spent_this_turn"] <= 4, c
            assert c["grit"] >= 0, c

    @invariant()
    def at_most_four_ap_per_turn(self):
        assert all(v <= 4 for v in self.spent.values()), self.spent

    @invariant()
    def acting_is_up_and_able(self):
        if self.inc is None:
            return
        st_ = status(self.inc)
        people = {c["id"]: c for c in st_["combatants"]}
        if st_["acting"] is not None:  # R21: a turn ends at 0 AP or 4 AP spent
            acting = people[st_["acting"]]
            assert st_["up"] == [st_["acting"]]
            assert acting["active"] and acting["ap"] > 0
            assert acting["spent_this_turn"] < 4
        for cid in st_["up"]:
            assert people[cid]["active"] and people[cid]["ap"] > 0
        if st_["round_complete"] or st_["phase"] != "combat":
            assert st_["up"] == [] and st_["acting"] is None


LedgerMachine.TestCase.settings = settings(
    max_examples=80, stateful_step_count=40, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_properties_random_declarations_keep_invariants = LedgerMachine.TestCase
