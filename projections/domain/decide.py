"""decide: a command and the folded state give the events it declares, or a
Refusal citing the rule. Pure: the dice come in as a function, and the clock
and the actor are the store's and the caller's business. The judge
(rules.py) then checks every event on the state it lands on, so decide only
works out *what* is declared: which slots roll, their bonuses, which member
passes, whether an order is of tied slots or of seizers, effect ids, the
names `--count` gives.

Corrections (undo, redo, retract, amend) are decided over the history, not
the state: see projections/correcting.py.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eventlog.errors import Refusal
from eventlog.language import _
from eventlog.events import (
    APAdjusted, CombatantHidden, CombatantJoined, CombatantRevealed, CombatantLeft,
    CombatantRejoined, EffectApplied, EffectEnded, EncounterCreated, EncounterEnded,
    EncounterRenamed, GritAdjusted, GroupBonusSet,
    InitiativeOverridden, InitiativeRolled, MaxAPChanged, MomentSeized, NoteAdded,
    Payload, RoundStarted, Side, TrackChanged,
)

from projections.domain import commands as c
from projections.domain.phrases import action, slugify
from projections.domain.asks import declared_order, turn_to_end
from projections.domain.ids import resolved, targets, unseen_id
from projections.domain.state import State
from projections.domain.tracks import stopped

Dice = Callable[[], int]  # one d10: 1 to 10
MAX_COUNT = 100  # `add --count 100000` is a typo, not a squad


def decide(state: State, command: c.Command, dice: Dice, actor: str = "gm") -> list[Payload]:
    """The events `command`, given by `actor`, declares on `state` (not yet
    judged)."""
    command = resolved(state, command)  # prefixes and names of ids (the docs)
    if isinstance(command, c.Order):  # who may order what depends on who asks (R3c)
        return [declared_order(state, list(command.slots), actor)]
    handler = _DECIDERS.get(type(command))
    if handler is None:
        raise Refusal(_("`{command}` declares nothing by itself").format(
            command=command.__struct_config__.tag))
    return handler(state, command, dice)


def who(state: State, command: c.Command) -> list[str]:
    """The combatants or slots `command` declares for, as decide works them
    out on `state` (a bare `end-turn` ends the turn the core picks, a bare
    `roll` rolls every unrolled slot); [] for a command about none (`round`,
    `note`). Whoever checks who may declare what (the table server's tokens)
    asks here rather than re-deriving the rules."""
    command = resolved(state, command)
    match command:
        case c.EndTurn():
            return [turn_to_end(state, command.id, command.careful).combatant]
        case c.Roll():
            return list(command.slots) or unrolled(state)
        case c.Order():
            return list(command.slots)
        case c.SetInitiative():
            return [command.slot]
        case c.Effect() | c.Track():
            return targets(command.id)
        case c.Act() | c.Interrupt() | c.Seize() | c.Leave() | c.Rejoin() | c.MaxAP() \
                | c.AdjustAP() | c.Grit() | c.Hide() | c.Reveal():
            return [command.id]
    return []


def _new(s: State, cmd: c.New, dice: Dice) -> list[Payload]:
    return [EncounterCreated(encounter=cmd.id, title=cmd.title)]


def _add(s: State, cmd: c.Add, dice: Dice) -> list[Payload]:
    base = cmd.id or unseen_id(slugify(cmd.name), cmd.hidden)  # (no id made: the judge says so)
    if not 1 <= cmd.count <= MAX_COUNT:
        raise Refusal(_("--count adds 1 to {most} combatants at once, not {count}").format(
            most=MAX_COUNT, count=cmd.count))
    name = cmd.name
    if cmd.id is None and cmd.count == 1 and _taken(s, base):  # a second Goblin: goblin-2
        n = next(n for n in range(2, len(s.combatants) + 3) if not _taken(s, f"{base}-{n}"))
        base, name = f"{base}-{n}", f"{cmd.name} {n}"
    people = [(base, name)] if cmd.count == 1 else [
        (f"{base}-{i}", f"{cmd.name} {i}") for i in range(1, cmd.count + 1)]
    side: Side = "pc" if cmd.pc else "npc"
    joined: list[Payload] = [CombatantJoined(id=i, name=n, side=side, bonus=cmd.bonus,
                                             max_ap=cmd.ap, grit=cmd.grit, group=cmd.group)
                             for i, n in people]
    return joined + [CombatantHidden(combatant=i) for i, _name in people if cmd.hidden]


def _taken(s: State, cid: str) -> bool:
    return cid in s.combatants or cid in s.groups


def _load(s: State, cmd: c.Load, dice: Dice) -> list[Payload]:
    from projections.domain.loading import declarations
    return declarations(cmd, s)


def _group(s: State, cmd: c.Group, dice: Dice) -> list[Payload]:
    return [GroupBonusSet(group=cmd.id, bonus=cmd.bonus)]


def unrolled(s: State) -> list[str]:
    """Active slots without initiative, in the order they joined."""
    slots: list[str] = []
    for comb in s.combatants.values():
        key = comb.group or comb.id
        if comb.active and key not in s.slots and key not in slots:
            slots.append(key)
    return slots


def _bonus(s: State, slot: str) -> int:
    if slot in s.groups:
        return s.group_bonus(slot) or 0
    comb = s.combatants.get(slot)
    return comb.bonus if comb else 0


def _roll(s: State, cmd: c.Roll, dice: Dice) -> list[Payload]:
    if cmd.die is not None and len(cmd.slots) != 1:
        raise Refusal(_("--die enters one physical roll: name exactly one slot (R1)"))
    chosen = cmd.slots or unrolled(s)
    if not chosen:
        raise Refusal(_("every active slot has rolled initiative already (R1)"))
    out: list[Payload] = []
    for slot in chosen:
        die = cmd.die if cmd.die is not None else dice()
        bonus = _bonus(s, slot)
        out.append(InitiativeRolled(slot=slot, die=die, bonus=bonus, total=die + bonus,
                                    manual=cmd.die is not None))
    return out


def _round(s: State, cmd: c.Round, dice: Dice) -> list[Payload]:
    return [RoundStarted(round=s.round + 1)]


def _seize(s: State, cmd: c.Seize, dice: Dice) -> list[Payload]:
    return [MomentSeized(combatant=cmd.id)]


def _act(s: State, cmd: c.Act, dice: Dice) -> list[Payload]:
    return [action(cmd.id, str(cmd.cost), cmd.label, interrupt=False)]


def _interrupt(s: State, cmd: c.Interrupt, dice: Dice) -> list[Payload]:
    return [action(cmd.id, str(cmd.cost), cmd.label, interrupt=True)]


def _end_turn(s: State, cmd: c.EndTurn, dice: Dice) -> list[Payload]:
    return [turn_to_end(s, cmd.id, cmd.careful)]


def _effect(s: State, cmd: c.Effect, dice: Dice) -> list[Payload]:
    """One effect per target, each with its own id (`stunned`, `stunned-2`)."""
    ids = targets(cmd.id)
    if cmd.effect is not None and len(ids) > 1:
        raise Refusal(_("--id names one effect: give it one target, not {n} (without --id "
                        "each target's effect gets its own id)").format(n=len(ids)))
    if cmd.max_ap == 0:
        raise Refusal(_("an effect that changes the maximum AP by 0 changes nothing; leave out "
                        "--max-ap for a condition (R14)"))
    base = cmd.effect or slugify(cmd.name) or "effect"
    out: list[Payload] = []
    taken = set(s.effects)
    for cid in ids:
        # A hidden combatant's effects are named after it, so the numbers of the
        # others' (`prone-2`) count only what the players see (docs/server.md).
        own = f"{base}-{cid}" if cmd.effect is None and cid in s.hidden else base
        chosen, n = own, 1
        while cmd.effect is None and chosen in taken:
            n += 1
            chosen = f"{own}-{n}"
        taken.add(chosen)
        out.append(EffectApplied(effect=chosen, combatant=cid, name=cmd.name,
                                 max_ap=cmd.max_ap or 0, rounds=cmd.rounds,
                                 until_round_end=cmd.until_round_end,
                                 until_ended=cmd.until_ended, until_rest=cmd.until_rest,
                                 fights=cmd.fights))
    return out


def _track(s: State, cmd: c.Track, dice: Dice) -> list[Payload]:
    """One change per target, alike but for whose track it is and how much
    of a change each track takes: damage past 0 stops at 0, healing past
    the maximum at the maximum, and the event says what was asked."""
    name = cmd.name.strip().lower()
    out: list[Payload] = []
    for cid in targets(cmd.id):
        delta, asked = cmd.delta, None
        if delta is not None:
            track = s.tracks.get(cid, {}).get(name)
            took = stopped(track, delta, cmd.max if cmd.max is not None else
                           track.max if track is not None else None)
            delta, asked = took, (delta if took != delta else None)
        out.append(TrackChanged(combatant=cid, track=name, value=cmd.value, delta=delta,
                                max=cmd.max, reason=cmd.reason, by=cmd.by,
                                public=cmd.public, asked=asked))
    return out


def acting(state: State) -> str:
    """Whoever an alias without an id acts for: the turn in progress, or the
    only combatant up (R8: in a group slot, whoever declares first)."""
    up = state.up()
    if len(up) == 1:
        return up[0]
    if up:
        raise Refusal(_("{up} may all act now: name who acts, e.g. `m {first}` (R8)").format(
            up=", ".join(up), first=up[0]))
    if state.ended:
        raise Refusal(_("the encounter has ended (R25)"))
    if not state.running:
        raise Refusal(_("nobody is acting: no round is in progress; name who acts or start one "
                        "with `round` (R5, R23)"))
    raise Refusal(_("nobody is acting now: name who acts"))



# (Any: each decider takes the command of its key's type)
_DECIDERS: dict[type, Callable[[State, Any, Dice], list[Payload]]] = {
    c.New: _new, c.Add: _add, c.Load: _load, c.Group: _group,
    c.Roll: _roll, c.Round: _round, c.Seize: _seize, c.Act: _act,
    c.Interrupt: _interrupt, c.EndTurn: _end_turn,
    c.Leave: lambda s, cmd, d: [CombatantLeft(combatant=cmd.id, reason=cmd.reason)],
    c.Rejoin: lambda s, cmd, d: [CombatantRejoined(combatant=cmd.id)],
    c.MaxAP: lambda s, cmd, d: [MaxAPChanged(combatant=cmd.id, max_ap=cmd.n, reason=cmd.reason)],
    c.AdjustAP: lambda s, cmd, d: [APAdjusted(combatant=cmd.id, delta=cmd.delta,
                                              reason=cmd.reason)],
    c.Grit: lambda s, cmd, d: [GritAdjusted(combatant=cmd.id, delta=cmd.delta,
                                            reason=cmd.reason)],
    c.SetInitiative: lambda s, cmd, d: [InitiativeOverridden(slot=cmd.slot, total=cmd.total,
                                                             reason=cmd.reason)],
    c.Note: lambda s, cmd, d: [NoteAdded(text=cmd.text)],
    c.Rename: lambda s, cmd, d: [EncounterRenamed(title=cmd.title)],
    c.End: lambda s, cmd, d: [EncounterEnded()],
    c.Effect: _effect,
    c.EndEffect: lambda s, cmd, d: [EffectEnded(effect=cmd.effect, reason=cmd.reason)],
    c.Track: _track,
    c.Hide: lambda s, cmd, d: [CombatantHidden(combatant=cmd.id)],
    c.Reveal: lambda s, cmd, d: [CombatantRevealed(combatant=cmd.id)],
}
