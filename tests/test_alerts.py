"""Alerts at the table (docs/guide.md, "Alerts"): a player's phone says
"your turn" and "you're on deck" by vibration, a short sound (off until
switched on) and its title, and keeps the screen awake during the turn; the
TV speaks whose turn it is when switched on. The device's APIs are stubbed
in Chromium and each call recorded. And `on_deck` in a player's answers."""
from __future__ import annotations

import json

import httpx
import pytest
from httpx_sse import connect_sse

from browser import CHROMIUM, chromium
from serverkit import E, client, messages, post, served_table

# Every device API an alert may use, recorded in window.calls.
STUBS = """
window.calls = [];
const note = (...call) => window.calls.push(call);
Object.defineProperty(navigator, "vibrate", {configurable: true,
  value: (pattern) => { note("vibrate", JSON.stringify(pattern)); return true; }});
class Audio {
  constructor() { note("audio"); this.currentTime = 0; this.state = "running"; this.destination = {}; }
  resume() { return Promise.resolve(); }
  createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}},
                         connect: (next) => next}; }
  createOscillator() {
    const osc = {frequency: {value: 0}, connect: (next) => next, stop() {},
                 start: () => note("beep", osc.frequency.value)};
    return osc;
  }
}
window.AudioContext = Audio;
window.webkitAudioContext = Audio;
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {request: (kind) => {
  note("wake", kind);
  return Promise.resolve({release: () => { note("release"); return Promise.resolve(); },
                          addEventListener() {}});
}}});
window.SpeechSynthesisUtterance = function (text) { this.text = text; };
Object.defineProperty(window, "speechSynthesis", {configurable: true,
  value: {speak: (u) => note("speak", u.text), cancel() {}}});
"""

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (.ci/run installs it)")


def device(browser, url: str, width: int = 390):
    context = browser.new_context(viewport={"width": width, "height": 844}, bypass_csp=True)
    context.add_init_script(STUBS)
    opened = context.new_page()
    opened.goto(url)
    opened.wait_for_selector("body[data-seq]")
    return opened


def calls(opened, kind: str | None = None) -> list:
    made = opened.evaluate("window.calls")
    return [c for c in made if kind is None or c[0] == kind]


def heard(opened, *call) -> None:
    """Wait until the page has made `call` (its arguments as recorded)."""
    opened.wait_for_function("(want) => window.calls.some((c) => JSON.stringify(c) === want)",
                             arg=json.dumps(list(call), separators=(",", ":")), timeout=5000)


def switch(opened, name: str):
    return opened.locator(f'#alerts button[data-alert="{name}"]')


def rolled(gm) -> None:
    """Boss (11) acts first, then Ash (10), Bo (7), the gangers (1)."""
    for slot, die in (("boss", 10), ("ash", 8), ("bo", 5), ("gangers", 1)):
        assert post(gm, {"command": "roll", "slots": [slot], "die": die}).status_code == 200


def test_alerts_fire_for_on_deck_and_your_turn_and_nothing_when_switched_off(tmp_path):
    from playwright.sync_api import expect
    with served_table(tmp_path / "t.db", {"ash": ("ana", "ash"), "bo": ("ben", "bo")}) as running, \
            chromium() as browser:
        gm = client(running, running.secrets["gm"])
        rolled(gm)
        ana = device(browser, f"{running.url}/?token={running.secrets['ash']}")
        ben = device(browser, f"{running.url}/?token={running.secrets['bo']}")
        tv = device(browser, f"{running.url}/?token={running.secrets['tv']}", 1280)
        expect(switch(ana, "vibrate")).to_have_text("Vibrate: on")  # the defaults
        expect(switch(ana, "sound")).to_have_text("Sound: off")
        expect(switch(tv, "speak")).to_have_text("Speak turns: off")
        switch(ana, "sound").click()  # on: a sample now
        heard(ana, "beep", 520)
        switch(ben, "vibrate").click()  # off, and the sound stays off
        expect(switch(ben, "vibrate")).to_have_attribute("aria-pressed", "false")
        switch(tv, "speak").click()
        heard(tv, "speak", "turns will be spoken")

        assert post(gm, {"command": "round"}).status_code == 200  # Boss up, Ash on deck
        heard(ana, "vibrate", "120")
        expect(ana).to_have_title("On deck · combat-ledger · ana")
        assert calls(ana, "beep") == [["beep", 520], ["beep", 520]]
        heard(tv, "speak", "Boss, your turn")

        assert post(gm, {"command": "end-turn"}).status_code == 200  # Ash up, Bo on deck
        heard(ana, "vibrate", "[200,100,200]")
        heard(ana, "wake", "screen")
        expect(ana).to_have_title("● Your turn · combat-ledger · ana")
        assert [c[1] for c in calls(ana, "beep")][-2:] == [660, 880]
        expect(ben).to_have_title("On deck · combat-ledger · ben")
        heard(tv, "speak", "Ash, your turn")

        assert post(gm, {"command": "end-turn"}).status_code == 200  # Bo up
        heard(ana, "release")  # the screen may sleep again after Ash's turn
        expect(ben).to_have_title("● Your turn · combat-ledger · ben")
        heard(ben, "wake", "screen")
        assert calls(ben, "vibrate") == [] and calls(ben, "audio") == []  # switched off
        heard(tv, "speak", "Bo, your turn")

        ana.reload()  # the switches are the device's
        ana.wait_for_selector("body[data-seq]")
        expect(switch(ana, "sound")).to_have_attribute("aria-pressed", "true")
        expect(switch(ben, "sound")).to_have_attribute("aria-pressed", "false")
        assert calls(ana, "vibrate") == [] and calls(ana, "audio") == []  # just opened: quiet
        ana.locator("#state").click()  # the first tap readies the sound the switch keeps on
        heard(ana, "audio")


def test_the_tv_is_silent_and_the_phones_quiet_by_default(tmp_path):
    from playwright.sync_api import expect
    with served_table(tmp_path / "t.db") as running, chromium() as browser:
        gm = client(running, running.secrets["gm"])
        rolled(gm)
        ana = device(browser, f"{running.url}/?token={running.secrets['ash']}")
        tv = device(browser, f"{running.url}/?token={running.secrets['tv']}", 1280)
        gm_page = device(browser, f"{running.url}/?token={running.secrets['gm']}", 1280)
        for command in ({"command": "round"}, {"command": "end-turn"}):
            assert post(gm, command).status_code == 200
        expect(ana).to_have_title("● Your turn · combat-ledger · ana")
        expect(tv.locator("#state")).to_contain_text("up: Ash")
        assert calls(ana, "audio") == [] and calls(tv, "speak") == []
        assert calls(ana, "vibrate") == [["vibrate", "120"], ["vibrate", "[200,100,200]"]]
        assert calls(gm_page) == [] and gm_page.locator("#alerts").is_hidden()


def test_a_players_answers_say_who_is_on_deck_and_the_gms_do_not(tmp_path):
    with served_table(tmp_path / "t.db", {"ash": ("ana", "ash"), "bo": ("ben", "bo")}) as running:
        gm = client(running, running.secrets["gm"])
        rolled(gm)
        ben = client(running, running.secrets["bo"])
        assert ben.get(f"/api/encounters/{E}/status").json()["on_deck"] == []  # no round yet
        for ganger in ("ganger-1", "ganger-2"):
            assert post(gm, {"command": "hide", "id": ganger}).status_code == 200
        started = post(gm, {"command": "round"}).json()["status"]
        assert "on_deck" not in started and "on_deck" not in gm.get(f"/api/encounters/{E}/status").json()
        ended = post(ben, {"command": "end-turn", "id": "bo"})  # not Bo's turn: refused
        assert ended.status_code == 409
        assert post(gm, {"command": "end-turn"}).status_code == 200  # Ash up, Bo on deck
        assert post(ben, {"command": "act", "id": "bo", "cost": "free"}).json()["status"]["on_deck"] == ["bo"]
        with connect_sse(ben, "GET", f"/api/encounters/{E}/stream",
                         timeout=httpx.Timeout(15)) as source:
            first = json.loads(next(messages(source)).data)
        assert first["up"] == ["ash"] and first["on_deck"] == ["bo"]
        assert post(gm, {"command": "end-turn"}).status_code == 200  # Bo up, the gangers next
        assert ben.get(f"/api/encounters/{E}/status").json()["on_deck"] == []  # (hidden)


def test_r23_a_turn_again_in_the_next_pass_is_news_and_a_group_slot_is_called_once(tmp_path):
    from playwright.sync_api import expect
    with served_table(tmp_path / "t.db") as running, chromium() as browser:
        gm = client(running, running.secrets["gm"])
        for slot, die in (("ash", 9), ("gangers", 8), ("bo", 5), ("boss", 1)):
            assert post(gm, {"command": "roll", "slots": [slot], "die": die}).status_code == 200
        ana = device(browser, f"{running.url}/?token={running.secrets['ash']}")
        tv = device(browser, f"{running.url}/?token={running.secrets['tv']}", 1280)
        switch(tv, "speak").click()
        heard(tv, "speak", "turns will be spoken")
        for command in ({"command": "round"},  # Ash, then the gangers, Bo, Boss
                        {"command": "act", "id": "ash", "cost": "minor"}, {"command": "end-turn"},
                        {"command": "act", "id": "ganger-1", "cost": "minor"}, {"command": "end-turn"},
                        {"command": "act", "id": "ganger-2", "cost": "minor"}, {"command": "end-turn"},
                        {"command": "end-turn"}, {"command": "end-turn"}):  # Bo, Boss: pass 2
            assert post(gm, command).status_code == 200, command
        expect(tv.locator("#state")).to_contain_text("pass 2 · up: Ash")
        heard(ana, "vibrate", "[200,100,200]")
        ana.wait_for_function("window.calls.filter((c) => c[0] === 'vibrate').length >= 3")
        assert [c[1] for c in calls(ana, "vibrate")] == [  # on deck in Boss's turn, for pass 2
            "[200,100,200]", "120", "[200,100,200]"]
        for who, ap in (("bo", 3), ("boss", 3), ("ganger-1", 2), ("ganger-2", 2)):
            assert post(gm, {"command": "adjust-ap", "id": who, "delta": -ap,
                             "reason": "spent"}).status_code == 200
        for command in ({"command": "act", "id": "ash", "cost": "minor"}, {"command": "end-turn"}):
            assert post(gm, command).status_code == 200  # pass 3: Ash alone has AP left
        expect(tv.locator("#state")).to_contain_text("pass 3 · up: Ash")
        ana.wait_for_function("window.calls.filter((c) => c[0] === 'vibrate').length >= 4")
        assert calls(ana, "vibrate")[-1] == ["vibrate", "[200,100,200]"]
        tv.wait_for_function("window.calls.filter((c) => c[0] === 'speak').length >= 7")
        assert [c[1] for c in calls(tv, "speak")] == [
            "turns will be spoken", "Ash, your turn", "Ganger 1 and Ganger 2, your turn",
            "Bo, your turn", "Boss, your turn", "Ash, your turn", "Ash, your turn"]
