"""Screenshots of the pages in two languages at one table: the player's
page in German at 390 px (a phone set to German) and the GM's console in
English at 1280 px: `python tests/screenshots_german.py [FOLDER]` (default
docs/screens). The warehouse raid of screenshots_server.py, round 1."""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from browser import chromium  # noqa: E402
from eventlog.stores import open_store  # noqa: E402
from projections.joining import put_on_table  # noqa: E402
from serverkit import E, client, post, served, table, token  # noqa: E402

SHOTS = {"german-player-390.png": ("player", "de-DE", 390, 844),
         "german-gm-1280.png": ("gm", "en-US", 1280, 800)}
PLAYED = ({"command": "track", "id": "ash", "name": "hp", "value": 12, "max": 12},
          {"command": "track", "id": "boss", "name": "hp", "value": 20, "max": 20},
          {"command": "round"}, {"command": "seize", "id": "bo"},
          {"command": "act", "id": "bo", "cost": "major", "label": "shoots"},
          {"command": "end-turn"},
          {"command": "act", "id": "ash", "cost": "minor", "label": "takes cover"},
          {"command": "track", "id": "boss", "name": "hp", "delta": -6, "reason": "Bo's shot"},
          {"command": "effect", "id": "boss", "name": "prone", "rounds": 1})


def shoot(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    db = Path(tempfile.mkdtemp(prefix="combat-shots-")) / "table.db"
    table(db)
    store = open_store(db)
    try:
        put_on_table(store, E)
    finally:
        store.close()
    secrets = {"gm": token(db, "gm", "gm"), "player": token(db, "ana", "player", "ash")}
    made = []
    with served(db) as running:
        with client(running, secrets["gm"]) as gm:
            for slot, die in (("ash", 9), ("bo", 5), ("boss", 3), ("gangers", 2)):
                post(gm, {"command": "roll", "slots": [slot], "die": die})
            for command in PLAYED:
                assert post(gm, command).status_code == 200
        with chromium() as browser:
            for name, (kind, locale, width, height) in SHOTS.items():
                context = browser.new_context(viewport={"width": width, "height": height},
                                              locale=locale)
                opened = context.new_page()
                opened.goto(f"{running.url}/?token={secrets[kind]}")
                opened.wait_for_selector("#order > li")
                opened.wait_for_timeout(1200)  # (the turn timer has ticked)
                shot = folder / name
                opened.screenshot(path=str(shot))
                context.close()
                made.append(shot)
    return made


if __name__ == "__main__":
    for shot in shoot(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parent / "docs" / "screens"):
        print(shot)
