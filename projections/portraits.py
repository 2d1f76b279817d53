"""Who may see which portrait (docs/characters.md, "Portraits"). A portrait is
read by its digest, but not by just anyone who holds one: the GM sees every
portrait the store keeps; a player's or a view's token only those of the
combatants it sees, in the encounter it reaches, so a hidden combatant's
face never reaches a phone or the TV before it is revealed (the docs, "What
the players see")."""
from __future__ import annotations

from eventlog.errors import LedgerError
from eventlog.language import _
from eventlog.stores.records import Portrait, Token
from projections.access import reaches
from projections.domain.ranges import DIGEST
from projections.domain.state import State
from projections.visible import secret


class NoPortrait(LedgerError):
    """No portrait with this digest that the token may see (404)."""


def seen(state: State, everything: bool) -> dict[str, str]:
    """{combatant id: portrait digest} of the combatants with a portrait,
    less the secret ones unless `everything` (the GM)."""
    hidden = frozenset() if everything else secret(state)
    return {cid: c.portrait for cid, c in state.combatants.items()
            if c.portrait is not None and cid not in hidden}


def shown_to(ledger, token: Token, digest: str) -> Portrait:
    """The portrait `digest` names if `token` may see it; NoPortrait (the same
    words whether it is not kept or not the token's to see) otherwise."""
    missing = NoPortrait(_("no portrait {digest!r} here (a portrait is named by the SHA-256 "
                           "of its image)").format(digest=digest[:16]))
    if not DIGEST.match(digest):
        raise missing
    store = ledger.store
    if token.role != "gm":
        reached = [token.encounter] if token.encounter is not None else []
        if not any(reaches(token, e) and not store.is_archived(e) and _in(ledger, e, digest)
                   for e in reached):
            raise missing
    kept = store.portrait(digest)
    if kept is None:
        raise missing
    return kept


def _in(ledger, encounter: str, digest: str) -> bool:
    from eventlog.errors import UnknownEncounter
    try:
        return digest in seen(ledger.state(encounter), everything=False).values()
    except UnknownEncounter:
        return False


def keep(store, sheets) -> list[str | None]:
    """Keep the portrait of each sheet (projections/inputs/sheets.Sheet) in
    the store, before the declaration that names them: the digest of each,
    None where a sheet has none. Keeping the same image again changes nothing."""
    return [None if s.portrait is None else store.add_portrait(s.portrait.media, s.portrait.data)
            for s in sheets]
