"""The shape of a command's line: its arguments and options, written once.

A `Spec` says what a command takes (positional arguments, options, flags),
with the help text a person reads, and how the values become the core's
command struct (`build`). The parser (cli/grammar/parser.py) reads words
with it; the terminal's typer app is generated from it (cli/declare_cmds.py),
so a typed line and the shell can never disagree. Nothing here imports a
UI library. (Structs, not dataclasses: every declaration typed in a
shell reads them, and `dataclasses` with three frozen classes costs that
process ~3 ms.)"""
from __future__ import annotations

import re
from typing import Any
from collections.abc import Callable

import msgspec

from eventlog.errors import LedgerError
from eventlog.language import _
from projections.domain import commands as c


NUMBER = re.compile(r"[+-]?[0-9]{1,30}")  # ASCII digits only (int() reads `２` as 2)


class BadLine(LedgerError):
    """Wrong usage of a command line, in one line (a 422 on the server, exit 2
    in the terminal)."""


class Arg(msgspec.Struct, frozen=True):
    """A positional argument: one word (`ID`), or with `words` every word
    left, kept as a list (`SLOT...`) or joined by spaces (`LABEL...`)."""
    field: str
    metavar: str
    help: str = ""
    kind: type = str          # str or int
    required: bool = True
    words: str | None = None  # None: one word; "list" or "text": the rest
    complete: str | None = None  # what Tab offers: combatants, targets (a list), slots, groups, encounters

    @property
    def shown(self) -> str:
        many = "..." if self.words else ""
        return f"{self.metavar}{many}" if self.required else f"[{self.metavar}{many}]"


class Opt(msgspec.Struct, frozen=True):
    """An option `--name VALUE`, or a flag `--name` (kind bool)."""
    field: str
    flag: str
    help: str = ""
    kind: type = str          # str, int, bool (a flag) or list (repeated, a tuple)
    default: Any = None
    required: bool = False
    metavar: str | None = None
    complete: str | None = None

    @property
    def takes_value(self) -> bool:
        return self.kind is not bool

    @property
    def shown(self) -> str:
        if not self.takes_value:
            return self.flag
        return f"{self.flag} {self.metavar or self.field.upper().replace('_', '-')}"


Builder = Callable[[dict[str, Any], "Reader | None"], c.Command]
Reader = Callable[[str], c.Load]  # reads a roster file (the terminal's clients only)


class Spec(msgspec.Struct, frozen=True):
    """One declaring command of the table (or, with no struct, a reading one)."""
    name: str
    struct: type[c.Command] | None
    summary: str              # the first line of its help
    example: str              # `combat ...` lines, one per line (marked where a line says more)
    params: tuple[Arg | Opt, ...] = ()
    details: str = ""         # more help, between the summary and the example
    reads_file: str | None = None  # the word naming a file on this machine ("FILE", "--roster")
    build: Builder | None = None

    @property
    def args(self) -> list[Arg]:
        return [p for p in self.params if isinstance(p, Arg)]

    @property
    def options(self) -> dict[str, Opt]:
        return {p.flag: p for p in self.params if isinstance(p, Opt)}

    @property
    def synopsis(self) -> str:
        """`act ID COST [LABEL...]`, options after the arguments."""
        words = [self.name, *(a.shown for a in self.args)]
        for o in self.options.values():
            words.append(o.shown if o.required else f"[{o.shown}]")
        return " ".join(words)

    @property
    def help(self) -> str:
        """Its help in the reader's language, the example last (the lines to
        type stay as typed, under each other)."""
        parts = [_(self.summary)]
        if self.details:
            parts.append(_(self.details))
        label = _("Example:")
        lines = _(self.example).splitlines()  # (a line to type is left as typed)
        parts.append(label + " " + ("\n" + " " * (len(label) + 1)).join(lines))
        return "\n\n".join(parts)

    def command(self, values: dict[str, Any], read: Reader | None = None) -> c.Command:
        """The command struct for the values read off a line (or the shell)."""
        if self.build is not None:
            return self.build(values, read)
        if self.struct is None:
            raise BadLine(_("`{command}` reads; it declares nothing").format(command=self.name))
        return self.struct(**values)
