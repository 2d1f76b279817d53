"""Events in table language, for the log and the lines after a declaration."""
from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from eventlog.events import (
    Amended, APAdjusted, APSpent, EffectApplied, EffectEnded, CombatantJoined, CombatantLeft,
    CombatantRejoined, CombatantHidden, CombatantRevealed,
    EncounterCreated, EncounterEnded, ForkPoint, FreeActionTaken, GritAdjusted,
    GroupBonusSet, InitiativeOverridden, InitiativeRolled, InterruptTaken,
    EncounterRenamed, MaxAPChanged, MomentSeized, NoteAdded, OrderDeclared, Payload, Redone,
    RoundStarted, TrackChanged, TurnEnded, Undone,
)
from projections.domain.state import Effect, State


def _signed(n: int) -> str:
    return f"{n:+d}"


def _because(reason: str) -> str:
    return f" ({reason})" if reason else ""


def _label(label: str) -> str:
    return f": {label}" if label else ""


def describe(e: Payload, who: Callable[[str], str] = str) -> str:
    """`e` in table language; `who` names a combatant or slot by its id (the
    narrative of a review passes one that gives names)."""
    match e:
        case EncounterCreated(encounter=eid, title=title, fork=None):
            return f"Encounter {eid} created" + (f": {title}" if title else "")
        case EncounterCreated(encounter=eid, title=title, fork=ForkPoint(encounter=source, seq=seq)):
            return (f"Encounter {eid} forked from {source} at seq {seq}"
                    + (f": {title}" if title else ""))
        case CombatantJoined(id=cid, name=name, side=side, bonus=b, max_ap=ap,
                             grit=grit, group=group):
            extra = f", in group {group}" if group else ""
            return (f"{name} ({cid}, {side}) joins: bonus {_signed(b)}, {ap} AP, "
                    f"{grit} Grit{extra}")
        case GroupBonusSet(group=g, bonus=b):
            return f"Group {g} gets initiative bonus {_signed(b)}"
        case InitiativeRolled(slot=slot, die=die, bonus=b, total=total, manual=manual):
            if manual:  # a physical die, entered by hand (R1)
                return (f"{who(slot)} rolled {die} at the table, {_signed(b)} = {total} "
                        "for initiative")
            return f"{who(slot)} rolls {die} {_signed(b)} = {total} for initiative"
        case InitiativeOverridden(slot=slot, total=total, reason=reason):
            return f"GM sets the initiative of {who(slot)} to {total}{_because(reason)}"
        case OrderDeclared(slots=slots, context=context):
            what = "seizers" if context == "seize" else "tied slots"
            return f"Order of {what} declared: {', '.join(slots)}"
        case RoundStarted(round=n):
            return f"Round {n} starts: AP restored"
        case MomentSeized(combatant=cid):
            return f"{who(cid)} seizes the moment (1 Grit)"
        case APSpent(combatant=cid, cost=cost, category=cat, label=label):
            return f"{who(cid)} spends {cost} AP ({cat}){_label(label)}"
        case FreeActionTaken(combatant=cid, label=label):
            return f"{who(cid)} takes a free action{_label(label)}"
        case InterruptTaken(combatant=cid, cost=cost, category=cat, label=label):
            return f"{who(cid)} interrupts, spending {cost} AP ({cat}){_label(label)}"
        case TurnEnded(combatant=cid):
            return f"{who(cid)} ends their turn"
        case CombatantLeft(combatant=cid, reason=reason):
            return f"{who(cid)} leaves the encounter{_because(reason)}"
        case CombatantRejoined(combatant=cid):
            return f"{who(cid)} rejoins the encounter"
        case CombatantHidden(combatant=cid):
            return f"{who(cid)} is hidden from the players"
        case CombatantRevealed(combatant=cid):
            return f"{who(cid)} is revealed to the players"
        case MaxAPChanged(combatant=cid, max_ap=n, reason=reason):
            return f"GM sets {who(cid)}'s maximum AP to {n}{_because(reason)}"
        case APAdjusted(combatant=cid, delta=d, reason=reason):
            return f"GM adjusts {who(cid)}'s AP by {_signed(d)}{_because(reason)}"
        case GritAdjusted(combatant=cid, delta=d, reason=reason):
            return f"{who(cid)}'s Grit {_signed(d)}{_because(reason)}"
        case NoteAdded(text=text):
            return f"Note: {text}"
        case EncounterEnded():
            return "The encounter ends"
        case EncounterRenamed(title=title):
            return f"The encounter is renamed: {title}"
        case Undone(batches=batches, kind=kind, reason=reason):
            word = "Undo" if kind == "undo" else "Retraction"
            return f"{word} of seq {', '.join(map(str, batches))}{_because(reason)}"
        case Redone(batch=batch):
            return f"Redo of seq {batch}"
        case EffectApplied():
            return _effect([e], who)
        case TrackChanged():
            return _track(e, who)
        case EffectEnded(effect=eid, reason=reason):
            return f"Effect {eid} ends{_because(reason)}"
        case Amended(batch=batch, events=events, reason=reason):
            reading = "; ".join(describe(e, who) for e in events)
            return f"Amendment of seq {batch}{_because(reason)}: now {reading}"
    return type(e).__name__


def _track(e: TrackChanged, who: Callable[[str], str], whose: str = "") -> str:
    """`Juno's hp -3 (shot, by Ganger)`, `Juno's hp set to 10 of 10`."""
    change = (f"{_signed(e.delta)}" if e.delta is not None else f"set to {e.value}")
    if e.asked is not None:  # the track stopped at a bound (docs/guide.md, "Tracks")
        bound = "0" if e.asked < 0 else "its maximum"
        change += f" ({_signed(e.asked)} asked: stopped at {bound})"
    most = f", maximum {e.max}" if e.max is not None else ""
    shown = "" if e.public is None else ", shown to players" if e.public else ", hidden from players"
    why = ", ".join(x for x in (e.reason, f"by {who(e.by)}" if e.by else "") if x)
    whose = whose or f"{who(e.combatant)}'s"
    return f"{whose} {e.track} {change}{most}{shown}{_because(why)}"


def lasting(e: Effect) -> str:
    """How long an effect that lasts until ended lasts, in the status's words."""
    if e.until_rest:
        return "until rest"
    if e.fights is not None:
        return f"{e.fights} fight{'s' if e.fights != 1 else ''}"
    return "until ended"


def _effect(events: list[EffectApplied], who: Callable[[str], str]) -> str:
    """`Vex is prone until the round ends`; of several, `goblin-1 and
    goblin-2 are stunned (stunned, stunned-2) for 1 round`."""
    e = events[0]
    span = ("until the round ends" if e.until_round_end else "until ended" if e.until_ended
            else "until the party rests" if e.until_rest
            else f"for {e.fights} fight{'s' if e.fights != 1 else ''}" if e.fights is not None
            else f"for {e.rounds} round{'s' if e.rounds != 1 else ''}")
    # (the ids, for `end-effect`, only where they are not the name itself)
    ids = [x.effect for x in events]
    named = e.name if ids == ["-".join(e.name.casefold().split())] else f"{e.name} ({', '.join(ids)})"
    subject, one = _listed([who(x.combatant) for x in events]), len(events) == 1
    if not e.max_ap:
        return f"{subject} {'is' if one else 'are'} {named} {span}"
    gains = "gains effect" if one else "gain effect"
    return f"{subject} {gains} {named}: max AP {_signed(e.max_ap)} {span}"


def _listed(words: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def describe_together(events: list[Payload], who: Callable[[str], str] = str) -> str | None:
    """One line for the events of one declaration about several targets
    (`track goblin-1,goblin-2 hp -3`: alike but for whose they are), or
    None when they are not such."""
    first = events[0]
    if len(events) < 2:
        return None
    if isinstance(first, TrackChanged) and all(
            isinstance(x, TrackChanged) and replace(x, combatant=first.combatant) == first
            for x in events):
        return _track(first, who, _listed([f"{who(x.combatant)}'s" for x in events
                                           if isinstance(x, TrackChanged)]))
    if isinstance(first, EffectApplied) and all(
            isinstance(x, EffectApplied)
            and replace(x, combatant=first.combatant, effect=first.effect) == first
            for x in events):
        return _effect([x for x in events if isinstance(x, EffectApplied)], who)
    return None


def unspent(s: State) -> list[tuple[str, int]]:
    """AP left unspent per active combatant with initiative: what the next
    round's restore throws away while this one runs (R15, R24)."""
    if not s.running:
        return []
    return [(c.id, c.ap) for c in s.combatants.values()
            if c.active and c.ap > 0 and s.initiative_of(c.id) is not None]


def lost_line(lost: list[tuple[str, int]], round_: int) -> str:
    ap = ", ".join(f"{cid} {n} AP" for cid, n in lost)
    return f"round {round_} was still running: unspent AP lost: {ap} (R15, R24)"
