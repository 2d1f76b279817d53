"""A phone's buttons follow every status message, in Chromium: a long
random fight (seeded) is declared through the API by the GM and two
players, and after every declaration each phone's enabled buttons (Roll,
Minor, Major, End turn, Seize, Interrupt) are what the server's `mine.may`
says for that player: a hidden boss shown and hidden again (a player's seq
may go down), a phone's stream closed a while and opened again, a reload."""
from __future__ import annotations

import random

import pytest

from browser import CHROMIUM, chromium
from serverkit import E, client, post, served_table
from test_players import phone

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (.ci/run installs it)")

PLAYERS = {"ash": ("ana", "ash"), "bo": ("ben", "bo")}
VERBS = ("roll", "act", "end-turn", "seize", "interrupt")

# What a phone's cards enable, as the may verbs they send; the page's seq.
SHOWN = """() => {
  const verb = { "Enter roll": "roll", "Roll for me": "roll", "Minor · 1 AP": "act",
                 "Major · 2 AP": "act", "End turn": "end-turn", "Seize · 1 Grit": "seize",
                 "Interrupt": "interrupt" };
  const cards = {};
  for (const card of document.querySelectorAll("#mine [data-card]")) {
    const on = new Set([...card.querySelectorAll("button")].filter((b) => !b.disabled && verb[b.textContent])
                                                              .map((b) => verb[b.textContent]));
    cards[card.dataset.card] = [...on].sort();
  }
  return { seq: document.body.dataset.seq, cards };
}"""


def expected(status: dict) -> dict:
    return {"seq": str(status["seq"]),
            "cards": {cid: sorted(set(m["may"]) & set(VERBS)) for cid, m in status["mine"].items()}}


def follows(page, status: dict) -> None:
    """The page shows `status`'s seq with exactly its `mine.may` enabled."""
    want = expected(status)
    try:
        page.wait_for_function(f"want => JSON.stringify(({SHOWN})()) === JSON.stringify(want)",
                               arg=want, timeout=10_000)
    except Exception:
        assert page.evaluate(SHOWN) == want  # (says what differs)
        raise


def a_declaration(rng: random.Random, gm: dict, mine: dict[str, dict]) -> tuple[str, dict]:
    """Someone's next declaration, legal or not (a refusal changes nothing)."""
    acting = [(who, cid) for who in sorted(mine) for cid, m in sorted(mine[who].items())
              if "act" in m["may"]]
    if acting and rng.random() < 0.75:  # a player whose turn it is plays it
        who, cid = rng.choice(acting)
        return who, _for(rng, cid, "act" if rng.random() < 0.7 else "end-turn", gm)
    if rng.random() < 0.4:
        who = rng.choice(sorted(mine))
        for cid, m in sorted(mine[who].items()):
            verbs = m["may"]
            if verbs and rng.random() < 0.8:
                return who, _for(rng, cid, rng.choice(verbs), gm)
    npcs = [c["id"] for c in gm["combatants"] if c["side"] == "npc"]
    up = [x for x in gm["up"] if x in npcs]
    roll = rng.random()
    if gm["phase"] == "setup" or gm["round_complete"]:
        if gm["ties"] and roll < 0.5:
            return "gm", {"command": "order", "slots": rng.sample(gm["ties"][0], len(gm["ties"][0]))}
        if any(c["initiative"] is None and not c["group"] for c in gm["combatants"]) and roll < 0.7:
            return "gm", {"command": "roll"}
        return "gm", {"command": "round"}
    if roll < 0.06:
        return "gm", {"command": "undo"}
    if roll < 0.09:  # the boss hidden from the players, or shown (undo may take either back)
        boss = next(c for c in gm["combatants"] if c["id"] == "boss")
        return "gm", {"command": "reveal" if boss["hidden"] else "hide", "id": "boss"}
    if roll < 0.12:
        return "gm", {"command": "seize", "id": rng.choice(npcs)}
    if roll < 0.2:
        return "gm", {"command": "interrupt", "id": rng.choice(npcs), "cost": "minor"}
    if up:
        who = rng.choice(up)
        return "gm", ({"command": "act", "id": who, "cost": rng.choice(["minor", "major"])}
                      if rng.random() < 0.6 else {"command": "end-turn", "id": who})
    if gm["up"]:
        return "gm", {"command": "end-turn", "id": rng.choice(gm["up"])}
    return "gm", {"command": "round"}


def _for(rng: random.Random, cid: str, verb: str, gm: dict) -> dict:
    if verb == "act":
        return {"command": "act", "id": cid, "cost": rng.choice(["minor", "major"])}
    if verb == "interrupt":
        return {"command": "interrupt", "id": cid, "cost": "minor"}
    if verb == "roll":
        return {"command": "roll", "slots": [cid], "die": rng.randint(1, 10)}
    if verb == "order":
        tie = next((t for t in gm["ties"] if cid in t), [cid])
        return {"command": "order", "slots": [cid, *(x for x in tie if x != cid)]}
    return {"command": verb, "id": cid}


@pytest.mark.parametrize("seed", [7, 40])
def test_a_phones_buttons_follow_mine_may_after_every_declaration(tmp_path, seed):
    rng = random.Random(seed)
    with served_table(tmp_path / "table.db", PLAYERS) as running, chromium() as browser:
        http = {who: client(running, running.secrets[who]) for who in ("gm", "ash", "bo")}
        phones = {who: phone(browser, f"{running.url}/?token={running.secrets[who]}") for who in ("ash", "bo")}
        declared, offline = 0, set()
        for step in range(120):
            gm = http["gm"].get(f"/api/encounters/{E}/status").json()
            mine = {who: http[who].get(f"/api/encounters/{E}/status").json()["mine"] for who in phones}
            who, command = a_declaration(rng, gm, mine)
            answer = post(http["gm" if who == "gm" else who], command)
            assert answer.status_code in (200, 409), (command, answer.text)
            if answer.status_code != 200:
                continue
            declared += 1
            if declared == 30:  # Ben's phone loses its stream for a while
                phones["bo"].evaluate("source.close()")
                offline.add("bo")
            elif declared == 45:  # (it missed what was declared meanwhile) and opens it again
                behind = phones["bo"].evaluate("document.body.dataset.seq")
                assert behind != str(http["bo"].get(f"/api/encounters/{E}/status").json()["seq"])
                phones["bo"].evaluate("listen()")  # (as app.js does after a stream closed)
                offline.discard("bo")
            elif declared == 60:
                phones["ash"].reload()
            for key, page in phones.items():
                if key not in offline:
                    follows(page, http[key].get(f"/api/encounters/{E}/status").json())
        assert declared >= 60


def test_a_phone_being_typed_in_still_follows_mine_may(tmp_path):
    """Ana types what Ash will do while the turn comes round to her: the
    buttons follow the status, and what she typed stays, with the focus."""
    from playwright.sync_api import expect
    with served_table(tmp_path / "table.db", PLAYERS) as running, chromium() as browser:
        gm, ana = client(running, running.secrets["gm"]), client(running, running.secrets["ash"])
        for slot, die in (("boss", 9), ("ash", 5), ("bo", 4), ("gangers", 1)):
            assert post(gm, {"command": "roll", "slots": [slot], "die": die}).status_code == 200
        assert post(gm, {"command": "round"}).status_code == 200
        page = phone(browser, f"{running.url}/?token={running.secrets['ash']}")
        follows(page, ana.get(f"/api/encounters/{E}/status").json())
        label = page.locator('[data-card="ash"] input.label')
        label.click()
        label.type("aims at the boss")
        assert post(gm, {"command": "act", "id": "boss", "cost": "major"}).status_code == 200
        assert post(gm, {"command": "end-turn", "id": "boss"}).status_code == 200
        status = ana.get(f"/api/encounters/{E}/status").json()
        assert "act" in status["mine"]["ash"]["may"]  # (Ash's turn)
        follows(page, status)
        expect(label).to_have_value("aims at the boss")
        expect(label).to_be_focused()
        page.locator('[data-card="ash"]').get_by_role("button", name="Major · 2 AP").click()
        expect(page.locator("#message")).to_contain_text("✓ Ash: major action")
        assert [e for e in gm.get(f"/api/encounters/{E}/log").json()][-1]["data"]["label"] == "aims at the boss"
