"""rich's console for people: every command that lays out with rich (the
log, stats, play mode, and what cli/ink.py hands over) prints through it."""
from __future__ import annotations

import errno

from rich.console import Console, ConsoleDimensions

from cli.ink import MIN_WIDTH
from eventlog.text import neutral


class SafeConsole(Console):
    """A rich console that neutralises every string it is given before the
    markup is read, so a table cell or a line from the log can never carry a
    control character to the terminal; rich's own styling comes after."""

    def render_str(self, text: str, **kwargs):
        return super().render_str(neutral(text, keep="\n"), **kwargs)

    @property
    def size(self) -> ConsoleDimensions:
        """The terminal's size, but never under MIN_WIDTH columns: `COLUMNS=0`
        (set by some CI runners and sudo) would print nothing at all."""
        size = Console.size.fget(self)  # type: ignore[attr-defined]  # (mypy: a property with a setter)
        if size.width >= MIN_WIDTH:
            return size
        return ConsoleDimensions(80 if size.width <= 0 else MIN_WIDTH, size.height)

    @size.setter
    def size(self, new: tuple[int, int]) -> None:
        Console.size.fset(self, new)  # type: ignore[attr-defined]  # (mypy: a property with a setter)

    def on_broken_pipe(self) -> None:
        """Rich would exit 1 here, after a batch may have been committed: the
        command line decides instead (LedgerGroup, output_failed)."""
        # (not rich's `self.quiet = True`: play mode and tests run on after it)
        raise BrokenPipeError(errno.EPIPE, "the reader closed the pipe")


# Text the table typed (names, labels, reasons) is escaped wherever it meets
# rich markup; emoji codes are left as typed (`:x:` in a label stays `:x:`).
console = SafeConsole(highlight=False, emoji=False)
