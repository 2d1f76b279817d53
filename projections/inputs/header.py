"""The json export's header: the format's own name and version and the
members before its events (docs/formats.md, the json export). The export
writes it; import and copy check a file by it."""
from __future__ import annotations

from projections.ledger import Ledger

FORMAT, VERSION = "combat-ledger", 1  # the export's own name and version


def header(ledger: Ledger, encounter: str) -> dict:
    """The export's members before its events (docs/formats.md, the json export)."""
    title = next((etitle for eid, etitle, _, _ in ledger.store.encounters()
                  if eid == encounter), "")
    head, digest = ledger.store.head(encounter)
    state = ledger.state(encounter)  # (the kept snapshot: no walk of the log)
    return {"format": FORMAT, "version": VERSION,
            "encounter": {"id": encounter, "title": title, "events": head,
                          "head_hash": digest,
                          "left": [cid for cid, c in state.combatants.items() if not c.active]}}
