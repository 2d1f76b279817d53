"""Players at the table, in Chromium: three phones join by the
join page (no token typed), the GM approves them, a hidden NPC acts and is
revealed, a player's buttons follow the core's mine.may, the TV shows the
turn timer; axe-core finds no serious or critical violation on the player,
TV and GM pages. And the API of joining and of the table, over HTTP."""
from __future__ import annotations

import re

import pytest

from accessibility import AXE, violations
from browser import CHROMIUM, chromium
from serverkit import E, client, post, served, table, token

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (.ci/run installs it)")


def with_three_pcs(db) -> None:
    """The warehouse raid (Ash, Bo, Boss, two gangers) with a third PC, Cy, and
    a hidden Sniper; on the table."""
    table(db)
    from eventlog.stores import open_store
    from projections.domain import commands as c
    from projections.joining import put_on_table
    from projections.ledger import Ledger
    ledger = Ledger(open_store(db))
    ledger.execute(E, c.Add(name="Cy", pc=True), "gm")
    ledger.execute(E, c.Add(name="Sniper", id="sniper", hidden=True, bonus=3), "gm")
    put_on_table(ledger.store, E)
    ledger.store.close()


def phone(browser, url: str):
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True,
                                  has_touch=True, is_mobile=True)
    opened = context.new_page()
    opened.goto(url)
    return opened


def wide(browser, url: str, width: int = 1280, height: int = 800):
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    opened = context.new_page()
    opened.goto(url)
    return opened


def ask(opened, name: str, pc: str) -> None:
    from playwright.sync_api import expect
    opened.locator(f'input[value="{pc}"]').check()
    opened.fill("#name", name)
    opened.get_by_role("button", name="Ask the GM").click()
    expect(opened.locator("#waiting")).to_contain_text(f"Waiting for the GM to let {name} in")


def card_button(opened, card: str, name: str):
    return opened.locator(f'[data-card="{card}"]').get_by_role("button", name=name, exact=True)


def gm_button(opened, who: str, name: str):
    """The GM page's panel button `name` for `who` (its row clicked first)."""
    from playwright.sync_api import expect
    opened.locator(f'#order .member[data-id="{who}"]').click()
    expect(opened.locator("#panel")).to_have_attribute("aria-label", re.compile(f"controls for {who}", re.I))
    return opened.locator("#panel").get_by_role("button", name=name, exact=True)


def test_three_phones_join_by_scan_the_gm_approves_a_hidden_npc_acts_and_is_revealed(tmp_path):
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    with_three_pcs(db)
    gm_secret, tv_secret = token(db, "gm", "gm"), token(db, "tv", "view")
    with served(db) as running, chromium() as browser:
        gm = wide(browser, f"{running.url}/?token={gm_secret}")
        tv = wide(browser, f"{running.url}/?token={tv_secret}", 1280, 720)
        phones = {}
        for name, pc in (("ana", "ash"), ("ben", "bo"), ("cat", "cy")):
            phones[name] = phone(browser, f"{running.url}/join")
            expect(phones[name].locator("#title")).to_have_text("Join Warehouse raid")
            expect(phones[name].locator("#seats")).not_to_contain_text("Sniper")
            ask(phones[name], name, pc)
        seats = client(running, None).get("/api/join").json()["seats"]
        assert not any(s["claimed"] for s in seats)  # (a request claims nothing until approved)
        for name in ("ana", "ben", "cat"):
            gm.get_by_role("button", name=f"Approve {name}").click()
        ana, ben, cat = (phones[x] for x in ("ana", "ben", "cat"))
        for opened, pc in ((ana, "ash"), (ben, "bo"), (cat, "cy")):
            expect(opened.locator(f'[data-card="{pc}"]')).to_be_visible(timeout=10000)
            assert "token=" in opened.url  # the phone holds its token: nobody typed it
        # The hidden sniper is on no phone and not on the TV; the GM sees it.
        for opened in (ana, tv):
            expect(opened.locator("#order")).not_to_contain_text("Sniper")
        expect(gm.locator('#order [data-id="sniper"]')).to_contain_text("hidden")

        # Rolls: the players' buttons follow mine.may (roll only, before the round).
        expect(card_button(ana, "ash", "Minor · 1 AP")).to_be_disabled()
        for opened, pc, die in ((ana, "ash", 5), (ben, "bo", 4), (cat, "cy", 2)):
            opened.fill(f'[data-card="{pc}"] input.die', str(die))
            card_button(opened, pc, "Enter roll").click()
            expect(opened.locator("#message")).to_contain_text("rolled")
        for line in ("roll sniper --die 9", "roll boss --die 1", "roll gangers --die 1", "round"):
            gm.fill("#line", line)
            gm.click("#line-form button")
            expect(gm.locator("#message")).to_contain_text("✓ " + line)
        # The sniper's turn starts first: it is revealed, and acts.
        for opened in (ana, tv):
            expect(opened.locator("#order")).to_contain_text("Sniper")
        expect(ana.locator("#banner")).to_contain_text("On deck: Ash")
        expect(card_button(ana, "ash", "Seize · 1 Grit")).to_be_enabled()
        expect(card_button(ana, "ash", "Minor · 1 AP")).to_be_disabled()
        gm_button(gm, "sniper", "Major · 2 AP").click()
        expect(card_button(ana, "ash", "Seize · 1 Grit")).to_be_disabled()  # the window closed
        expect(tv.locator("#timer")).to_have_text(re.compile(r"this turn: \d+:\d\d"))
        expect(tv.locator("#state")).not_to_contain_text("sniper")  # names, not ids
        gm_button(gm, "sniper", "End turn").click()
        expect(ana.locator("#banner")).to_contain_text("Your turn: Ash")
        expect(ana.locator("#announce")).to_contain_text("Ash is up")
        expect(card_button(ana, "ash", "Minor · 1 AP")).to_be_enabled()
        card_button(ana, "ash", "Major · 2 AP").click()
        expect(ana.locator("#message")).to_contain_text("✓ Ash: major action")
        card_button(ana, "ash", "End turn").click()
        expect(ben.locator("#banner")).to_contain_text("Your turn: Bo")
        expect(card_button(ana, "ash", "Minor · 1 AP")).to_be_disabled()
        expect(card_button(ana, "ash", "Interrupt")).to_be_enabled()

        for opened, where in ((ana, "player"), (tv, "TV"), (gm, "GM")):
            found = violations(opened)
            assert not found, (where, found)

        # The TV as a streamed game's browser source: transparent and compact.
        overlay = wide(browser, f"{running.url}/?token={tv_secret}&overlay=1", 1280, 720)
        expect(overlay.locator("#order")).to_contain_text("Sniper")
        assert overlay.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
        expect(overlay.locator("#join")).to_be_hidden()


@pytest.mark.skipif(not AXE.exists(), reason="axe-core not installed (.ci/run: npm ci --prefix tests)")
def test_axe_finds_nothing_serious_on_the_join_page(tmp_path):
    db = tmp_path / "table.db"
    with_three_pcs(db)
    with served(db) as running, chromium() as browser:
        opened = phone(browser, f"{running.url}/join")
        opened.wait_for_selector("#seats input")
        assert not violations(opened)


def test_join_requests_are_no_tokens_until_approved(tmp_path):
    db = tmp_path / "table.db"
    with_three_pcs(db)
    gm_secret, ana_secret = token(db, "gm", "gm"), token(db, "ana", "player", "ash")
    with served(db) as running:
        anyone = client(running, None)
        seats = anyone.get("/api/join").json()
        assert seats["encounter"] == E
        assert [(s["id"], s["claimed"]) for s in seats["seats"]] == [
            ("ash", True), ("bo", False), ("cy", False)]  # no hidden sniper, Ash is Ana's
        refused = anyone.post("/api/join", json={"name": "eve", "pc": "ash"})
        assert refused.status_code == 409 and "taken" in refused.json()["error"]
        asked = anyone.post("/api/join", json={"name": "ben", "pc": "bo"}).json()
        waiting = client(running, asked["token"])
        assert waiting.get("/api/me").status_code == 401
        assert "waiting" in waiting.get(f"/api/encounters/{E}/status").json()["error"]
        assert post(waiting, {"command": "roll", "slots": ["bo"]}).status_code == 401
        player = client(running, ana_secret)
        assert player.get("/api/joins").status_code == 403
        gm = client(running, gm_secret)
        assert [j["name"] for j in gm.get("/api/joins").json()] == ["ben"]
        assert gm.post("/api/joins/ben", json={"approve": True}).status_code == 200
        me = waiting.get("/api/me").json()
        assert (me["role"], me["owns"], me["encounter"]) == ("player", ["bo"], E)
        assert waiting.get(f"/api/encounters/{E}/status").json()["mine"] == {"bo": {"may": ["roll"]}}
        joined = gm.get("/api/joins?kind=joined").json()
        assert [(j["name"], j["owns"]) for j in joined] == [("ana", ["ash"]), ("ben", ["bo"])]
        assert gm.post("/api/players/ben/revoke").status_code == 200
        assert waiting.get("/api/me").status_code == 401  # shut out at once
        for n in range(8):  # one device asks at most 5 times a minute
            last = anyone.post("/api/join", json={"name": f"x{n}", "pc": "nobody"})
        assert last.status_code == 429


def test_the_table_is_the_gms_choice(tmp_path):
    db = tmp_path / "table.db"
    with_three_pcs(db)
    gm_secret, tv_secret = token(db, "gm", "gm"), token(db, "tv", "view")
    with served(db) as running:
        gm, tv = client(running, gm_secret), client(running, tv_secret)
        assert post(gm, {"command": "new", "id": "sidequest"}, "sidequest").status_code == 200
        assert gm.get("/api/table").json() == {"encounter": E}  # a new encounter is not the table
        assert tv.put("/api/table", json={"encounter": "sidequest"}).status_code == 403
        assert gm.put("/api/table", json={"encounter": "nowhere"}).status_code == 409
        assert gm.put("/api/table", json={"encounter": "sidequest"}).json() == {"encounter": "sidequest"}
        assert client(running, None).get("/api/join").json()["encounter"] == "sidequest"
        assert tv.get("/api/table").json() == {"encounter": None}  # tv reaches raid only


def test_every_stream_hears_when_the_gm_moves_the_table(tmp_path):
    import json

    import httpx
    from httpx_sse import connect_sse
    db = tmp_path / "table.db"
    with_three_pcs(db)
    gm_secret = token(db, "gm", "gm")
    with served(db) as running:
        gm = client(running, gm_secret)
        assert post(gm, {"command": "new", "id": "sidequest"}, "sidequest").status_code == 200
        listener = client(running, gm_secret)
        with connect_sse(listener, "GET", f"/api/encounters/{E}/stream",
                         timeout=httpx.Timeout(15)) as source:
            events = source.iter_sse()
            assert next(events).event == "status"
            assert gm.put("/api/table", json={"encounter": "sidequest"}).status_code == 200
            heard = next(e for e in events if e.event == "table")
        assert json.loads(heard.data) == {"encounter": "sidequest"}


def test_serve_lan_prints_the_join_address_and_its_qr_code(tmp_path):
    import os
    import subprocess
    import sys
    db = tmp_path / "table.db"
    with_three_pcs(db)
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    # (on 127.0.0.1: a test contacts no other address)
    server = subprocess.Popen([sys.executable, "-m", "cli", "--db", str(db), "serve", "--lan",
                               "--host", "127.0.0.1", "--port", "0", "--encounter", E],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        lines = [server.stdout.readline() for _ in range(3)]
    finally:
        server.terminate()
        server.wait(15)
    assert lines[0].startswith(f"serving {db} at http://127.0.0.1:")
    assert re.match(r"players join at http://127\.0\.0\.1:\d+/join: scan it", lines[1])
    assert set(lines[2].strip()) <= set("█▀▄ ")  # the QR code, in half blocks


def test_the_qr_code_and_the_manifest_come_from_the_server(tmp_path):
    db = tmp_path / "table.db"
    with_three_pcs(db)
    with served(db) as running:
        anyone = client(running, None)
        qr = anyone.get("/join/qr.svg")
        assert qr.headers["content-type"].startswith("image/svg+xml")
        assert qr.text.lstrip().startswith(("<?xml", "<svg")) and "http://www.w3.org/2000/svg" in qr.text
        manifest = anyone.get("/manifest.webmanifest").json()
        assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
        assert all(icon["src"].startswith("/static/") for icon in manifest["icons"])
