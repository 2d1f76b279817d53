"""The fight as the players read it (docs/server.md, "What the players
see"), as a log of its own: what a report for the players is made from, so
its numbers, its story and its seq count only what a player's token reads,
the same as the players' log (projections/numbering.py) and as the fight
in which the hidden combatants never were."""
from __future__ import annotations

import msgspec

from eventlog.codec import GENESIS, Envelope, decode_data, envelope_dict, event_hash
from projections.history import envelope
from projections.ledger import Ledger
from projections.numbering import Lens
from projections.visible import Sieve


def players_ledger(ledger: Ledger, encounter: str) -> Ledger:
    """A ledger over a copy of `encounter`'s log as a player or a view reads
    it now, in memory: the events they read, numbered as they number them,
    what a hidden combatant did to another told without it (`by` null);
    times and actors as they were. The ledger itself when they read it all."""
    from eventlog.stores.memory import MemoryStore
    sieve = Sieve.of(ledger.state(encounter))
    if not sieve.hidden and not sieve.unseen:
        return ledger
    lens = Lens(sieve, marks=True)
    imported = ledger.store.imported(encounter)
    kept: list[Envelope] = []
    last, title = GENESIS, ""
    rows = ledger.store.rows(encounter)
    try:
        for row in rows:
            env = envelope(row)
            said = lens.read(envelope_dict(env, False))
            if said is None:
                continue
            data = decode_data(env.type, msgspec.json.encode(said["data"]))
            digest = event_hash(said["seq"], said["batch"], env.type, env.at, env.actor,
                                data, last)
            kept.append(Envelope(said["seq"], said["batch"], env.type, env.at, env.actor,
                                 data, last, digest))
            title = getattr(data, "title", title) if env.type == "EncounterCreated" else title
            last = digest
    finally:
        close = getattr(rows, "close", None)
        if close is not None:
            close()
    copy = MemoryStore("players")
    # (copied, not judged again: the fight was judged as it was played)
    copy.import_log(encounter, title, kept, lambda rows: None,
                    max((lens.seqs[s] for s in lens.seqs if s <= imported), default=0))
    return Ledger(copy)
