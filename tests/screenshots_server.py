"""The README's screenshots of the table server's pages, at 390 px (a phone)
and 1280 px: `python tests/screenshots_server.py [FOLDER]` (default docs/screens).
A warehouse raid in round 1: Bo has seized the moment and shot the boss
(hp, prone), Ash is up; and the join page a phone opens by the players' QR
code."""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from browser import chromium, page  # noqa: E402
from eventlog.stores import open_store  # noqa: E402
from projections.joining import put_on_table  # noqa: E402
from serverkit import E, client, post, served, table, token  # noqa: E402

PAGES = {"player": ("ana", "player", "ash"), "view": ("tv", "view", None), "gm": ("gm", "gm", None)}
WIDTHS = {390: 844, 1280: 800}
HEIGHTS = {("view", 1280): 720}  # a TV is 16:9


def shoot(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="combat-shots-"))
    db = work / "table.db"
    table(db)
    store = open_store(db)
    try:
        put_on_table(store, E)
    finally:
        store.close()
    secrets = {kind: token(db, name, role, owns) for kind, (name, role, owns) in PAGES.items()}
    made = []
    with served(db) as running:
        with client(running, secrets["gm"]) as gm:
            for slot, die in (("ash", 9), ("bo", 5), ("boss", 3), ("gangers", 2)):
                post(gm, {"command": "roll", "slots": [slot], "die": die})
            for command in ({"command": "track", "id": "ash", "name": "hp", "value": 12, "max": 12},
                            {"command": "track", "id": "boss", "name": "hp", "value": 20, "max": 20},
                            {"command": "round"}, {"command": "seize", "id": "bo"},
                            {"command": "act", "id": "bo", "cost": "major", "label": "shoots"},
                            {"command": "end-turn"},
                            {"command": "act", "id": "ash", "cost": "minor", "label": "takes cover"},
                            {"command": "track", "id": "boss", "name": "hp", "delta": -6,
                             "reason": "Bo's shot"},
                            {"command": "effect", "id": "boss", "name": "prone", "rounds": 1}):
                assert post(gm, command).status_code == 200
        with chromium() as browser:
            for kind, secret in secrets.items():
                for width, height in WIDTHS.items():
                    opened = page(browser, f"{running.url}/?token={secret}", width,
                                  HEIGHTS.get((kind, width), height))
                    opened.wait_for_selector("#order > li")
                    opened.wait_for_timeout(1200)  # (the turn timer has ticked)
                    shot = folder / f"{kind}-{width}.png"
                    opened.screenshot(path=str(shot))
                    opened.context.close()
                    made.append(shot)
            # a phone that has scanned the players' code: the join page
            opened = page(browser, f"{running.url}/join", 390, WIDTHS[390])
            opened.wait_for_selector("#seats input")
            opened.locator('input[value="bo"]').check()
            opened.fill("#name", "ben")
            shot = folder / "join-390.png"
            opened.screenshot(path=str(shot))
            opened.context.close()
            made.append(shot)
    return made


if __name__ == "__main__":
    for shot in shoot(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parent / "docs" / "screens"):
        print(shot)
