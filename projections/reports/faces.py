"""The portraits of an encounter's combatants for the html report: each
drawn small (a 96-pixel thumbnail, WebP) and carried in the page itself as a
data: address, so the report stays one file that opens anywhere and a
2 MiB portrait does not make it a heavy one. Pillow is imported only when a
combatant of the report has a portrait."""
from __future__ import annotations

import base64
import io

SIDE = 96  # pixels: drawn at 28 px, sharp on a screen of three times the density


def faces(ledger, encounter: str, ids) -> dict[str, str]:
    """{combatant id: data: address} of those of `ids` with a portrait the
    store keeps (the caller has left out whoever the reader may not see)."""
    state = ledger.state(encounter)
    made: dict[str, str] = {}
    out = {}
    for cid in ids:
        combatant = state.combatants.get(cid)
        digest = combatant.portrait if combatant is not None else None
        if digest is None:
            continue
        if digest not in made:
            kept = ledger.store.portrait(digest)
            if kept is None:
                continue  # (a log imported from another store: its initials)
            made[digest] = "data:image/webp;base64," + base64.b64encode(
                _thumbnail(kept.data)).decode("ascii")
        out[cid] = made[digest]
    return out


def _thumbnail(data: bytes) -> bytes:
    from PIL import Image, ImageOps
    with Image.open(io.BytesIO(data), formats=["PNG", "JPEG", "WEBP"]) as image:
        small = ImageOps.fit(image.convert("RGB"), (SIDE, SIDE))
    out = io.BytesIO()
    small.save(out, "WEBP", quality=80)
    return out.getvalue()


def initials(name: str) -> str:
    """`Mara Quinn` -> `MQ`: the face of a combatant without a portrait."""
    words = str(name).split()
    return "".join(w[0] for w in words[:2]).upper() or "?"
