"""The GM console's chosen row, in Chromium: after any declaration made
from the page (its panel, its keys, its command box) the choice returns to
the acting combatant, so the next Major or End turn is the acting one's and
never the last row clicked."""
from __future__ import annotations

import pytest

from browser import CHROMIUM, chromium
from serverkit import client, log, rolled, served, table, token
from test_gm_console import choose, done, opened_gm, panel

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (.ci/run installs it)")


def picked(gm) -> str:
    return gm.locator("#order .member.picked").get_attribute("data-id")


def back_on(gm, who: str) -> None:
    from playwright.sync_api import expect
    expect(gm.locator("#order .member.picked")).to_have_attribute("data-id", who)
    expect(gm.locator("#panel")).to_have_attribute("data-id", who)


def test_after_hide_on_the_boss_major_goes_to_the_acting_one(tmp_path):
    db = tmp_path / "table.db"
    table(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, chromium() as browser, client(running, secret) as http:
        rolled(http)
        gm = opened_gm(browser, f"{running.url}/?token={secret}")
        back_on(gm, "ash")
        choose(gm, "boss")
        panel(gm, "Hide").click()
        done(gm, "✓ Boss is hidden from the players")
        back_on(gm, "ash")
        panel(gm, "Major · 2 AP").click()
        done(gm, "✓ Ash: major action")
        assert log(db)[-1]["data"] == {"combatant": "ash", "cost": 2, "category": "major", "label": ""}
        # a track on Bo from the panel, then the keys: Ash's again
        choose(gm, "bo")
        gm.locator("#panel").get_by_placeholder("new track").fill("hp")
        gm.locator("#panel").get_by_placeholder("value").fill("12")
        panel(gm, "Add track").click()
        done(gm, "✓ Bo hp")
        back_on(gm, "ash")
        choose(gm, "boss")
        gm.fill("#line", "note the boss watches")  # the command box
        gm.locator("#line").press("Enter")
        done(gm, "✓ note the boss watches")
        back_on(gm, "ash")
        assert picked(gm) == "ash"
