"""Rosters: the combatants and groups of a file, in one declaration."""
from pathlib import Path

import typer

from cli.base import app, session


@app.command()
def load(ctx: typer.Context,
         file: Path = typer.Argument(..., metavar="FILE", help="A roster: .toml, .yaml, .yml or .json (docs/guide.md, Rosters).")) -> None:
    """Load a roster file: its combatants and groups join in one declaration.

    The whole file is refused if any entry is wrong, and one `undo` takes it
    all back. In a running encounter they are reinforcements: they roll
    initiative on joining (R5).

    Example: combat load examples/warehouse-raid.toml
    """
    from projections.inputs.roster import read
    session(ctx).run(read(file))
