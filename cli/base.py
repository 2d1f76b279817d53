"""The typer app without its commands: global options, and the one place
errors become `error: ...`. Each cli/*_cmds.py module registers its commands
on it; cli/app.py imports them all."""

import typer
from click.core import ParameterSource
from typer.core import TyperGroup

from cli import output
from cli.session import Session
from eventlog.language import _

# click's own errors (usage: exit 2) pass through; typer may vendor click.
CLICK_ERROR = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


class LedgerGroup(TyperGroup):
    """Turns every LedgerError into one `error:` line and exit code 1; an
    output that fails after a batch was committed still exits 0 (output.py)."""

    depth = 0  # the demo and play mode run commands inside a command

    def get_params(self, ctx) -> list:
        params = super().get_params(ctx)
        from cli.clickwords import COMPLETION_HELP
        for param in params:  # (typer's own options, which it does not mark for gettext)
            if param.name in COMPLETION_HELP and isinstance(param, typer.core.TyperOption):
                param.help = _(COMPLETION_HELP[param.name])
        return params

    def list_commands(self, ctx) -> list[str]:
        """In the order of the table's evening (cli/main.py HELP_ORDER)."""
        from cli.registry import HELP_ORDER
        rank = {name: i for i, name in enumerate(HELP_ORDER)}
        return sorted(super().list_commands(ctx), key=lambda n: rank.get(n, len(rank)))

    def invoke(self, ctx):
        from cli.failure import failed
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
            code = failed(ctx.find_root().obj, exc, commits() > before,
                          nested=LedgerGroup.depth > 1)
            raise typer.Exit(code) from None
        finally:
            LedgerGroup.depth -= 1


app = typer.Typer(
    cls=LedgerGroup, no_args_is_help=True, pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help=_("combat-ledger: an event-sourced combat tracker. Every declaration at "
         "the table is appended to a log; the order, AP and passes are folded "
         "from it."),
)

# Commands that take negative numbers as arguments (`grit rook -1`).
NUMBERS = {"ignore_unknown_options": True}


def show_version(asked: bool) -> None:
    if asked:
        from cli.version import version_text
        print(version_text())
        raise typer.Exit(0)


@app.callback()
def main_options(
    ctx: typer.Context,
    db: str | None = typer.Option(
        None, "--db", envvar="COMBAT_DB", show_envvar=True,
        help=_("The store: a SQLite file, or a PostgreSQL URL (postgresql://user@host/db) "
             "(default: $XDG_DATA_HOME/combat-ledger/ledger.db).")),
    encounter: str | None = typer.Option(
        None, "--encounter", envvar="COMBAT_ENCOUNTER", show_envvar=True,
        help=_("Act on this encounter instead of the current one.")),
    actor: str = typer.Option(
        "gm", "--actor", envvar="COMBAT_ACTOR", show_envvar=True,
        help=_("Who declares: gm or a player's name (R29).")),
    lang: str | None = typer.Option(
        None, "--lang", envvar="COMBAT_LANG", show_envvar=True,
        help=_("The language to speak: en or de (default: the locale's, from LANG).")),
    version: bool = typer.Option(
        False, "--version", is_eager=True, callback=show_version,
        help=_("Print the version (combat-ledger X.Y.Z) and exit.")),
) -> None:
    if ctx.obj is None:
        ctx.obj = Session.opened(db, encounter, actor)
    elif ctx.get_parameter_source("actor") is ParameterSource.COMMANDLINE:
        ctx.obj = ctx.obj.as_actor(actor)  # a demo line with its own --actor


def session(ctx: typer.Context) -> Session:
    return ctx.find_root().obj
