"""The table server's pages in a real browser (Playwright driving Debian's
Chromium): a GM page, two player pages and a TV's view play a full round
with a seize (R10-R11), a group slot (R8) and an interrupt (R19); every page
shows every declaration within 1 s; a player's refusal shows the CLI's line."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from browser import CHROMIUM, chromium, page
from eventlog.stores import open_store
from serverkit import E, log, served, table, token

pytestmark = [pytest.mark.sqlite,
              pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (.ci/run installs it)")]


def head(db) -> int:
    store = open_store(db)
    try:
        return store.head(E)[0]
    finally:
        store.close()


class Table:
    def __init__(self, db, pages):
        self.db, self.pages, self.seq = db, pages, head(db)

    def shown(self, action) -> int:
        """Do `action`; once the store has the declaration, every page shows
        it within 1 s."""
        from playwright.sync_api import expect
        action()
        deadline = time.monotonic() + 10
        while head(self.db) == self.seq:
            assert time.monotonic() < deadline, "nothing was declared"
            time.sleep(0.01)
        self.seq = head(self.db)
        for opened in self.pages.values():
            expect(opened.locator("body")).to_have_attribute("data-seq", str(self.seq), timeout=1000)
        return self.seq


def button(opened, card: str, name: str):
    return opened.locator(f'[data-card="{card}"]').get_by_role("button", name=name, exact=True)


def gm_button(opened, who: str, name: str):
    """The GM page's panel button `name`, for `who` (its row chosen first)."""
    opened.locator(f'#order .member[data-id="{who}"]').click()
    return opened.locator("#panel").get_by_role("button", name=name, exact=True)


def line(opened, text: str):
    def send():
        opened.fill("#line", text)
        opened.click("#line-form button")
    return send


def cli_refusal(db, actor: str, *args) -> str:
    done = subprocess.run([sys.executable, "-m", "cli", "--db", str(db), "--encounter", E,
                           "--actor", actor, *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "XDG_STATE_HOME": str(db.parent / "state")})
    assert done.returncode == 1
    return done.stderr.strip()


def test_three_browsers_play_a_round_with_a_seize_a_group_slot_and_an_interrupt(tmp_path):
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    table(db)
    links = {"gm": token(db, "gm", "gm"), "ana": token(db, "ana", "player", "ash"),
             "ben": token(db, "ben", "player", "bo"), "tv": token(db, "tv", "view")}
    with served(db) as running, chromium() as browser:
        pages = {who: page(browser, f"{running.url}/?token={secret}", 390 if who in ("ana", "ben") else 1280)
                 for who, secret in links.items()}
        for opened in pages.values():
            expect(opened.locator("body")).to_have_attribute("data-seq", "6", timeout=5000)
        gm, ana, ben, tv = (pages[x] for x in ("gm", "ana", "ben", "tv"))
        play = Table(db, pages)
        assert tv.locator("[data-card]").count() == 0 and ana.locator("[data-card]").count() == 1

        # Initiative: the players enter their physical dice, the GM the NPCs' (R1).
        def enter(opened, card, die):
            def go():
                opened.fill(f'[data-card="{card}"] input.die', str(die))
                button(opened, card, "Enter roll").click()
            return go
        play.shown(enter(ana, "ash", 9))
        play.shown(enter(ben, "bo", 5))
        play.shown(line(gm, "roll boss --die 3"))
        play.shown(line(gm, "roll gangers --die 2"))
        gm.get_by_role("button", name="Next round").click()  # it says what it does first
        expect(gm.locator("#confirm")).to_contain_text("round 1 would start")
        play.shown(lambda: gm.get_by_role("button", name="Start the next round").click())
        for opened in pages.values():
            expect(opened.locator("#window")).to_be_visible()

        # Bo seizes the moment and acts first (R10, R11).
        play.shown(lambda: button(ben, "bo", "Seize · 1 Grit").click())
        for opened in pages.values():
            expect(opened.locator("#order > li").first).to_have_attribute("data-slot", "bo")
            expect(opened.locator("#window")).to_be_visible()
        play.shown(lambda: button(ben, "bo", "Major · 2 AP").click())
        play.shown(lambda: button(ben, "bo", "End turn").click())

        # Ash's turn: Bo interrupts with its last AP (R19).
        play.shown(lambda: button(ben, "bo", "Interrupt").click())
        for opened in pages.values():
            expect(opened.locator('[data-slot="bo"] .pips')).to_have_attribute("title", "0 of 3 AP")

        # Seizing and interrupting are not Ash's now (the core's mine.may): those
        # buttons are off. A refusal shows the CLI's own line, in names, and
        # nothing is appended (R17).
        expect(button(ana, "ash", "Seize · 1 Grit")).to_be_disabled()
        expect(button(ana, "ash", "Interrupt")).to_be_disabled()
        play.shown(lambda: button(ana, "ash", "Minor · 1 AP").click())
        expect(ana.locator("#message")).to_contain_text("✓ Ash: minor action")
        play.shown(lambda: button(ana, "ash", "Minor · 1 AP").click())
        button(ana, "ash", "Major · 2 AP").click()
        refusal = cli_refusal(db, "ana", "act", "ash", "major").removeprefix("error: ")
        expect(ana.locator("#message")).to_have_text(refusal.replace("ash", "Ash"))
        rule = ana.locator("#message a").first  # its rule id links to the rule's text
        expect(rule).to_have_attribute("href", "./rules/" + rule.inner_text())  # (relative: --root-path)
        assert head(db) == play.seq
        play.shown(lambda: button(ana, "ash", "End turn").click())

        # The boss, then the gangers' group slot: either member first (R8).
        play.shown(lambda: gm_button(gm, "boss", "Major · 2 AP").click())
        play.shown(lambda: gm_button(gm, "boss", "End turn").click())
        for opened in pages.values():
            expect(opened.locator("#state")).to_contain_text("up: Ganger 1, Ganger 2")
            expect(opened.locator("#announce")).to_contain_text("Ganger 1, Ganger 2 are up")
        expect(ben.locator("#banner")).to_have_text("Waiting: Ganger 1, Ganger 2 are up")  # (Bo: 0 AP)
        play.shown(lambda: gm_button(gm, "ganger-2", "Minor · 1 AP").click())
        play.shown(lambda: gm_button(gm, "ganger-2", "End turn").click())
        play.shown(line(gm, "end-turn ganger-1"))

        # Pass 2: nobody spends; the round is complete (R23).
        for opened in pages.values():
            expect(opened.locator("#state")).to_contain_text("pass 2")
        play.shown(lambda: button(ana, "ash", "End turn").click())
        # The boss spends nothing: End turn asks first (R21), then ends it.
        gm.locator("#gm-buttons").get_by_role("button", name="End turn").click()
        play.shown(lambda: gm.locator("#confirm").get_by_role("button", name="End Boss's turn").click())
        play.shown(line(gm, "end-turn ganger-1"))
        play.shown(line(gm, "end-turn ganger-2"))
        for opened in pages.values():
            expect(opened.locator("#state")).to_contain_text("round complete")
        expect(gm.locator("#log li").first).to_contain_text("gm · R1.2 · ganger-2 ends their turn")

    actors = {(e["actor"], e["data"].get("combatant") or e["data"].get("slot"))
              for e in log(db) if e["seq"] > 6}
    assert ("ana", "ash") in actors and ("ben", "bo") in actors
    assert {actor for actor, _ in actors} == {"gm", "ana", "ben"}  # R29


def test_user_text_is_shown_as_text_never_as_markup(tmp_path):
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    table(db)
    from projections.domain import commands as c
    from projections.ledger import Ledger
    ledger = Ledger(open_store(db))
    ledger.execute(E, c.Add(name="<img src=x onerror=alert(1)>", id="evil"), "gm")
    ledger.store.close()
    secret = token(db, "gm", "gm")
    with served(db) as running, chromium() as browser:
        opened = page(browser, f"{running.url}/?token={secret}")
        expect(opened.locator('#order [data-id="evil"]')).to_contain_text("<img src=x onerror=alert(1)>")
        opened.locator('#order [data-id="evil"]').click()  # its panel's heading
        expect(opened.locator("#panel h2")).to_contain_text("<img src=x onerror=alert(1)>")
        opened.locator("#log li").first.wait_for()
        assert opened.locator("img").count() == 0


def test_the_readmes_screenshots_are_made_by_their_script(tmp_path):
    import struct

    from screenshots_server import PAGES, WIDTHS, shoot
    made = shoot(tmp_path / "screens")
    assert sorted(p.name for p in made) == sorted(
        [f"{kind}-{width}.png" for kind in PAGES for width in WIDTHS] + ["join-390.png"])
    for shot in made:
        width = struct.unpack(">I", shot.read_bytes()[16:20])[0]
        assert width == int(shot.stem.split("-")[1])
