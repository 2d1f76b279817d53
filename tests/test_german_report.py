"""The review in German: the html report (the GM's and the players'), the
campaign page, the terminal's `stats` and `diff`: German words, numbers in
the German form (1.234,5), `<html lang="de">`; English as it always was."""
from __future__ import annotations

import io
import re

import pytest

from eventlog.language import speaking
from eventlog.stores.sqlite import Store
from projections.ledger import Ledger
from projections.reports.html import write_campaign, write_html

from helpers import in_process, real, street_fight


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The street fight (demo-1) and a fork of it (demo-2), in one store."""
    env = street_fight(tmp_path_factory.mktemp("german-report"))
    store = Store(env["COMBAT_DB"])
    yield env, Ledger(store)
    store.close()


def page(ledger, language: str, audience: str = "gm") -> str:
    out = io.StringIO()
    with speaking(language):
        write_html(ledger, "demo-1", out, audience=audience)
    return out.getvalue()


def campaign(ledger, language: str, audience: str = "gm") -> str:
    out = io.StringIO()
    with speaking(language):
        write_campaign(ledger, ["demo-1"], out, audience=audience)
    return out.getvalue()


def test_the_report_in_german_says_its_headings_in_german(demo):
    html = page(demo[1], "de")
    assert '<html lang="de">' in html
    for heading in ("<h2>Überblick</h2>", "<h2>Diagramme</h2>", "<h2>Zeit</h2>",
                    "<h2>Initiativereihenfolge</h2>", "<h2>Runde für Runde</h2>",
                    "<h2>Statistik</h2>", "<h3>Runde 1</h3>"):
        assert heading in html
    assert "Ausgegebene AP pro Kämpfer und Runde" in html      # a chart's title
    assert "<th>Durchgänge</th>" in html and "<th>Durchg.</th>" in html  # columns
    assert '<div class="label">Runden</div>' in html           # a card: 2 rounds
    assert "combat-ledger-Bericht über <code>demo-1</code> bei seq" in html  # the footer
    for english in ("<h2>Summary</h2>", "Round by round", "AP spent per combatant",
                    "slowest turns", "from first to last event", "verify the log with"):
        assert english not in html


def test_the_report_in_german_writes_dates_in_the_german_form(demo):
    html = page(demo[1], "de")
    assert re.search(r"· beendet · \d\d\.\d\d\.\d{4} \d\d:\d\d UTC", html)


def test_the_report_in_english_is_as_it_was(demo):
    html = page(demo[1], "en")
    assert '<html lang="en">' in html
    assert "<h2>Summary</h2>" in html and "<h2>Round by round</h2>" in html
    assert re.search(r"· ended · \d{4}-\d\d-\d\d \d\d:\d\d UTC", html)
    assert "Überblick" not in html and "Runde" not in html


def test_the_players_recap_in_german(demo):
    html = page(demo[1], "de", "players")
    assert '<html lang="de">' in html
    assert "<h2>Höhepunkte</h2>" in html
    assert re.search(r"\d+\u00a0% der Züge", html)              # 40 % der Züge
    assert "combat-ledger-Rückblick der Spieler auf" in html
    assert "of the turns" not in html


def test_the_campaign_page_in_german_writes_a_ratio_with_a_decimal_comma(demo):
    html = campaign(demo[1], "de")
    assert '<html lang="de">' in html
    assert "<h1>Kampagne: 1 Begegnung</h1>" in html
    assert "<h2>Kämpfer über alle Kämpfe</h2>" in html
    assert "<td>SC</td>" in html and "<td>NSC</td>" in html     # the sides
    # AP per turn: 4 AP in 3 turns is 1,333 in German (1.333 in English)
    assert re.search(r"<td>\d,\d{1,3}</td>", html)
    english = campaign(demo[1], "en")
    assert "<h1>Campaign: 1 encounter</h1>" in english
    assert re.search(r"<td>\d\.\d{1,3}</td>", english)
    assert not re.search(r"<td>\d,\d{1,3}</td>", english)


def test_a_chart_says_its_numbers_in_the_readers_form():
    from projections.reports import charts as ch
    with speaking("de"):
        chart = ch.rows("c", "t", "", ["Rook"], [ch.Series("Dauer", [2.5])], "Minuten")
    assert "Rook · Dauer: 2,5 Minuten" in chart.svg
    chart = ch.rows("c", "t", "", ["Rook"], [ch.Series("duration", [2.5])], "minutes")
    assert "Rook · duration: 2.5 minutes" in chart.svg


def test_a_thousand_reads_1_000_in_german():
    from projections.reports.html import _environment
    template = _environment().from_string("{{ n | whole }} {{ r | figure }}")
    with speaking("de"):
        assert template.render(n=12345, r=1.25) == "12.345 1,25"
    assert template.render(n=12345, r=1.25) == "12345 1.25"  # (as English pages always wrote it)


def test_combat_lang_de_report_writes_a_german_page(tmp_path):
    env = street_fight(tmp_path)
    out = tmp_path / "bericht.html"
    done = real(env["COMBAT_DB"], "--lang", "de", "report", "-o", str(out))
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    assert '<html lang="de">' in html and "<h2>Überblick</h2>" in html
    english = tmp_path / "report.html"
    assert real(env["COMBAT_DB"], "report", "-o", str(english),
                env={"LANG": "C.UTF-8"}).returncode == 0
    assert '<html lang="en">' in english.read_text(encoding="utf-8")


# -- laid out in Chromium: German words are longer --------------------------

@pytest.fixture(scope="module")
def german(tmp_path_factory) -> dict:
    """The reports the layout tests read, written in German."""
    from fights import play_rounds
    from test_report_browser import _write, five_evenings, hurt
    folder = tmp_path_factory.mktemp("german-pages")
    out = {}
    with speaking("de"):
        store = Store(street_fight(folder / "demo")["COMBAT_DB"])
        out["demo"] = _write(Ledger(store), "demo-1", folder / "demo.html")
        with (folder / "players.html").open("w", encoding="utf-8") as f:
            write_html(Ledger(store), "demo-1", f, audience="players")
        out["players"] = folder / "players.html"
        store.close()
        store = Store(folder / "tracks.db")
        out["tracks"] = _write(hurt(Ledger(store)), "yard", folder / "tracks.html")
        play_rounds(store, "twenty", 20)
        out["twenty"] = _write(Ledger(store), "twenty", folder / "twenty.html")
        with (folder / "campaign.html").open("w", encoding="utf-8") as f:
            write_campaign(Ledger(store), ["yard", "twenty"], f)
        out["campaign"] = folder / "campaign.html"
        store.close()
        out["sessions"] = five_evenings(folder)
    return out


@pytest.fixture(scope="module")
def browser():
    from browser import CHROMIUM, chromium
    if CHROMIUM is None:
        pytest.skip("no chromium installed (.ci/run installs it)")
    with chromium() as b:
        yield b


@pytest.mark.parametrize("width", (1280, 390))
@pytest.mark.parametrize("fight", ["demo", "players", "tracks", "twenty", "campaign", "sessions"])
def test_the_german_pages_break_no_header_clip_no_label_crop_nothing_silently(
        browser, german, fight, width):
    from test_report_browser import evaluated, laid_out, measured
    assert evaluated(browser, german[fight], width,
                     "() => document.documentElement.lang") == "de"
    m = laid_out(browser, german[fight], width)
    assert m["broken"] == [], m["broken"][:8]      # a header breaks between words
    assert m["overlap"] == [], m["overlap"][:5]    # no label over another
    assert m["clipped"] == [], m["clipped"][:5]    # no label cut by its chart's edge
    assert m["cropped"] == [], m["cropped"]        # a cropped chart says to scroll
    m = measured(browser, german[fight], width)
    assert m["small"] == [], m["small"][:5]
    assert m["pageWidth"] <= m["viewport"], m["overflow"][:5]


@pytest.mark.parametrize("fight", ["demo", "campaign", "sessions"])
def test_the_german_tables_fit_a_desktop_without_scrolling(browser, german, fight):
    wide = wider_than_their_box(browser, german[fight], 1280, ".tables")
    assert wide == [], wide


@pytest.mark.parametrize("fight", ["demo", "players"])
def test_the_german_time_tables_fit_a_phone(browser, german, fight):
    """(The tables of Time have no line that says to scroll: they fit.)"""
    wide = wider_than_their_box(browser, german[fight], 390, "#time .tables")
    assert wide == [], wide


def wider_than_their_box(browser, path, width: int, boxes: str) -> list:
    from test_report_browser import evaluated
    script = """() => [...document.querySelectorAll(BOXES)]
        .filter(t => t.scrollWidth > t.clientWidth + 1)
        .map(t => [t.closest('section').id, t.scrollWidth, t.clientWidth])"""
    return evaluated(browser, path, width, script.replace("BOXES", repr(boxes)))


# -- the terminal: stats, report, diff --------------------------------------

def said(env: dict, language: str, *args: str, columns: int = 100) -> str:
    combat = in_process({**env, "COLUMNS": str(columns)})
    with speaking(language):
        return combat(*args).stdout


def test_stats_in_german_names_its_columns_and_totals_in_german(tmp_path):
    env = street_fight(tmp_path)
    out = said(env, "de", "stats")
    assert "2 Runden, 5 Durchgänge, 15 Züge, 21 AP ausgegeben" in out
    assert "Kämpfer" in out and "Durchgänge" in out and "ergriffen" in out
    assert "Summen: AP in Zügen 20, für Unterbrechungen 1" in out
    assert "langsamste Züge:" in out and "(Runde 2, Durchgang 1)" in out
    for english in ("rounds", "turns", "totals:", "slowest turns", "seizes"):
        assert english not in out


def test_stats_in_german_on_a_narrow_terminal_words_each_combatant_in_german(tmp_path):
    env = street_fight(tmp_path)
    out = said(env, "de", "stats", columns=50)
    assert "Ganger 2 (gegangen): 2 Züge" in out
    assert "Drone: 1 Zug, AP 2 in Zügen" in out
    assert "ergriffen von niemandem" in out


def test_stats_in_english_is_as_it_was(tmp_path):
    env = street_fight(tmp_path)
    out = said(env, "en", "stats")
    assert "2 rounds, 5 passes, 15 turns, 21 AP spent" in out
    assert "totals: AP in turns 20, on interrupts 1 (1 interrupts)" in out
    narrow = said(env, "en", "stats", columns=50)
    assert "Drone: 1 turn, AP 2 in turns" in narrow


def test_stats_of_a_campaign_in_german_writes_a_ratio_with_a_decimal_comma(tmp_path):
    env = street_fight(tmp_path)
    out = said(env, "de", "stats", "--all", columns=120)
    assert "1 Begegnung — 2 Runden, 15 Züge, 21 AP ausgegeben" in out
    assert re.search(r"\bSC\b.*\b\d,\d+\b", out)          # AP per turn: 1,333
    assert "1 encounter —" in said(env, "en", "stats", "--all", columns=120)


def test_report_says_where_it_wrote_in_german(tmp_path):
    env = street_fight(tmp_path)
    out = said(env, "de", "report", "--all", "-o", str(tmp_path / "k.html"))
    assert "Bericht über 1 Begegnung geschrieben nach" in out
    assert '<html lang="de">' in (tmp_path / "k.html").read_text(encoding="utf-8")


def test_diff_in_german_and_its_json_as_data(tmp_path):
    import json
    env = street_fight(tmp_path)
    in_process(env)("fork", "30", "what-if")
    out = said(env, "de", "diff", "demo-1", "what-if")
    assert "what-if ist eine Abzweigung von demo-1 bei seq 30" in out
    assert "Ereignisse danach" in out and "steht noch" in out
    data = json.loads(said(env, "de", "diff", "demo-1", "what-if", "--json"))
    assert data["relation"] == "what-if is a fork of demo-1 at seq 30"   # data: as written
    assert "what-if is a fork of demo-1 at seq 30: both hold seq 1 to" in said(
        env, "en", "diff", "demo-1", "what-if")


def test_the_flow_of_the_round_is_said_in_german(tmp_path):
    env = street_fight(tmp_path)
    combat = in_process(env)
    combat("new", "hof")
    combat("add", "Rook", "--pc")
    combat("add", "Boss")
    combat("roll", "rook", "--die", "9")
    combat("roll", "boss", "--die", "3")
    combat("round")
    with speaking("de"):
        out = combat("act", "rook", "major").stdout + combat("act", "rook", "minor").stdout
    assert "der Zug von rook endete von selbst: keine AP mehr (R21)" in out
    assert "jetzt dran: boss" in out
    english = combat("act", "boss", "major").stdout + combat("act", "boss", "minor").stdout
    assert "boss's turn ended by itself: no AP left (R21)" in english


def test_the_players_campaign_page_in_german(demo):
    html = campaign(demo[1], "de", "players")
    assert "<h1>Die Kampagne der Spieler: 1 Begegnung</h1>" in html
    assert "<h1>The players&#39; campaign: 1 encounter</h1>" in campaign(demo[1], "en", "players")
