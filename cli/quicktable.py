"""A Grid (cli/inkgrid.py) for rich's console: play mode prints the status
and the log through rich, in panels too. `Quick(grid)` draws the lines
inkgrid lays out, each run in its style, where rich's `Table` would lay out
and render every cell through its general machinery (measure, wrap, pad,
crop: 1.9 s for the status at 1,000 combatants); what inkgrid leaves to
rich (Unfit), or a console without box drawing, gets rich's own Table
(`table`). tests/test_status_speed.py holds the two to the same look."""
from __future__ import annotations

from functools import cached_property
from itertools import groupby
from operator import attrgetter
from typing import cast

from rich.console import Console, ConsoleOptions, JustifyMethod, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.table import Table

from cli.ink import Unfit


class Quick:
    """A rich renderable standing for `grid`."""

    def __init__(self, grid):
        self.grid = grid

    @cached_property
    def table(self) -> Table:
        """The same table as rich's Table, for rich to lay out itself."""
        grid = self.grid
        table = Table(show_edge=False, pad_edge=False, title=grid.title, title_justify="left")
        for (name, justify), no_wrap in zip(grid.columns, grid.no_wrap):
            table.add_column(name, justify=cast(JustifyMethod, justify), no_wrap=no_wrap)
        for row in grid.rows:
            table.add_row(*row)
        return table

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """As the table measures (inside a panel, say)."""
        return Measurement.get(console, options, self.table)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if options.ascii_only or options.legacy_windows:
            yield self.table  # (rich draws its box in other characters there)
            return
        try:
            lines = self.grid.lines(options.max_width)
        except Unfit:
            yield self.table
            return
        styles: dict[str, Style | None] = {"": None}
        for line in lines:  # (a run of one style is one segment: the console's
            for style, runs in groupby(line, key=attrgetter("style")):  # work is per segment)
                if style not in styles:
                    styles[style] = console.get_style(style)
                yield Segment("".join(r.text for r in runs), styles[style])
            yield Segment.line()
