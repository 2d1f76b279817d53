"""`combat play`: the table's live console. The console itself is
cli/play.py, imported only here, so no other command loads prompt_toolkit."""
import typer

from cli.base import app, session
from cli.main import in_terminal
from eventlog.errors import LedgerError
from eventlog.language import _


@app.command(help=_(
    "Play at the table: a console with the status table always shown, the same "
    "commands without `combat`, aliases (m/n/f/e/u/r/l), history, Tab completion and "
    "keys for undo, redo and the last log lines.\n\n"
    "Example: combat play        (or just `combat` in a terminal)"))
def play(ctx: typer.Context,
         refresh: float = typer.Option(1.0, "--refresh", min=0.05, max=60.0,
                                       help=_("Seconds between looks for what other terminals declare."))) -> None:
    if not 0.05 <= refresh <= 60.0:  # (the range above lets nan through)
        raise typer.BadParameter(_("{value} is not in the range 0.05<=x<=60").format(value=refresh),
                                 param_hint="--refresh")
    if not in_terminal():
        raise LedgerError(_("play mode needs a terminal: run `combat play` in one, "
                            "or type `combat COMMAND` lines in scripts"))
    from cli.play import Play
    Play(ctx.find_root().command, session(ctx), refresh=refresh).run()
