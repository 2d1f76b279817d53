"""The table server and its pages in the reader's language: each request is
said in the page's own switch (X-Combat-Language, `?lang=`), else the
token's language (`token lang`), else the browser's Accept-Language; the
pages read the same catalogue as JSON (GET /api/messages); a German player
and an English GM at the same table each read their own; the stream's last
words too. The browser tests drive Debian's Chromium (tests/browser.py)."""
from __future__ import annotations

import json
import threading

import httpx
import pytest
from httpx_sse import connect_sse

from eventlog.stores import open_store
from helpers import fresh_db
from serverkit import E, client, messages, served, table, token

STATUS = f"/api/encounters/{E}/status"
LOG = f"/api/encounters/{E}/log"
STREAM = f"/api/encounters/{E}/stream"
BAD_AFTER_EN = "?after= takes a seq (a whole number of 0 or more), not 'x'"
BAD_AFTER_DE = "?after= nimmt eine Seq (eine ganze Zahl ab 0), nicht 'x'"


@pytest.fixture(params=["sqlite", "postgres"])
def server(request, tmp_path):
    db = fresh_db(request.param, tmp_path)
    table(db)
    secrets = {"gm": token(db, "gm", "gm"), "ana": token(db, "ana", "player", "ash"),
               "tv": token(db, "tv", "view")}
    with served(db) as running:
        running.db, running.secrets = db, secrets
        yield running


def speaks(db, name: str, language: str | None) -> None:
    """`combat token lang NAME LANG` (None: `auto`)."""
    store = open_store(db)
    try:
        assert store.set_token_language(name, language) is True
    finally:
        store.close()


def refusal(http: httpx.Client, **headers) -> str:
    answer = http.get(LOG, params={"after": "x"}, headers=headers)
    assert answer.status_code == 422
    return answer.json()["error"]


def test_a_refusal_is_said_in_the_browsers_language_and_english_is_unchanged(server):
    with client(server, server.secrets["ana"]) as http:
        assert refusal(http) == BAD_AFTER_EN
        assert refusal(http, **{"Accept-Language": "de-DE,de;q=0.9,en;q=0.8"}) == BAD_AFTER_DE
        assert refusal(http, **{"Accept-Language": "fr-FR, en;q=0.5"}) == BAD_AFTER_EN


def test_the_order_of_choice_is_the_switch_then_the_token_then_the_browser(server):
    speaks(server.db, "ana", "de")
    with client(server, server.secrets["ana"]) as http:
        assert refusal(http, **{"Accept-Language": "en"}) == BAD_AFTER_DE  # the token's over the browser's
        assert refusal(http, **{"X-Combat-Language": "en", "Accept-Language": "de"}) == BAD_AFTER_EN
        assert http.get(LOG, params={"after": "x", "lang": "en"}).json()["error"] == BAD_AFTER_EN
        assert refusal(http, **{"X-Combat-Language": "klingon"}) == BAD_AFTER_DE  # (none we speak: no choice)
    with client(server, server.secrets["gm"]) as http:  # another token at the table: its own
        assert refusal(http) == BAD_AFTER_EN
    with client(server, None) as http:  # (one kept-alive connection: nothing carried over)
        for secret, said in (("ana", BAD_AFTER_DE), ("gm", BAD_AFTER_EN), ("ana", BAD_AFTER_DE)):
            assert refusal(http, Authorization=f"Bearer {server.secrets[secret]}") == said
    speaks(server.db, "ana", None)  # `token lang ana auto`: the browser's again
    with client(server, server.secrets["ana"]) as http:
        assert refusal(http) == BAD_AFTER_EN


def test_a_refusal_said_on_the_declaring_worker_thread_is_in_the_tokens_language(server):
    """The token is read on the worker thread that declares: its language
    is heard there before the body is read and refused."""
    speaks(server.db, "ana", "de")
    with client(server, server.secrets["ana"]) as http:
        german = http.post(f"/api/encounters/{E}/commands", content=b"[[[")
        english = http.post(f"/api/encounters/{E}/commands", content=b"[[[",
                            headers={"X-Combat-Language": "en"})
        line = http.post(f"/api/encounters/{E}/line", content=b"{")
    assert german.status_code == english.status_code == 422
    assert german.json()["error"].startswith("kein Befehl: ")
    assert english.json()["error"].startswith("not a command: ")
    assert line.status_code == 403  # (a player types no lines: the core's refusal)


def test_starlettes_own_refusals_are_said_in_the_readers_language(server):
    with client(server, None) as http:
        german = http.get("/no/such/place", headers={"Accept-Language": "de"})
        assert german.status_code == 404
        assert german.json() == {"error": "keine solche Seite oder API-Adresse (siehe die Seite "
                                          "zum Tisch-Server in der Dokumentation)"}
        assert http.delete("/api/me").json() == {"error": "DELETE is not allowed here"}
        assert http.delete("/api/me", headers={"Accept-Language": "de"}).json() == {
            "error": "DELETE ist hier nicht erlaubt"}


def test_the_pages_catalogue_is_served_per_language_with_its_plural_forms(server):
    with client(server, None) as http:
        german = http.get("/api/messages", headers={"Accept-Language": "de"})
        english = http.get("/api/messages")
    assert german.status_code == english.status_code == 200
    de, en = german.json(), english.json()
    assert (de["language"], en["language"]) == ("de", "en")
    assert de["plural"] == en["plural"] == ["one", "other"]
    assert de["languages"] == en["languages"] == {"en": "English", "de": "Deutsch"}
    assert de["messages"]["Your turn: {names}"] == "Dein Zug: {names}"
    assert de["messages"]["Waiting: {names} is up"] == ["Warten: {names} ist dran",
                                                         "Warten: {names} sind dran"]
    assert en["messages"]["Your turn: {names}"] == "Your turn: {names}"
    assert set(de["messages"]) == set(en["messages"])
    # only the pages' messages: none the server alone says
    assert "not a command: {why} (see /api/schema)" not in de["messages"]
    assert german.headers["etag"] != english.headers["etag"]
    assert "Accept-Language" in german.headers["vary"]


def test_the_catalogue_follows_the_token_and_is_not_sent_again_unchanged(server):
    speaks(server.db, "ana", "de")
    with client(server, server.secrets["ana"]) as http:
        first = http.get("/api/messages")
        assert first.json()["language"] == "de"
        again = http.get("/api/messages", headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        assert http.get("/api/messages", headers={"X-Combat-Language": "en"}).json()["language"] == "en"
    with client(server, "not-a-token") as http:  # (no token's language: the browser's, no 401)
        assert http.get("/api/messages", headers={"Accept-Language": "de"}).json()["language"] == "de"


def test_the_streams_last_words_are_in_the_listeners_language(server):
    """The hub makes an archive's closing message once; each listener reads
    it in its own language (`?lang=` is the stream's switch)."""
    said: dict[str, list] = {"de": [], "en": []}
    with client(server, server.secrets["ana"]) as http:
        def listen(lang: str) -> None:
            with connect_sse(http, "GET", STREAM, params={"lang": lang},
                             timeout=httpx.Timeout(15)) as source:
                for message in messages(source):
                    said[lang].append((message.event, message.data))
        listeners = [threading.Thread(target=listen, args=(lang,)) for lang in said]
        for listener in listeners:
            listener.start()
        import time
        deadline = time.monotonic() + 15
        while not all(said.values()):
            assert time.monotonic() < deadline, "a stream never opened"
            time.sleep(0.01)
        with client(server, server.secrets["gm"]) as gm:
            assert gm.post(f"/api/encounters/{E}/archive", json={"archived": True}).status_code == 200
        for listener in listeners:
            listener.join(15)
            assert not listener.is_alive()
    closed = {lang: json.loads(got[-1][1]) for lang, got in said.items()}
    assert said["de"][-1][0] == said["en"][-1][0] == "closed"
    assert closed["en"]["error"] == f"{E} was archived: `combat unarchive {E}` brings it back"
    assert closed["de"]["error"] == f"{E} wurde archiviert: `combat unarchive {E}` holt sie zurück"
    assert closed["de"]["reason"] == closed["en"]["reason"] == "archived"  # (data: not worded)


def test_a_revoked_tokens_stream_ends_in_its_language(server):
    speaks(server.db, "ana", "de")
    events: list = []
    with client(server, server.secrets["ana"]) as http:
        def listen() -> None:
            with connect_sse(http, "GET", STREAM, timeout=httpx.Timeout(15)) as source:
                for message in messages(source):
                    events.append((message.event, message.data))
        listener = threading.Thread(target=listen)
        listener.start()
        import time
        deadline = time.monotonic() + 15
        while not events:
            assert time.monotonic() < deadline, "the stream never opened"
            time.sleep(0.01)
        store = open_store(server.db)
        store.revoke_token("ana")
        store.close()
        listener.join(15)
    assert events[-1][0] == "refused"
    assert json.loads(events[-1][1]) == {
        "error": "unbekanntes oder gesperrtes Token: die SL um einen neuen Link bitten"}


def test_the_gm_pages_log_lines_say_what_they_are_as_data(server):
    with client(server, server.secrets["gm"]) as http:
        assert http.post(f"/api/encounters/{E}/commands", json={"command": "roll"}).status_code == 200
        latest = http.get(f"/api/encounters/{E}/latest").json()["undo"]
        assert http.post(f"/api/encounters/{E}/commands",
                         json={"command": "undo", "expect": latest["seq"]}).status_code == 200
        lines = http.get(f"/api/encounters/{E}/lines", params={"last": 500},
                         headers={"Accept-Language": "de"}).json()
    assert lines[0].get("created") is True
    assert lines[-1]["correction"] == "undo"
    assert not any("correction" in line or "created" in line for line in lines[1:-1])


def test_the_rules_page_speaks_the_readers_language(server):
    with client(server, None) as http:
        german = http.get("/rules/R99", headers={"Accept-Language": "de"})
        english = http.get("/rules/R99")
    assert german.status_code == english.status_code == 404
    assert '<html lang="de">' in german.text and "Keine solche Regel" in german.text
    assert '<html lang="en">' in english.text and "No such rule" in english.text
    assert german.headers["vary"] == "Accept-Language"
    with client(server, None) as http:  # (a refusal's rule link carries the page's switch)
        assert "<h1>R10 — Das Fenster zum Ergreifen</h1>" in http.get("/rules/R10?lang=de").text
        assert "<h1>R10 — The seize window</h1>" in http.get(
            "/rules/R10", headers={"Accept-Language": "de;q=0.5, en"}).text


# -- the pages in a real browser ---------------------------------------------------

def browser_table(tmp_path):
    """A served SQLite table in round 1 (Ash up), with the GM's and Ana's links."""
    from projections.joining import put_on_table
    from serverkit import post, rolled
    db = tmp_path / "table.db"
    table(db)
    store = open_store(db)
    try:
        put_on_table(store, E)
    finally:
        store.close()
    secrets = {"gm": token(db, "gm", "gm"), "ana": token(db, "ana", "player", "ash")}
    return db, secrets, rolled, post


def opened(browser, url: str, locale: str, width: int = 1280, height: int = 800):
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale,
                                  bypass_csp=True)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#order li")
    return page


@pytest.mark.sqlite
def test_a_german_player_and_an_english_gm_read_the_same_table_each_in_their_own(tmp_path):
    from playwright.sync_api import expect

    from accessibility import AXE, violations
    from browser import CHROMIUM, chromium
    if CHROMIUM is None:
        pytest.skip("no chromium installed (.ci/run installs it)")
    db, secrets, rolled, post = browser_table(tmp_path)
    with served(db) as running, chromium() as browser:
        with client(running, secrets["gm"]) as gm_http:
            rolled(gm_http)  # (round 1: Ash is up)
        player = opened(browser, f"{running.url}/?token={secrets['ana']}", "de-DE", 390, 844)
        gm = opened(browser, f"{running.url}/?token={secrets['gm']}", "en-US")
        # the player's page: German from its first drawing (no English flash: it is hidden until then)
        expect(player.locator("html")).to_have_attribute("lang", "de")
        expect(player.locator("#banner")).to_have_text("Dein Zug: Ash")
        expect(player.locator("#state")).to_have_text("Runde 1 · Durchgang 1 · dran: Ash")
        card = player.locator('[data-card="ash"]')
        expect(card.get_by_role("button", name="Groß · 2 AP", exact=True)).to_be_enabled()
        expect(player.get_by_label("Sprache")).to_have_value("de")
        expect(player.locator("#live")).to_have_text("live")
        # the GM's page at the same table: English
        expect(gm.locator("html")).to_have_attribute("lang", "en")
        expect(gm.locator("#gm-buttons").get_by_role("button", name="Roll all")).to_be_visible()
        expect(gm.locator("#history-head")).to_have_text("Last declarations, newest first")
        expect(gm.get_by_label("Language")).to_have_value("en")
        # a declaration from the German phone reaches both, each in its words
        card.get_by_role("button", name="Groß · 2 AP", exact=True).click()
        expect(player.locator("#message")).to_have_text("✓ Ash: große Aktion")
        expect(gm.locator('#order .member[data-id="ash"] .pips')).to_have_attribute(
            "aria-label", "1 of 3 AP")
        expect(player.locator('[data-card="ash"] h2 .pips')).to_have_attribute(
            "aria-label", "1 von 3 AP")
        if AXE.exists():
            assert not violations(player)
            assert not violations(gm)
        text = player.locator("body").inner_text()
        for english in ("Your turn", "Major", "round", "Interrupt", "what it does"):
            assert english not in text


@pytest.mark.sqlite
def test_the_language_switch_speaks_at_once_and_is_remembered(tmp_path):
    from playwright.sync_api import expect

    from browser import CHROMIUM, chromium
    if CHROMIUM is None:
        pytest.skip("no chromium installed (.ci/run installs it)")
    db, secrets, rolled, post = browser_table(tmp_path)
    with served(db) as running, chromium() as browser:
        gm = opened(browser, f"{running.url}/?token={secrets['gm']}", "en-US")
        expect(gm.locator("#gm-buttons").get_by_role("button", name="Roll all")).to_be_visible()
        gm.get_by_label("Language").select_option("de")
        expect(gm.locator("html")).to_have_attribute("lang", "de")
        expect(gm.locator("#gm-buttons").get_by_role("button", name="Alle würfeln")).to_be_visible()
        expect(gm.locator("#state")).to_have_text("Vorbereitung")
        expect(gm.locator("#history-head")).to_have_text("Letzte Ansagen, neueste zuerst")
        expect(gm.get_by_label("Sprache")).to_have_value("de")
        # what the server words follows the switch (sent with every request)
        gm.fill("#line", "roll nobody")
        gm.click("#line-form button")
        expect(gm.locator("#message")).not_to_be_empty()
        assert gm.evaluate("localStorage.getItem('combat-lang')") == "de"
        gm.reload()
        expect(gm.locator("#gm-buttons").get_by_role("button", name="Alle würfeln")).to_be_visible()
        gm.get_by_label("Sprache").select_option("en")
        expect(gm.locator("#gm-buttons").get_by_role("button", name="Roll all")).to_be_visible()
        expect(gm.locator("html")).to_have_attribute("lang", "en")
        # a name written right to left keeps its direction inside the page's sentences
        with client(running, secrets["gm"]) as http:
            assert post(http, {"command": "add", "name": "رامي", "pc": True}).status_code == 200
        name = gm.locator("#order .member .who bdi", has_text="رامي")
        expect(name).to_have_count(1)
        assert name.evaluate("n => getComputedStyle(n).direction") == "rtl"
        assert gm.locator("#state").evaluate("n => getComputedStyle(n).direction") == "ltr"


@pytest.mark.sqlite
def test_the_join_page_speaks_the_browsers_language(tmp_path):
    from playwright.sync_api import expect

    from browser import CHROMIUM, chromium
    if CHROMIUM is None:
        pytest.skip("no chromium installed (.ci/run installs it)")
    db, secrets, rolled, post = browser_table(tmp_path)
    with served(db) as running, chromium() as browser:
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
        phone = context.new_page()
        phone.goto(f"{running.url}/join")
        expect(phone.locator("#title")).to_have_text("Warehouse raid beitreten")
        expect(phone.locator("#which")).to_have_text("Wen spielst du?")
        expect(phone.get_by_role("button", name="Die SL fragen")).to_be_visible()
        expect(phone.locator("html")).to_have_attribute("lang", "de")
        expect(phone.locator('label[for="pc-ash"]')).to_have_text("Ash (vergeben)")  # (Ana's)
        phone.get_by_label("Bo").check()
        phone.get_by_label("Dein Name").fill("Lena")
        phone.get_by_role("button", name="Die SL fragen").click()
        expect(phone.locator("#waiting")).to_have_text("Warten, bis die SL Lena hereinlässt…")
