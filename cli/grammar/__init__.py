"""The grammar of the table's commands: a typed line (or argv) becomes the
core's command struct, or one line of wrong usage. The terminal, play mode,
the demo, `.combat` scripts and the table server's command box all read
declarations through it; it imports no typer, click or rich."""
from cli.grammar.parser import (
    BY_NAME, GLOBAL_OPTIONS, PARTY_BY_NAME, READ_BY_NAME, Line, parse, parse_line, parse_read,
    split,
)
from cli.grammar.spec import Arg, BadLine, Opt, Spec
from cli.grammar.table import READS, SPECS

DECLARING = frozenset(BY_NAME)

__all__ = ["Arg", "BY_NAME", "BadLine", "DECLARING", "GLOBAL_OPTIONS", "Line", "Opt",
           "PARTY_BY_NAME",
           "READS", "READ_BY_NAME", "SPECS", "Spec", "parse", "parse_line", "parse_read",
           "split"]
