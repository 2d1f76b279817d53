"""The html report in headless Chromium (driven by Playwright, the system
`chromium`), measured from the DOM at a desktop and a phone width: the demo,
a 20-round fight of 10 combatants (one with a very long name) and a
200-round fight. No chart text under 10 px, nothing wider than the viewport
outside a box that scrolls, no two series of a chart in one colour; no table
cell broken inside a word (a name, a title, an id), no chart label overlapping another or clipped,
no chart cropped without the line that says to scroll."""
from __future__ import annotations

import struct
import zlib
from collections import Counter

import pytest

from eventlog.stores.sqlite import Store
from projections.ledger import Ledger
from projections.reports.charts import palette
from projections.reports.html import write_campaign, write_html

from browser import CHROMIUM, chromium
from helpers import street_fight
from fights import LONG_NAME, play_rounds

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (.ci/run installs it)")
WIDTHS = (1280, 390)

MEASURE = """() => {
  const out = {small: [], overflow: [], series: {}, charts: 0};
  const vw = document.documentElement.clientWidth;
  for (const svg of document.querySelectorAll('svg.chart')) {
    out.charts += 1;
    const scale = svg.getScreenCTM().a;
    for (const t of svg.querySelectorAll('text')) {
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (t.textContent.trim() && !(px >= 10)) out.small.push([svg.id, t.textContent, px]);
    }
    const colours = {};
    for (const g of svg.querySelectorAll('g.mark')) {
      const path = [...g.querySelectorAll('path, use')].find(e => !e.closest('defs'));
      const fill = path ? getComputedStyle(path).fill : 'none';
      if (fill === 'none' || fill === 'rgba(0, 0, 0, 0)') continue;
      const s = g.id.match(/-s(\\d+)-c\\d+$/)[1];
      (colours[s] = colours[s] || []).includes(fill) || colours[s].push(fill);
    }
    out.series[svg.id] = colours;
  }
  for (const el of document.body.querySelectorAll('*')) {
    if (el.parentElement && el.parentElement.closest('.scroll, .tables')) continue;
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > vw + 0.5 || r.left < -0.5))
      out.overflow.push(`${el.tagName}#${el.id}.${el.className} ${r.left}-${r.right}`);
  }
  out.pageWidth = document.documentElement.scrollWidth;
  out.viewport = vw;
  return out;
}"""


# No table cell (header or value) broken inside a word; no chart label overlapping another
# or cut by its chart's edge; no chart cropped in its box without the line
# above it (.more) saying to scroll.
LAYOUT = """() => {
  const out = {broken: [], overlap: [], clipped: [], cropped: []};
  const range = document.createRange();
  for (const cell of document.querySelectorAll('th, td')) {
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) out.broken.push(m[0]);
      }
    }
  }
  for (const svg of document.querySelectorAll('svg.chart')) {
    const box = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim())
      .map(t => [t.textContent.trim(), t.getBoundingClientRect()]);
    for (const [s, r] of texts)
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
        out.clipped.push([svg.id, s]);
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
      const [a, ra] = texts[i], [b, rb] = texts[j];
      const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (w > 0.5 && h > 0.5) out.overlap.push([svg.id, a, b, w, h]);
    }
  }
  for (const box of document.querySelectorAll('.scroll, #stats .tables')) {
    if (box.scrollWidth <= box.clientWidth + 1) continue;
    const fig = box.closest('figure, section');
    const cue = fig && fig.querySelector('.more');
    const shown = cue && cue.getBoundingClientRect().height > 0 && getComputedStyle(cue).visibility !== 'hidden';
    if (!shown) out.cropped.push(fig ? fig.id : box.className);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict:
    """The three reports, written once for every test here."""
    folder = tmp_path_factory.mktemp("reports")
    out = {}
    store = Store(street_fight(folder / "demo")["COMBAT_DB"])
    out["demo"] = _write(Ledger(store), "demo-1", folder / "demo.html")
    store.close()
    store = Store(folder / "tracks.db")
    out["tracks"] = _write(hurt(Ledger(store)), "yard", folder / "tracks.html")
    store.close()
    store = Store(folder / "long.db")
    play_rounds(store, "twenty", 20)
    play_rounds(store, "two-hundred", 200, seed=11)
    out["twenty"] = _write(Ledger(store), "twenty", folder / "twenty.html")
    out["two-hundred"] = _write(Ledger(store), "two-hundred", folder / "two-hundred.html")
    with (folder / "campaign.html").open("w", encoding="utf-8") as f:
        write_campaign(Ledger(store), ["twenty", "two-hundred"], f)
    out["campaign"] = folder / "campaign.html"
    store.close()
    out["sessions"] = five_evenings(folder)
    return out


def five_evenings(folder):
    """The campaign page of five sessions of three fights each, played from
    the party, a long name among its characters."""
    from helpers import cli_env, in_process
    from projections.party.evenings import chosen_fights
    from test_evenings import evening
    combat = in_process(cli_env(folder / "party.db"))
    combat("party", "add", LONG_NAME, "--id", "rook", "--track", "hp=40/40")
    combat("party", "add", "Vex", "--track", "hp=30/30")
    for n in range(1, 6):
        evening(combat, [f"night-{n}-{where}" for where in ("alley", "docks", "tower")],
                f"Night {n}")
        combat("party", "rest", "--full")
    store = Store(folder / "party.db")
    fights = chosen_fights(store, None)
    with (folder / "sessions.html").open("w", encoding="utf-8") as f:
        write_campaign(Ledger(store), [x for _, x in fights], f,
                       sessions={x: sid for sid, x in fights})
    store.close()
    return folder / "sessions.html"


def hurt(ledger):
    """Six rounds of four combatants trading hp, with conditions."""
    from projections.domain import commands as c
    ledger.execute(None, c.New(id="yard"))
    people = ["juno", "rook", "ganger", "boss"]
    for i, cid in enumerate(people):
        ledger.execute("yard", c.Add(name=cid.title(), pc=i < 2))
        ledger.execute("yard", c.Track(id=cid, name="hp", value=60, max=60, public=i == 3))
        ledger.execute("yard", c.Roll(slots=[cid], die=10 - i))
    for n in range(1, 7):
        ledger.execute("yard", c.Round())
        for i, cid in enumerate(people):
            target = people[(i + 2) % 4]
            ledger.execute("yard", c.Act(id=cid, cost="major", label="hits"))
            ledger.execute("yard", c.Track(id=target, name="hp", delta=-((n + i) % 5 + 1)))
            if n % 2:
                ledger.execute("yard", c.Effect(id=target, name="prone", until_round_end=True,
                                                effect=f"prone-{n}-{i}"))
            ledger.execute("yard", c.EndTurn(id=cid))
    return ledger


def _write(ledger, eid, path):
    with path.open("w", encoding="utf-8") as f:
        write_html(ledger, eid, f)
    return path


def evaluated(browser, path, width: int, script: str) -> dict:
    """What `script` finds in the report at `path`, `width` pixels wide."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    try:
        page.goto(path.as_uri())
        return page.evaluate(script)
    finally:
        page.close()


def measured(browser, path, width: int) -> dict:
    return evaluated(browser, path, width, MEASURE)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("fight", ["demo", "twenty", "two-hundred"])
def test_report_reads_at_any_size_and_width(browser, reports, fight, width):
    m = measured(browser, reports[fight], width)
    assert m["charts"] == 6
    assert m["small"] == [], m["small"][:5]          # no chart text under 10 px
    assert m["overflow"] == [], m["overflow"][:5]    # wide things scroll in their box
    assert m["pageWidth"] <= m["viewport"]
    for chart, series in m["series"].items():
        assert all(len(fills) == 1 for fills in series.values()), (chart, series)
        fills = [f[0] for f in series.values()]
        assert len(set(fills)) == len(fills), (chart, series)  # no colour twice in a chart


@pytest.mark.parametrize("width", WIDTHS)
def test_report_with_tracks_reads_at_any_size_and_width(browser, reports, width):
    """The hp charts pass the same checks as the others."""
    m = measured(browser, reports["tracks"], width)
    assert m["charts"] == 8
    assert m["small"] == [], m["small"][:5]
    assert m["overflow"] == [], m["overflow"][:5]
    assert m["pageWidth"] <= m["viewport"]
    for chart, series in m["series"].items():
        assert all(len(fills) == 1 for fills in series.values()), (chart, series)
        fills = [f[0] for f in series.values()]
        assert len(set(fills)) == len(fills), (chart, series)


@pytest.mark.parametrize("width", WIDTHS)
def test_campaign_report_reads_at_any_width(browser, reports, width):
    m = measured(browser, reports["campaign"], width)
    assert m["charts"] == 4 and m["small"] == [] and m["overflow"] == []
    assert m["pageWidth"] <= m["viewport"]
    for chart, series in m["series"].items():
        fills = [f[0] for f in series.values()]
        assert len(set(fills)) == len(fills), (chart, series)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_campaign_of_five_evenings_reads_at_any_width(browser, reports, width):
    """Fifteen fights: the damage each character took, fight by fight, is a
    chart of its own; nothing is too small, spills over or shares a colour."""
    m = measured(browser, reports["sessions"], width)
    assert m["charts"] == 6 and m["small"] == [] and m["overflow"] == []
    assert m["pageWidth"] <= m["viewport"]
    assert len(m["series"]["chart-campaign-harm-svg"]) == 2  # a series per character
    for chart, series in m["series"].items():
        fills = [f[0] for f in series.values()]
        assert len(set(fills)) == len(fills), (chart, series)


def test_report_of_twenty_rounds_has_a_cell_per_combatant_and_round(reports):
    html = reports["twenty"].read_text(encoding="utf-8")
    assert html.count('<path class="cell"') == 2 * 20 * 10  # two heatmaps
    assert LONG_NAME in html  # whole in the tables; cut in the charts
    assert LONG_NAME[:23] + "…" in html


def test_report_shows_the_order_only_where_it_changed(reports):
    html = reports["two-hundred"].read_text(encoding="utf-8")
    assert html.count('class="round-order"') < 40  # not once per round
    assert html.count("<details class=\"chapter\"") == 201  # setup + 200 rounds
    assert "<details class=\"chapter\" id=\"round-1\">" in html  # folded: too many to unfold


def test_report_in_dark_mode_and_print(browser, reports):
    page = browser.new_page(viewport={"width": 390, "height": 900}, color_scheme="dark")
    try:
        page.goto(reports["demo"].as_uri())
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(18, 22, 29)"
        page.emulate_media(media="print")
        assert page.evaluate("getComputedStyle(document.querySelector('nav')).display") == "none"
        pdf_page = browser.new_page()
        pdf_page.goto(reports["demo"].as_uri())
        pdf = pdf_page.pdf(format="A4")
        pdf_page.close()
        assert pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") + pdf.count(b"/Type/Page") <= 6
    finally:
        page.close()


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


def test_report_charts_are_painted(browser, reports):
    """The marks are drawn, in their series' colours: a screenshot of the
    actions chart holds many pixels of each category's colour."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(reports["twenty"].as_uri())
        shot = page.locator("#chart-actions .scroll").screenshot()
    finally:
        page.close()
    width, height, colours = png_pixels(shot)
    assert width > 300 and height > 200
    for colour in palette(3):  # free, minor, major: each drawn
        assert colours[colour.lstrip("#")] > 300, (colour, colours.most_common(8))


def laid_out(browser, path, width: int) -> dict:
    return evaluated(browser, path, width, LAYOUT)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("fight", ["demo", "twenty", "two-hundred", "tracks", "campaign",
                                   "sessions"])
def test_no_header_broken_no_label_overlapping_or_clipped_no_silent_crop(
        browser, reports, fight, width):
    m = laid_out(browser, reports[fight], width)
    assert m["broken"] == [], m["broken"][:8]      # a header breaks between words
    assert m["overlap"] == [], m["overlap"][:5]    # no label over another
    assert m["clipped"] == [], m["clipped"][:5]    # no label cut by its chart's edge
    assert m["cropped"] == [], m["cropped"]        # a cropped chart says to scroll


def test_a_chart_that_fits_shows_no_scroll_line(browser, reports):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(reports["twenty"].as_uri())
        shown = page.evaluate("""() => [...document.querySelectorAll('.more')]
            .filter(e => e.getBoundingClientRect().height > 0).length""")
    finally:
        page.close()
    assert shown == 0
