"""The status table at 1,000 combatants (the roster bound, issue 24, item 9)
in a fraction of rich's time: rich's `Table` lays out and renders every
cell through its general machinery (measure, wrap, pad, crop), 1.9 s for
1,000 rows. `Quick(table)` lays out a table whose every cell fits on one
line exactly as rich does, with the same box, padding, justification and
styles, cell by cell, and hands any other (a cell to wrap, under a narrow
terminal) to rich's own Table. tests/test_status_speed.py holds both to the
same segments."""
from __future__ import annotations

from typing import cast

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table


class _Unfit(Exception):
    """A cell Quick does not lay out as rich would."""


class Quick:
    """A rich renderable standing for `table` (show_edge=False,
    pad_edge=False, no title, one-line string cells)."""

    def __init__(self, table: Table):
        self.table = table

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """As the table measures (inside a panel, say)."""
        return Measurement.get(console, options, self.table)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = _laid_out(self.table, console, options)
        if lines is None:
            yield self.table
        else:
            yield from lines


def _plain(table: Table) -> bool:
    """Whether `table` is of the one shape Quick lays out itself."""
    padding = table.padding
    return (not table.show_edge and not table.pad_edge and table.show_header
            and not table.show_footer and not table.show_lines and not table.leading
            and table.title is None and table.caption is None and table.box is not None
            and not table.expand and table.width is None and table.min_width is None
            and tuple(padding) == (0, 1, 0, 1) and not table.row_styles
            and table.style in ("", "none") and not table.border_style
            and not table.collapse_padding
            and all(r.style is None and not r.end_section for r in table.rows)
            and all(not c.style and c.width is None and c.min_width is None
                    and c.max_width is None and not c.ratio and not c.highlight
                    and c.vertical == "top" and not c.header_style
                    and isinstance(c.header, str) for c in table.columns))


def _laid_out(table: Table, console: Console, options: ConsoleOptions) -> list | None:
    """The table's segments, line by line, or None when rich must lay it
    out (another shape, or a cell wider than the terminal lets it be)."""
    columns = table.columns
    if not columns or not table.rows or not _plain(table):
        return None
    texts: dict[str, object] = {}

    def text(cell: str):
        found = texts.get(cell)
        if found is None:
            found = texts[cell] = console.render_str(cell, highlight=False)
            if found.plain != found.plain.rstrip():
                raise _Unfit  # (rich strips it before it justifies: its layout)
        return found

    try:
        grid = [[text(cast(str, c.header)) for c in columns]]  # (_plain: str)
        for cells in zip(*(column.cells for column in columns)):
            if not all(isinstance(c, str) and "\n" not in c and "\t" not in c for c in cells):
                return None
            grid.append([text(c) for c in cells])
    except _Unfit:
        return None
    widths = [max(row[i].cell_len for row in grid) for i in range(len(columns))]
    last = len(columns) - 1
    pads = [(0 if i == 0 else 1, 0 if i == last else 1) for i in range(len(columns))]
    full = [w + left + right for w, (left, right) in zip(widths, pads)]
    if sum(full) + last > options.max_width:
        return None
    assert table.box is not None  # (_plain)
    box = table.box.substitute(options, safe=console.safe_box)
    header = console.get_style(table.header_style or "")
    rendered: dict[tuple[int, int], list[Segment]] = {}
    out: list[Segment] = []
    line = Segment.line()
    for r, row in enumerate(grid):
        vertical = Segment(box.head_vertical if r == 0 else
                           box.foot_vertical if r == len(grid) - 1 else box.mid_vertical)
        segments: list[Segment] = []
        for i, cell in enumerate(row):
            key = (id(cell), i)
            done = rendered.get(key) if r else None
            if done is None:
                done = _cell(console, cell, widths[i], pads[i], columns[i].justify)
                if r == 0 and header:
                    done = list(Segment.apply_style(done, header))
                else:
                    rendered[key] = done
            segments.extend(done)
            if i != last:
                segments.append(vertical)
        out.extend(_joined(segments))
        out.append(line)
        if r == 0:
            out.append(Segment(box.get_row(full, "head", edge=False)))
            out.append(line)
    return out


def _joined(segments: list[Segment]) -> list[Segment]:
    """Runs of unstyled segments as one (the console's work is per segment)."""
    joined: list[Segment] = []
    plain: list[str] = []
    for segment in segments:
        if segment.style:
            if plain:
                joined.append(Segment("".join(plain)))
                plain.clear()
            joined.append(segment)
        else:
            plain.append(segment.text)
    if plain:
        joined.append(Segment("".join(plain)))
    return joined


def _cell(console: Console, text, width: int, pad: tuple[int, int],
          justify) -> list[Segment]:
    """One cell: its padding, its text justified in `width` columns."""
    gap = width - text.cell_len
    before, after = ((gap, 0) if justify == "right" else
                     (gap // 2, gap - gap // 2) if justify == "center" else (0, gap))
    before += pad[0]
    after += pad[1]
    return ([Segment(" " * before)] if before else []) + list(text.render(console, end="")) \
        + ([Segment(" " * after)] if after else [])
