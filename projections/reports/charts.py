"""Bar charts as inline SVG for the html report: no script, no network, no
chart library. Each bar carries a <title> (the browser shows it on hover)
and its value as data-value, so the numbers can be read back from the page.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
           "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac")
CHAR_W = 7  # about the width of a character at font-size 11
PLOT_W = 420  # the plot's width to aim for; more categories make it wider
MAX_LABELS = 30  # category labels under the axis, at most
MAX_BARS = 120  # bars side by side, at most: beyond, they are stacked
FONT = "font-family=\"system-ui, -apple-system, 'Segoe UI', sans-serif\""


@dataclass
class Series:
    name: str
    values: list[int]
    color: str


def series(named: list[tuple[str, list[int]]]) -> list[Series]:
    """Series coloured from the palette in order."""
    return [Series(name, values, PALETTE[i % len(PALETTE)])
            for i, (name, values) in enumerate(named)]


def nice_step(top: int, ticks: int = 5) -> int:
    """An axis step of 1, 2 or 5 times a power of ten, about `ticks` steps to `top`."""
    step = 1
    while True:
        for m in (1, 2, 5):
            if top / (step * m) <= ticks:
                return step * m
        step *= 10


def bar_chart(chart_id: str, title: str, categories: list[str], data: list[Series],
              unit: str, stacked: bool = False, height: int = 260) -> str:
    """Vertical bars: one group per category, one bar per series side by side,
    or stacked. Returns an <svg> element as a string."""
    left, right, top_pad, bottom = 44, 12, 12, 30
    n_cat = max(len(categories), 1)
    if n_cat * len(data) > MAX_BARS:
        stacked = True  # side by side they would be too thin to read
    per_group = 1 if stacked else max(len(data), 1)
    gap = 18 if n_cat <= MAX_LABELS else 2
    bar_w = max(2, min(28, (PLOT_W - n_cat * gap) // (n_cat * per_group)))
    label_every = -(-n_cat // MAX_LABELS)  # a long encounter: label every k-th category
    widest = max([len(c) for c in categories] or [0])
    group_w = bar_w * per_group + gap
    if label_every == 1:
        group_w = max(group_w, CHAR_W * widest + 10)
    width = max(360, left + right + n_cat * group_w)
    legend, lx, ly = [], left, top_pad
    for s in data:  # the legend, wrapped to the chart's width
        item_w = 24 + CHAR_W * len(s.name)
        if lx > left and lx + item_w > width - right:
            lx, ly = left, ly + 16
        legend.append((s, lx, ly))
        lx += item_w
    legend_h = ly - top_pad + 26
    plot_h = height - top_pad - legend_h - bottom
    plot_top = top_pad + legend_h
    if stacked:
        peak = max([sum(s.values[i] for s in data) for i in range(len(categories))] or [0])
    else:
        peak = max([v for s in data for v in s.values] or [0])
    step = nice_step(max(peak, 1))
    axis_top = step * -(-max(peak, 1) // step)

    def y(v: float) -> float:
        return plot_top + plot_h - plot_h * v / axis_top

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{escape(chart_id)}" '
           f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
           f'aria-labelledby="{escape(chart_id)}-title" {FONT} font-size="11">',
           f'<title id="{escape(chart_id)}-title">{escape(title)}</title>']
    for tick in range(0, axis_top + 1, step):  # grid and y labels
        ty = y(tick)
        out.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{ty:.1f}" '
                   f'y2="{ty:.1f}" stroke="#ddd" stroke-width="1"/>')
        out.append(f'<text x="{left - 6}" y="{ty + 4:.1f}" text-anchor="end" '
                   f'fill="#555">{tick}</text>')
    out.append(f'<text x="12" y="{plot_top + plot_h / 2:.1f}" text-anchor="middle" '
               f'fill="#555" transform="rotate(-90 12 {plot_top + plot_h / 2:.1f})">'
               f'{escape(unit)}</text>')
    for s, lx, ly in legend:
        out.append(f'<rect class="legend" x="{lx}" y="{ly}" width="10" height="10" '
                   f'fill="{s.color}"/>')
        out.append(f'<text x="{lx + 14}" y="{ly + 9}" fill="#333">{escape(s.name)}</text>')
    for i, category in enumerate(categories):
        gx = left + i * group_w + gap / 2
        base = 0
        for j, s in enumerate(data):
            v = s.values[i]
            if stacked:
                x, y0, y1 = gx, y(base + v), y(base)
                base += v
            else:
                x, y0, y1 = gx + j * bar_w, y(v), y(0)
            label = f"{s.name} · {category}: {v} {unit}"
            out.append(f'<rect class="bar" x="{x:.1f}" y="{y0:.1f}" width="{bar_w - 1}" '
                       f'height="{max(y1 - y0, 0):.1f}" fill="{s.color}" '
                       f'data-series="{escape(s.name)}" data-category="{escape(category)}" '
                       f'data-value="{v}"><title>{escape(label)}</title></rect>')
            if v and not stacked and bar_w >= 12:
                out.append(f'<text x="{x + (bar_w - 1) / 2:.1f}" y="{y0 - 3:.1f}" '
                           f'text-anchor="middle" fill="#333">{v}</text>')
        if i % label_every == 0:
            cx = gx + (group_w - gap) / 2
            out.append(f'<text class="category" x="{cx:.1f}" y="{plot_top + plot_h + 16:.1f}" '
                       f'text-anchor="middle" fill="#333">{escape(category)}</text>')
    out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" '
               'stroke="#333" stroke-width="1"/>')
    if not categories:
        out.append(f'<text x="{width / 2:.0f}" y="{plot_top + plot_h / 2:.0f}" '
                   'text-anchor="middle" fill="#777">nothing to show yet</text>')
    out.append("</svg>")
    return "\n".join(out)
