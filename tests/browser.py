"""Playwright for Python driving Debian's Chromium (`playwright install`
downloads a browser and cannot work here): the one Playwright source of
the browser tests and the README's screenshots."""
from __future__ import annotations

import shutil
from contextlib import contextmanager

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@contextmanager
def chromium():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def page(browser, url: str, width: int = 1280, height: int = 900):
    context = browser.new_context(viewport={"width": width, "height": height})
    opened = context.new_page()
    opened.goto(url)
    return opened
