"""The judge: one pure function that accepts a declaration against the folded
state or raises a Refusal citing the rule. It runs when a command is declared,
when undo/redo/retraction are checked and when a log is imported.
"""
from __future__ import annotations

import re

from eventlog.errors import Refusal
from eventlog.events import (
    APAdjusted, APSpent, CombatantHidden, CombatantJoined, CombatantLeft, CombatantRejoined,
    CombatantRevealed, EffectApplied, EffectEnded, EncounterCreated, EncounterEnded,
    EncounterRenamed, FreeActionTaken, GritAdjusted, GroupBonusSet, InitiativeOverridden,
    InitiativeRolled, InterruptTaken, MaxAPChanged, MomentSeized, NoteAdded, OrderDeclared,
    Payload, RoundStarted, TrackChanged, TurnEnded)
from projections.domain import tracks
from projections.domain.names import did_you_mean
from projections.domain.phrases import slugify
from projections.domain.lasting import check_span
from projections.domain.ranges import MAX_ID, MAX_NUMBER, check_numbers
from projections.domain.state import TURN_LIMIT, Combatant, State, Step

SLUG = re.compile(rf"[a-z0-9][a-z0-9-]{{0,{MAX_ID - 1}}}\Z")  # 10,000 characters is no id


def judge(s: State, e: Payload) -> None:
    """Accept `e` as the next declaration of `s`, or raise Refusal."""
    if not s.created and not isinstance(e, EncounterCreated):
        raise Refusal("the encounter has not been created yet")
    if s.ended and not isinstance(e, (NoteAdded, EncounterRenamed)):  # (the record's own)
        raise Refusal("the encounter has ended: only notes, undo, redo, retraction "
                      "and amendment can be declared (R25)")
    check = _CHECKS.get(type(e))
    if check is None:
        raise Refusal(f"{type(e).__name__} is not a declaration")
    check_numbers(e)
    check(s, e)


def check_slug(value: str, what: str = "id") -> None:
    if len(value or "") > MAX_ID:
        article = "an" if what[0] in "aeiou" else "a"
        raise Refusal(f"{article} {what} holds at most {MAX_ID} characters, not {len(value):,}")
    if not SLUG.match(value or ""):
        shown = value if len(value or "") <= MAX_ID else f"{value[:MAX_ID]}…"
        raise Refusal(f"{shown!r} is not a valid {what}: use lowercase letters, "
                      f"digits and dashes, starting with a letter or digit, at most {MAX_ID}")


def unknown(s: State, sid: str, groups: bool = False,
            unseen: frozenset[str] = frozenset()) -> Refusal:
    """No such combatant (or group): the refusal, naming a close id, never one of `unseen`."""
    ids = [x for x in (*s.combatants, *(s.groups if groups else ())) if x not in unseen]
    what = "combatant or group" if groups else "combatant"
    return Refusal(f"no {what} {sid!r} in this encounter{did_you_mean(sid, ids)}")


def _known_slot(s: State, sid: str) -> None:
    if sid not in s.groups and sid not in s.combatants:
        raise unknown(s, sid, groups=True)


def _combatant(s: State, cid: str) -> Combatant:
    c = s.combatants.get(cid)
    if c is None:
        if cid in s.groups:
            raise Refusal(f"{cid} is a group; name one of its members "
                          f"({', '.join(s.groups[cid].members)})")
        raise unknown(s, cid)
    return c


def _active(s: State, cid: str) -> Combatant:
    c = _combatant(s, cid)
    if not c.active:
        raise Refusal(f"{cid} has left the encounter: nothing can be declared "
                      "for them until they rejoin (R22)")
    return c


def _slot(s: State, sid: str, alone_refused: str) -> None:
    """A slot id: a lone combatant or a group with an active member."""
    if sid in s.groups:
        members = s.groups[sid].members
        if not members:
            raise Refusal(f"group {sid} has no members yet")
        if not any(s.combatants[m].active for m in members):
            raise Refusal(f"every member of {sid} has left the encounter (R22)")
        return
    c = _active(s, sid)
    if c.group is not None:
        raise Refusal(f"{sid} is in group {c.group}: "
                      + alone_refused.format(group=c.group))


def _reason(reason: str) -> None:
    if not reason.strip():
        raise Refusal("a GM override needs a reason (--reason) (R29)")


def _round_running(s: State, doing: str) -> None:
    if s.round == 0:
        raise Refusal(f"no round has started yet: {doing} once the GM starts "
                      "round 1 (R5)")
    if s.round_complete:
        raise Refusal(f"round {s.round} is complete: nobody is up until the GM "
                      "starts the next round (R23)")


def _created(s: State, e: EncounterCreated) -> None:
    if s.created:
        raise Refusal("the encounter already exists")
    check_slug(e.encounter, "encounter id")


def _joined(s: State, e: CombatantJoined) -> None:
    if not SLUG.match(e.id) and e.name.strip() and not slugify(e.name):
        raise Refusal(f"{e.name!r} has no letters or digits to make an id from: "
                      "give one with --id")
    check_slug(e.id)
    if not e.name.strip():
        raise Refusal("a combatant needs a name")
    if e.id in s.combatants or e.id in s.groups:
        raise Refusal(f"the id {e.id!r} is already taken in this encounter; "
                      "choose another with --id")
    if e.group is not None:
        check_slug(e.group, "group id")
        if e.group in s.combatants:
            raise Refusal(f"{e.group} is a combatant, not a group")
        group = s.groups.get(e.group)
        if group is not None and group.members:
            side = s.combatants[group.members[0]].side
            if side != e.side:
                raise Refusal(f"group {e.group} is {side}: a {e.side} cannot join "
                              "it; all members of a group are on one side (R7)")


def _group_bonus(s: State, e: GroupBonusSet) -> None:
    check_slug(e.group, "group id")
    if e.group in s.combatants:
        raise Refusal(f"{e.group} is a combatant, not a group")
    if e.group in s.slots:
        raise Refusal(f"{e.group} has already rolled initiative; the GM can change "
                      "it with set-initiative (R4)")


def _rolled(s: State, e: InitiativeRolled) -> None:
    _known_slot(s, e.slot)
    _slot(s, e.slot, "a member cannot roll alone; roll {group} (R7)")
    if e.slot in s.slots:
        raise Refusal(f"{e.slot} has already rolled initiative "
                      f"({s.slots[e.slot].total}); it is rolled once per "
                      "encounter, the GM can change it with set-initiative (R1, R4)")
    if e.slot in s.groups:
        bonus = s.group_bonus(e.slot)
        if bonus is None:
            found = sorted({s.combatants[m].bonus for m in s.groups[e.slot].members})
            raise Refusal(f"the members of {e.slot} have different bonuses "
                          f"({', '.join(map(str, found))}): set one with "
                          f"`group {e.slot} --bonus N` (R7)")
    else:
        bonus = s.combatants[e.slot].bonus
    if e.bonus != bonus:
        raise Refusal(f"{e.slot}'s initiative bonus is {bonus}, not {e.bonus} (R1)")
    if e.total != e.die + e.bonus:
        raise Refusal(f"1d10 + bonus is {e.die + e.bonus}, not {e.total} (R1)")


def _overridden(s: State, e: InitiativeOverridden) -> None:
    _known_slot(s, e.slot)
    _slot(s, e.slot, "override the initiative of {group} instead (R4)")
    _reason(e.reason)


def _order_declared(s: State, e: OrderDeclared) -> None:
    if len(e.slots) < 2 or len(set(e.slots)) != len(e.slots):
        raise Refusal("name two or more different slots, in the order they act (R3)")
    if e.context == "seize":
        if not s.round or s.ended:  # until the next round starts, complete or not
            raise Refusal("no round is running: there are no seizers to order (R12)")
        for cid in e.slots:
            _active(s, cid)
            if cid not in s.seizers:
                raise Refusal(f"{cid} has not seized the moment this round (R12)")
        sides = {s.combatants[c].side for c in e.slots}
        if len(sides) > 1:
            raise Refusal("PC seizers always act before NPC seizers: order each "
                          "side on its own (R12)")
        return
    for sid in e.slots:
        _known_slot(s, sid)
        _slot(s, sid, "order its group {group} instead (R3)")
        if sid not in s.slots:
            raise Refusal(f"{sid} has no initiative yet: roll first (R3)")
    first = s.slots[e.slots[0]]
    for sid in e.slots[1:]:
        other = s.slots[sid]
        if (other.total, other.side) != (first.total, first.side):
            raise Refusal(
                f"{first.id} ({first.side}, {first.total}) and {sid} ({other.side}, "
                f"{other.total}) are not tied: only tied slots of one side have an "
                "order to declare, and PCs act before NPCs (R3)")


def _round_started(s: State, e: RoundStarted) -> None:
    if e.round != s.round + 1:
        raise Refusal(f"the next round is round {s.round + 1}, not {e.round} (R24)")
    active = [c for c in s.combatants.values() if c.active]
    if not s.combatants:
        raise Refusal("nobody is in the encounter yet: add combatants first (R5)")
    if not active:
        raise Refusal(f"round {e.round} cannot start: nobody is active, everyone has left; "
                      "`rejoin ID` brings one back, `end` ends the encounter (R24)")
    missing = []
    for c in active:
        key = c.group or c.id
        if key not in s.slots and key not in missing:
            missing.append(key)
    if missing:
        raise Refusal(f"round {e.round} cannot start: {', '.join(missing)} "
                      f"{'has' if len(missing) == 1 else 'have'} no initiative "
                      "yet; roll first (R5)")


def _seized(s: State, e: MomentSeized) -> None:
    c = _active(s, e.combatant)
    if s.round == 0:
        raise Refusal("no round has started: seize the moment at the start of a "
                      "round (R10)")
    if not s.running or not s.window:
        raise Refusal(f"too late to seize the moment in round {s.round}: the first "
                      "combatant has acted (R10)")
    if c.id in s.seizers:
        raise Refusal(f"{c.id} has already seized the moment this round (R13)")
    if c.grit < 1:
        raise Refusal(f"{c.id} has no Grit to spend on seizing the moment (R10, R13)")
    if s.initiative_of(c.id) is None:
        raise Refusal(f"{c.id} has no initiative yet: roll first (R5)")


CATEGORY_COST = {"minor": 1, "major": 2}  # R16; "custom" states its own


def _cost(e: APSpent | InterruptTaken) -> None:
    expected = CATEGORY_COST.get(e.category)
    if expected is not None and e.cost != expected:
        raise Refusal(f"a {e.category} action costs {expected} AP, not {e.cost}; "
                      "declare a custom cost instead (R16)")


def _spent(s: State, e: APSpent) -> None:
    c = _active(s, e.combatant)
    _cost(e)
    _round_running(s, "act")
    if s.turn is not None and s.turn != c.id:
        raise Refusal(f"it is {s.turn}'s turn, not {c.id}'s: out of turn, declare "
                      "an interrupt (R17, R19)")
    if s.turn is None and c.id not in s.up():
        up = s.up()
        if c.id in s.done:
            why = f"{c.id} has had its turn in pass {s.pass_}"
        else:
            why = f"{c.id} is not up"
        raise Refusal(f"{why}; up now: {', '.join(up) or 'nobody'} (R8, R23)")
    if e.cost > c.ap:
        raise Refusal(f"{c.id} has {c.ap} AP left, cannot spend {e.cost} (R17)")
    if c.spent_this_turn + e.cost > TURN_LIMIT:
        raise Refusal(f"{c.id} has spent {c.spent_this_turn} AP this turn, cannot "
                      f"spend {e.cost} more: at most {TURN_LIMIT} AP per turn (R17)")


def _free(s: State, e: FreeActionTaken) -> None:
    _active(s, e.combatant)


def _interrupted(s: State, e: InterruptTaken) -> None:
    c = _active(s, e.combatant)
    _cost(e)
    if s.round == 0:
        raise Refusal("no interrupts before the first round (R19)")
    if s.running and s.turn == c.id:
        raise Refusal(f"it is {c.id}'s own turn: act instead of interrupting (R19)")
    if e.cost > c.ap:
        raise Refusal(f"{c.id} has {c.ap} AP left, cannot spend {e.cost} (R19)")


def _turn_ended(s: State, e: TurnEnded) -> None:
    c = _active(s, e.combatant)
    _round_running(s, "end a turn")
    if s.turn is not None:
        if s.turn != c.id:
            raise Refusal(f"it is {s.turn}'s turn, not {c.id}'s (R21)")
        return
    if c.id not in s.up():
        raise Refusal(f"{c.id} is not up; up now: {', '.join(s.up()) or 'nobody'} (R8)")


def _left(s: State, e: CombatantLeft) -> None:
    _active(s, e.combatant)


def _rejoined(s: State, e: CombatantRejoined) -> None:
    if _combatant(s, e.combatant).active:
        raise Refusal(f"{e.combatant} has not left the encounter (R22)")


def _max_ap(s: State, e: MaxAPChanged) -> None:
    _active(s, e.combatant)
    _reason(e.reason)


def _adjusted(s: State, e: APAdjusted) -> None:
    c = _active(s, e.combatant)
    _reason(e.reason)
    if e.delta == 0:
        raise Refusal("an AP adjustment of 0 changes nothing (R14)")
    if c.ap + e.delta < 0:
        raise Refusal(f"{c.id} has {c.ap} AP: AP never goes below 0 (R14)")
    most = c.in_force  # the maximum of the last restore: a change waits for the next (R14)
    if e.delta > 0 and c.ap + e.delta > most:
        raise Refusal(f"{c.id} has {c.ap} of {most} AP, the maximum in force: to go "
                      "higher now, apply an effect --until-round-end (max-ap waits "
                      "for the next round) (R14)")


def _grit(s: State, e: GritAdjusted) -> None:
    c = _active(s, e.combatant)
    if e.delta == 0:
        raise Refusal("a Grit change of 0 changes nothing")
    if c.grit + e.delta < 0:
        raise Refusal(f"{c.id} has {c.grit} Grit: Grit never goes below 0 (R13)")
    if c.grit + e.delta > MAX_NUMBER:
        raise Refusal(f"{c.id} has {c.grit} Grit: Grit runs from 0 to {MAX_NUMBER:,} (R13)")


def _effect(s: State, e: EffectApplied) -> None:
    c = _active(s, e.combatant)
    check_slug(e.effect, "effect id")
    if e.effect in s.effects:
        raise Refusal(f"there is already an effect {e.effect!r} in this encounter; "
                      "name this one differently")
    if not e.name.strip():
        raise Refusal("an effect needs a name")
    check_span(s, e)
    del c


def _effect_ended(s: State, e: EffectEnded) -> None:
    effect = s.effects.get(e.effect)
    if effect is None:
        raise Refusal(f"no effect {e.effect!r} in this encounter")
    _active(s, effect.combatant)
    if effect.ended or effect.last < max(s.round, 1) or effect.last < effect.first:
        raise Refusal(f"the effect {e.effect} has already ended")


def _track(s: State, e: TrackChanged) -> None:
    for cid in filter(None, (e.combatant, e.by)):  # (one who left may still be hurt or healed)
        _combatant(s, cid)
    tracks.check(s, e)


def _note(s: State, e: NoteAdded) -> None:
    if not e.text.strip():
        raise Refusal("a note needs some text")


def _renamed(s: State, e: EncounterRenamed) -> None:
    if not e.title.strip():
        raise Refusal("say the new title: --title T")


def _ended(s: State, e: EncounterEnded) -> None:
    pass  # judge() already refuses a second end (R25)


def _secret(s: State, e: CombatantHidden | CombatantRevealed) -> None:
    c, hiding = _combatant(s, e.combatant), isinstance(e, CombatantHidden)
    if hiding == (c.id in s.hidden):
        raise Refusal(f"{c.id} is {'hidden already' if hiding else 'not hidden: the players see it'}")
    if hiding and s.running and s.turn == c.id:
        raise Refusal(f"it is {c.id}'s turn: the players see it act")


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
