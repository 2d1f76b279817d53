"""GM declarations: leaving, overrides with reasons, notes, the end, undo/redo."""
from typing import List, Optional

import typer

from projections.domain import commands as c

from cli.base import NUMBERS, app, session
from cli.complete import combatant_ids, slot_ids

REASON = typer.Option(..., "--reason", help="Why: kept in the log for the audit (R29).")


@app.command()
def leave(ctx: typer.Context, cid: str = typer.Argument(..., metavar="ID", autocompletion=combatant_ids),
          reason: str = typer.Option("", "--reason", help="Defeated, fled, removed...")) -> None:
    """A combatant leaves the encounter: skipped until they rejoin (R22).

    Example: combat leave ganger-2 --reason "knocked out"
    """
    session(ctx).run(c.Leave(id=cid, reason=reason))


@app.command()
def rejoin(ctx: typer.Context, cid: str = typer.Argument(..., metavar="ID", autocompletion=combatant_ids)) -> None:
    """A combatant comes back, at their old initiative and current AP (R22).

    Example: combat rejoin ganger-2
    """
    session(ctx).run(c.Rejoin(id=cid))


@app.command("max-ap", context_settings=NUMBERS)
def max_ap(ctx: typer.Context, cid: str = typer.Argument(..., metavar="ID", autocompletion=combatant_ids),
           n: int = typer.Argument(..., metavar="N", help="The new maximum AP."),
           reason: str = REASON) -> None:
    """Change a combatant's maximum AP; it applies at the next round (R14).

    Example: combat max-ap chrome 4 --reason "wired reflexes"
    """
    session(ctx).run(c.MaxAP(id=cid, n=n, reason=reason))


@app.command("adjust-ap", context_settings=NUMBERS)
def adjust_ap(ctx: typer.Context, cid: str = typer.Argument(..., metavar="ID", autocompletion=combatant_ids),
              delta: int = typer.Argument(..., metavar="DELTA", help="AP to add (negative to take)."),
              reason: str = REASON) -> None:
    """Adjust a combatant's current AP now, never below 0 (R14).

    Example: combat adjust-ap rook -1 --reason stunned
    """
    session(ctx).run(c.AdjustAP(id=cid, delta=delta, reason=reason))


@app.command(context_settings=NUMBERS)
def grit(ctx: typer.Context, cid: str = typer.Argument(..., metavar="ID", autocompletion=combatant_ids),
         delta: int = typer.Argument(..., metavar="DELTA", help="Grit gained (negative: lost)."),
         reason: str = typer.Option("", "--reason", help="Why, for the record.")) -> None:
    """Grit gained or lost; never below 0 (R13).

    Example: combat grit rook -1        combat grit cat 1 --reason "good roleplay"
    """
    session(ctx).run(c.Grit(id=cid, delta=delta, reason=reason))


@app.command("set-initiative", context_settings=NUMBERS)
def set_initiative(ctx: typer.Context, slot: str = typer.Argument(..., metavar="SLOT", autocompletion=slot_ids),
                   total: int = typer.Argument(..., metavar="TOTAL"),
                   reason: str = REASON) -> None:
    """Override a slot's initiative total; the die stays recorded (R4).

    Example: combat set-initiative boss 15 --reason "ambush"
    """
    session(ctx).run(c.SetInitiative(slot=slot, total=total, reason=reason))


@app.command()
def note(ctx: typer.Context, text: List[str] = typer.Argument(..., help="The note.")) -> None:
    """Add a note to the record (allowed even after the end, R25).

    Example: combat note the warehouse is on fire
    """
    session(ctx).run(c.Note(text=" ".join(text)))


@app.command()
def end(ctx: typer.Context) -> None:
    """End the encounter: afterwards only notes, undo, redo, retract and amend (R25).

    Example: combat end
    """
    session(ctx).run(c.End())


@app.command()
def undo(ctx: typer.Context,
         reason: str = typer.Option("", "--reason", help="Why, for the record."),
         dry_run: bool = typer.Option(False, "--dry-run", help="Say what it would change; append nothing.")) -> None:
    """Undo the latest declaration (a whole command's batch); nothing is deleted (R26).

    Example: combat undo
    """
    session(ctx).run(c.Undo(reason=reason, dry_run=dry_run))


@app.command()
def redo(ctx: typer.Context,
         dry_run: bool = typer.Option(False, "--dry-run", help="Say what it would change; append nothing.")) -> None:
    """Redo the most recently undone declaration, with the same dice (R27).

    Example: combat redo
    """
    session(ctx).run(c.Redo(dry_run=dry_run))


@app.command(context_settings=NUMBERS)  # `retract -1` is a seq to refuse, not an option
def retract(ctx: typer.Context,
            seq: int = typer.Argument(..., metavar="SEQ", help="Any seq of the declaration to retract."),
            cascade: bool = typer.Option(False, "--cascade", help="Also retract the later declarations it would make illegal."),
            reason: str = typer.Option("", "--reason", help="Why, for the record."),
            dry_run: bool = typer.Option(False, "--dry-run", help="Say what it would change; append nothing.")) -> None:
    """Retract an earlier declaration (a mistake noticed later), re-judging the rest (R28).

    Example: combat retract 12 --reason "the reload cost 1 AP"
    """
    session(ctx).run(c.Retract(seq=seq, cascade=cascade, reason=reason, dry_run=dry_run))


@app.command(context_settings=NUMBERS)
def amend(ctx: typer.Context,
          seq: int = typer.Argument(..., metavar="SEQ", help="The seq of the declaration to correct."),
          die: Optional[int] = typer.Option(None, "--die", help="The die an initiative roll really showed."),
          cost: Optional[str] = typer.Option(None, "--cost", help="The action's real cost: free, minor, major or a number."),
          label: Optional[str] = typer.Option(None, "--label", help="The action's real label."),
          who: Optional[str] = typer.Option(None, "--who", help="Who really acted."),
          cascade: bool = typer.Option(False, "--cascade", help="Also retract the later declarations the correction would make illegal (R28)."),
          reason: str = typer.Option("", "--reason", help="Why, for the record."),
          dry_run: bool = typer.Option(False, "--dry-run", help="Say what it would change; append nothing.")) -> None:
    """Correct an earlier declaration in place; everything after it is re-judged (R28).

    Example: combat amend 12 --die 8        combat amend 15 --cost minor --reason "a reload costs 1"
    """
    session(ctx).run(c.Amend(seq=seq, die=die, cost=cost, label=label, who=who,
                             cascade=cascade, reason=reason, dry_run=dry_run))


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
    session(ctx).run(c.Effect(id=cid, name=name, max_ap=max_ap, rounds=rounds,
                              until_round_end=until_round_end, effect=eid))


@app.command("end-effect")
def end_effect(ctx: typer.Context,
               eid: str = typer.Argument(..., metavar="EFFECT", help="The effect's id (see status)."),
               reason: str = typer.Option("", "--reason", help="Why, for the record.")) -> None:
    """End an effect before it runs out (R14).

    Example: combat end-effect stunned --reason "a medkit"
    """
    session(ctx).run(c.EndEffect(effect=eid, reason=reason))
