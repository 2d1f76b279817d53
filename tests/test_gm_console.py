"""The GM's web console (the evening, and the tracks the GM keeps or shows), in
Chromium: a full round from the GM page alone — rolls, a seize, a group
slot, an interrupt, an automatic turn end and the End turn the guard then
asks about, a Next round that names the AP it will lose before it is
confirmed, a retraction and an amendment with their previews, a track
changed from the panel — with the rows following the order after every
declaration, play mode's keys, no sideways scroll at 390 px and axe-core
satisfied. Then the evening: a roster uploaded (a hostile one refused whole
with one line), archive and unarchive, the table."""
from __future__ import annotations

import re

import pytest

from accessibility import AXE, violations
from browser import CHROMIUM, chromium
from serverkit import E, client, log, post, rolled, served, table, token

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (.ci/run installs it)")


def opened_gm(browser, url: str, width: int = 1280, height: int = 800):
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    gm = context.new_page()
    gm.goto(url)
    gm.wait_for_selector("#order .member[data-id]")
    return gm


def expected_rows(status: dict) -> list[str]:
    """The ids in the order's slots (a group's members under it), then the rest."""
    groups = {g["id"]: g["members"] for g in status["groups"]}
    out = []
    for slot in status["order"]:  # (a seizer leaves its group's slot for one of its own)
        out += [m for m in groups[slot] if m not in status["order"]] if slot in groups else [slot]
    return out


def rows_follow_the_order(gm, http, new_turn: bool = False) -> dict:
    """The page has drawn the store's head, and its rows are the order's; on
    a new turn, the acting combatant's row is the one chosen."""
    status = http.get(f"/api/encounters/{E}/status").json()
    gm.wait_for_function("seq => document.body.dataset.seq === String(seq)", arg=status["seq"])
    shown = gm.eval_on_selector_all("#order .member[data-id]", "rows => rows.map(r => r.dataset.id)")
    want = expected_rows(status)
    assert shown[:len(want)] == want, (shown, want)
    if new_turn:
        assert gm.locator(".member.picked").get_attribute("data-id") == status["acting"]
    return status


def choose(gm, who: str) -> None:
    from playwright.sync_api import expect
    gm.locator(f'#order .member[data-id="{who}"]').click()
    expect(gm.locator(f'#order .member[data-id="{who}"]')).to_have_attribute("aria-pressed", "true")


def panel(gm, name: str):
    return gm.locator("#panel").get_by_role("button", name=name, exact=True)


def done(gm, said: str) -> None:
    from playwright.sync_api import expect
    expect(gm.locator("#message")).to_contain_text(said)


def step(gm, http, said: str) -> None:
    """The page said `said`, and its rows follow the order (after every declaration)."""
    done(gm, said)
    rows_follow_the_order(gm, http)


def test_a_full_round_from_the_gm_page_alone(tmp_path):
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    table(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, chromium() as browser, client(running, secret) as http:
        gm = opened_gm(browser, f"{running.url}/?token={secret}")
        # Rolls, from the panel of each row chosen (a group rolls once).
        for who, die in (("ash", 9), ("bo", 5), ("boss", 3), ("ganger-1", 2)):
            choose(gm, who)
            gm.fill("#panel input.die", str(die))
            panel(gm, "Enter roll").click()
            step(gm, http, f"rolled {die}")
        choose(gm, "boss")  # a track, added from the panel
        gm.fill('#panel input[aria-label^="a new track"]', "hp")
        gm.fill('#panel input[aria-label="its value and maximum"]', "10")
        panel(gm, "Add track").click()
        expect(gm.locator('#order .member[data-id="boss"]')).to_contain_text("hp 10/10")
        rows_follow_the_order(gm, http)
        gm.get_by_role("button", name="Next round").click()
        expect(gm.locator("#confirm")).to_contain_text("round 1 would start")
        gm.locator("#confirm").get_by_role("button", name="Start the next round").click()
        step(gm, http, "✓ a new round")
        assert rows_follow_the_order(gm, http, True)["acting"] == "ash"

        # A seize by key (play mode's `s`), for the row chosen: Bo goes first.
        choose(gm, "bo")
        gm.keyboard.press("s")
        step(gm, http, "Bo seizes the moment")
        assert rows_follow_the_order(gm, http)["order"][0] == "bo"
        gm.keyboard.press("m")  # Bo is acting, so chosen: a major action
        step(gm, http, "Bo: major action")
        rows_follow_the_order(gm, http)
        gm.keyboard.press("e")  # play mode's careful end-turn
        step(gm, http, "turn ended")
        assert rows_follow_the_order(gm, http, True)["acting"] == "ash"

        # Ash acts; the boss interrupts (R19) from its row with `i`.
        panel(gm, "Minor · 1 AP").click()
        step(gm, http, "Ash: minor action")
        choose(gm, "boss")
        gm.select_option("#interrupt-cost", "minor")
        gm.locator('#order .member[data-id="boss"]').focus()
        gm.keyboard.press("i")
        step(gm, http, "Boss interrupts")
        rows_follow_the_order(gm, http)
        # Ash spends the rest: the turn ends by itself (R21); End turn is then refused.
        choose(gm, "ash")
        gm.fill("#act-label", "goes all in")
        panel(gm, "Major · 2 AP").click()
        step(gm, http, "Ash: major action")
        assert rows_follow_the_order(gm, http, True)["acting"] == "boss"
        before = len(log(db))
        gm.locator("#gm-buttons").get_by_role("button", name="End turn").click()
        expect(gm.locator("#confirm")).to_contain_text("Boss has declared nothing yet")
        gm.locator("#confirm").get_by_role("button", name="Cancel").click()
        expect(gm.locator("#confirm")).to_be_hidden()
        assert len(log(db)) == before
        assert rows_follow_the_order(gm, http, True)["acting"] == "boss"

        # A track change from the panel, -1 then set.
        gm.locator('#panel [data-track="hp"]').get_by_role("button", name="hp −1").click()
        expect(gm.locator('#order .member[data-id="boss"]')).to_contain_text("hp 9/10")
        rows_follow_the_order(gm, http)
        gm.fill('#panel [data-track="hp"] input', "7")
        gm.locator('#panel [data-track="hp"]').get_by_role("button", name="set hp").click()
        expect(gm.locator('#order .member[data-id="boss"]')).to_contain_text("hp 7/10")
        rows_follow_the_order(gm, http)
        set_at = log(db)[-1]["seq"]
        shown = gm.locator('#panel [data-track="hp"]').get_by_role("button", name="players see hp")
        expect(shown).to_have_attribute("aria-pressed", "false")
        shown.click()  # the GM lets the players see the boss's hp
        expect(shown).to_have_attribute("aria-pressed", "true")
        assert log(db)[-1]["data"]["public"] is True
        rows_follow_the_order(gm, http)
        panel(gm, "Major · 2 AP").click()  # the boss's 2 AP left: its turn ends, the gangers' slot
        step(gm, http, "Boss: major action")
        status = rows_follow_the_order(gm, http)
        assert set(status["up"]) == {"ganger-1", "ganger-2"}  # a group slot: both up
        choose(gm, "ganger-2")
        gm.keyboard.press("n")
        step(gm, http, "Ganger 2: minor action")
        rows_follow_the_order(gm, http)

        # Next round names the AP it would throw away before it is declared.
        gm.get_by_role("button", name="Next round").click()
        expect(gm.locator("#confirm")).to_contain_text("unspent AP lost")
        expect(gm.locator("#confirm")).to_contain_text("ganger-1 3 AP")
        assert log(db)[-1]["type"] == "APSpent"  # (a preview appends nothing)
        gm.get_by_role("button", name="Cancel").click()
        expect(gm.locator("#confirm")).to_be_hidden()

        # A retraction from the log, its preview first.
        gm.get_by_role("button", name=f"retract seq {set_at}").click()
        expect(gm.locator("#confirm .preview")).to_contain_text(f"seq {set_at} would be retracted")
        gm.fill("#confirm input", "the shot missed")
        gm.locator("#confirm").get_by_role("button", name=f"Retract seq {set_at}").click()
        step(gm, http, f"✓ retracted seq {set_at}")
        expect(gm.locator('#order .member[data-id="boss"]')).to_contain_text("hp 9/10")
        assert log(db)[-1]["data"]["reason"] == "the shot missed"
        # An amendment of Ash's label, its preview first.
        labelled = next(e["seq"] for e in log(db) if e["data"].get("label") == "goes all in")
        gm.get_by_role("button", name=f"amend seq {labelled}").click()
        gm.fill('#confirm input[aria-label="label"]', "fires twice")
        gm.fill("#confirm input[aria-label^='why']", "misheard")
        gm.get_by_role("button", name="Preview amendment").click()
        expect(gm.locator("#confirm .preview")).to_contain_text("fires twice")
        gm.locator("#confirm").get_by_role("button", name=f"Amend seq {labelled}").click()
        step(gm, http, f"✓ amended seq {labelled}")
        # Ctrl-Z undoes the latest (the amendment), Ctrl-Y does it again.
        gm.locator("body").press("Control+z")
        step(gm, http, "✓ undone")
        gm.locator("body").press("Control+y")
        step(gm, http, "✓ redone")
        rows_follow_the_order(gm, http)

        # The round: confirmed with the AP it loses, then round 2.
        gm.get_by_role("button", name="Next round").click()
        gm.locator("#confirm").get_by_role("button", name="Start the next round").click()
        step(gm, http, "✓ a new round")
        assert rows_follow_the_order(gm, http)["round"] == 2

        # Keyboard: a row chosen with Enter moves the focus to its panel.
        gm.locator('#order .member[data-id="bo"]').focus()
        gm.keyboard.press("Enter")
        expect(gm.locator("#panel h2")).to_be_focused()
        expect(gm.locator("#panel h2")).to_contain_text("Bo")
        if AXE.exists():
            assert not violations(gm)
        gm.set_viewport_size({"width": 390, "height": 844})
        gm.wait_for_timeout(200)
        assert gm.evaluate("document.documentElement.scrollWidth") <= 390
        if AXE.exists():
            assert not violations(gm)


ROSTER = '[[combatant]]\nname = "Vex"\nside = "pc"\ntracks = {hp = 12}\n\n' \
         '[[combatant]]\nname = "Hound"\ngroup = "hounds"\ncount = 2\n'


def test_the_evening_from_the_gm_page(tmp_path):
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    table(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, chromium() as browser, client(running, secret) as http:
        gm = opened_gm(browser, f"{running.url}/?token={secret}", 390, 844)
        before = len(log(db))
        # A hostile roster: refused whole with one line, nothing appended.
        gm.fill("#new-id", "docks")
        hostile = b'[[combatant]]\nname = "Vex"\ncount = 1000000\n'
        gm.set_input_files("#new-roster", files=[{"name": "party.toml", "mimeType": "text/plain",
                                                  "buffer": hostile}])
        gm.get_by_role("button", name="Start encounter").click()
        expect(gm.locator("#message")).to_contain_text("party.toml: combatant 1 (Vex)")
        expect(gm.locator("#message")).to_contain_text("nothing of the roster was added")
        assert http.get("/api/encounters/docks/status").status_code == 404
        assert len(log(db)) == before
        # A good one: the page goes to the new encounter.
        gm.set_input_files("#new-roster", files=[{"name": "party.toml", "mimeType": "text/plain",
                                                  "buffer": ROSTER.encode()}])
        gm.fill("#new-title", "The docks")
        gm.get_by_role("button", name="Start encounter").click()
        expect(gm.locator("#message")).to_contain_text("✓ docks started from party.toml")
        expect(gm.locator("#title")).to_have_text("The docks")
        expect(gm.locator('#order .member[data-id="vex"]')).to_contain_text("hp 12/12")
        expect(gm.locator("#encounter")).to_have_value("docks")
        # On the table, then archived and back.
        gm.get_by_role("button", name="Put on the table").click()
        expect(gm.locator("#message")).to_contain_text("docks is on the table")
        assert http.get("/api/table").json() == {"encounter": "docks"}
        gm.select_option("#encounter", E)
        expect(gm.locator("#title")).to_have_text("Warehouse raid")
        gm.get_by_role("button", name="Archive", exact=True).click()
        expect(gm.locator("#message")).to_contain_text(f"✓ {E} archived")
        # (its stream then ends, archived: this page's own archive is not told
        # again as an error over its answer)
        expect(gm.locator("#live")).to_have_class(re.compile("offline"))
        expect(gm.locator("#message")).to_contain_text(f"✓ {E} archived")
        assert [e["id"] for e in http.get("/api/encounters").json()] == ["docks"]
        expect(gm.locator("#encounter option", has_text=re.compile(r"\(archived\)"))).to_have_count(1)
        gm.get_by_role("button", name="Unarchive").click()
        expect(gm.locator("#message")).to_contain_text(f"✓ {E} is back")
        assert sorted(e["id"] for e in http.get("/api/encounters").json()) == ["docks", E]
        assert gm.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_panel_keeps_what_is_typed_and_the_keys_keep_the_focus(tmp_path):
    """Another device's declaration redraws the page: the label being typed
    and the cost chosen stay, and a row with the focus keeps it after a key."""
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    table(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, chromium() as browser, client(running, secret) as http:
        rolled(http)
        gm = opened_gm(browser, f"{running.url}/?token={secret}")
        expect(gm.locator("#panel h2")).to_contain_text("Ash")
        gm.fill("#act-label", "dives for cover")
        gm.select_option("#interrupt-cost", "major")
        seq = log(db)[-1]["seq"]
        http.post(f"/api/encounters/{E}/commands", json={"command": "grit", "id": "boss", "delta": 1})
        gm.wait_for_function("seq => document.body.dataset.seq === String(seq)", arg=seq + 1)
        expect(gm.locator("#act-label")).to_have_value("dives for cover")
        expect(gm.locator("#interrupt-cost")).to_have_value("major")
        panel(gm, "Minor · 1 AP").click()
        done(gm, "Ash: minor action")
        assert log(db)[-1]["data"]["label"] == "dives for cover"
        expect(gm.locator("#act-label")).to_have_value("")  # declared: the box is empty again
        row = gm.locator('#order .member[data-id="ash"]')
        row.focus()
        seq = log(db)[-1]["seq"]
        gm.keyboard.press("n")
        gm.wait_for_function("seq => document.body.dataset.seq === String(seq)", arg=seq + 1)
        expect(row).to_be_focused()  # (the rows were drawn again)
        # Who leaves keeps a row (after the order), to rejoin from.
        choose(gm, "boss")
        panel(gm, "Leaves").click()
        done(gm, "Boss leaves")
        expect(gm.locator('#order li.off .member[data-id="boss"]')).to_contain_text("left")
        choose(gm, "boss")
        panel(gm, "Rejoins").click()
        done(gm, "Boss rejoins")
        expect(gm.locator('#order li.off .member[data-id="boss"]')).to_have_count(0)
        before = len(log(db))
        gm.locator("#line").focus()  # typing in the command box is no key
        gm.keyboard.press("n")
        expect(gm.locator("#line")).to_have_value("n")
        gm.wait_for_timeout(300)
        assert len(log(db)) == before


def test_several_rows_chosen_take_one_change_and_one_undo(tmp_path):
    """Boxes on the rows choose several combatants; −N, +N and a condition
    are one declaration for all of them (one batch), Undo takes it back in
    one step, a refusal names the target, and Clear empties the choice."""
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    table(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, chromium() as browser, client(running, secret) as http:
        for who in ("boss", "ganger-1", "ganger-2"):
            assert http.post(f"/api/encounters/{E}/commands", json={
                "command": "track", "id": who, "name": "hp", "value": 5, "max": 5}).status_code == 200
        gm = opened_gm(browser, f"{running.url}/?token={secret}", width=390)
        several = gm.locator("#several")
        expect(several).to_be_hidden()
        for name in ("Boss", "Ganger 1", "Ganger 2"):
            gm.get_by_label(f"choose {name} for several at once").check()
        expect(several).to_contain_text("3 chosen: Boss, Ganger 1, Ganger 2")
        gm.fill('#several input[aria-label="by how much"]', "3")
        several.get_by_role("button", name="−3", exact=True).click()
        done(gm, "✓ Boss, Ganger 1, Ganger 2: hp −3")
        last = log(db)[-3:]
        assert [(e["data"]["combatant"], e["data"]["delta"]) for e in last] == [
            ("boss", -3), ("ganger-1", -3), ("ganger-2", -3)]
        assert len({e["batch"] for e in last}) == 1
        for who in ("boss", "ganger-1", "ganger-2"):
            expect(gm.locator(f'#order .member[data-id="{who}"]')).to_contain_text("hp 2/5")
        # the choice stays over the redraw; past 0 each track stops at 0
        expect(gm.get_by_label("choose Boss for several at once")).to_be_checked()
        several.get_by_role("button", name="−3", exact=True).click()
        for who in ("boss", "ganger-1", "ganger-2"):
            expect(gm.locator(f'#order .member[data-id="{who}"]')).to_contain_text("hp 0/5")
        last = log(db)[-3:]
        assert [(e["data"]["delta"], e["data"]["asked"]) for e in last] == [(-2, -3)] * 3
        # a refusal names the one refused
        several.get_by_role("button", name="−3", exact=True).click()
        expect(gm.locator("#message")).to_contain_text("Boss's hp is 0 already")
        count = len(log(db))
        assert log(db)[-1]["seq"] == last[-1]["seq"]  # nothing appended
        gm.locator("#gm-buttons").get_by_role("button", name="Undo", exact=True).click()
        done(gm, "✓ undone")
        assert all(e["undone"] for e in log(db)[-4:-1]) and len(log(db)) == count + 1
        expect(gm.locator('#order .member[data-id="boss"]')).to_contain_text("hp 2/5")
        # a condition on the two gangers, one batch
        gm.get_by_label("choose Boss for several at once").uncheck()
        expect(several).to_contain_text("2 chosen: Ganger 1, Ganger 2")
        gm.fill('#several input[aria-label="a condition on every one chosen"]', "stunned")
        gm.fill('#several input[aria-label="for how many rounds, on every one chosen"]', "1")
        several.get_by_role("button", name="Add condition").click()
        done(gm, "✓ Ganger 1, Ganger 2: stunned")
        applied = log(db)[-2:]
        assert [e["type"] for e in applied] == ["EffectApplied"] * 2
        assert applied[0]["batch"] == applied[1]["batch"]
        assert violations(gm) == []
        gm.screenshot(path=str(tmp_path / "several-390.png"), full_page=True)
        gm.keyboard.press("Escape")  # clears the choice
        expect(several).to_be_hidden()
        expect(gm.get_by_label("choose Ganger 1 for several at once")).not_to_be_checked()


def test_r21_end_turn_of_a_turn_with_nothing_spent_asks_before_it_ends_it(tmp_path):
    # The button ends a turn nothing was spent in only once the GM confirms:
    # a reflexive click never skips Ash (nor starts the next turn).
    from playwright.sync_api import expect
    db = tmp_path / "table.db"
    table(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, chromium() as browser, client(running, secret) as http:
        rolled(http)
        before = len(log(db))
        refused = post(http, {"command": "end-turn", "careful": True})
        assert refused.status_code == 409
        assert refused.json() == {
            "error": "ash has spent no AP in this turn yet: `end-turn ash` ends it (R21)",
            "confirm": {"command": "end-turn", "id": "ash"},
            "why": "ash has spent no AP in this turn yet (R21)"}
        gm = opened_gm(browser, f"{running.url}/?token={secret}")
        gm.fill("#line", "undo --dry-run")  # the command box says what a dry run would do
        gm.locator("#line").press("Enter")
        expect(gm.locator("#message")).to_contain_text("dry run, nothing appended: seq")
        gm.locator("#gm-buttons").get_by_role("button", name="End turn").click()
        expect(gm.locator("#confirm")).to_contain_text("Ash has spent no AP in this turn yet")
        assert len(log(db)) == before
        gm.locator("#confirm").get_by_role("button", name="End Ash's turn").click()
        step(gm, http, "✓ turn ended")
        assert log(db)[-1]["type"] == "TurnEnded" and log(db)[-1]["data"]["combatant"] == "ash"
        assert rows_follow_the_order(gm, http, True)["acting"] == "bo"
