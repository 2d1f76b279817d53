"""`combat rules [RULE]`: the rules reference in the terminal, read from the
project's own docs (projections/rulebook.py)."""

import typer

from cli.base import app
from eventlog.language import _


@app.command(help=_(
    "Print the rules reference, or one rule, with an example each.\n\n"
    "Every refusal cites the rules behind it, such as (R17, R19): this is\n"
    "where to read them. The same text is docs/rules.md.\n\n"
    "\b\n"
    "Example: combat rules R17\n"
    "         combat rules r28a"))
def rules(rule: str | None = typer.Argument(
        None, metavar="[RULE]", help=_("One rule's id, e.g. R17 or r28a (any case); "
                                     "a rule prints with its sub-rules."))) -> None:
    from cli.output import write
    from projections import rulebook
    text = rulebook.as_text(rulebook.rule(rule)) if rule else rulebook.plain(rulebook.source())
    write(text.rstrip("\n") + "\n")
