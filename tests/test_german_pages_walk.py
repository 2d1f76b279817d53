"""No English is left on a German page: the player's, the GM's, the TV's
and the join page, opened by a browser that prefers German, with a round
under way, a refusal said and the party's panel shown. Every text node of
each page (hidden ones too: what a click would show) and every title,
label, placeholder and alternative text is read for English words
(tests/english.py)."""
from __future__ import annotations

import httpx
import pytest

from browser import chromium
from english import english_left
from serverkit import E, rolled, served_table

pytestmark = pytest.mark.sqlite

# The table's own words: the names and title of serverkit's table.
DATA = {"ash", "bo", "boss", "ganger", "gangers", "warehouse", "raid", "ana", "tv", "gm"}
READ = """() => {
  const out = [document.title];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const tag = n.parentElement && n.parentElement.tagName;
    if (tag !== "SCRIPT" && tag !== "STYLE" && n.textContent.trim()) out.push(n.textContent.trim());
  }
  for (const el of document.querySelectorAll("[title],[aria-label],[placeholder],[alt]"))
    for (const a of ["title", "aria-label", "placeholder", "alt"])
      if (el.getAttribute(a)) out.push(el.getAttribute(a));
  return out.join("\\n");
}"""


def german(browser, url: str, width: int):
    context = browser.new_context(locale="de-DE", viewport={"width": width, "height": 900})
    opened = context.new_page()
    opened.goto(url)
    return opened


def test_every_page_is_german_for_a_german_browser(tmp_path):
    from playwright.sync_api import expect
    with served_table(tmp_path / "table.db") as running, chromium() as browser:
        with httpx.Client(base_url=running.url, headers={
                "Authorization": f"Bearer {running.secrets['gm']}"}) as gm_http:
            rolled(gm_http)
        urls = {who: f"{running.url}/?token={running.secrets[who]}&encounter={E}"
                for who in ("gm", "ash", "tv")}
        urls["join"] = f"{running.url}/join?encounter={E}"
        pages = {who: german(browser, url, 390 if who in ("ash", "join") else 1280)
                 for who, url in urls.items()}
        for who in ("gm", "ash", "tv"):
            expect(pages[who].locator("body")).to_have_attribute("data-seq", "11", timeout=5000)
        for who, opened in pages.items():
            assert opened.evaluate("document.documentElement.lang") == "de", who
        left = {who: english_left(opened.evaluate(READ), DATA) for who, opened in pages.items()}
        assert {who: found for who, found in left.items() if found} == {}, "\n".join(
            f"{who}: {line}" for who, found in left.items() for line in found)
