"""`export --format html` and `combat report`: the report of the example
encounter (examples/street-fight.combat) parsed for its sections and SVG
charts (their marks carry their values), the players' recap and the
campaign report. The browser's view of them is tests/test_report_browser.py."""
from __future__ import annotations

import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from eventlog.events import CombatantJoined
from eventlog.stores.sqlite import Store
from projections.ledger import Ledger
from projections.reports.html import write_campaign, write_html
from projections.reports.stats import stats

from helpers import said_at_the_table, street_fight, tied_round

SECTIONS = ["summary", "charts", "time", "order", "narrative", "stats"]
CHARTS = ["chart-ap-per-round", "chart-time-per-round", "chart-turns-per-pass",
          "chart-actions", "chart-interrupts-seizes", "chart-ap-use"]


@pytest.fixture
def demo(tmp_path):
    """examples/street-fight.combat played into a fresh store, by `combat demo`."""
    store = Store(street_fight(tmp_path)["COMBAT_DB"])
    yield Ledger(store), "demo-1"
    store.close()


@pytest.fixture
def report(demo, tmp_path) -> Path:
    ledger, eid = demo
    path = tmp_path / "report.html"
    with path.open("w", encoding="utf-8") as f:
        write_html(ledger, eid, f)
    return path


class Page(HTMLParser):
    """The elements of a page, each as (tag, attributes, ancestors' tags),
    and the text inside each element with an id."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict, tuple[str, ...]]] = []
        self.stack: list[tuple[str, dict]] = []
        self.text: dict[str, list[str]] = {}
        self.feed(html)
        self.close()

    VOID = {"meta", "link", "br", "img", "input", "hr", "rect", "line", "path", "use"}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.elements.append((tag, attrs, tuple(t for t, _ in self.stack)))
        if tag not in self.VOID:
            self.stack.append((tag, attrs))

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs), tuple(t for t, _ in self.stack)))

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        assert self.stack and self.stack[-1][0] == tag, (tag, self.stack[-3:])
        self.stack.pop()

    def handle_data(self, data):
        for _, attrs in self.stack:
            if "id" in attrs:
                self.text.setdefault(attrs["id"], []).append(data)

    def find(self, tag: str, **attrs) -> list[dict]:
        return [a for t, a, _ in self.elements if t == tag
                and all(a.get(k.replace("_", "-")) == v for k, v in attrs.items())]

    def inner(self, element_id: str) -> str:
        return " ".join(" ".join(self.text.get(element_id, [])).split())


# -- the page, parsed ---------------------------------------------------------------

def marks(page: Page, chart: str) -> dict[tuple[int, int], float]:
    """(series, category) -> value of every mark of a chart."""
    out = {}
    for a in page.find("g", **{"class": "mark"}):
        if a["id"].startswith(chart + "-s"):
            s, c = a["id"][len(chart) + 2:].split("-c")
            out[int(s), int(c)] = float(a["data-value"])
    return out


def test_report_has_its_sections_and_six_svg_charts(demo, report):
    ledger, eid = demo
    page = Page(report.read_text(encoding="utf-8"))  # every element closes in order
    assert [a["id"] for a in page.find("section")] == SECTIONS
    svgs = page.find("svg")
    assert [s["id"] for s in svgs] == [f"{c}-svg" for c in CHARTS]
    assert all(s["class"] == "chart" and s["role"] == "img" for s in svgs)
    assert [a["id"] for a in page.find("figure")] == CHARTS
    numbers = stats(ledger, eid)
    cells = page.find("path", **{"class": "cell"})[:6 * 2]  # the first heatmap's
    assert len(page.find("path", **{"class": "cell"})) == 2 * 6 * 2  # per combatant and round
    assert sum(float(a["data-value"]) for a in cells) == numbers["totals"]["ap_spent"] == 21
    per_pass = marks(page, "chart-turns-per-pass")  # series: pass; category: round
    assert per_pass == {(0, 0): 5, (1, 0): 5, (2, 0): 0, (0, 1): 4, (1, 1): 1, (2, 1): 0}
    actions = marks(page, "chart-actions")  # series 2: major
    assert sum(v for (s, _), v in actions.items() if s == 2) == 8
    seizes = {c: v for (s, c), v in marks(page, "chart-interrupts-seizes").items() if s == 1}
    assert seizes[0] == 1 and sum(seizes.values()) == 1  # Rook, the first row
    assert "Rook · seizes: 1 times" in page.inner("chart-interrupts-seizes")


def test_report_tells_the_rounds_with_orders_and_stats(report):
    page = Page(report.read_text(encoding="utf-8"))
    assert [a["id"] for a in page.find("details")] == ["setup", "round-1", "round-2"]
    assert [a["data-round"] for a in page.find("div", **{"class": "round-order"})] == ["1", "2"]
    assert page.find("li", id="seq-37")[0]["class"] == "APSpent struck"
    struck = [(t, parents) for t, _, parents in page.elements if t == "del"]
    assert len(struck) == 1 and "li" in struck[0][1]
    assert "shoots at the drone" in page.inner("seq-37")
    assert "undone at seq 38: Rook is out of ammo" in page.inner("seq-37")
    assert "Undo of seq 37 (Rook is out of ammo)" in page.inner("seq-38")  # the undo, told
    assert "Rook seizes the moment (Grit 1 → 0)" in page.inner("seq-13")
    assert "Rook 10 seized in round 1" in page.inner("order")
    assert "Drone 11 joined later" in page.inner("order")
    assert page.inner("round-1").count("Nobody acts in this pass.") == 1
    assert "Rook 3 4 0 0 2 1 0 0 2 1 1 0" in page.inner("stats-combatants")
    assert "AP spent 21" in page.inner("stats-totals")
    assert "Vex rolled 8 at the table, +2 = 10 for initiative" in page.inner("setup")


def test_order_per_round_is_the_order_slots_were_visited_html(ledger):
    tied_round(ledger)
    out = io.StringIO()
    write_html(ledger, "r", out)
    block = out.getvalue().split('data-round="1"')[1].split("</ol>")[0]
    assert re.findall(r'data-slot="([^"]+)"', block) == ["guards", "lin", "kai"]


def test_order_tags_who_left_during_the_round(ledger):
    """A combatant who left sits at the bottom of its round's order
    (its turn never came), tagged as having left."""
    from projections.domain import commands as c
    ledger.execute(None, c.New(id="r"))
    for name, die in (("Kai", 9), ("Lin", 5), ("Ganger", 3)):
        ledger.execute("r", c.Add(name=name, pc=name != "Ganger"))
        ledger.execute("r", c.Roll(slots=[name.lower()], die=die))
    ledger.execute("r", c.Round())
    ledger.execute("r", c.Act(id="kai", cost="major", label="shoots"))
    ledger.execute("r", c.Leave(id="lin", reason="runs"))
    ledger.execute("r", c.EndTurn(id="kai"))
    ledger.execute("r", c.Act(id="ganger", cost="minor", label="swings"))
    out = io.StringIO()
    write_html(ledger, "r", out)
    block = out.getvalue().split('data-round="1"')[1].split("</ol>")[0]
    items = re.findall(r'<li data-slot="([^"]+)">(.*?)</li>', block, re.S)
    assert [slot for slot, _ in items] == ["kai", "ganger", "lin"]
    assert [slot for slot, text in items if 'class="tag left"' in text] == ["lin"]


def test_report_is_self_contained(report):
    html = report.read_text(encoding="utf-8")
    page = Page(html)
    assert not page.find("script") and not page.find("link") and not page.find("img")
    assert not [a for _, a, _ in page.elements if "src" in a]
    for _, attrs, _ in page.elements:
        for key in ("href", "xlink:href"):
            assert attrs.get(key, "#").startswith("#"), attrs
    assert "@import" not in html
    assert html.count("url(") == html.count("url(#")  # the charts' clip paths, in the page


def test_report_escapes_what_was_said_at_the_table(ledger):
    said_at_the_table(ledger, "<i>Heist</i>", '<script>alert("x")</script>')
    ledger.declare("raid", lambda s: [CombatantJoined(
        id="imp", name="<svg onload=alert(1)>", side="npc", bonus=0, max_ap=3, grit=0,
        group=None)], "gm")
    out = io.StringIO()
    write_html(ledger, "raid", out)
    html = out.getvalue()
    assert "<script>" not in html and "<i>Heist" not in html and "<svg onload" not in html
    assert "&lt;script&gt;" in html and "&lt;i&gt;Heist&lt;/i&gt;" in html
    assert "&lt;svg onload=alert(1)&gt;" in html
    assert not Page(html).find("script")


def test_report_keeps_a_multi_line_note_whole(alley):
    alley("note", "first line\nsecond\tline")
    html = alley("export", "--format", "html").stdout
    assert "Note: first line\nsecond\tline</li>" in html and "\\x09" not in html
    assert re.search(r"ol\.lines li \{[^}]*white-space: pre-wrap", html)  # shown on two lines


def test_report_before_the_first_round_still_renders(ledger):
    ledger.new("raid", "", "gm")
    out = io.StringIO()
    write_html(ledger, "raid", out)
    page = Page(out.getvalue())
    assert [a["id"] for a in page.find("section")] == SECTIONS
    assert len(page.find("svg")) == 6 and "No round has started yet." in page.inner("order")


def test_report_md_tells_the_amendment_reason_and_grit_gained(combat, tmp_path):
    for line in (("new", "raid"), ("add", "Rook", "--pc", "--grit", "1"), ("roll", "rook", "--die", "4"),
                 ("round",), ("act", "rook", "major", "shoots"), ("grit", "rook", "2", "--reason", "a plan"),
                 ("amend", "5", "--cost", "minor", "--reason", "a quick shot")):
        combat(*line)
    md = combat("export", "--format", "md").stdout
    assert "amended at seq 7: a quick shot" in md
    assert "| Grit spent | Grit gained | time in turns |" in md and "| Grit gained | 2 |" in md
    out = tmp_path / "r.html"
    combat("export", "--format", "html", "-o", out)
    page = Page(out.read_text())
    assert "amended at seq 7: a quick shot" in page.inner("seq-5")
    assert page.find("div", **{"data-total": "grit_gained"})
    assert "2 Grit gained" in page.inner("summary")


# -- the players' recap and the campaign --------------------------------------------

def test_report_for_players_has_pc_highlights_and_no_gm_detail(demo, combat, tmp_path):
    ledger, eid = demo
    out = io.StringIO()
    write_html(ledger, eid, out, audience="players")
    html = out.getvalue()
    page = Page(html)
    assert [a["id"] for a in page.find("section")] == ["summary", "highlights", "charts", "time"]
    cards = {a["data-combatant"] for a in page.find("div", **{"class": "card highlight"})}
    assert cards == {"rook", "vex"}  # PCs only
    assert "1 seize" in page.inner("highlights") and "biggest turn: 2 AP in round 1, pass 1" in page.inner("highlights")
    for gm_only in ("stunned by the blast", "Rook is out of ammo", "knocked out"):
        assert gm_only not in html


def test_report_command_writes_the_recap_and_the_players_campaign(tmp_path):
    from helpers import in_process
    combat = in_process(street_fight(tmp_path))
    out = tmp_path / "recap.html"
    result = combat("report", "--for", "players", "-o", out)
    assert "wrote the report of demo-1" in result.stdout and "highlights" in out.read_text()
    campaign = tmp_path / "campaign.html"
    combat("report", "--for", "players", "--all", "-o", campaign)
    assert "<h1>The players&#39; campaign: 1 encounter</h1>" in campaign.read_text()
    assert combat("report", "--encounters", "demo-1,nope", code=1).stderr.startswith("error: ")


def test_report_on_a_terminal_writes_a_file_and_says_where(tmp_path):
    """`combat report` with its output on a terminal does not pour
    130 KB of html there: it writes ID-report.html and says so in a line."""
    import os
    import pty

    from helpers import real
    db = tmp_path / "ledger.db"
    for args in (["new", "raid"], ["add", "Rook", "--pc"], ["note", "x"]):
        assert real(db, *args).returncode == 0
    here, there = pty.openpty()
    try:
        done = real(db, "report", stdout=there, cwd=tmp_path)
        os.close(there)
        shown = b""
        while True:
            try:
                chunk = os.read(here, 65536)
            except OSError:  # (the terminal closed: all is read)
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(here)
    assert done.returncode == 0, done.stderr
    said = shown.decode()
    assert "<html" not in said and len(said) < 400
    assert "wrote the report of raid to raid-report.html" in " ".join(said.split())
    assert "<html" in (tmp_path / "raid-report.html").read_text(encoding="utf-8")
    piped = real(db, "report", cwd=tmp_path)  # not a terminal: stdout, as before
    assert piped.stdout.startswith("<!doctype html>")


def test_campaign_sums_the_encounters_and_reports_them(tmp_path):
    from helpers import EXAMPLES, in_process
    combat = in_process(street_fight(tmp_path))
    combat("demo", EXAMPLES / "street-fight.combat")  # demo-2: the same fight again
    view = json.loads(combat("stats", "--all", "--json").stdout)
    assert [e["encounter"] for e in view["encounters"]] == ["demo-1", "demo-2"]
    rook = next(c for c in view["combatants"] if c["id"] == "rook")
    assert (rook["encounters"], rook["turns"], rook["seizes"], rook["ap_spent"]) == (2, 6, 2, 8)
    pcs = next(s for s in view["sides"] if s["side"] == "pc")
    assert pcs["ap_per_turn"] == round((4 + 4) * 2 / (3 + 3) / 2, 3)
    assert view["totals"]["interrupts"] == 2 and view["totals"]["encounters"] == 2
    assert json.loads(combat("stats", "--encounters", "demo-2", "--json").stdout)["totals"]["encounters"] == 1
    import csv
    turns = list(csv.DictReader(io.StringIO(combat("stats", "--all", "--csv").stdout)))
    assert [sum(r["encounter"] == e for r in turns) for e in ("demo-1", "demo-2")] == [15, 15]
    text = combat("stats", "--all").stdout
    assert "2 encounters" in text and "demo-2" in text
    store = Store(tmp_path / "ledger.db")
    out = io.StringIO()
    write_campaign(Ledger(store), ["demo-1", "demo-2"], out)
    store.close()
    page = Page(out.getvalue())
    assert [a["id"] for a in page.find("section")] == ["summary", "charts", "encounters", "combatants"]
    assert len(page.find("svg")) == 4


def test_other_commands_do_not_import_the_chart_library(tmp_path):
    import subprocess
    import sys
    env = {**street_fight(tmp_path)}
    code = ("import sys; from cli.main import main; sys.argv = ['combat', 'status']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('matplotlib' in sys.modules, 'jinja2' in sys.modules)")
    import os
    run_env = {**os.environ, **{k: v for k, v in env.items() if v is not None}}
    run_env.pop("COMBAT_ENCOUNTER", None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=run_env, timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "False False", done.stderr


# -- words and layout ------------------------------------------------------------------

def test_summary_cards_say_one_in_the_singular(ledger):
    # "1 moments seized" read wrong: a count of one takes the singular.
    ledger.new("raid", "Raid", "gm")
    from projections.domain import commands as c
    for command in (c.Add(name="Ash", pc=True, grit=1), c.Add(name="Brute"),
                    c.Roll(slots=["ash"], die=9), c.Roll(slots=["brute"], die=2), c.Round(),
                    c.Seize(id="ash"), c.Interrupt(id="brute", cost="minor")):
        ledger.execute("raid", command, "gm")
    out = io.StringIO()
    write_html(ledger, "raid", out)
    cards = re.findall(r'data-total="(\w+)"><div class="value">(\d+)</div><div class="label">'
                       r'([^<]+)<', out.getvalue())
    said = {key: f"{value} {label}" for key, value, label in cards}
    assert said["seizes"] == "1 moment seized" and said["interrupts"] == "1 interrupt"
    assert said["rounds"] == "1 round"
    assert said["ap_spent"] == "1 AP spent"  # (no plural to make)


def test_each_chart_title_stands_above_its_chart(report):
    html = report.read_text(encoding="utf-8")
    for chart in CHARTS:
        figure = html[html.index(f'<figure id="{chart}">'):]
        figure = figure[:figure.index("</figure>")]
        assert figure.index("<figcaption>") < figure.index("<svg"), chart


def test_a_report_with_an_emoji_name_writes_no_warning(ledger, capfd):
    # The chart font has no emoji: matplotlib's glyph warning is no news to a GM.
    said_at_the_table(ledger, "Raid", "x")
    ledger.declare("raid", lambda s: [CombatantJoined(
        id="zoe", name="Zoë 🐉 Dragonkin", side="pc", bonus=0, max_ap=3, grit=0,
        group=None)], "gm")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning would fail the report
        write_html(ledger, "raid", io.StringIO())
    assert capfd.readouterr().err == ""


def test_a_report_writes_no_chart_library_warning_in_the_terminal(tmp_path):
    """matplotlib logs to stderr when its cache folder cannot be made (and
    when it builds its font cache slowly): `combat report` says only what it
    wrote, with names in scripts and emoji the chart font lacks."""
    from helpers import real
    db, cwd = tmp_path / "ledger.db", tmp_path / "out"
    cwd.mkdir()
    (tmp_path / "not-a-folder").write_text("")
    for args in (["new", "raid"], ["add", "Zoë 🐉 Dragonkin", "--pc"], ["add", "ᚠᚢᚦ 𓀀 Rune"],
                 ["add", "नमस्ते मित्र"], ["roll", "zoe-dragonkin", "--die", "9"],
                 ["roll", "futh-a1-rune", "--die", "5"], ["roll", "nmste-mitr", "--die", "2"],
                 ["round"], ["act", "zoe-dragonkin", "major", "🐉"]):
        assert real(db, *args).returncode == 0, args
    done = real(db, "report", "-o", "r.html", cwd=cwd,
                env={"MPLCONFIGDIR": str(tmp_path / "not-a-folder"), "PYTHONWARNINGS": "always"})
    assert done.returncode == 0 and done.stderr == ""
    assert "<svg" in (cwd / "r.html").read_text(encoding="utf-8")
