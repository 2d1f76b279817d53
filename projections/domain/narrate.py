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
from eventlog.language import SOURCE, N_, _, n_, pgettext, speaking
from projections.domain.state import Effect, State


def _signed(n: int) -> str:
    return f"{n:+d}"


def _because(reason: str) -> str:
    return f" ({reason})" if reason else ""


def _label(label: str) -> str:
    return f": {label}" if label else ""


# An action's kind as the log names it (the words typed stay English).
CATEGORIES = {"minor": lambda: pgettext("action", "minor"),
              "major": lambda: pgettext("action", "major"),
              "custom": lambda: pgettext("action", "custom")}


def category_word(cat: str) -> str:
    return CATEGORIES[cat]() if cat in CATEGORIES else cat


# A side as the table shows it (typed as `pc`/`npc` in every language).
SIDES = {"pc": N_("pc"), "npc": N_("npc")}


def side_word(side: str) -> str:
    return _(SIDES[side]) if side in SIDES else side


def describe(e: Payload, who: Callable[[str], str] = str) -> str:
    """`e` in table language, in the reader's; `who` names a combatant or
    slot by its id (the narrative of a review passes one that gives names)."""
    match e:
        case EncounterCreated(encounter=eid, title=title, fork=None):
            if title:
                return _("Encounter {id} created: {title}").format(id=eid, title=title)
            return _("Encounter {id} created").format(id=eid)
        case EncounterCreated(encounter=eid, title=title, fork=ForkPoint(encounter=source, seq=seq)):
            if title:
                return _("Encounter {id} forked from {source} at seq {seq}: {title}").format(
                    id=eid, source=source, seq=seq, title=title)
            return _("Encounter {id} forked from {source} at seq {seq}").format(
                id=eid, source=source, seq=seq)
        case CombatantJoined(id=cid, name=name, side=side, bonus=b, max_ap=ap,
                             grit=grit, group=group):
            if group:
                return _("{name} ({id}, {side}) joins: bonus {bonus}, {ap} AP, {grit} Grit, "
                         "in group {group}").format(name=name, id=cid, side=side_word(side),
                                                    bonus=_signed(b), ap=ap, grit=grit,
                                                    group=group)
            return _("{name} ({id}, {side}) joins: bonus {bonus}, {ap} AP, {grit} Grit").format(
                name=name, id=cid, side=side_word(side), bonus=_signed(b), ap=ap, grit=grit)
        case GroupBonusSet(group=g, bonus=b):
            return _("Group {group} gets initiative bonus {bonus}").format(group=g, bonus=_signed(b))
        case InitiativeRolled(slot=slot, die=die, bonus=b, total=total, manual=manual):
            if manual:  # a physical die, entered by hand (R1)
                return _("{who} rolled {die} at the table, {bonus} = {total} for "
                         "initiative").format(who=who(slot), die=die, bonus=_signed(b), total=total)
            return _("{who} rolls {die} {bonus} = {total} for initiative").format(
                who=who(slot), die=die, bonus=_signed(b), total=total)
        case InitiativeOverridden(slot=slot, total=total, reason=reason):
            return _("GM sets the initiative of {who} to {total}{because}").format(
                who=who(slot), total=total, because=_because(reason))
        case OrderDeclared(slots=slots, context=context):
            if context == "seize":
                return _("Order of seizers declared: {slots}").format(slots=", ".join(slots))
            return _("Order of tied slots declared: {slots}").format(slots=", ".join(slots))
        case RoundStarted(round=n):
            return _("Round {n} starts: AP restored").format(n=n)
        case MomentSeized(combatant=cid):
            return _("{who} seizes the moment (1 Grit)").format(who=who(cid))
        case APSpent(combatant=cid, cost=cost, category=cat, label=label):
            return _("{who} spends {cost} AP ({kind}){label}").format(
                who=who(cid), cost=cost, kind=category_word(cat), label=_label(label))
        case FreeActionTaken(combatant=cid, label=label):
            return _("{who} takes a free action{label}").format(who=who(cid), label=_label(label))
        case InterruptTaken(combatant=cid, cost=cost, category=cat, label=label):
            return _("{who} interrupts, spending {cost} AP ({kind}){label}").format(
                who=who(cid), cost=cost, kind=category_word(cat), label=_label(label))
        case TurnEnded(combatant=cid):
            return _("{who} ends their turn").format(who=who(cid))
    return _afterwards(e, who)


def in_english(e: Payload) -> str:
    """`e` as describe words it in English, whoever reads: for the exports,
    whose cells are data the same in every language."""
    with speaking(SOURCE):
        return describe(e)


def _afterwards(e: Payload, who: Callable[[str], str]) -> str:
    """describe's second half: leaving, the GM's changes, notes, effects,
    tracks and corrections."""
    match e:
        case CombatantLeft(combatant=cid, reason=reason):
            return _("{who} leaves the encounter{because}").format(
                who=who(cid), because=_because(reason))
        case CombatantRejoined(combatant=cid):
            return _("{who} rejoins the encounter").format(who=who(cid))
        case CombatantHidden(combatant=cid):
            return _("{who} is hidden from the players").format(who=who(cid))
        case CombatantRevealed(combatant=cid):
            return _("{who} is revealed to the players").format(who=who(cid))
        case MaxAPChanged(combatant=cid, max_ap=n, reason=reason):
            return _("GM sets {who}'s maximum AP to {n}{because}").format(
                who=who(cid), n=n, because=_because(reason))
        case APAdjusted(combatant=cid, delta=d, reason=reason):
            return _("GM adjusts {who}'s AP by {delta}{because}").format(
                who=who(cid), delta=_signed(d), because=_because(reason))
        case GritAdjusted(combatant=cid, delta=d, reason=reason):
            return _("{who}'s Grit {delta}{because}").format(
                who=who(cid), delta=_signed(d), because=_because(reason))
        case NoteAdded(text=text):
            return _("Note: {text}").format(text=text)
        case EncounterEnded():
            return _("The encounter ends")
        case EncounterRenamed(title=title):
            return _("The encounter is renamed: {title}").format(title=title)
        case Undone(batches=batches, kind=kind, reason=reason):
            seqs, because = ", ".join(map(str, batches)), _because(reason)
            if kind == "undo":
                return _("Undo of seq {seqs}{because}").format(seqs=seqs, because=because)
            return _("Retraction of seq {seqs}{because}").format(seqs=seqs, because=because)
        case Redone(batch=batch):
            return _("Redo of seq {seq}").format(seq=batch)
        case EffectApplied():
            return _effect([e], who)
        case TrackChanged():
            return _track(e, who)
        case EffectEnded(effect=eid, reason=reason):
            return _("Effect {id} ends{because}").format(id=eid, because=_because(reason))
        case Amended(batch=batch, events=events, reason=reason):
            reading = "; ".join(describe(e, who) for e in events)
            return _("Amendment of seq {seq}{because}: now {reading}").format(
                seq=batch, because=_because(reason), reading=reading)
    return type(e).__name__


def _track(e: TrackChanged, who: Callable[[str], str], whose: str = "") -> str:
    """`Juno's hp -3 (shot, by Ganger)`, `Juno's hp set to 10 of 10`."""
    if e.delta is not None:
        change = _signed(e.delta)
    else:
        change = _("set to {value}").format(value=e.value)
    if e.asked is not None:  # the track stopped at a bound (docs/guide.md, "Tracks")
        if e.asked < 0:
            change += _(" ({asked} asked: stopped at 0)").format(asked=_signed(e.asked))
        else:
            change += _(" ({asked} asked: stopped at its maximum)").format(asked=_signed(e.asked))
    most = _(", maximum {max}").format(max=e.max) if e.max is not None else ""
    shown = ("" if e.public is None else _(", shown to players") if e.public
             else _(", hidden from players"))
    by = _("by {who}").format(who=who(e.by)) if e.by else ""
    why = ", ".join(x for x in (e.reason, by) if x)
    whose = whose or _possessive([who(e.combatant)])
    return _("{whose} {track} {change}{maximum}{shown}{because}").format(
        whose=whose, track=e.track, change=change, maximum=most, shown=shown,
        because=_because(why))


def _possessive(names: list[str]) -> str:
    """`Juno's`, `goblin-1's and goblin-2's` (German says whose after the
    track: `hp von Juno`)."""
    return _listed([_("{who}'s").format(who=name) for name in names])


def lasting(e: Effect) -> str:
    """How long an effect that lasts until ended lasts, in the status's words."""
    if e.until_rest:
        return _("until rest")
    if e.fights is not None:
        return n_("{n} fight", "{n} fights", e.fights).format(n=e.fights)
    return _("until ended")


def _span(e: EffectApplied) -> str:
    if e.until_round_end:
        return _("until the round ends")
    if e.until_ended:
        return _("until ended")
    if e.until_rest:
        return _("until the party rests")
    if e.fights is not None:
        return n_("for {n} fight", "for {n} fights", e.fights).format(n=e.fights)
    return n_("for {n} round", "for {n} rounds", e.rounds or 0).format(n=e.rounds)


def _effect(events: list[EffectApplied], who: Callable[[str], str]) -> str:
    """`Vex is prone until the round ends`; of several, `goblin-1 and
    goblin-2 are stunned (stunned, stunned-2) for 1 round`."""
    e = events[0]
    span = _span(e)
    # (the ids, for `end-effect`, only where they are not the name itself)
    ids = [x.effect for x in events]
    named = e.name if ids == ["-".join(e.name.casefold().split())] else f"{e.name} ({', '.join(ids)})"
    subject, one = _listed([who(x.combatant) for x in events]), len(events) == 1
    if not e.max_ap:
        if one:
            return _("{who} is {effect} {span}").format(who=subject, effect=named, span=span)
        return _("{who} are {effect} {span}").format(who=subject, effect=named, span=span)
    if one:
        return _("{who} gains effect {effect}: max AP {delta} {span}").format(
            who=subject, effect=named, delta=_signed(e.max_ap), span=span)
    return _("{who} gain effect {effect}: max AP {delta} {span}").format(
        who=subject, effect=named, delta=_signed(e.max_ap), span=span)


def _listed(words: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(words) == 1:
        return words[0]
    return _("{first} and {last}").format(first=", ".join(words[:-1]), last=words[-1])


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
        return _track(first, who, _possessive([who(x.combatant) for x in events
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
    return _("round {n} was still running: unspent AP lost: {ap} (R15, R24)").format(
        n=round_, ap=ap)
