"""The report's charts, drawn by matplotlib as SVG to inline in the page
(text kept as text: selectable, searchable, sharp in print).

Readable at any size: the text has one fixed size, and a chart grows with
what it shows (a column per round, a row per combatant) instead of
shrinking; the page puts it in a box that scrolls sideways. Long names are
cut at NAME_CHARS (the tables carry them whole). Within a chart no two
series share a colour (`palette`). Each mark is a <g class="mark"> with an
id `{chart}-s{series}-c{category}` (a heatmap's cells: <path class="cell">
in `<g id="{chart}-cells">`, row by row) holding a <title> (the browser
shows it on hover) and its value as data-value. Past BARS rounds, bars
become stacked step areas (a title per series) and a heatmap's cells one
embedded picture (its axes, labels and key stay SVG text): drawn mark by
mark, 500 rounds would take seconds and megabytes.

matplotlib is imported only here, and this module only by the html report:
no other command pays for it (about 0.7 s).
"""
from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from eventlog.language import SOURCE, _, current, decimal, n_

FONT_PT = 10         # every text of every chart; 10 pt is 13.3 CSS px in the page
PX = 1 / 96          # inches per CSS pixel (matplotlib's SVG is 72 pt per inch)
NAME_CHARS = 24      # longer names are cut, with an ellipsis
CHAR_PX = 7.5        # about the width of a character of FONT_PT
BARS = 60            # rounds drawn mark by mark; more: step areas, a heatmap as a picture
TAB10 = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
         "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac")


def _num(value: float) -> str:
    """A value as a chart writes it (as few decimals as it has), in the
    reader's form: 2.5 / 2,5."""
    written = f"{value:g}"
    if current() == SOURCE or "e" in written:
        return written
    return decimal(value, len(written.partition(".")[2]))


def palette(n: int) -> list[str]:
    """n distinct colours: Tableau 10, then evenly spaced hues."""
    if n <= len(TAB10):
        return list(TAB10[:n])
    import colorsys
    out: list[str] = []
    for i in range(n):
        r, g, b = colorsys.hls_to_rgb(i / n, 0.5 if i % 2 else 0.38, 0.65)
        out.append(f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}")
    assert len(set(out)) == n
    return out


def short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"


@dataclass
class Series:
    name: str
    values: list[float]


@dataclass
class Chart:
    id: str
    title: str
    caption: str
    svg: str
    width: float = 0  # in CSS pixels: the page cues a scroll where its box is narrower


def _mpl():
    import logging
    # matplotlib logs to stderr, through logging's last resort, when it
    # cannot make its cache folder or builds its font cache slowly: news for
    # a developer, noise in a GM's terminal. A handler of its own keeps the
    # last resort silent; an application that configures logging still
    # gets the records.
    quiet = logging.getLogger("matplotlib")
    if not quiet.handlers:
        quiet.addHandler(logging.NullHandler())
    import matplotlib
    matplotlib.rcParams.update({
        "svg.fonttype": "none",        # text stays <text>, not paths
        "svg.hashsalt": "combat-ledger",  # the same page for the same log
        "text.parse_math": False,      # a name with `$` is a name
        "font.size": FONT_PT, "axes.titlesize": FONT_PT, "axes.labelsize": FONT_PT,
        "xtick.labelsize": FONT_PT, "ytick.labelsize": FONT_PT, "legend.fontsize": FONT_PT,
        "font.family": ["DejaVu Sans", "sans-serif"],
        "axes.spines.top": False, "axes.spines.right": False,
    })
    from matplotlib.figure import Figure
    return Figure


def _figure(width_px: float, height_px: float, left: float, right: float,
            top: float, bottom: float):
    """A figure of this size in CSS pixels with an axes inside these margins."""
    fig = _mpl()(figsize=(width_px * PX, height_px * PX), dpi=96)
    fig.patch.set_alpha(0)
    ax = fig.add_axes((left / width_px, bottom / height_px,
                       1 - (left + right) / width_px, 1 - (top + bottom) / height_px))
    ax.set_facecolor("none")
    return fig, ax


def _svg(fig, chart_id: str, titles: dict[str, tuple[str, float]],
         cells: Sequence[tuple[str, float]] = ()) -> str:
    out = io.StringIO()
    import warnings
    with warnings.catch_warnings():
        # The chart font has no emoji: a name's 🐉 is drawn by the browser's
        # own fonts (the SVG keeps text as text), so the glyph warning is noise.
        warnings.filterwarnings("ignore", r"Glyph \d+ .* missing from", UserWarning)
        fig.savefig(out, format="svg", transparent=True, metadata={"Date": None})
    svg = out.getvalue()
    svg = svg[svg.index("<svg"):]
    svg = svg.replace("<svg ", f'<svg class="chart" id="{chart_id}-svg" role="img" '
                      f'aria-label="{escape(titles.pop("", ("", 0))[0])}" ', 1)

    def mark(m: re.Match) -> str:
        gid = m.group(1)
        title, value = titles[gid]
        return (f'<g id="{gid}" class="mark" data-value="{value:g}">'
                f"<title>{escape(title)}</title>")
    svg = re.sub(r'<g id="([a-z0-9-]+-s\d+-c\d+)">', mark, svg)
    if cells:  # a heatmap's cells, in the mesh's order (row by row): a title each
        start = svg.index(f'<g id="{chart_id}-cells">')
        end = svg.index("</g>", start)
        block = iter(cells)

        def cell(m: re.Match) -> str:
            text, value = next(block)
            return (f'<path class="cell" data-value="{value:g}"{m.group(1)}>'
                    f"<title>{escape(text)}</title></path>")
        svg = svg[:start] + re.sub(r"<path(.*?)/>", cell, svg[start:end], flags=re.S) + svg[end:]
    return svg


def _legend_columns(labels: list[str], width_px: float) -> int:
    """How many entries a row of the legend holds at this width. Counted by
    characters, and by the widest label's drawn width where that is more (a
    German label of wide letters: Durchgang 5) with the key, the pads and the
    space between columns beside it."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path
    font = FontProperties(family=["DejaVu Sans", "sans-serif"], size=FONT_PT)
    drawn = max(text_to_path.get_text_width_height_descent(s, font, ismath=False)[0]
                for s in labels) * 96 / 72
    # a column: key 13 px, pad 11, the label; 16 between columns, 5 at each end
    fit = min(int(width_px // (max(len(s) for s in labels) * CHAR_PX + 34)),
              int((width_px + 16 - 11) // (drawn + 40)))
    return max(1, min(len(labels), fit))


def _legend(ax, handles: list, labels: list[str], width_px: float) -> None:
    """The legend above the plot, in as many rows as it needs at this width."""
    ncol = _legend_columns(labels, width_px)
    ax.legend(handles, labels, loc="lower left", bbox_to_anchor=(0, 1.02), ncol=ncol,
              frameon=False, borderaxespad=0, handlelength=1, columnspacing=1.2)


def _legend_rows(labels: list[str], width_px: float) -> int:
    return -(-len(labels) // _legend_columns(labels, width_px))


def _every(slot_px: float, label_px: float) -> int:
    """Label every k-th column so that labels never overlap (1, 2, 5, 10, ...);
    past BARS columns, at least 60 px apart (fewer labels, drawn faster)."""
    if slot_px < 14:
        label_px = max(label_px, 60)
    for k in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000):
        if slot_px * k >= label_px:
            return k
    return 1000


def columns(chart_id: str, title: str, caption: str, categories: list[str],
            data: list[Series], unit: str, stacked: bool = True) -> Chart:
    """Vertical bars, a column per category (a round), series stacked."""
    n = max(len(categories), 1)
    slot: float = 30 if n <= 30 else 14 if n <= 100 else 8
    left, right, bottom = 56, 16, 52
    plot_w = max(n * slot, 240)
    slot = plot_w / n
    width = left + plot_w + right
    rows = _legend_rows([s.name for s in data], width - left)
    top = 18 + 22 * rows
    height = top + 200 + bottom
    fig, ax = _figure(width, height, left, right, top, bottom)
    colours = palette(len(data))
    base = [0.0] * len(categories)
    titles: dict[str, tuple[str, float]] = {"": (title, 0)}
    handles = []
    for i, (s, colour) in enumerate(zip(data, colours)):
        top_ = [b + v for b, v in zip(base, s.values)] if stacked else s.values
        if n > BARS:  # too many bars to draw one by one: a stacked step area per series
            area = ax.fill_between(range(len(categories)), base if stacked else 0, top_,
                                   step="mid", color=colour, linewidth=0, label=s.name)
            gid = f"{chart_id}-s{i}-c0"
            area.set_gid(gid)
            titles[gid] = (_("{series}: {value} {unit} in all").format(
                series=s.name, value=_num(sum(s.values)), unit=unit), sum(s.values))
            handles.append(area)
        else:
            bars = ax.bar(range(len(categories)), s.values, min(0.75, 44 / slot),
                          bottom=base if stacked else 0, color=colour, label=s.name)
            handles.append(bars)
            for j, (bar, v) in enumerate(zip(bars, s.values)):
                gid = f"{chart_id}-s{i}-c{j}"
                bar.set_gid(gid)
                titles[gid] = (f"{s.name} · {categories[j]}: {_num(v)} {unit}", v)
        base = top_ if stacked else base
    every = _every(slot, max([len(c) for c in categories] or [1]) * CHAR_PX + 6)
    ticks = [j for j in range(len(categories)) if (j + 1) % every == 0 or every == 1]
    ax.set_xticks(ticks, [categories[j] for j in ticks])
    ax.set_xlim(-0.5, n - 0.5)
    ax.set_ylabel(unit)
    tallest = max(base + [v for s in data for v in s.values] + [0])
    if tallest > 0:  # headroom: the tallest bar does not end flat against the frame
        ax.set_ylim(0, tallest * 1.08)
    ax.yaxis.get_major_locator().set_params(integer=True)
    if data:
        _legend(ax, handles, [s.name for s in data], width - left)
    if not categories:
        ax.text(0.5, 0.5, _("nothing to show yet"), transform=ax.transAxes, ha="center")
    return Chart(chart_id, title, caption, _svg(fig, chart_id, titles), width)


def rows(chart_id: str, title: str, caption: str, names: list[str],
         data: list[Series], unit: str, stacked: bool = True) -> Chart:
    """Horizontal bars, a row per combatant, series stacked or side by side."""
    labels = [short(n) for n in names]
    left = max([len(s) for s in labels] or [4]) * CHAR_PX + 20
    per_row = 24 if stacked else 10 + 12 * len(data)
    plot_h = max(len(names), 1) * per_row
    width = left + 360 + 24
    n_rows = _legend_rows([s.name for s in data], width - left)
    top, bottom = 18 + 22 * n_rows, 48  # the axis label whole, descenders too
    fig, ax = _figure(width, top + plot_h + bottom, left, 24, top, bottom)
    colours = palette(len(data))
    base = [0.0] * len(names)
    titles: dict[str, tuple[str, float]] = {"": (title, 0)}
    handles = []
    height = 0.7 if stacked else 0.8 / max(len(data), 1)
    for i, (s, colour) in enumerate(zip(data, colours)):
        ys = [j if stacked else j - 0.4 + height * (i + 0.5) for j in range(len(names))]
        bars = ax.barh(ys, s.values, height, left=base if stacked else 0, color=colour,
                       label=s.name)
        handles.append(bars)
        for j, (bar, v) in enumerate(zip(bars, s.values)):
            gid = f"{chart_id}-s{i}-c{j}"
            bar.set_gid(gid)
            titles[gid] = (f"{names[j]} · {s.name}: {_num(v)} {unit}", v)
        if stacked:
            base = [b + v for b, v in zip(base, s.values)]
    ax.set_yticks(range(len(names)), labels)
    ax.set_ylim(max(len(names), 1) - 0.5, -0.5)
    ax.set_xlabel(unit)
    widest = max([b for b in base] + [v for s in data for v in s.values] + [0])
    ax.set_xlim(0, widest * 1.05 if widest > 0 else 1)  # an axis from 0, even with nothing
    ax.xaxis.get_major_locator().set_params(integer=True)
    if data:
        _legend(ax, handles, [s.name for s in data], width - left)
    if not names:
        ax.text(0.5, 0.5, _("nothing to show yet"), transform=ax.transAxes, ha="center")
    return Chart(chart_id, title, caption, _svg(fig, chart_id, titles), width)


def heatmap(chart_id: str, title: str, caption: str, names: list[str],
            rounds: list[int], values: list[list[float]], unit: str) -> Chart:
    """Rounds by combatants: a cell per combatant and round, darker for more;
    the numbers are written in the cells while they fit."""
    labels = [short(n) for n in names]
    n = max(len(rounds), 1)
    cell_w = max(28, min(48, 240 // n)) if n <= 40 else 14 if n <= 100 else 8
    cell_h = 24
    left = max([len(s) for s in labels] or [4]) * CHAR_PX + 20
    right, top, bottom = 100, 14, 52
    plot_w = n * cell_w
    width, height = left + plot_w + right, top + max(len(names), 1) * cell_h + bottom
    fig, ax = _figure(width, height, left, right, top, bottom)
    titles: dict[str, tuple[str, float]] = {"": (title, 0)}
    cells: list[tuple[str, float]] = []
    peak = max([v for row in values for v in row] + [1])
    if names and rounds:
        from matplotlib.cm import ScalarMappable
        from matplotlib.colors import Normalize
        from matplotlib.patches import Rectangle
        shade = ScalarMappable(Normalize(0, peak), "Blues")
        edges = ([j - 0.5 for j in range(len(rounds) + 1)],
                 [i - 0.5 for i in range(len(names) + 1)])
        if len(rounds) > BARS:  # thousands of cells: one picture of them, the text stays text
            ax.imshow(values, cmap="Blues", norm=shade.norm, aspect="auto",
                      interpolation="nearest", extent=(-0.5, len(rounds) - 0.5,
                                                       len(names) - 0.5, -0.5))
        else:
            mesh = ax.pcolormesh(*edges, values, cmap="Blues", norm=shade.norm,
                                 edgecolors="white", linewidth=0.5)
            mesh.set_gid(f"{chart_id}-cells")  # one artist, a path per cell
            cells = [(_("{name} · round {round}: {value} {unit}").format(
                name=names[i], round=rounds[j], value=_num(v), unit=unit), v)
                     for i, row in enumerate(values) for j, v in enumerate(row)]
        if cell_w >= 24:
            for i, row in enumerate(values):
                for j, v in enumerate(row):
                    if v:
                        ax.text(j, i, _num(v), ha="center", va="center",
                                color="white" if v > peak * 0.55 else "#1d2330")
        steps = sorted({round(peak * k / 4) for k in range(5)})  # the key: a swatch per step
        cax = fig.add_axes(((left + plot_w + 14) / width, bottom / height,
                            14 / width, min(18 * len(steps), height - top - bottom) / height))
        for k, v in enumerate(steps):  # (matplotlib's stubs type to_rgba for arrays only)
            cax.add_patch(Rectangle((0, k), 1, 1, facecolor=shade.to_rgba(v), edgecolor="#999",  # type: ignore[arg-type]
                                    linewidth=0.5))
        cax.set_xlim(0, 1)
        cax.set_ylim(0, len(steps))
        cax.set_xticks([])
        cax.yaxis.tick_right()
        cax.set_yticks([k + 0.5 for k in range(len(steps))], [_num(v) for v in steps])
        cax.tick_params(length=0)
        cax.set_title(unit, loc="left", fontsize=FONT_PT)
        for spine in cax.spines.values():
            spine.set_visible(False)
    ax.set_ylim(max(len(names), 1) - 0.5, -0.5)
    every = _every(cell_w, len(str(max(rounds or [1]))) * CHAR_PX + 6)
    ticks = [j for j, r in enumerate(rounds) if r % every == 0 or every == 1]
    ax.set_xticks(ticks, [str(rounds[j]) for j in ticks])
    ax.set_xlim(-0.5, n - 0.5)
    ax.set_xlabel(n_("round", "rounds", 1), loc="left")  # (the word, as the cards say it)
    ax.set_yticks(range(len(names)), labels)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    if not (names and rounds):
        ax.text(0.5, 0.5, _("nothing to show yet"), transform=ax.transAxes, ha="center")
    return Chart(chart_id, title, caption, _svg(fig, chart_id, titles, cells), width)
