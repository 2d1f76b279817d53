"""The grammar of the table's commands: a typed line (or argv) becomes the
core's command struct, or one line of wrong usage. The terminal, play mode,
the demo, `.combat` scripts and the table server's command box all read
declarations through it; it imports no typer, click or rich."""
from cli.grammar.parser import BY_NAME, GLOBAL_OPTIONS, Line, parse, parse_line, split
from cli.grammar.spec import Arg, BadLine, Opt, Spec
from cli.grammar.table import SPECS

DECLARING = frozenset(BY_NAME)

__all__ = ["Arg", "BY_NAME", "BadLine", "DECLARING", "GLOBAL_OPTIONS", "Line", "Opt",
           "SPECS", "Spec", "parse", "parse_line", "split"]
