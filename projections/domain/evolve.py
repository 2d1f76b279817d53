"""The fold's steps: how each event type changes the state (decider pattern:
a step only sets fields; it never judges, because the judge saw the event)."""
from __future__ import annotations

from eventlog.events import (
    APAdjusted, APSpent, CombatantHidden, CombatantJoined, CombatantRevealed, CombatantLeft,
    CombatantRejoined,
    EffectApplied, EffectEnded, EncounterCreated, EncounterEnded, FreeActionTaken, GritAdjusted,
    GroupBonusSet, InitiativeOverridden, InitiativeRolled, InterruptTaken,
    EncounterRenamed, MaxAPChanged, MomentSeized, NoteAdded, OrderDeclared, Payload,
    RoundStarted, TrackChanged, TurnEnded,
)
from projections.domain import ties, tracks
from projections.domain.state import FOREVER, TURN_LIMIT, Combatant, Effect, Group, Slot, State, Step


def _created(s: State, e: EncounterCreated) -> None:
    s.created, s.title = True, e.title
    s.encounter = s.encounter or e.encounter


def _joined(s: State, e: CombatantJoined) -> None:
    entering = e.group is not None and e.group in s.slots and not s.in_order(e.group)
    s.combatants[e.id] = Combatant(e.id, e.name, e.side, e.bonus, e.max_ap, e.max_ap,
                                   e.grit, e.group, s.next_key(), in_force=e.max_ap,
                                   portrait=e.portrait)
    if e.party:
        s.party.add(e.id)
    if e.group is not None:
        group = s.groups.get(e.group)
        if group is None:
            group = s.groups[e.group] = Group(e.group, s.next_key())
        group.members.append(e.id)
    s.reorder()
    if entering and e.group:  # its rolled group enters the order: above the cursor, it waits (R23b)
        s.place(e.group)
    s.advance()


def _group_bonus(s: State, e: GroupBonusSet) -> None:
    group = s.groups.get(e.group)
    if group is None:
        group = s.groups[e.group] = Group(e.group, s.next_key())
    group.bonus = e.bonus


def _rolled(s: State, e: InitiativeRolled) -> None:
    joined = (s.groups[e.slot] if e.slot in s.groups else s.combatants[e.slot]).joined
    s.slots[e.slot] = Slot(e.slot, e.die, e.bonus, e.total, e.manual, joined,
                           s.side_of(e.slot))
    s.reorder()
    s.place(e.slot)
    s.advance()


def _overridden(s: State, e: InitiativeOverridden) -> None:
    slot = s.slots.get(e.slot)
    entering = slot is None
    if slot is None:
        joined = (s.groups[e.slot] if e.slot in s.groups else s.combatants[e.slot]).joined
        slot = s.slots[e.slot] = Slot(e.slot, None, None, e.total, False, joined,
                                      s.side_of(e.slot))
    slot.total = e.total
    s.reorder()
    if entering:  # it enters the order: above the cursor, it waits (R23b)
        s.place(e.slot)
    s.advance()


def _order_declared(s: State, e: OrderDeclared) -> None:
    if e.context == "seize":
        keys = sorted(s.seizers[c] for c in e.slots)
        for cid, key in zip(e.slots, keys):
            s.seizers[cid] = key
    else:
        s.tie_rules = ties.declare(s.tie_rules, e.slots)
    s.reorder(initiative=e.context == "tie")
    s.advance()


def _round_started(s: State, e: RoundStarted) -> None:
    s.round, s.pass_ = e.round, 1
    s.round_complete, s.window = False, True
    effects = s.effects
    for c in s.combatants.values():
        c.seized = False
        c.spent_this_turn = 0
        if c.active:  # R15, with this round's effects (R14; none: spare the call)
            c.ap = c.in_force = s.max_ap_of(c.id) if effects else c.max_ap
    if s.seizers:  # last round's seizers go back to their places (R11)
        s.seizers.clear()
        s.reorder(initiative=False)
    s.passed.clear()
    s.done.clear()
    s.turn, s.turn_started, s.current = None, False, None
    s.spent_in_pass = 0
    s.auto_ended = None
    s.advance()


def _seized(s: State, e: MomentSeized) -> None:
    c = s.combatants[e.combatant]
    c.grit -= 1
    c.seized = True
    s.seizers[c.id] = s.next_key()
    s.passed.discard(c.id)  # no turn action yet this round: the seizer goes first
    s.reorder(initiative=False)
    s.advance()


def _spent(s: State, e: APSpent) -> None:
    c = s.combatants[e.combatant]
    cost = e.cost
    ap = c.ap = c.ap - cost
    spent = c.spent_this_turn = c.spent_this_turn + cost
    s.spent_in_pass += cost
    s.window = False
    if ap and spent < TURN_LIMIT:
        s.turn = c.id
        s.turn_started = True
        s.auto_ended = None
    else:  # R21: nothing more can be spent in this turn
        s.done.add(c.id)
        c.spent_this_turn = 0
        s.turn, s.turn_started = None, False
        s.auto_ended = c.id
        s.advance()


def _interrupted(s: State, e: InterruptTaken) -> None:
    s.combatants[e.combatant].ap -= e.cost  # R19: not toward the turn limit
    if s.turn is None:  # an open group slot may have nobody left to act
        s.advance()


def _turn_ended(s: State, e: TurnEnded) -> None:
    s.window = False
    s.auto_ended = None
    s.end_turn(e.combatant)
    s.advance()


def _left(s: State, e: CombatantLeft) -> None:
    s.combatants[e.combatant].active = False
    if s.turn == e.combatant:  # R22: if it was their turn, it ends
        s.end_turn(e.combatant)
    s.reorder()
    s.advance()


def _rejoined(s: State, e: CombatantRejoined) -> None:
    key = s.slot_of(e.combatant)
    entering = not s.in_order(key)  # a group with members still in keeps its turn (R23b)
    s.combatants[e.combatant].active = True
    s.reorder()
    if entering:
        s.place(key)
    s.advance()


def _max_ap(s: State, e: MaxAPChanged) -> None:
    s.combatants[e.combatant].max_ap = e.max_ap  # R14: applies at the next restore


def _adjusted(s: State, e: APAdjusted) -> None:
    c = s.combatants[e.combatant]
    c.ap += e.delta
    if s.turn == c.id and c.ap == 0:  # R21
        s.end_turn(c.id)
        s.auto_ended = c.id
    s.advance()


def _grit(s: State, e: GritAdjusted) -> None:
    s.combatants[e.combatant].grit += e.delta


def _ended(s: State, e: EncounterEnded) -> None:
    s.ended = True


def _effect(s: State, e: EffectApplied) -> None:
    # a condition (max_ap 0) is on at once; a change of maximum AP waits for a restore
    first = s.round if e.until_round_end or not e.max_ap else s.round + 1
    # (one that outlasts the fight lasts, within it, until ended)
    forever = e.until_ended or e.until_rest or e.fights is not None
    last = (s.round if e.until_round_end else FOREVER if forever
            else s.round + (e.rounds or 0))
    s.effects[e.effect] = Effect(e.effect, e.combatant, e.name, e.max_ap, first, last,
                                 until_ended=forever, until_rest=e.until_rest,
                                 fights=e.fights)
    if e.until_round_end and e.max_ap:  # it would never reach a restore: it counts now
        c = s.combatants[e.combatant]
        c.in_force = max(0, c.in_force + e.max_ap)
        c.ap = min(max(0, c.ap + e.max_ap), s.max_ap_of(c.id))
        if s.turn == c.id and c.ap == 0:  # R21
            s.end_turn(c.id)
            s.auto_ended = c.id
        s.advance()


def _effect_ended(s: State, e: EffectEnded) -> None:
    s.effects[e.effect].ended = True


def _hidden(s: State, e: CombatantHidden) -> None:
    s.hidden.add(e.combatant)


def _revealed(s: State, e: CombatantRevealed) -> None:
    s.hidden.discard(e.combatant)


def _renamed(s: State, e: EncounterRenamed) -> None:
    s.title = e.title


def _nothing(s: State, e: Payload) -> None:
    pass


STEPS: dict[type, Step] = {
    EncounterCreated: _created, CombatantJoined: _joined,
    GroupBonusSet: _group_bonus, InitiativeRolled: _rolled,
    InitiativeOverridden: _overridden, OrderDeclared: _order_declared,
    RoundStarted: _round_started, MomentSeized: _seized, APSpent: _spent,
    FreeActionTaken: _nothing, InterruptTaken: _interrupted,
    TurnEnded: _turn_ended, CombatantLeft: _left, CombatantRejoined: _rejoined,
    MaxAPChanged: _max_ap, APAdjusted: _adjusted, GritAdjusted: _grit,
    NoteAdded: _nothing, EncounterEnded: _ended,
    EffectApplied: _effect, EffectEnded: _effect_ended, EncounterRenamed: _renamed,
    TrackChanged: tracks.step,
    CombatantHidden: _hidden, CombatantRevealed: _revealed,
}
# By event type name, for the fold: types missing here change nothing.
HANDLERS = {cls.__name__: handler for cls, handler in STEPS.items()
            if handler is not _nothing}


def evolve(state: State, e: Payload) -> None:
    """Apply one effective event to `state`. Events are legal: the judge saw them."""
    step = STEPS.get(type(e))
    if step is not None:
        step(state, e)
        if state.hidden:
            shown_by_itself(state, e)


def shown_by_itself(s: State, e: Payload) -> None:
    """A hidden combatant shows itself when its turn starts (or its group's
    slot comes up with it still to act), or when it interrupts or seizes
    (docs/server.md, "What the players see")."""
    if isinstance(e, (InterruptTaken, MomentSeized)):
        s.hidden.discard(e.combatant)
    if s.turn is not None and s.running:
        s.hidden.discard(s.turn)
    elif s.running and s.current in s.groups:  # (a group's slot is up as a whole, R8)
        s.hidden.difference_update(s.up_in(s.current))
