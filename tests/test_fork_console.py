"""Forking from the GM's console (Chromium): "Try from here…" on a line of
the log forks the encounter at that line and opens the fork, leaving the
source and the table as they were; nothing but the GM's token may."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from browser import CHROMIUM, chromium
from serverkit import E, client, log, rolled, served, table, token

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (.ci/run installs it)")
SHOTS = os.environ.get("COMBAT_SCREENS")  # a folder: the screenshots are kept there


@pytest.mark.parametrize("width", [1280, 390])
def test_try_from_here_forks_at_a_log_line_and_opens_the_fork(tmp_path, width):
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    table(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, chromium() as browser, client(running, secret) as http:
        rolled(http)
        http.put("/api/table", json={"encounter": E})
        source = log(db)
        context = browser.new_context(viewport={"width": width, "height": 900})
        gm = context.new_page()
        gm.goto(f"{running.url}/?token={secret}")
        gm.wait_for_selector("#order .member[data-id]")
        last_roll = next(e["seq"] for e in source if e["type"] == "InitiativeRolled"
                      and e["data"]["slot"] == "bo")
        line = gm.locator(f'#log li[data-seq="{last_roll}"]')
        line.get_by_role("button", name=f"try from here, seq {last_roll}").click()
        box = gm.locator("#confirm")
        expect(box).to_contain_text(f"up to seq {last_roll}")
        expect(gm.get_by_label("the fork's id")).to_have_value(f"{E}-what-if")
        gm.get_by_label("the fork's title").fill("Bo rolls better")
        if SHOTS:
            gm.screenshot(path=str(Path(SHOTS) / f"fork-console-{width}.png"))
        gm.get_by_role("button", name="Fork and open").click()
        expect(gm.locator("#message")).to_contain_text(f"{E}-what-if holds {E} up to seq {last_roll}")
        expect(gm.locator("#title")).to_have_text("Bo rolls better")
        expect(gm.locator("#encounter")).to_have_value(f"{E}-what-if")
        fork = http.get(f"/api/encounters/{E}-what-if/status").json()
        assert fork["seq"] == last_roll and fork["round"] == 0  # the round had not started yet
        assert log(db) == source                          # the source is as it was
        assert http.get("/api/table").json() == {"encounter": E}
        gm.wait_for_function("s => document.body.dataset.seq === String(s)", arg=last_roll)
        expect(gm.locator("#order")).not_to_contain_text("null")  # (gangers not last_roll: "–")
        assert gm.evaluate("document.documentElement.scrollWidth") <= width  # (log tools wrap)
        context.close()
