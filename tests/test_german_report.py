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

from helpers import real, street_fight


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
    assert "<th>Durchgang</th>" in html                         # a column
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
    assert template.render(n=12345, r=1.25) == "12,345 1.25"


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
