"""rich's look without importing rich: a declaration prints the
status table after it, and rich costs a command ~25 ms of imports, as long
as the rest of the command. A Page (markup lines, and tables laid out by
cli/inkgrid.py) is written here as rich would write it, colours included;
whatever this module cannot be sure of (a character whose width rich may
count otherwise, a word rich would cut with an ellipsis, a Windows console,
a dumb terminal, an encoding without box drawing) is handed to rich itself
(render.write). tests/test_ink.py holds the two to the same output.

Markup is rich's: `[bold]x[/bold]`, `[/]`, and `\\[` for a bracket
(`escape`); styles are attribute and colour words ("bold green")."""
from __future__ import annotations

import os
import re
import sys
from itertools import chain
from typing import NamedTuple

from eventlog.text import neutral


class Unfit(Exception):
    """Something rich itself must lay out."""


def escape(text) -> str:
    """Text said at the table, safe inside markup and on a terminal: control
    characters shown as escapes, and brackets that would read as a tag
    escaped with a backslash (as rich.markup.escape does)."""
    def escaped(match: re.Match) -> str:
        backslashes, tag = match.groups()
        return f"{backslashes}{backslashes}\\{tag}"
    text = _TAG_LIKE.sub(escaped, neutral(text))
    return text + "\\" if text.endswith("\\") and not text.endswith("\\\\") else text


_TAG_LIKE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
_TAGS = re.compile(r"((\\*)\[([a-z#/@][^[]*?)])")

# SGR codes: attributes in the order rich writes them, then the colour.
_ATTRIBUTES = {"bold": 1, "dim": 2, "italic": 3, "underline": 4, "blink": 5,
               "reverse": 7, "strike": 9}
_COLOURS = {name: 30 + i for i, name in enumerate(
    ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"))}

# Characters one cell wide for rich, whatever its Unicode tables say of the
# rest: its own single-cell ranges and the symbols the status uses.
_NARROW = frozenset(map(chr, chain(
    range(0x20, 0x7F), range(0xA0, 0xAD), range(0xAE, 0x300), range(0x370, 0x483),
    range(0x2500, 0x25FD)))) | frozenset("→—↪✓…▸")


def width_of(text: str) -> int:
    """Cells `text` takes on a terminal, if every character is one cell."""
    if not _NARROW.issuperset(text):
        raise Unfit(text)
    return len(text)


class Run(NamedTuple):
    text: str
    style: str  # words such as "bold green"; "" plain


Span = tuple[int, int, str]  # (start, end, style) over a text


def runs(markup: str) -> list[Run]:
    """The text of `markup` in runs of one style, split where rich splits
    its segments (at every tag)."""
    return runs_of(*marked(markup))


def marked(markup: str) -> tuple[str, list[Span]]:
    """The text of `markup` and its styles' spans, in rich's order (by where
    their tags open; among those opened at one place, the last closed
    first)."""
    if "[" not in markup:
        return markup, []
    pieces: list[str] = []
    spans: list[tuple[int, int, str]] = []
    opened: list[tuple[int, str]] = []
    at, position = 0, 0

    def add(piece: str) -> None:
        nonlocal at
        piece = piece.replace("\\[", "[")  # (a bracket that is no tag, escaped)
        pieces.append(piece)
        at += len(piece)
    for match in _TAGS.finditer(markup):
        whole, escapes, tag = match.groups()
        start, position_after = match.span()
        if start > position:
            add(markup[position:start])
        position = position_after
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            if backslashes:
                add("\\" * backslashes)
            if escaped:
                add(whole[len(escapes):])
                continue
        name = tag.strip().lower()
        if name.startswith("/"):
            name = name[1:].strip()
            found = next((i for i in range(len(opened) - 1, -1, -1)
                          if not name or opened[i][1] == name), None)
            if found is None:
                raise Unfit(markup)  # (rich refuses it: its own error then)
            begun, style = opened.pop(found)
            spans.append((begun, at, style))
        else:
            _codes(name)  # a style this module does not write: rich's then
            opened.append((at, name))
    if position < len(markup):
        add(markup[position:])
    spans.extend((begun, at, style) for begun, style in reversed(opened))
    return "".join(pieces), sorted(reversed(spans), key=lambda span: span[0])


def runs_of(text: str, spans: list[Span]) -> list[Run]:
    """`text` cut at every span's edges, each piece with the styles over it."""
    edges = sorted({0, len(text), *(x for span in spans for x in span[:2])})
    out = []
    for a, b in zip(edges, edges[1:]):
        if b > a:
            words = [style for first, last, style in spans if first <= a and b <= last]
            out.append(Run(text[a:b], " ".join(words)))
    return out


def _codes(style: str, colour: bool = True) -> str:
    """The SGR parameters of `style` ("" for none), as rich writes them."""
    attributes, ink = set(), None
    for word in style.split():
        if word in _ATTRIBUTES:
            attributes.add(_ATTRIBUTES[word])
        elif word in _COLOURS:
            ink = _COLOURS[word]
        else:
            raise Unfit(style)
    codes = sorted(attributes) + ([ink] if ink is not None and colour else [])
    return ";".join(map(str, codes))


class Screen(NamedTuple):
    """Where the output goes, as rich's console would see it."""
    width: int
    styled: bool   # a terminal: styles are written
    colour: bool   # and colours (NO_COLOR keeps bold and dim only)


MIN_WIDTH = 20  # columns the output is laid out for at the least (render.SafeConsole)


def screen(environ=os.environ, out=None) -> Screen:
    """The screen rich's console would find, or Unfit where this module does
    not follow rich (Windows, IDLE, Jupyter, a dumb terminal, an encoding
    without box drawing)."""
    out = out or sys.stdout
    encoding = (getattr(out, "encoding", None) or "").lower()
    if out is None or sys.platform == "win32" or not encoding.startswith("utf") \
            or "IPython" in sys.modules or "idlelib" in sys.modules:
        raise Unfit("console")
    compatible, force = environ.get("TTY_COMPATIBLE", ""), environ.get("FORCE_COLOR")
    if compatible in ("0", "1"):
        terminal = compatible == "1"
    elif force is not None:
        terminal = force != ""
    else:
        try:
            terminal = out.isatty()
        except (ValueError, AttributeError):
            terminal = False
    if terminal and environ.get("TERM", "").lower() in ("dumb", "unknown"):
        raise Unfit("dumb terminal")
    columns = environ.get("COLUMNS", "")
    width = int(columns) if columns.isdigit() else _terminal_width()
    if width < MIN_WIDTH:
        width = 80 if width <= 0 else MIN_WIDTH
    return Screen(width, terminal, terminal and environ.get("NO_COLOR", "") == "")


def _terminal_width() -> int:
    for fd in (0, 1, 2):
        try:
            return os.get_terminal_size(fd).columns or 80
        except (OSError, ValueError):
            continue
    return 80


def wrapped(text: str, spans: list[Span], width: int) -> list[list[Run]]:
    """A line in lines of at most `width` cells, broken between words as
    rich breaks them (a line keeps the space it broke after, up to `width`;
    a style that ends where it begins is gone once the line is broken)."""
    if width_of(text) <= width:
        return [runs_of(text, spans)]
    breaks, used = [], 0
    for word in re.finditer(r"\s*\S+\s*", text):
        size = len(word.group().rstrip())
        if size > width:
            raise Unfit(text)  # (rich folds a word longer than the line)
        if width - used >= size:
            used += len(word.group())
        elif used and word.start():
            breaks.append(word.start())
            used = len(word.group())
    if not breaks:
        return [runs_of(*_cropped(text, spans, width))]
    lines = []
    for start, end in zip([0, *breaks], [*breaks, len(text)]):
        clipped = [(max(0, a - start), min(b - start, end - start), style)
                   for a, b, style in spans]
        lines.append(runs_of(*_cropped(text[start:end], [
            span for span in clipped if span[1] > span[0]], width)))
    return lines


def _cropped(text: str, spans: list[Span], width: int) -> tuple[str, list[Span]]:
    """Without the spaces it ends in past `width` (rich's rstrip_end)."""
    cut = min(len(text) - width, len(text) - len(text.rstrip()))
    if cut <= 0:
        return text, spans
    end = len(text) - cut
    return text[:end], [(a, min(b, end), style) for a, b, style in spans if a < end]


def written(lines: list[list[Run]], on: Screen) -> str:
    """Lines of runs as the terminal is sent them: each styled run between
    its SGR code and a reset, as rich writes them."""
    out = []
    for line in lines:
        for run in line:
            codes = _codes(run.style, on.colour) if on.styled and run.style else ""
            out.append(f"\x1b[{codes}m{run.text}\x1b[0m" if codes else run.text)
        out.append("\n")
    return "".join(out)


class Page:
    """What a command shows: markup lines and grids, written at once as
    `text`, or all of it by rich (`print_to`) when any of it is Unfit here
    (render.write)."""

    def __init__(self) -> None:
        self.blocks: list = []  # markup lines, and tables (cli/inkgrid.py's Grid)

    def line(self, markup: str) -> None:
        self.blocks.append(markup)

    def grid(self, grid) -> None:
        self.blocks.append(grid)

    def text(self, on: Screen) -> str:
        lines: list[list[Run]] = []
        for block in self.blocks:
            if not isinstance(block, str):
                lines.extend(block.lines(on.width))
            else:
                if "\n" in block:
                    raise Unfit(block)
                lines.extend(wrapped(*marked(neutral(block)), on.width))
        return written(lines, on)

    def print_to(self, console) -> None:
        """The page through rich's `console`, as rich lays it out."""
        for block in self.blocks:
            console.print(block if isinstance(block, str) else block.to_rich())
