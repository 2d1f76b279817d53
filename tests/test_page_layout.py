"""The pages measured in Chromium, where a person reads and presses: the
TV's QR at 1280x720 leaves every row of the order in sight, the joining
phone's "Waiting for the GM" is whole at 390 px, and the GM's status line
("✓ turn ended") covers no log line nor any button, at 1280 and 390 px; no
page scrolls sideways. Screenshots are left in the test's folder."""
from __future__ import annotations

import pytest

from browser import CHROMIUM, chromium
from serverkit import E, client, post, served, token
from test_players import phone, wide, with_three_pcs

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (.ci/run installs it)")

# The boxes of `cover` that overlap a box of `under` (both CSS selectors),
# visible ones only.
OVERLAPS = """([cover, under]) => {
  const seen = (n) => { const r = n.getBoundingClientRect();
                        return r.width > 0 && r.height > 0 && getComputedStyle(n).visibility !== "hidden"
                               && getComputedStyle(n).opacity !== "0" ? r : null; };
  const out = [];
  for (const a of document.querySelectorAll(cover)) {
    const p = seen(a);
    if (!p) continue;
    for (const b of document.querySelectorAll(under)) {
      const q = seen(b);
      if (!q || a.contains(b) || b.contains(a)) continue;
      if (p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1 && q.top < p.bottom - 1)
        out.push((b.id || b.dataset.id || b.textContent).slice(0, 40));
    }
  }
  return out;
}"""


def overlaps(page, cover: str, under: str) -> list[str]:
    return page.evaluate(OVERLAPS, [cover, under])


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def crowded(db) -> None:
    """The raid with nine rows in the order, rolled, round 1 under way."""
    with_three_pcs(db)
    from eventlog.stores import open_store
    from projections.domain import commands as c
    from projections.ledger import Ledger
    ledger = Ledger(open_store(db))
    ledger.execute(E, c.Add(name="Dog", bonus=0, count=3), "gm")
    for slot, die in (("ash", 10), ("bo", 9), ("sniper", 7), ("boss", 8), ("gangers", 8),
                      ("cy", 7), ("dog-1", 6), ("dog-2", 5), ("dog-3", 4)):
        ledger.execute(E, c.Roll(slots=[slot], die=die), "gm")
    ledger.store.close()


def test_the_tv_qr_covers_no_row_at_1280x720(tmp_path):
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    crowded(db)
    with served(db) as running, chromium() as browser:
        tv = wide(browser, f"{running.url}/?token={token(db, 'tv', 'view')}", 1280, 720)
        expect(tv.locator("#join img")).to_be_visible()
        tv.wait_for_selector("#order .member[data-id]")
        assert len(tv.locator("#order > li").all()) >= 8  # (the sniper is hidden)
        tv.screenshot(path=str(tmp_path / "tv-1280.png"))
        assert overlaps(tv, "#join", "#order > li, #order .member, #state, #legend") == []
        tv.evaluate("scrollTo(0, document.body.scrollHeight)")  # (at the bottom too)
        assert overlaps(tv, "#join", "#order > li, #order .member, #legend") == []
        no_sideways_scroll(tv)


def test_waiting_for_the_gm_is_whole_at_390_px(tmp_path):
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    with_three_pcs(db)
    with served(db) as running, chromium() as browser:
        opened = phone(browser, f"{running.url}/join")
        opened.wait_for_selector("#seats input")
        opened.locator('#seats input[value="bo"]').check()
        opened.fill("#name", "Bartholomew-Fitzgerald")
        opened.get_by_role("button", name="Ask the GM").click()
        banner = opened.locator("#waiting")
        opened.wait_for_function("() => document.getElementById('ask').hidden || "
                                 "document.getElementById('message').textContent", timeout=15_000)
        assert opened.locator("#message").text_content() == ""  # (asked, not refused)
        expect(banner).to_contain_text("Waiting for the GM to let Bartholomew-Fitzgerald in")
        opened.screenshot(path=str(tmp_path / "waiting-390.png"))
        assert banner.evaluate("n => n.scrollWidth <= n.clientWidth && n.scrollHeight <= n.clientHeight")
        box = banner.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        no_sideways_scroll(opened)
        # the player's page, opened with the secret before the GM answers, says the same whole
        secret = opened.evaluate("JSON.parse(localStorage.getItem('combat-join')).token")
        player = phone(browser, f"{running.url}/?token={secret}")
        said = player.locator("#message")
        expect(said).to_contain_text("waiting for the GM to let Bartholomew-Fitzgerald in")
        player.screenshot(path=str(tmp_path / "player-waiting-390.png"))
        assert said.evaluate("n => n.scrollWidth <= n.clientWidth && n.scrollHeight <= n.clientHeight")
        no_sideways_scroll(player)


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_the_gm_status_line_covers_nothing_to_press(tmp_path, width, height):
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    crowded(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, chromium() as browser, client(running, secret) as http:
        assert post(http, {"command": "round"}).status_code == 200
        for _ in range(4):  # a log long enough to reach the bottom of the screen
            assert post(http, {"command": "note", "text": "the dogs bark"}).status_code == 200
        gm = wide(browser, f"{running.url}/?token={secret}", width, height)
        gm.wait_for_selector("#log li")
        acting = http.get(f"/api/encounters/{E}/status").json()["acting"]
        assert post(http, {"command": "act", "id": acting, "cost": "minor"}).status_code == 200
        gm.locator("#gm-buttons").get_by_role("button", name="End turn").click()
        expect(gm.locator("#message")).to_contain_text("✓ turn ended")
        pressable = "button, input, select, a, #log li, #order .member, #panel, #confirm"
        for at in ("0", "document.body.scrollHeight / 2", "document.body.scrollHeight"):
            gm.evaluate(f"scrollTo(0, {at})")
            assert overlaps(gm, "#message", pressable) == [], at
        gm.evaluate("scrollTo(0, 0)")
        gm.screenshot(path=str(tmp_path / f"gm-{width}.png"), full_page=True)
        no_sideways_scroll(gm)
