"""Phones asking to join, seen from the GM console's first screen, in
Chromium at 1280 and 390 px: the requests' list sits far down the page, so
a notice at the top says how many phones wait and jumps to them; it goes
once they are answered."""
from __future__ import annotations

import pytest

from browser import CHROMIUM, chromium
from serverkit import client, served, token
from test_gm_console import opened_gm
from test_players import with_three_pcs

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (.ci/run installs it)")


def box(page, selector: str) -> dict:
    return page.eval_on_selector(selector, "n => { const r = n.getBoundingClientRect(); "
                                           "return {top: r.top, bottom: r.bottom, height: r.height}; }")


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_phones_waiting_to_join_are_said_on_the_first_screen(tmp_path, width, height):
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    with_three_pcs(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, chromium() as browser, client(running, secret) as gm_http:
        gm = opened_gm(browser, f"{running.url}/?token={secret}", width, height)
        notice = gm.locator("#waiting")
        expect(notice).to_be_hidden()
        anyone = client(running, None)
        assert anyone.post("/api/join", json={"name": "ben", "pc": "bo"}).status_code == 200
        expect(notice).to_contain_text("1 phone is waiting to join: ben")
        assert gm.evaluate("scrollY") == 0
        shown = box(gm, "#waiting")
        assert shown["height"] > 0 and shown["bottom"] <= height  # the first screen
        assert box(gm, "#joins")["top"] > height  # (where the requests themselves are)
        assert gm.evaluate("document.documentElement.scrollWidth") <= width
        assert anyone.post("/api/join", json={"name": "eve", "pc": "cy"}).status_code == 200
        expect(notice).to_contain_text("2 phones are waiting to join: ben, eve")
        gm.screenshot(path=str(tmp_path / f"waiting-{width}.png"))
        notice.get_by_role("link").click()
        row = gm.locator('#joins [data-join="ben"]')
        expect(row).to_be_in_viewport()
        # the row says until when the request waits, in the room's clock
        until = gm_http.get("/api/joins").json()[0]["until"]
        shown_until = gm.evaluate("iso => new Date(iso).toLocaleTimeString([], "
                                  "{hour: '2-digit', minute: '2-digit'})", until)
        expect(row).to_contain_text(f"expires {shown_until}")
        for name in ("ben", "eve"):
            assert gm_http.post(f"/api/joins/{name}", json={"approve": name == "ben"}).status_code == 200
        expect(notice).to_be_hidden()
