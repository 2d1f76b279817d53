"""Portraits in the html report (docs/characters.md, "Portraits"): beside the
names, drawn small and carried in the file; the players' recap has no trace
of a hidden combatant's face."""
from __future__ import annotations

import base64
import io
import re

from eventlog.stores.memory import MemoryStore
from projections.domain import commands as c
from projections.ledger import Ledger
from projections.reports.html import write_html

from pictures import image, noise_png


def fight():
    store = MemoryStore()
    rook = store.add_portrait("image/png", noise_png(400))  # a big one: drawn small
    shade = store.add_portrait("image/jpeg", image("JPEG", (80, 60), (120, 0, 90)))
    ledger = Ledger(store)
    ledger.execute(None, c.New(id="alley", title="Alley"), "gm")
    ledger.execute("alley", c.Load(combatant=[
        c.RosterCombatant(name="Rook", side="pc", portrait=rook),
        c.RosterCombatant(name="Mara Quinn", id="mara", side="pc"),
        c.RosterCombatant(name="Shade", id="shade", hidden=True, portrait=shade)]), "gm")
    return ledger


def report(ledger, audience: str) -> str:
    out = io.StringIO()
    write_html(ledger, "alley", out, audience=audience)
    return out.getvalue()


def faces(page: str) -> dict[str, str]:
    """{combatant: "image" or initials} of the per-combatant table's rows."""
    rows = re.findall(r'<tr data-combatant="([a-z-]+)"><td><span class="face" aria-hidden="true">'
                      r'(<img src="data:image/webp;base64,([^"]+)"|[A-Z?]+)', page)
    return {cid: "image" if data else face for cid, face, data in rows}


def test_portrait_report_of_the_gm_has_every_face_drawn_small():
    page = report(fight(), "gm")
    assert faces(page) == {"rook": "image", "mara": "MQ", "shade": "image"}
    from PIL import Image
    for data in set(re.findall(r'src="data:image/webp;base64,([^"]+)"', page)):
        with Image.open(io.BytesIO(base64.b64decode(data))) as small:
            assert small.format == "WEBP" and small.size == (96, 96)
    assert len(page) < 200_000  # (the 480 KB portrait is not carried whole)


def test_portrait_report_of_the_players_has_no_hidden_face():
    page = report(fight(), "players")
    cards = re.findall(r'<div class="card highlight" data-combatant="([a-z-]+)">\s*<div class='
                       r'"value"><span class="face" aria-hidden="true">(<img|[A-Z]+)', page)
    assert dict(cards) == {"rook": "<img", "mara": "MQ"}
    assert "Shade" not in page and page.count("data:image/webp") == 1
