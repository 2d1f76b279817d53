"""The declaring commands of the shell, generated from the grammar's specs
(cli/grammar/table.py): each becomes a typer command with the same
arguments, options, defaults and help, whose values the spec turns into the
command struct. `combat act ...` typed in a shell takes the grammar's own
parser first (cli/main.py); this app answers `--help`, completion, and the
usage errors in click's words."""
from __future__ import annotations

import inspect
from typing import Any

import typer

from cli import complete
from cli.base import NUMBERS, app, session
from cli.grammar import SPECS, Arg, BadLine, Opt, Spec
from cli.session import read_roster
from eventlog.language import _

COMPLETE = {"combatants": complete.combatant_ids, "targets": complete.target_ids,
            "slots": complete.slot_ids,
            "groups": complete.group_ids, "encounters": complete.encounter_names}
KEYWORD = inspect.Parameter.KEYWORD_ONLY


def _parameter(p: Arg | Opt) -> inspect.Parameter:
    """The typer parameter for one of a spec's arguments or options."""
    done = COMPLETE.get(p.complete) if p.complete else None
    if isinstance(p, Arg):
        if p.words:
            kind: Any = list[str] | None if not p.required else list[str]
        else:
            kind = p.kind if p.required else p.kind | None
        default = typer.Argument(... if p.required else None, metavar=p.metavar,
                                 help=_(p.help), autocompletion=done, show_default=False)
    elif p.kind is bool:
        kind, default = bool, typer.Option(False, p.flag, help=_(p.help))
    else:
        kind = p.kind if p.required or p.default is not None else p.kind | None
        default = typer.Option(... if p.required else p.default, p.flag, help=_(p.help),
                               metavar=p.metavar, autocompletion=done)
    return inspect.Parameter(p.field, KEYWORD, default=default, annotation=kind)


def _callback(spec: Spec):
    def declare(ctx: typer.Context, **values: Any) -> None:
        for arg in spec.args:
            if arg.words == "text":
                values[arg.field] = " ".join(values[arg.field] or [])
            elif arg.words == "list":
                values[arg.field] = list(values[arg.field] or [])
        s = session(ctx)
        try:
            command = spec.command(values, read_roster)
        except BadLine as exc:  # wrong usage: click's exit 2
            raise typer.BadParameter(str(exc)) from None
        s.run(s.careful_about(command))

    params = [inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=typer.Context)]
    params += [_parameter(p) for p in spec.params]
    declare.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    declare.__annotations__ = {p.name: p.annotation for p in params}
    declare.__name__ = spec.name.replace("-", "_")
    return declare


for _spec in SPECS:
    # (\b: click keeps the example's lines as they are, one under the other)
    _text, _gap, _example = _spec.help.rpartition("\n\n")
    app.command(_spec.name, help=f"{_text}\n\n\b\n{_example}",
                context_settings=NUMBERS)(_callback(_spec))
