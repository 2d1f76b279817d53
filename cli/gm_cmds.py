"""GM declarations: leaving, overrides with reasons, notes, the end, undo/redo."""
from typing import List, Optional

import typer

from eventlog.errors import LedgerError
from eventlog.events import (
    APAdjusted, CombatantLeft, CombatantRejoined, EncounterEnded, GritAdjusted,
    InitiativeOverridden, MaxAPChanged, NoteAdded,
)

from .base import NUMBERS, app, session
from .complete import combatant_ids, slot_ids

REASON = typer.Option(..., "--reason", help="Why: kept in the log for the audit (R29).")


@app.command()
def leave(ctx: typer.Context, cid: str = typer.Argument(..., metavar="ID", autocompletion=combatant_ids),
          reason: str = typer.Option("", "--reason", help="Defeated, fled, removed...")) -> None:
    """A combatant leaves the encounter: skipped until they rejoin (R22).

    Example: combat leave ganger-2 --reason "knocked out"
    """
    session(ctx).declare(lambda state: [CombatantLeft(combatant=cid, reason=reason)])


@app.command()
def rejoin(ctx: typer.Context, cid: str = typer.Argument(..., metavar="ID", autocompletion=combatant_ids)) -> None:
    """A combatant comes back, at their old initiative and current AP (R22).

    Example: combat rejoin ganger-2
    """
    session(ctx).declare(lambda state: [CombatantRejoined(combatant=cid)])


@app.command("max-ap", context_settings=NUMBERS)
def max_ap(ctx: typer.Context, cid: str = typer.Argument(..., metavar="ID", autocompletion=combatant_ids),
           n: int = typer.Argument(..., metavar="N", help="The new maximum AP."),
           reason: str = REASON) -> None:
    """Change a combatant's maximum AP; it applies at the next round (R14).

    Example: combat max-ap chrome 4 --reason "wired reflexes"
    """
    session(ctx).declare(lambda state: [MaxAPChanged(combatant=cid, max_ap=n, reason=reason)])


@app.command("adjust-ap", context_settings=NUMBERS)
def adjust_ap(ctx: typer.Context, cid: str = typer.Argument(..., metavar="ID", autocompletion=combatant_ids),
              delta: int = typer.Argument(..., metavar="DELTA", help="AP to add (negative to take)."),
              reason: str = REASON) -> None:
    """Adjust a combatant's current AP now, never below 0 (R14).

    Example: combat adjust-ap rook -1 --reason stunned
    """
    session(ctx).declare(lambda state: [APAdjusted(combatant=cid, delta=delta, reason=reason)])


@app.command(context_settings=NUMBERS)
def grit(ctx: typer.Context, cid: str = typer.Argument(..., metavar="ID", autocompletion=combatant_ids),
         delta: int = typer.Argument(..., metavar="DELTA", help="Grit gained (negative: lost)."),
         reason: str = typer.Option("", "--reason", help="Why, for the record.")) -> None:
    """Grit gained or lost; never below 0 (R13).

    Example: combat grit rook -1        combat grit cat 1 --reason "good roleplay"
    """
    session(ctx).declare(lambda state: [GritAdjusted(combatant=cid, delta=delta, reason=reason)])


@app.command("set-initiative", context_settings=NUMBERS)
def set_initiative(ctx: typer.Context, slot: str = typer.Argument(..., metavar="SLOT", autocompletion=slot_ids),
                   total: int = typer.Argument(..., metavar="TOTAL"),
                   reason: str = REASON) -> None:
    """Override a slot's initiative total; the die stays recorded (R4).

    Example: combat set-initiative boss 15 --reason "ambush"
    """
    session(ctx).declare(lambda state: [InitiativeOverridden(slot=slot, total=total, reason=reason)])


@app.command()
def note(ctx: typer.Context, text: List[str] = typer.Argument(..., help="The note.")) -> None:
    """Add a note to the record (allowed even after the end, R25).

    Example: combat note the warehouse is on fire
    """
    words = " ".join(text)
    session(ctx).declare(lambda state: [NoteAdded(text=words)])


@app.command()
def end(ctx: typer.Context) -> None:
    """End the encounter: afterwards only notes, undo and redo (R25).

    Example: combat end
    """
    session(ctx).declare(lambda state: [EncounterEnded()])


@app.command()
def undo(ctx: typer.Context,
         reason: str = typer.Option("", "--reason", help="Why, for the record.")) -> None:
    """Undo the latest declaration (a whole command's batch); nothing is deleted (R26).

    Example: combat undo
    """
    s = session(ctx)
    state, envs = s.ledger.undo(s.encounter, s.actor, reason)
    s.report(state, [(f"↶ undone (seq {e.seq}):", e.data) for e in envs])


@app.command()
def redo(ctx: typer.Context) -> None:
    """Redo the most recently undone declaration, with the same dice (R27).

    Example: combat redo
    """
    s = session(ctx)
    state, envs = s.ledger.redo(s.encounter, s.actor)
    s.report(state, [(f"↷ redone (seq {e.seq}):", e.data) for e in envs])


@app.command(context_settings=NUMBERS)  # `retract -1` is a seq to refuse, not an option
def retract(ctx: typer.Context,
            seq: int = typer.Argument(..., metavar="SEQ", help="Any seq of the declaration to retract."),
            cascade: bool = typer.Option(False, "--cascade", help="Also retract the later declarations it would make illegal."),
            reason: str = typer.Option("", "--reason", help="Why, for the record.")) -> None:
    """Retract an earlier declaration (a mistake noticed later), re-judging the rest (R28).

    Example: combat retract 12 --reason "the reload cost 1 AP"
    """
    s = session(ctx)
    state, batches = s.ledger.retract(s.encounter, seq, cascade, s.actor, reason)
    if not s.quiet:
        s.report(state, [(f"✗ retracted (seq {e.seq}):", e.data) for batch in batches
                         for e in s.ledger.batch(s.encounter, batch)])


@app.command(context_settings=NUMBERS)
def amend(ctx: typer.Context,
          seq: int = typer.Argument(..., metavar="SEQ", help="The seq of the declaration to correct."),
          die: Optional[int] = typer.Option(None, "--die", help="The die an initiative roll really showed."),
          cost: Optional[str] = typer.Option(None, "--cost", help="The action's real cost: free, minor, major or a number."),
          label: Optional[str] = typer.Option(None, "--label", help="The action's real label."),
          who: Optional[str] = typer.Option(None, "--who", help="Who really acted."),
          reason: str = typer.Option("", "--reason", help="Why, for the record.")) -> None:
    """Correct an earlier declaration in place; everything after it is re-judged (R28).

    Example: combat amend 12 --die 8        combat amend 15 --cost minor --reason "a reload costs 1"
    """
    from projections.phrases import correction
    if die is None and cost is None and label is None and who is None:
        raise LedgerError("say what to correct: --die, --cost, --label or --who")
    s = session(ctx)
    state, amendment = s.ledger.amend(
        s.encounter, seq, lambda p: correction(p, die, cost, label, who), s.actor, reason)
    s.report(state, [(f"✎ seq {amendment.batch} now reads:", p) for p in amendment.events])


@app.command(context_settings=NUMBERS)
def effect(ctx: typer.Context,
           cid: str = typer.Argument(..., metavar="ID", autocompletion=combatant_ids, help="Who is affected."),
           name: str = typer.Argument(..., metavar="NAME", help="The effect, e.g. \"Wired reflexes\"."),
           max_ap: int = typer.Option(..., "--max-ap", help="The change of maximum AP, e.g. +1 or -1."),
           rounds: Optional[int] = typer.Option(None, "--rounds", help="It covers the next N rounds' AP restores."),
           until_round_end: bool = typer.Option(False, "--until-round-end", help="It counts at once, on the current AP, and ends with this round."),
           eid: Optional[str] = typer.Option(None, "--id", help="The effect's id (default: the slug of NAME).")) -> None:
    """A timed effect on a combatant's maximum AP; it runs out by itself (R14).

    Example: combat effect rook "Wired reflexes" --max-ap +1 --rounds 3
             combat effect vex Stunned --max-ap -1 --until-round-end
    """
    from eventlog.events import EffectApplied
    from projections.phrases import slugify

    def decide(state):
        base = eid or slugify(name) or "effect"
        chosen, n = base, 1
        while eid is None and chosen in state.effects:
            n += 1
            chosen = f"{base}-{n}"
        return [EffectApplied(effect=chosen, combatant=cid, name=name, max_ap=max_ap,
                              rounds=rounds, until_round_end=until_round_end)]
    session(ctx).declare(decide)


@app.command("end-effect")
def end_effect(ctx: typer.Context,
               eid: str = typer.Argument(..., metavar="EFFECT", help="The effect's id (see status)."),
               reason: str = typer.Option("", "--reason", help="Why, for the record.")) -> None:
    """End an effect before it runs out (R14).

    Example: combat end-effect stunned --reason "a medkit"
    """
    from eventlog.events import EffectEnded
    session(ctx).declare(lambda state: [EffectEnded(effect=eid, reason=reason)])
