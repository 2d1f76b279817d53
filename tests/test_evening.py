"""A newcomer's evening from the README alone: the encounter made by the
README's `combat new` line, `combat serve --lan` (on 127.0.0.1: a test
contacts no other address), the GM on the console link it prints, three
phones (390 px) that scan the join page, pick PCs and ask, the GM approving
them from the console, and two rounds played from the phones and the
console."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest

from browser import CHROMIUM, chromium
from eventlog.stores import open_store
from projections.ledger import Ledger
from serverkit import ROOT, serve_lan, stop

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (.ci/run installs it)")

PLAYERS = {"ana": ("rook", 9), "ben": ("vex", 8), "cat": ("mara", 7)}  # who, their PC, its die
NPC_DICE = {"boss": 2, "gangers": 3, "drones": 1}
NPC_TURNS = {"boss": 4, "ganger-1": 3, "ganger-2": 3, "ganger-3": 3,
             "drone-1": 2, "drone-2": 2, "drone-3": 2, "drone-4": 2}  # all their AP at once


def readme_evening() -> list[list[str]]:
    """The commands of the README's evening, as words."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## An evening at the table"):]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [shlex.split(line, comments=True) for line in block.splitlines() if line.strip()]


def browse(browser, url: str, width: int):
    context = browser.new_context(viewport={"width": width, "height": 844 if width < 600 else 800},
                                  bypass_csp=True, has_touch=width < 600, is_mobile=width < 600)
    opened = context.new_page()
    opened.goto(url)
    return opened


def shown(opened) -> int:
    return int(opened.locator("body").get_attribute("data-seq") or 0)


def caught_up(opened, seq: int) -> None:
    """Wait until the page shows seq or later, as a person looks before acting."""
    try:
        opened.wait_for_function("(s) => Number(document.body.dataset.seq) >= s", arg=seq,
                                 timeout=30000)  # (CI's workers share 2 cores with Chromium)
    except Exception:  # what the page said instead, for whoever reads the failure
        said = opened.evaluate("document.querySelector('#message')?.textContent || ''")
        raise AssertionError(f"the page shows seq {shown(opened)}, not {seq} or later; "
                             f"it says {said!r}") from None


def landed(opened, action) -> int:
    """Do `action`; wait until the page shows a newer seq than before it."""
    before = shown(opened)
    action()
    caught_up(opened, before + 1)
    return shown(opened)


def typed(gm, line: str):
    def send():
        gm.fill("#line", line)
        gm.click("#line-form button")
    return send


def button(opened, pc: str, name: str):
    return opened.locator(f'[data-card="{pc}"]').get_by_role("button", name=name, exact=True)


def round_played(gm, phones) -> None:
    """Every PC spends its AP from its phone on its turn, every NPC from the
    console's command box, in the order the rules give."""
    from playwright.sync_api import expect
    latest = shown(gm)
    for turn in ("rook", "vex", "mara", *NPC_TURNS):
        if turn in NPC_TURNS:  # the GM types once the console shows the phones' turns
            caught_up(gm, latest)
            expect(gm.locator("#state")).to_contain_text("up: ")
            latest = landed(gm, typed(gm, f"act {turn} {NPC_TURNS[turn]}"))
            continue
        opened = next(p for p in phones.values() if p.locator(f'[data-card="{turn}"]').count())
        expect(opened.locator("#banner")).to_contain_text("Your turn")
        for cost in ("Major · 2 AP", "Major · 2 AP" if turn == "mara" else "Minor · 1 AP"):
            latest = max(latest, landed(opened, button(opened, turn, cost).click))
    expect(gm.locator("#state")).to_contain_text("round complete")


def test_a_newcomers_evening_from_the_readme(tmp_path):
    from playwright.sync_api import expect
    new, serve, approve = readme_evening()
    assert serve == ["combat", "serve", "--lan"] and approve[:3] == ["combat", "token", "approve"]
    db = tmp_path / "ledger.db"
    subprocess.run([sys.executable, "-m", "cli", "--db", str(db), *new[1:]], cwd=ROOT, check=True,
                   capture_output=True, env={"PATH": "/usr/bin:/bin", "XDG_STATE_HOME": str(tmp_path)})
    # (the encounter `combat new` made current, named: what puts the current
    # one on the table is tested where it is made)
    lines, server = serve_lan(db, "--encounter", new[2])
    try:
        join = re.search(r"players join at (\S+/join): scan it", "\n".join(lines)).group(1)
        console = lines[-3].removeprefix("GM console: ")
        with chromium() as browser:
            gm = browse(browser, console, 1280)
            expect(gm.locator("#evening")).to_be_visible()
            phones = {}
            for name, (pc, _) in PLAYERS.items():
                phones[name] = opened = browse(browser, join, 390)
                opened.locator(f'input[value="{pc}"]').check()
                opened.fill("#name", name)
                opened.get_by_role("button", name="Ask the GM").click()
                expect(opened.locator("#waiting")).to_contain_text(f"Waiting for the GM to let {name} in")
            for name, (pc, die) in PLAYERS.items():
                gm.get_by_role("button", name=f"Approve {name}").click()
                opened = phones[name]
                expect(opened.locator(f'[data-card="{pc}"]')).to_be_visible(timeout=10000)
                expect(opened).to_have_title(f"combat-ledger · {name}")
                opened.fill(f'[data-card="{pc}"] input.die', str(die))
                landed(opened, button(opened, pc, "Enter roll").click)
            for slot, die in NPC_DICE.items():
                landed(gm, typed(gm, f"roll {slot} --die {die}"))
            for number in (1, 2):
                gm.get_by_role("button", name="Next round", exact=True).click()
                landed(gm, lambda: gm.locator("#confirm").get_by_role(
                    "button", name="Start the next round").click())
                expect(gm.locator("#state")).to_contain_text(f"round {number} · pass 1")
                round_played(gm, phones)
    finally:
        stop(server)
    ledger = Ledger(open_store(db))
    try:
        events = ledger.event_dicts(new[2])
        state = ledger.state(new[2])
    finally:
        ledger.store.close()
    assert state.round == 2 and state.round_complete
    spent = {(e["actor"], e["data"]["combatant"]) for e in events if e["type"] == "APSpent"}
    assert spent == {*((name, pc) for name, (pc, _) in PLAYERS.items()),
                     *(("gm", npc) for npc in NPC_TURNS)}  # who declared, by their tokens (R29)
