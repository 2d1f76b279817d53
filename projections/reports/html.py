"""`export --format html`: the post-game report as one self-contained page
(inline CSS and SVG charts, no script, nothing fetched from the network),
rendered with Jinja2 from the same fold as `stats` and the md export."""
from __future__ import annotations

from pathlib import Path
from typing import TextIO

from projections.reports.charts import Series, bar_chart, series
from projections.reports.exports import TOTALS, review
from projections.ledger import Ledger
from projections.reports.stats import CATEGORIES
from projections.reports.story import Chapter
from projections.reports.walk import Track, no_track

TEMPLATES = Path(__file__).resolve().parent / "templates"
CATEGORY_COLORS = {"free": "#bab0ac", "minor": "#76b7b2", "major": "#4e79a7",
                   "custom": "#b07aa1"}


def charts(numbers: dict) -> list[dict]:
    """The report's charts: id, title, caption and the <svg> itself."""
    people = numbers["combatants"]
    names = [c["name"] for c in people]
    rounds = numbers["rounds"]
    round_names = [f"Round {r['round']}" for r in rounds]
    out = []

    def add(chart_id: str, title: str, caption: str, svg: str) -> None:
        out.append({"id": chart_id, "title": title, "caption": caption, "svg": svg})

    add("chart-ap-per-round", "AP spent per combatant per round",
        "AP spent in turns and on interrupts, by round.",
        bar_chart("chart-ap-per-round-svg", "AP spent per combatant per round", round_names,
                  series([(c["name"], [r["ap_by_combatant"].get(c["id"], 0) for r in rounds])
                          for c in people]), "AP"))
    passes = [(r["round"], p, n) for r in rounds for p, n in enumerate(r["turns_per_pass"], 1)]
    add("chart-turns-per-pass", "Turns per pass",
        "Turns taken in each pass of each round (R1 P2: round 1, pass 2).",
        bar_chart("chart-turns-per-pass-svg", "Turns per pass",
                  [f"R{r} P{p}" for r, p, _ in passes],
                  [Series("turns", [n for _, _, n in passes], "#59a14f")], "turns"))
    add("chart-actions", "Actions by category",
        "Free, minor (1 AP), major (2 AP) and custom-cost actions, in turns and as interrupts.",
        bar_chart("chart-actions-svg", "Actions by category", names,
                  [Series(k, [c["actions"][k] for c in people], CATEGORY_COLORS[k])
                   for k in CATEGORIES], "actions", stacked=True))
    add("chart-interrupts-seizes", "Interrupts and seizes",
        "Interrupt Actions taken out of turn (R19) and moments seized for Grit (R10).",
        bar_chart("chart-interrupts-seizes-svg", "Interrupts and seizes", names,
                  [Series("interrupts", [c["interrupts"] for c in people], "#e15759"),
                   Series("seizes", [c["seizes"] for c in people], "#edc948")], "times"))
    add("chart-ap-use", "AP used and lost per round",
        "AP spent in turns, on interrupts, and left unspent when the round ended (R15).",
        bar_chart("chart-ap-use-svg", "AP used and lost per round", round_names,
                  [Series("in turns", [r["ap_in_turns"] for r in rounds], "#4e79a7"),
                   Series("on interrupts", [r["ap_on_interrupts"] for r in rounds], "#e15759"),
                   Series("unspent", [r["ap_unspent"] or 0 for r in rounds], "#c7c7c7")],
                  "AP", stacked=True))
    return out


def render_html(numbers: dict, chapters: list[Chapter], head_hash: str) -> str:
    import jinja2  # only the html export needs it (STYLE.md: keep start-up light)
    from markupsafe import Markup
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    template = env.get_template("report.html.j2")
    return template.render(
        numbers=numbers, totals=numbers["totals"], chapters=chapters,
        charts=[{**c, "svg": Markup(c["svg"])} for c in charts(numbers)],
        categories=CATEGORIES, totals_rows=TOTALS, head_hash=head_hash,
    )


def write_html(ledger: Ledger, encounter: str, out: TextIO, track: Track = no_track) -> int:
    numbers, chapters = review(ledger, encounter, track)
    _, head_hash = ledger.store.head(encounter)
    from eventlog.text import neutral
    out.write(neutral(render_html(numbers, chapters, head_hash), keep="\n"))  # no control reaches `cat`
    return numbers["totals"]["events"]
