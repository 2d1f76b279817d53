"""`combat rules [RULE]`: the rules reference in the terminal, read from the
project's own docs (projections/rulebook.py)."""
from typing import Optional

import typer

from cli.base import app


@app.command()
def rules(rule: Optional[str] = typer.Argument(
        None, metavar="[RULE]", help="One rule's id, e.g. R17 or r28a (any case); "
                                     "a rule prints with its sub-rules.")) -> None:
    """Print the rules reference, or one rule, with an example each.

    Every refusal cites the rules behind it, such as (R17, R19): this is
    where to read them. The same text is docs/rules.md.

    \b
    Example: combat rules R17
             combat rules r28a
    """
    from projections import rulebook
    from cli.output import write
    text = rulebook.as_text(rulebook.rule(rule)) if rule else rulebook.plain(rulebook.source())
    write(text.rstrip("\n") + "\n")
