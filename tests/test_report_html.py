"""`export --format html`: the report of the example encounter
(examples/street-fight.combat), parsed for its sections and SVG charts, and opened
in headless Chromium to check that the charts are painted. Only the Chromium
tests are skipped, and only where no Chromium is installed (.ci/run
installs Debian's `chromium`)."""
from __future__ import annotations

import io
import shutil
import struct
import subprocess
import zlib
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from eventlog.stores.sqlite import Store
from projections.ledger import Ledger
from projections.reports.html import CATEGORY_COLORS, write_html
from projections.reports.stats import stats

from conftest import said_at_the_table, street_fight

SECTIONS = ["summary", "charts", "order", "narrative", "stats"]
CHARTS = ["chart-ap-per-round", "chart-turns-per-pass", "chart-actions",
          "chart-interrupts-seizes", "chart-ap-use"]
CHROMIUM = next(filter(None, map(shutil.which, ("chromium", "chromium-browser"))), None)
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed")


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

    VOID = {"meta", "link", "br", "img", "input", "hr", "rect", "line"}

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

def test_report_has_its_sections_and_five_svg_charts(demo, report):
    ledger, eid = demo
    html = report.read_text(encoding="utf-8")
    page = Page(html)  # every element closes in order
    assert [a["id"] for a in page.find("section")] == SECTIONS
    svgs = page.find("svg")
    assert [s["id"] for s in svgs] == [f"{c}-svg" for c in CHARTS]
    assert all(s["class"] == "chart" and s["role"] == "img" for s in svgs)
    assert [a["id"] for a in page.find("figure")] == CHARTS
    numbers = stats(ledger, eid)
    bars = page.find("rect", **{"class": "bar"})
    ap_bars = [b for b in bars if b["data-category"].startswith("Round ")
               and b["data-series"] in {c["name"] for c in numbers["combatants"]}]
    assert sum(int(b["data-value"]) for b in ap_bars) == numbers["totals"]["ap_spent"] == 21
    per_pass = [b for b in bars if b["data-series"] == "turns"]
    assert [(b["data-category"], int(b["data-value"])) for b in per_pass] == \
        [("R1 P1", 5), ("R1 P2", 5), ("R1 P3", 0), ("R2 P1", 4), ("R2 P2", 1)]
    majors = [int(b["data-value"]) for b in bars if b["data-series"] == "major"]
    assert sum(majors) == 8
    seizes = {b["data-category"]: int(b["data-value"]) for b in bars if b["data-series"] == "seizes"}
    assert seizes["Rook"] == 1 and sum(seizes.values()) == 1


def test_report_tells_the_rounds_with_orders_and_stats(report):
    page = Page(report.read_text(encoding="utf-8"))
    assert [a["id"] for a in page.find("article")] == ["setup", "round-1", "round-2"]
    assert [a["data-round"] for a in page.find("div", **{"class": "round-order"})] == ["1", "2"]
    assert page.find("li", id="seq-37")[0]["class"] == "APSpent struck"
    struck = [(t, parents) for t, _, parents in page.elements if t == "del"]
    assert len(struck) == 1 and "li" in struck[0][1]
    assert "shoots at the drone" in page.inner("seq-37")
    assert "undone at seq 38: Rook is out of ammo" in page.inner("seq-37")
    assert "Rook seizes the moment (Grit 1 → 0)" in page.inner("seq-13")
    assert "Rook 10 seized" in page.inner("order")
    assert "Drone 11 joined later" in page.inner("order")
    assert page.inner("round-1").count("Nobody acts in this pass.") == 1
    assert "Rook 3 4 0 0 2 1 0 0 2 1 1" in page.inner("stats-combatants")
    assert "AP spent 21" in page.inner("stats-totals")


def test_report_is_self_contained(report):
    html = report.read_text(encoding="utf-8")
    page = Page(html)
    assert not page.find("script") and not page.find("link") and not page.find("img")
    assert not [a for _, a, _ in page.elements if "src" in a]
    for _, attrs, _ in page.elements:
        assert not attrs.get("href", "#").startswith(("http:", "https:", "//")), attrs
    assert "url(" not in html and "@import" not in html


def test_report_escapes_what_was_said_at_the_table(ledger):
    said_at_the_table(ledger, "<i>Heist</i>", '<script>alert("x")</script>')
    out = io.StringIO()
    write_html(ledger, "raid", out)
    html = out.getvalue()
    assert "<script>" not in html and "<i>Heist" not in html
    assert "&lt;script&gt;" in html and "&lt;i&gt;Heist&lt;/i&gt;" in html
    assert not Page(html).find("script")


def test_report_before_the_first_round_still_renders(ledger):
    ledger.new("raid", "", "gm")
    out = io.StringIO()
    write_html(ledger, "raid", out)
    page = Page(out.getvalue())
    assert [a["id"] for a in page.find("section")] == SECTIONS
    assert len(page.find("svg")) == 5 and "No round has started yet." in page.inner("order")


# -- in a browser ---------------------------------------------------------------------

def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / f"profile-{len(list(tmp_path.glob('profile-*')))}"
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--disable-extensions", "--hide-scrollbars",
         "--force-device-scale-factor=1", f"--user-data-dir={profile}", *args],
        capture_output=True, timeout=120, check=True)


def png_pixels(raw: bytes) -> tuple[int, int, Counter]:
    """Width, height and a count of the colours of a PNG (8-bit RGB or RGBA,
    not interlaced, as Chromium writes them), decoded with the standard library."""
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, []
    while pos < len(raw):
        size, kind = struct.unpack(">I4s", raw[pos:pos + 8])
        body = raw[pos + 8:pos + 8 + size]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + size
    bpp = 3 if colour == 2 else 4
    stride = width * bpp
    data = zlib.decompress(b"".join(chunks))
    colours: Counter = Counter()
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = data[start], bytearray(data[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        colours.update(bytes(line[i:i + 3]).hex() for i in range(0, stride, bpp))
        prev = line
    return width, height, colours


@needs_chromium
def test_chromium_renders_the_reports_charts(report, tmp_path):
    dom = chromium(tmp_path, "--dump-dom", report.as_uri()).stdout.decode()
    page = Page(dom)
    assert [a["id"] for a in page.find("section")] == SECTIONS
    assert len(page.find("svg")) == 5
    assert len(page.find("rect", **{"class": "bar"})) > 40

    shot = tmp_path / "report.png"
    chromium(tmp_path, f"--screenshot={shot}", "--window-size=1200,1500", report.as_uri())
    width, height, colours = png_pixels(shot.read_bytes())
    assert (width, height) == (1200, 1500)
    assert shot.stat().st_size > 40_000  # a blank or broken page compresses to far less
    # The bars are painted: above the fold (summary and charts) only bars and
    # the 10x10 legend keys use these colours, and a bar of 1 alone is about
    # 1,000 pixels.
    for category in ("minor", "major", "free"):
        colour = CATEGORY_COLORS[category].lstrip("#")
        assert colours[colour] > 600, (category, colours.most_common(12))
    assert colours["e15759"] > 600 and colours["edc948"] > 600  # interrupts, seizes
    assert colours["59a14f"] > 600  # turns per pass
