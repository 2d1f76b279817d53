"""The party on the pages, in Chromium: the GM's console lists every
character with its tracks, Grit, lasting conditions and where it is, and
follows a fight's end as it is carried; a player's page shows their own
character once the fight has ended (never another's), and nothing of the
party while it runs."""
from __future__ import annotations

import os

import pytest

from browser import CHROMIUM, chromium
from helpers import cli_env, in_process
from serverkit import client, served, token
from test_gm_console import opened_gm
from test_server_party_read import played

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (.ci/run installs it)")
SHOTS = os.environ.get("COMBAT_SCREENS")  # a folder: the screenshots are kept there


def campaign(db):
    return played(in_process(cli_env(db)))


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name), full_page=True)


def test_the_gm_console_lists_the_party_and_follows_the_carry(tmp_path):
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    campaign(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, chromium() as browser, client(running, secret) as http:
        assert http.put("/api/table", json={"encounter": "docks"}).status_code == 200
        gm = opened_gm(browser, f"{running.url}/?token={secret}")
        rook, vex = (gm.locator(f'#party-list [data-character="{x}"]') for x in ("rook", "vex"))
        expect(rook).to_contain_text("Rook · Grit 2 · hp 14/20 · poisoned (until rest) · between fights")
        expect(vex).to_contain_text("Vex · Grit 0 · hp 15/15 · in fight docks")
        hurt = http.post("/api/encounters/docks/line", json={"line": "track vex hp -4"})
        assert hurt.status_code == 200, hurt.text
        gm.locator("#line").fill("end")
        gm.locator("#line").press("Enter")
        expect(gm.locator("#message")).to_have_text(
            "✓ end · carried into the party (party seq 7, from docks at seq 8): vex hp 15/15 -> 11/15")
        expect(vex).to_contain_text("Vex · Grit 0 · hp 11/15 · between fights")
        assert gm.evaluate("document.documentElement.scrollWidth") <= 1280
        shot(gm, "party-gm-1280.png")


def test_a_players_page_shows_their_character_between_fights_only(tmp_path):
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    campaign(db)
    ana = token(db, "ana", "player", "rook", "alley")
    bea = token(db, "bea", "player", "vex", "docks")
    with served(db) as running, chromium() as browser:
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(f"{running.url}/?token={ana}")
        box = page.locator("#party")
        expect(box).to_be_visible()
        expect(page.locator("#party-head")).to_have_text("Between fights")
        expect(page.locator("#party-list li")).to_have_count(1)  # (hers, not Vex)
        expect(page.locator("#party-list")).to_contain_text("Rook · Grit 2 · hp 14/20 · poisoned (until rest)")
        assert "between fights" not in page.locator("#party-list").inner_text()  # (the GM's words)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, "party-player-390.png")
        running_fight = context.new_page()
        running_fight.goto(f"{running.url}/?token={bea}")
        running_fight.wait_for_selector("#order .member[data-id]")
        running_fight.wait_for_timeout(500)  # (its party answer, had it asked)
        expect(running_fight.locator("#party")).to_be_hidden()
