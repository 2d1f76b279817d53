"""The GM console's command box (Chromium): what the GM types while the
previous command's answer is still on its way is kept, not wiped."""
from __future__ import annotations

import pytest

from browser import CHROMIUM, chromium
from serverkit import E, client, log, served, table, token
from test_gm_console import opened_gm

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (.ci/run installs it)")


def test_the_next_command_typed_before_an_answer_arrives_is_kept(tmp_path):
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    table(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, chromium() as browser, client(running, secret) as http:
        http.put("/api/table", json={"encounter": E})
        gm = opened_gm(browser, f"{running.url}/?token={secret}")
        held = []  # the first command's answer, kept back until the next is typed
        gm.route("**/line", lambda route: held.append((route, route.fetch())))
        gm.fill("#line", "note the alarm rings")
        gm.click("#line-form button")
        while not held:
            gm.wait_for_timeout(50)
        gm.fill("#line", "note the guards come")  # typed while the answer is on its way
        route, answer = held[0]
        route.fulfill(response=answer)
        expect(gm.locator("#message")).to_contain_text("✓ note the alarm rings")
        expect(gm.locator("#line")).to_have_value("note the guards come")
        gm.unroute("**/line")
        gm.click("#line-form button")
        expect(gm.locator("#message")).to_contain_text("✓ note the guards come")
        expect(gm.locator("#line")).to_have_value("")  # (sent and answered: emptied)
        assert [e["data"]["text"] for e in log(db)[-2:]] == ["the alarm rings", "the guards come"]


def test_the_party_typed_in_the_box_is_declared_and_said(tmp_path):
    """`party add`, `party rest` and `session start` in the box: the party's
    words, as the shell says them (docs/rules.md, "The party")."""
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    table(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, chromium() as browser, client(running, secret) as http:
        http.put("/api/table", json={"encounter": E})
        gm = opened_gm(browser, f"{running.url}/?token={secret}")
        for typed, said in [("party add Rook --track hp=20/20",
                             "✓ party seq 2: rook joins the party"),
                            ('session start "Night two"', "✓ party seq 3: session s1 started"),
                            ("party rest --full", "✓ party seq 4: the party rests (a full rest)")]:
            gm.fill("#line", typed)
            gm.click("#line-form button")
            expect(gm.locator("#message")).to_contain_text(said)
        gm.fill("#line", "party nap")
        gm.click("#line-form button")
        expect(gm.locator("#message")).to_contain_text("`party nap` declares nothing")
