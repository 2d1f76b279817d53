"""Tables in rich's look without rich (cli/ink.py): the status table after
every declaration, and the log (rich took a second to lay out 1,000 lines
of it). A Grid takes the shape the terminal shows: rich's heavy head, no
outer edge, a space of padding between columns, an optional title. Its
columns are as wide as rich makes them (rich's own rules: widest wrappable
columns narrowed first, then all alike), and a cell wraps between words as
rich wraps it. What rich would do otherwise (cut a word with an ellipsis,
wrap a header) is left to rich (`to_rich`). tests/test_ink.py holds the two
to the same characters in the same styles."""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from cli.ink import Run, Span, Unfit, marked, runs_of, width_of, wrapped
from eventlog.text import neutral


class Cell(NamedTuple):
    text: str
    spans: list[Span]
    width: int    # on one line
    longest: int  # its longest word


def _cell(markup: str) -> Cell:
    text, spans = marked(neutral(markup))
    if "\n" in text or "\t" in text or text != text.rstrip():
        raise Unfit(text)  # (rich strips or breaks these: its layout)
    words = text.split()
    return Cell(text, spans, width_of(text), max(map(len, words)) if words else len(text))


class Grid:
    """A table of markup cells (one line each as given), laid out as rich
    lays it out."""

    def __init__(self, columns: Sequence[tuple[str, str]], no_wrap: Sequence[bool] = (),
                 title: str | None = None):
        self.columns = list(columns)  # (header, "left" | "right")
        self.no_wrap = list(no_wrap) or [False] * len(self.columns)
        self.title = title
        self.rows: list[tuple[str, ...]] = []

    def add_row(self, *cells: str) -> None:
        self.rows.append(cells)

    def lines(self, width: int) -> list[list[Run]]:
        """The table's lines at `width` columns; Unfit where rich would
        do what this does not (see the module)."""
        if len(self.columns) < 2 or not self.rows or any(
                j not in ("left", "right") for _, j in self.columns):
            raise Unfit("shape")
        memo: dict[str, Cell] = {}

        def cell(markup: str) -> Cell:
            found = memo.get(markup)
            if found is None:
                found = memo[markup] = _cell(markup)
            return found
        grid = [[cell(h) for h, _ in self.columns]] + [[cell(c) for c in r] for r in self.rows]
        widths = self._widths(grid, width - (len(self.columns) - 1))
        out = self._title(sum(widths) + len(widths) - 1) if self.title else []
        if sum(widths) + len(widths) - 1 > width:
            raise Unfit("too wide")  # (rich would crop the lines)
        drawn: dict[tuple[int, int], list[list[Run]]] = {}  # (a cell shown again: once)
        for r, row in enumerate(grid):
            out.extend(self._row(row, widths, r == 0, drawn))
            if r == 0:
                out.append([Run("╇".join("━" * w for w in widths), "")])
        return out

    def _pads(self, i: int) -> tuple[int, int]:
        return (1 if i else 0), (1 if i != len(self.columns) - 1 else 0)

    def _widths(self, grid: list[list[Cell]], room: int) -> list[int]:
        """Each column's width with its padding, as rich's Table finds it."""
        columns = range(len(self.columns))
        widths = [self._measure(grid, i, room)[1] or 1 for i in columns]
        if sum(widths) <= room:
            return widths
        widths = _collapsed(widths, [not n for n in self.no_wrap], room)
        if sum(widths) > room:
            widths = _reduced(sum(widths) - room, [1] * len(widths), widths, widths)
        return [self._measure(grid, i, w)[1] for i, w in zip(columns, widths)]

    def _measure(self, grid: list[list[Cell]], i: int, room: int) -> tuple[int, int]:
        """(least, most) cells column `i` takes, given `room` (rich's
        Measurement of a padded cell, clamped as rich clamps it)."""
        if room < 1:
            return 0, 0
        pad = sum(self._pads(i))
        least, most = [], []
        for row in grid:
            c = row[i]
            if room - pad < 1:
                low, high = room, room
            else:
                inner = room - pad
                high = min(c.width, inner)
                low = min(min(c.longest, high), inner)
                low, high = min(low + pad, room), min(high + pad, room)
            least.append(min(low, high))
            most.append(high)
        return min(max(least), room), min(max(most), room)

    def _row(self, row: list[Cell], widths: list[int], header: bool,
             drawn: dict[tuple[int, int], list[list[Run]]]) -> list[list[Run]]:
        blocks = []
        for i, (c, w) in enumerate(zip(row, widths)):
            block = None if header else drawn.get((id(c), i))
            if block is None:
                block = self._lines(c, i, w, header)
                if not header:
                    drawn[id(c), i] = block
            blocks.append(block)
        height = max(map(len, blocks))
        out = []
        for n in range(height):
            line: list[Run] = []
            for i, block in enumerate(blocks):
                line.extend(block[n] if n < len(block) else [Run(" " * widths[i], "")])
                if i != len(blocks) - 1:
                    line.append(Run("┃" if header else "│", ""))
            out.append(line)
        return out

    def _lines(self, c: Cell, i: int, width: int, header: bool) -> list[list[Run]]:
        """Cell `c` in column `i`, `width` cells with its padding."""
        left, right = self._pads(i)
        inner = width - left - right
        if c.width > inner and (inner < 1 or header or self.no_wrap[i]):
            raise Unfit("cell")  # (rich cuts it with an ellipsis)
        justify = self.columns[i][1]
        if c.width <= inner:  # one line: the padding beside the text, as before
            gap = inner - c.width
            before = left + (gap if justify == "right" else 0)
            after = right + (0 if justify == "right" else gap)
            runs = ([Run(" " * before, "")] if before else []) + runs_of(c.text, c.spans) + (
                [Run(" " * after, "")] if after else [])
            return [[Run(t, _with("bold" if header else "", s)) for t, s in runs]]
        lines = []
        for parts in wrapped(c.text, c.spans, inner):
            text = "".join(p.text for p in parts)
            if justify == "right":
                parts, text = _rstripped(parts), text.rstrip()
            fill = [Run(" " * (inner - len(text)), "")] if len(text) < inner else []
            body = fill + parts if justify == "right" else parts + fill
            lines.append([Run(" " * left, "")] * bool(left) + body
                         + [Run(" " * right, "")] * bool(right))
        return lines

    def _title(self, width: int) -> list[list[Run]]:
        """The title over the table, left-justified in its width, in rich's
        table.title style (italic)."""
        assert self.title is not None
        text, spans = marked(neutral(self.title))
        out = []
        for parts in wrapped(text, spans, width):
            size = sum(len(p.text) for p in parts)
            out.append([Run(p.text, _with("italic", p.style)) for p in parts]
                       + ([Run(" " * (width - size), "italic")] if size < width else []))
        return out

    def to_rich(self):
        """The table for rich's console (cli/quicktable.py: these lines, or
        rich's own Table where this module leaves it to rich)."""
        from cli.quicktable import Quick
        return Quick(self)

    def __rich__(self):
        """A Grid printed by rich's console is its Quick."""
        return self.to_rich()


def _with(outer: str, inner: str) -> str:
    return f"{outer} {inner}".strip()


def _rstripped(parts: list[Run]) -> list[Run]:
    """Without its trailing whitespace, as rich's Text.rstrip."""
    parts = list(parts)
    while parts and parts[-1].text != parts[-1].text.rstrip():
        last = parts.pop()
        if last.text.rstrip():
            parts.append(Run(last.text.rstrip(), last.style))
            break
    return parts


def _collapsed(widths: list[int], wrappable: list[bool], room: int) -> list[int]:
    """The widest wrappable columns narrowed, down to the next widest, until
    the table fits `room` (rich's Table._collapse_widths)."""
    total = sum(widths)
    excess = total - room
    if not any(wrappable):
        return widths
    while total and excess > 0:
        widest = max(w for w, ok in zip(widths, wrappable) if ok)
        second = max(w if ok and w != widest else 0 for w, ok in zip(widths, wrappable))
        ratios = [1 if (w == widest and ok) else 0 for w, ok in zip(widths, wrappable)]
        if not any(ratios) or not widest - second:
            break
        widths = _reduced(excess, ratios, [min(excess, widest - second)] * len(widths), widths)
        total = sum(widths)
        excess = total - room
    return widths


def _reduced(total: int, ratios: list[int], maximums: list[int], values: list[int]) -> list[int]:
    """`total` taken from `values` in proportion to `ratios`, each at most
    its maximum (rich's ratio_reduce)."""
    ratios = [r if m else 0 for r, m in zip(ratios, maximums)]
    left_ratio, left = sum(ratios), total
    if not left_ratio:
        return values[:]
    out = []
    for ratio, maximum, value in zip(ratios, maximums, values):
        if ratio and left_ratio > 0:
            taken = min(maximum, round(ratio * left / left_ratio))
            out.append(value - taken)
            left -= taken
            left_ratio -= ratio
        else:
            out.append(value)
    return out
