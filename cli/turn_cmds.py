"""The round at the table: rounds, seizes, actions, interrupts, turns."""
from typing import List, Optional

import typer

from projections.domain import commands as c
from projections.domain.phrases import COST_WORDS

from cli.base import NUMBERS, app, session
from cli.complete import combatant_ids

COST_HELP = COST_WORDS + "."


@app.command("round")
def round_(ctx: typer.Context,
           dry_run: bool = typer.Option(False, "--dry-run", help="Say what it would change; append nothing.")) -> None:
    """Start the next round: AP restored, seize window open (R15, R24).

    Example: combat round
    """
    session(ctx).run(c.Round(dry_run=dry_run))


@app.command()
def seize(ctx: typer.Context, cid: str = typer.Argument(..., metavar="ID", help="Who seizes.", autocompletion=combatant_ids)) -> None:
    """Spend 1 Grit to Seize the Moment: act first this round (R10-R13).

    Example: combat seize vex
    """
    session(ctx).run(c.Seize(id=cid))


@app.command(context_settings=NUMBERS)
def act(ctx: typer.Context,
        cid: str = typer.Argument(..., metavar="ID", help="Whose turn it is.", autocompletion=combatant_ids),
        cost: str = typer.Argument(..., help=COST_HELP),
        label: Optional[List[str]] = typer.Argument(None, help="What they do, e.g. shoots.")) -> None:
    """Spend AP in a combatant's own turn, at most 4 per turn (R16-R18, R20).

    Example: combat act rook major shoots the ganger
    """
    session(ctx).run(c.Act(id=cid, cost=cost, label=" ".join(label or [])))


@app.command(context_settings=NUMBERS)
def interrupt(ctx: typer.Context,
              cid: str = typer.Argument(..., metavar="ID", help="Who interrupts.", autocompletion=combatant_ids),
              cost: str = typer.Argument(..., help=COST_HELP),
              label: Optional[List[str]] = typer.Argument(None, help="What they do.")) -> None:
    """Spend AP out of turn: an Interrupt Action (R19).

    Example: combat interrupt vex minor dives for cover
    """
    session(ctx).run(c.Interrupt(id=cid, cost=cost, label=" ".join(label or [])))


@app.command("end-turn")
def end_turn(ctx: typer.Context,
             cid: Optional[str] = typer.Argument(None, metavar="[ID]", help="In a group slot with no turn in progress: the member who passes.", autocompletion=combatant_ids)) -> None:
    """End the turn in progress; in an open group slot, ID passes (R8, R21).

    Right after a turn ended by itself, a bare end-turn of the next turn,
    with nothing declared in it yet, is said loudly; in play mode (and with
    COMBAT_CAREFUL=1) it is refused: name the turn to end (see Turn flow).

    Example: combat end-turn        combat end-turn ganger-3
    """
    s = session(ctx)
    s.run(c.EndTurn(id=cid, careful=s.careful))
