"""The typer app without its commands: global options, and the one place
errors become `error: ...`. Each cli/*_cmds.py module registers its commands
on it; cli/app.py imports them all."""
import os
from pathlib import Path
from typing import Optional

import typer
from typer.core import TyperGroup

from eventlog.errors import LedgerError

from cli import output
from cli.session import Session


# click's own errors (usage: exit 2) pass through; typer may vendor click.
CLICK_ERROR = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


class LedgerGroup(TyperGroup):
    """Turns every LedgerError into one `error:` line and exit code 1; an
    output that fails after a batch was committed still exits 0 (output.py)."""

    depth = 0  # the demo and play mode run commands inside a command

    def invoke(self, ctx):
        from eventlog.stores import commits
        before = commits()
        LedgerGroup.depth += 1
        try:
            result = super().invoke(ctx)
            if LedgerGroup.depth == 1:
                output.flush()
            return result
        except (typer.Exit, typer.Abort, CLICK_ERROR, KeyboardInterrupt):
            raise
        except Exception as exc:
            code = self.failed(ctx, exc, commits() > before)
            raise typer.Exit(code) from None
        finally:
            LedgerGroup.depth -= 1

    @staticmethod
    def damage(ctx) -> str | None:
        """After a failure that no check foresaw: the first damaged event of
        the encounter, if its chain says so (a row edited behind our back:
        undecodable data, an unknown type, a seq stored as text)."""
        s = ctx.find_root().obj
        ledger = getattr(s, "__dict__", {}).get("ledger")
        if ledger is None:
            return None
        try:
            from eventlog.chain import verify_chain
            eid = s.chosen or s.current()
            verdict = verify_chain(ledger.store.rows(eid))
        except Exception:  # the diagnosis must not fail in its turn
            return None
        if verdict.ok:
            return None
        return (f"the log of {eid} is damaged at seq {verdict.first_bad_seq}: "
                f"{verdict.problem} (R30)")

    def failed(self, ctx, exc: Exception, committed: bool) -> int:
        """The exit code for `exc`, said in one line (or none: a closed pipe).
        Once a batch is committed it is 0: exit 1 means nothing was appended,
        and a script that retries on it would declare twice."""
        if output.is_output_failure(exc) or (committed and isinstance(exc, UnicodeEncodeError)):
            if LedgerGroup.depth > 1:
                raise exc  # the outermost command says it, once
            return output.output_failed(exc, committed)
        what = self.said(ctx, exc)
        if committed and not isinstance(exc, LedgerError):  # (a demo that stopped: 1)
            output.say(f"warning: the declaration was recorded, but {what}")
            return 0
        output.say(f"error: {what}", keep="\n")  # a correction's casualties: a line each (R28c)
        return 1

    def said(self, ctx, exc: Exception) -> str:
        """What went wrong, in one line of the table's language."""
        if isinstance(exc, (LedgerError, UnicodeEncodeError, OverflowError)):  # not UTF-8, not int64
            return "\n".join(line.rstrip() for line in str(exc).strip().splitlines())
        if isinstance(exc, RecursionError):
            return ("nested too deeply to be read (a file or script that refers to "
                    "itself, or a damaged store)")
        if os.environ.get("COMBAT_DEBUG"):
            raise exc
        damage = self.damage(ctx)
        if damage:
            return f"{damage}; nothing was changed"
        return (f"unexpected failure ({type(exc).__name__}: {exc}); "
                "set COMBAT_DEBUG=1 for details")


app = typer.Typer(
    cls=LedgerGroup, no_args_is_help=True, pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="combat-ledger: an event-sourced combat tracker. Every declaration at "
         "the table is appended to a log; the order, AP and passes are folded "
         "from it.",
)

# Commands that take negative numbers as arguments (`grit rook -1`).
NUMBERS = {"ignore_unknown_options": True}


@app.callback()
def main_options(
    ctx: typer.Context,
    db: Optional[str] = typer.Option(
        None, "--db", envvar="COMBAT_DB", show_envvar=True,
        help="The store: a SQLite file, or a PostgreSQL URL (postgresql://user@host/db) "
             "(default: $XDG_DATA_HOME/combat-ledger/ledger.db)."),
    encounter: Optional[str] = typer.Option(
        None, "--encounter", envvar="COMBAT_ENCOUNTER", show_envvar=True,
        help="Act on this encounter instead of the current one."),
    actor: str = typer.Option(
        "gm", "--actor", envvar="COMBAT_ACTOR", show_envvar=True,
        help="Who declares: gm or a player's name (R29)."),
) -> None:
    if ctx.obj is None:
        from eventlog.stores import is_url
        if db is not None and not is_url(db):
            from eventlog.stores.sqlitefile import check_path
            check_path(Path(db), db)  # `--db ''` is one clear line, not the folder `.`
        ctx.obj = Session((db if is_url(db) else Path(db)) if db else None, encounter, actor)
    elif ctx.get_parameter_source("actor").name == "COMMANDLINE":
        ctx.obj = ctx.obj.as_actor(actor)  # a demo line with its own --actor


def session(ctx: typer.Context) -> Session:
    return ctx.find_root().obj
