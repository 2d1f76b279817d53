"""The judge: one pure function that accepts a declaration against the folded
state or raises a Refusal citing the rule. It runs when a command is declared,
when undo/redo/retraction are checked and when a log is imported.
"""
from __future__ import annotations

from eventlog.errors import Refusal
from eventlog.language import N_, _, n_, whole
from eventlog.events import (
    APAdjusted, APSpent, CombatantHidden, CombatantJoined, CombatantLeft, CombatantRejoined,
    CombatantRevealed, EffectApplied, EffectEnded, EncounterCreated, EncounterEnded,
    EncounterRenamed, FreeActionTaken, GritAdjusted, GroupBonusSet, InitiativeOverridden,
    InitiativeRolled, InterruptTaken, MaxAPChanged, MomentSeized, NoteAdded, OrderDeclared,
    Payload, RoundStarted, TrackChanged, TurnEnded)
from projections.domain import tracks
from projections.domain.phrases import slugify
from projections.domain.lasting import check_span
from projections.domain.narrate import side_word
from projections.domain.ranges import MAX_NUMBER, check_numbers
from projections.domain.slugs import SLUG, active, check_slug, combatant, known_slot, slot, unknown
from projections.domain.state import TURN_LIMIT, State, Step

__all__ = ["SLUG", "check_slug", "judge", "unknown"]  # (the slugs' callers import them here)


def judge(s: State, e: Payload) -> None:
    """Accept `e` as the next declaration of `s`, or raise Refusal."""
    if not s.created and not isinstance(e, EncounterCreated):
        raise Refusal(_("the encounter has not been created yet"))
    if s.ended and not isinstance(e, (NoteAdded, EncounterRenamed)):  # (the record's own)
        raise Refusal(_("the encounter has ended: only notes, undo, redo, retraction "
                        "and amendment can be declared (R25)"))
    check = _CHECKS.get(type(e))
    if check is None:
        raise Refusal(_("{event} is not a declaration").format(event=type(e).__name__))
    check_numbers(e)
    check(s, e)


def _reason(reason: str) -> None:
    if not reason.strip():
        raise Refusal(_("a GM override needs a reason (--reason) (R29)"))


def _round_running(s: State, not_yet: str) -> None:
    """A round is running; before round 1, `not_yet` (N_-marked) refuses."""
    if s.round == 0:
        raise Refusal(_(not_yet))
    if s.round_complete:
        raise Refusal(_("round {round} is complete: nobody is up until the GM starts the "
                        "next round (R23)").format(round=s.round))


def _created(s: State, e: EncounterCreated) -> None:
    if s.created:
        raise Refusal(_("the encounter already exists"))
    check_slug(e.encounter, "encounter id")


def _joined(s: State, e: CombatantJoined) -> None:
    if not SLUG.match(e.id) and e.name.strip() and not slugify(e.name):
        raise Refusal(_("{name!r} has no letters or digits to make an id from: give one "
                        "with --id").format(name=e.name))
    check_slug(e.id)
    if not e.name.strip():
        raise Refusal(_("a combatant needs a name"))
    if e.id in s.combatants or e.id in s.groups:
        raise Refusal(_("the id {id!r} is already taken in this encounter; choose another "
                        "with --id").format(id=e.id))
    if e.group is not None:
        check_slug(e.group, "group id")
        if e.group in s.combatants:
            raise Refusal(_("{id} is a combatant, not a group").format(id=e.group))
        group = s.groups.get(e.group)
        if group is not None and group.members:
            side = s.combatants[group.members[0]].side
            if side != e.side:
                raise Refusal(_(_OTHER_SIDE[side]).format(group=e.group))


_OTHER_SIDE = {  # a group's side, another side's combatant joining it
    "pc": N_("group {group} is pc: a npc cannot join it; all members of a group are on one "
             "side (R7)"),
    "npc": N_("group {group} is npc: a pc cannot join it; all members of a group are on one "
              "side (R7)")}


def _group_bonus(s: State, e: GroupBonusSet) -> None:
    check_slug(e.group, "group id")
    if e.group in s.combatants:
        raise Refusal(_("{id} is a combatant, not a group").format(id=e.group))
    if e.group in s.slots:
        raise Refusal(_("{id} has already rolled initiative; the GM can change it with "
                        "set-initiative (R4)").format(id=e.group))


def _rolled(s: State, e: InitiativeRolled) -> None:
    known_slot(s, e.slot)
    slot(s, e.slot, N_("{id} is in group {group}: a member cannot roll alone; roll {group} "
                        "(R7)"))
    if e.slot in s.slots:
        raise Refusal(_("{id} has already rolled initiative ({total}); it is rolled once per "
                        "encounter, the GM can change it with set-initiative (R1, R4)").format(
                            id=e.slot, total=s.slots[e.slot].total))
    if e.slot in s.groups:
        bonus = s.group_bonus(e.slot)
        if bonus is None:
            found = sorted({s.combatants[m].bonus for m in s.groups[e.slot].members})
            raise Refusal(_("the members of {group} have different bonuses ({bonuses}): set "
                            "one with `group {group} --bonus N` (R7)").format(
                                group=e.slot, bonuses=", ".join(map(str, found))))
    else:
        bonus = s.combatants[e.slot].bonus
    if e.bonus != bonus:
        raise Refusal(_("{id}'s initiative bonus is {bonus}, not {given} (R1)").format(
            id=e.slot, bonus=bonus, given=e.bonus))
    if e.total != e.die + e.bonus:
        raise Refusal(_("1d10 + bonus is {sum}, not {total} (R1)").format(
            sum=e.die + e.bonus, total=e.total))


def _overridden(s: State, e: InitiativeOverridden) -> None:
    known_slot(s, e.slot)
    slot(s, e.slot, N_("{id} is in group {group}: override the initiative of {group} "
                        "instead (R4)"))
    _reason(e.reason)


def _order_declared(s: State, e: OrderDeclared) -> None:
    if len(e.slots) < 2 or len(set(e.slots)) != len(e.slots):
        raise Refusal(_("name two or more different slots, in the order they act (R3)"))
    if e.context == "seize":
        if not s.round or s.ended:  # until the next round starts, complete or not
            raise Refusal(_("no round is running: there are no seizers to order (R12)"))
        for cid in e.slots:
            active(s, cid)
            if cid not in s.seizers:
                raise Refusal(_("{id} has not seized the moment this round (R12)").format(
                    id=cid))
        sides = {s.combatants[c].side for c in e.slots}
        if len(sides) > 1:
            raise Refusal(_("PC seizers always act before NPC seizers: order each side on "
                            "its own (R12)"))
        return
    for sid in e.slots:
        known_slot(s, sid)
        slot(s, sid, N_("{id} is in group {group}: order its group {group} instead (R3)"))
        if sid not in s.slots:
            raise Refusal(_("{id} has no initiative yet: roll first (R3)").format(id=sid))
    first = s.slots[e.slots[0]]
    for sid in e.slots[1:]:
        other = s.slots[sid]
        if (other.total, other.side) != (first.total, first.side):
            raise Refusal(_(
                "{first} ({first_side}, {first_total}) and {other} ({other_side}, "
                "{other_total}) are not tied: only tied slots of one side have an order to "
                "declare, and PCs act before NPCs (R3)").format(
                    first=first.id, first_side=side_word(first.side), first_total=first.total,
                    other=sid, other_side=side_word(other.side), other_total=other.total))


def _round_started(s: State, e: RoundStarted) -> None:
    if e.round != s.round + 1:
        raise Refusal(_("the next round is round {next}, not {round} (R24)").format(
            next=s.round + 1, round=e.round))
    present = [c for c in s.combatants.values() if c.active]
    if not s.combatants:
        raise Refusal(_("nobody is in the encounter yet: add combatants first (R5)"))
    if not present:
        raise Refusal(_("round {round} cannot start: nobody is active, everyone has left; "
                        "`rejoin ID` brings one back, `end` ends the encounter (R24)").format(
                            round=e.round))
    missing = []
    for c in present:
        key = c.group or c.id
        if key not in s.slots and key not in missing:
            missing.append(key)
    if missing:
        raise Refusal(n_("round {round} cannot start: {slots} has no initiative yet; roll "
                         "first (R5)", "round {round} cannot start: {slots} have no initiative "
                         "yet; roll first (R5)", len(missing)).format(
                             round=e.round, slots=", ".join(missing)))


def _seized(s: State, e: MomentSeized) -> None:
    c = active(s, e.combatant)
    if s.round == 0:
        raise Refusal(_("no round has started: seize the moment at the start of a round "
                        "(R10)"))
    if not s.running or not s.window:
        raise Refusal(_("too late to seize the moment in round {round}: the first combatant "
                        "has acted (R10)").format(round=s.round))
    if c.id in s.seizers:
        raise Refusal(_("{id} has already seized the moment this round (R13)").format(id=c.id))
    if c.grit < 1:
        raise Refusal(_("{id} has no Grit to spend on seizing the moment (R10, R13)").format(
            id=c.id))
    if s.initiative_of(c.id) is None:
        raise Refusal(_("{id} has no initiative yet: roll first (R5)").format(id=c.id))


CATEGORY_COST = {"minor": 1, "major": 2}  # R16; "custom" states its own
_COSTS = {"minor": N_("a minor action costs {expected} AP, not {cost}; declare a custom cost "
                      "instead (R16)"),
          "major": N_("a major action costs {expected} AP, not {cost}; declare a custom cost "
                      "instead (R16)")}


def _cost(e: APSpent | InterruptTaken) -> None:
    expected = CATEGORY_COST.get(e.category)
    if expected is not None and e.cost != expected:
        raise Refusal(_(_COSTS[e.category]).format(expected=expected, cost=e.cost))


def _spent(s: State, e: APSpent) -> None:
    c = active(s, e.combatant)
    _cost(e)
    _round_running(s, N_("no round has started yet: act once the GM starts round 1 (R5)"))
    if s.turn is not None and s.turn != c.id:
        raise Refusal(_("it is {turn}'s turn, not {id}'s: out of turn, declare an interrupt "
                        "(R17, R19)").format(turn=s.turn, id=c.id))
    if s.turn is None and c.id not in s.up():
        up = ", ".join(s.up()) or _("nobody")
        if c.id in s.done:
            raise Refusal(_("{id} has had its turn in pass {pass_}; up now: {up} (R8, R23)")
                          .format(id=c.id, pass_=s.pass_, up=up))
        raise Refusal(_("{id} is not up; up now: {up} (R8, R23)").format(id=c.id, up=up))
    if e.cost > c.ap:
        raise Refusal(_("{id} has {ap} AP left, cannot spend {cost} (R17)").format(
            id=c.id, ap=c.ap, cost=e.cost))
    if c.spent_this_turn + e.cost > TURN_LIMIT:
        raise Refusal(_("{id} has spent {spent} AP this turn, cannot spend {cost} more: at "
                        "most {most} AP per turn (R17)").format(
                            id=c.id, spent=c.spent_this_turn, cost=e.cost, most=TURN_LIMIT))


def _free(s: State, e: FreeActionTaken) -> None:
    active(s, e.combatant)


def _interrupted(s: State, e: InterruptTaken) -> None:
    c = active(s, e.combatant)
    _cost(e)
    if s.round == 0:
        raise Refusal(_("no interrupts before the first round (R19)"))
    if s.running and s.turn == c.id:
        raise Refusal(_("it is {id}'s own turn: act instead of interrupting (R19)").format(
            id=c.id))
    if e.cost > c.ap:
        raise Refusal(_("{id} has {ap} AP left, cannot spend {cost} (R19)").format(
            id=c.id, ap=c.ap, cost=e.cost))


def _turn_ended(s: State, e: TurnEnded) -> None:
    c = active(s, e.combatant)
    _round_running(s, N_("no round has started yet: end a turn once the GM starts round 1 "
                         "(R5)"))
    if s.turn is not None:
        if s.turn != c.id:
            raise Refusal(_("it is {turn}'s turn, not {id}'s (R21)").format(turn=s.turn, id=c.id))
        return
    if c.id not in s.up():
        raise Refusal(_("{id} is not up; up now: {up} (R8)").format(
            id=c.id, up=", ".join(s.up()) or _("nobody")))


def _left(s: State, e: CombatantLeft) -> None:
    active(s, e.combatant)


def _rejoined(s: State, e: CombatantRejoined) -> None:
    if combatant(s, e.combatant).active:
        raise Refusal(_("{id} has not left the encounter (R22)").format(id=e.combatant))


def _max_ap(s: State, e: MaxAPChanged) -> None:
    active(s, e.combatant)
    _reason(e.reason)


def _adjusted(s: State, e: APAdjusted) -> None:
    c = active(s, e.combatant)
    _reason(e.reason)
    if e.delta == 0:
        raise Refusal(_("an AP adjustment of 0 changes nothing (R14)"))
    if c.ap + e.delta < 0:
        raise Refusal(_("{id} has {ap} AP: AP never goes below 0 (R14)").format(id=c.id, ap=c.ap))
    most = c.in_force  # the maximum of the last restore: a change waits for the next (R14)
    if e.delta > 0 and c.ap + e.delta > most:
        raise Refusal(_("{id} has {ap} of {most} AP, the maximum in force: to go higher now, "
                        "apply an effect --until-round-end (max-ap waits for the next round) "
                        "(R14)").format(id=c.id, ap=c.ap, most=most))


def _grit(s: State, e: GritAdjusted) -> None:
    c = active(s, e.combatant)
    if e.delta == 0:
        raise Refusal(_("a Grit change of 0 changes nothing"))
    if c.grit + e.delta < 0:
        raise Refusal(_("{id} has {grit} Grit: Grit never goes below 0 (R13)").format(
            id=c.id, grit=c.grit))
    if c.grit + e.delta > MAX_NUMBER:
        raise Refusal(_("{id} has {grit} Grit: Grit runs from 0 to {most} (R13)").format(
            id=c.id, grit=c.grit, most=whole(MAX_NUMBER)))


def _effect(s: State, e: EffectApplied) -> None:
    c = active(s, e.combatant)
    check_slug(e.effect, "effect id")
    if e.effect in s.effects:
        raise Refusal(_("there is already an effect {effect!r} in this encounter; name this "
                        "one differently").format(effect=e.effect))
    if not e.name.strip():
        raise Refusal(_("an effect needs a name"))
    check_span(s, e)
    del c


def _effect_ended(s: State, e: EffectEnded) -> None:
    effect = s.effects.get(e.effect)
    if effect is None:
        raise Refusal(_("no effect {effect!r} in this encounter").format(effect=e.effect))
    active(s, effect.combatant)
    if effect.ended or effect.last < max(s.round, 1) or effect.last < effect.first:
        raise Refusal(_("the effect {effect} has already ended").format(effect=e.effect))


def _track(s: State, e: TrackChanged) -> None:
    for cid in filter(None, (e.combatant, e.by)):  # (one who left may still be hurt or healed)
        combatant(s, cid)
    tracks.check(s, e)


def _note(s: State, e: NoteAdded) -> None:
    if not e.text.strip():
        raise Refusal(_("a note needs some text"))


def _renamed(s: State, e: EncounterRenamed) -> None:
    if not e.title.strip():
        raise Refusal(_("say the new title: --title T"))


def _ended(s: State, e: EncounterEnded) -> None:
    pass  # judge() already refuses a second end (R25)


def _secret(s: State, e: CombatantHidden | CombatantRevealed) -> None:
    c, hiding = combatant(s, e.combatant), isinstance(e, CombatantHidden)
    if hiding == (c.id in s.hidden):
        raise Refusal((_("{id} is hidden already") if hiding else
                       _("{id} is not hidden: the players see it")).format(id=c.id))
    if hiding and s.running and s.turn == c.id:
        raise Refusal(_("it is {id}'s turn: the players see it act").format(id=c.id))


_CHECKS: dict[type, Step] = {
    EncounterCreated: _created, CombatantJoined: _joined,
    GroupBonusSet: _group_bonus, InitiativeRolled: _rolled,
    InitiativeOverridden: _overridden, OrderDeclared: _order_declared,
    RoundStarted: _round_started, MomentSeized: _seized, APSpent: _spent,
    FreeActionTaken: _free, InterruptTaken: _interrupted,
    TurnEnded: _turn_ended, CombatantLeft: _left, CombatantRejoined: _rejoined,
    MaxAPChanged: _max_ap, APAdjusted: _adjusted, GritAdjusted: _grit,
    NoteAdded: _note, EncounterEnded: _ended, EncounterRenamed: _renamed,
    EffectApplied: _effect, EffectEnded: _effect_ended, TrackChanged: _track,
    CombatantHidden: _secret, CombatantRevealed: _secret,
}
