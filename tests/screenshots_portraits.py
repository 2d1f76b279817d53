"""Screenshots of the portraits on the table server's pages, at 390 px (a
phone) and 1280 px: `python tests/screenshots_portraits.py [FOLDER]`
(default docs/screens). A fight whose PCs came with portraits (the fixtures
of tests/fixtures/sheets), one PC and the gangers without (their initials),
and Shade, hidden: on the GM's console with its face, nowhere else."""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from browser import chromium, page  # noqa: E402
from eventlog.stores import open_store  # noqa: E402
from projections.domain import commands as c  # noqa: E402
from projections.joining import put_on_table  # noqa: E402
from projections.ledger import Ledger  # noqa: E402
from pictures import image  # noqa: E402
from serverkit import E, client, post, served, token  # noqa: E402

ART = HERE / "fixtures" / "sheets" / "portraits"
PAGES = {"player": ("ana", "player", "rook"), "view": ("tv", "view", None),
         "gm": ("gm", "gm", None)}
WIDTHS = {390: 844, 1280: 800}
MEDIA = {".png": "image/png", ".webp": "image/webp", ".jpg": "image/jpeg"}


def portrait_table(db) -> dict[str, str]:
    """Rook, Vex and Mara (PCs; Mara's face a JPEG), Tom (a PC without one),
    the Boss, two gangers, and Shade, hidden, with a face of its own:
    {id: digest}."""
    store = open_store(db)
    try:
        kept = {p.stem: store.add_portrait(MEDIA[p.suffix], p.read_bytes())
                for p in sorted(ART.iterdir())}
        kept["shade"] = store.add_portrait("image/png", image("PNG", (64, 64), (90, 30, 120)))
        ledger = Ledger(store)
        ledger.execute(None, c.New(id=E, title="Warehouse raid"), "gm")
        ledger.execute(E, c.Load(combatant=[
            c.RosterCombatant(name="Rook", side="pc", bonus=5, portrait=kept["rook"]),
            c.RosterCombatant(name="Vex", side="pc", bonus=3, grit=2, portrait=kept["vex"]),
            c.RosterCombatant(name="Mara Quinn", id="mara", side="pc", bonus=2,
                              portrait=kept["mara"]),
            c.RosterCombatant(name="Old Tom", id="tom", side="pc", bonus=1),
            c.RosterCombatant(name="Boss", bonus=1),
            c.RosterCombatant(name="Ganger", group="gangers", count=2),
            c.RosterCombatant(name="Shade", id="shade", hidden=True, portrait=kept["shade"])]), "gm")
        put_on_table(store, E)
    finally:
        store.close()
    return kept


def play(running, secret: str) -> None:
    with client(running, secret) as gm:
        for slot, die in (("rook", 9), ("vex", 6), ("mara", 4), ("tom", 2), ("boss", 3),
                          ("gangers", 2), ("shade", 8)):
            assert post(gm, {"command": "roll", "slots": [slot], "die": die}).status_code == 200
        for command in ({"command": "track", "id": "rook", "name": "hp", "value": 17, "max": 24},
                        {"command": "round"},
                        {"command": "act", "id": "rook", "cost": "major", "label": "shoots"}):
            assert post(gm, command).status_code == 200


def shoot(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    db = Path(tempfile.mkdtemp(prefix="combat-faces-")) / "table.db"
    portrait_table(db)
    secrets = {kind: token(db, name, role, owns) for kind, (name, role, owns) in PAGES.items()}
    made = []
    with served(db) as running:
        play(running, secrets["gm"])
        with chromium() as browser:
            for kind, secret in secrets.items():
                for width, height in WIDTHS.items():
                    opened = page(browser, f"{running.url}/?token={secret}", width, height)
                    opened.wait_for_selector(".face.drawn img")
                    opened.wait_for_timeout(600)  # (every image decoded)
                    if kind == "gm" and width > 390:  # (on a phone the panel is below)
                        opened.locator('.member[data-id="rook"]').first.click()
                    shot = folder / f"portraits-{kind}-{width}.png"
                    opened.screenshot(path=str(shot))
                    opened.context.close()
                    made.append(shot)
    return made


if __name__ == "__main__":
    for shot in shoot(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parent / "docs" / "screens"):
        print(shot)
