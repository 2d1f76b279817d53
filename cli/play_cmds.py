"""`combat play`: the table's live console (issue 7). The console itself is
cli/play.py, imported only here, so no other command loads prompt_toolkit."""
import sys

import typer

from eventlog.errors import LedgerError

from .app import app, session

# Global options that may stand before no command: `combat --actor vex` still plays.
GLOBAL_OPTIONS = ("--db", "--encounter", "--actor")


def in_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


@app.command()
def play(ctx: typer.Context,
         refresh: float = typer.Option(1.0, "--refresh", min=0.05,
                                       help="Seconds between looks for what other terminals declare.")) -> None:
    """Play at the table: a console with the status table always shown, the
    same commands without `combat`, aliases (m/n/f/e/u/r/l), history, Tab
    completion and keys for undo, redo and the last log lines.

    Example: combat play        (or just `combat` in a terminal)
    """
    if not in_terminal():
        raise LedgerError("play mode needs a terminal: run `combat play` in one, "
                          "or type `combat COMMAND` lines in scripts")
    from .play import Play
    Play(session(ctx), refresh=refresh).run()


def play_by_default(argv: list[str]) -> list[str]:
    """`combat` with no command, in a terminal, is `combat play`; elsewhere
    (scripts, CI) it keeps printing the help."""
    if not in_terminal():
        return argv
    i = 0
    while i < len(argv):
        name, has_value = argv[i].split("=", 1)[0], "=" in argv[i]
        if name not in GLOBAL_OPTIONS or (not has_value and i + 1 >= len(argv)):
            return argv
        i += 1 if has_value else 2
    return [*argv, "play"]
