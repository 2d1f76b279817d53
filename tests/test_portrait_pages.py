"""Portraits on the pages, in Chromium (docs/characters.md, "Portraits"): beside
each name on the TV, the player's page and the GM's console, the initials
where there is none; a hidden combatant's portrait is never even requested
by a player's page or the TV until it is revealed."""
from __future__ import annotations

import pytest

from browser import CHROMIUM, chromium, page
from screenshots_portraits import play, portrait_table
from serverkit import E, client, post, served, token

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")


@pytest.fixture(scope="module")
def table_served(tmp_path_factory):
    db = tmp_path_factory.mktemp("faces") / "table.db"
    digests = portrait_table(db)
    secrets = {"gm": token(db, "gm", "gm"), "player": token(db, "ana", "player", "rook"),
               "view": token(db, "tv", "view")}
    with served(db) as running:
        play(running, secrets["gm"])
        with chromium() as browser:
            yield running, browser, secrets, digests


def opened(table_served, role: str, width: int = 1280):
    running, browser, secrets, digests = table_served
    asked: list[str] = []
    shown = page(browser, "about:blank", width, 800)
    shown.on("request", lambda r: asked.append(r.url))
    shown.goto(f"{running.url}/?token={secrets[role]}")
    shown.wait_for_selector('#order .face.drawn[data-face="rook"] img')
    return shown, asked, digests


def faces(shown) -> dict[str, str]:
    """{combatant: "image" or its initials} of the order's rows."""
    return shown.eval_on_selector_all(
        "#order .face", "els => Object.fromEntries(els.map(e => [e.dataset.face, "
                        "e.querySelector('img') && e.querySelector('img').naturalWidth > 0 "
                        "? 'image' : e.textContent]))")


@pytest.mark.parametrize("role", ["view", "player"])
def test_portrait_pages_of_the_players_never_ask_for_a_hidden_face(table_served, role):
    shown, asked, digests = opened(table_served, role)
    try:
        shown.wait_for_timeout(300)
        assert faces(shown) == {"rook": "image", "vex": "image", "mara": "image", "tom": "OT",
                                "boss": "B", "ganger-1": "G1", "ganger-2": "G2"}
        assert not [url for url in asked if digests["shade"] in url]
        assert shown.locator('#order [data-face="shade"]').count() == 0
    finally:
        shown.context.close()


def test_portrait_pages_the_gm_sees_every_face(table_served):
    shown, asked, digests = opened(table_served, "gm", 390)
    try:
        shown.wait_for_selector('#order .face.drawn[data-face="shade"] img')
        shown.wait_for_timeout(300)
        assert faces(shown)["shade"] == "image" and faces(shown)["tom"] == "OT"
        box = shown.locator('#order .face[data-face="rook"]').bounding_box()
        assert box["width"] == box["height"] and 20 <= box["width"] <= 48  # small and round
        assert shown.eval_on_selector('#order .face[data-face="rook"]',
                                      "e => getComputedStyle(e).borderRadius") == "50%"
    finally:
        shown.context.close()


def test_portrait_of_a_revealed_combatant_appears_on_the_tv(table_served):
    running, _, secrets, digests = table_served
    shown, asked, _ = opened(table_served, "view")
    try:
        with client(running, secrets["gm"]) as gm:
            assert post(gm, {"command": "reveal", "id": "shade"}).status_code == 200
        shown.wait_for_selector('#order .face.drawn[data-face="shade"] img')
        assert any(digests["shade"] in url for url in asked)
    finally:
        with client(running, secrets["gm"]) as gm:
            post(gm, {"command": "hide", "id": "shade"})
        shown.context.close()


def test_portrait_pages_card_of_the_player_has_the_face(table_served):
    shown, _, _ = opened(table_served, "player", 390)
    try:
        shown.wait_for_selector('#mine h2 .face.big.drawn img')
    finally:
        shown.context.close()
