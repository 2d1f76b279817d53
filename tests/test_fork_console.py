"""Forking from the GM's console (Chromium): "Try from here…" on a line of
the log forks the encounter at that line and opens the fork, leaving the
source and the table as they were; nothing but the GM's token may."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from browser import CHROMIUM, chromium
from serverkit import E, client, log, served, table, token

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (.ci/run installs it)")
SHOTS = os.environ.get("COMBAT_SCREENS")  # a folder: the screenshots are kept there


@pytest.mark.parametrize("width", [1280, 390])
def test_try_from_here_forks_at_a_log_line_and_opens_the_fork(tmp_path, width):
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    table(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, chromium() as browser, client(running, secret) as http:
        for slot, die in (("ash", 9), ("bo", 5), ("boss", 3), ("gangers", 2)):
            assert http.post(f"/api/encounters/{E}/commands",
                             json={"command": "roll", "slots": [slot], "die": die}).status_code == 200
        http.post(f"/api/encounters/{E}/commands", json={"command": "round"})
        http.put("/api/table", json={"encounter": E})
        source = log(db)
        context = browser.new_context(viewport={"width": width, "height": 900})
        gm = context.new_page()
        gm.goto(f"{running.url}/?token={secret}")
        gm.wait_for_selector("#order .member[data-id]")
        rolled = next(e["seq"] for e in source if e["type"] == "InitiativeRolled"
                      and e["data"]["slot"] == "bo")
        line = gm.locator(f'#log li[data-seq="{rolled}"]')
        line.get_by_role("button", name=f"try from here, seq {rolled}").click()
        box = gm.locator("#confirm")
        expect(box).to_contain_text(f"up to seq {rolled}")
        expect(gm.get_by_label("the fork's id")).to_have_value(f"{E}-what-if")
        gm.get_by_label("the fork's title").fill("Bo rolls better")
        if SHOTS:
            gm.screenshot(path=str(Path(SHOTS) / f"fork-console-{width}.png"))
        gm.get_by_role("button", name="Fork and open").click()
        expect(gm.locator("#message")).to_contain_text(f"{E}-what-if holds {E} up to seq {rolled}")
        expect(gm.locator("#title")).to_have_text("Bo rolls better")
        expect(gm.locator("#encounter")).to_have_value(f"{E}-what-if")
        fork = http.get(f"/api/encounters/{E}-what-if/status").json()
        assert fork["seq"] == rolled and fork["round"] == 0  # the round had not started yet
        assert log(db) == source                          # the source is as it was
        assert http.get("/api/table").json() == {"encounter": E}
        gm.wait_for_function("s => document.body.dataset.seq === String(s)", arg=rolled)
        expect(gm.locator("#order")).not_to_contain_text("null")  # (gangers not rolled: "–")
        assert gm.evaluate("document.documentElement.scrollWidth") <= width  # (log tools wrap)
        context.close()
