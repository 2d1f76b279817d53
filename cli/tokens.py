"""Tokens of the table server, made and checked without any server library:
a token is 256 random bits, the store keeps its SHA-256 (hex) digest only,
and its name becomes the actor of what it declares (R29)."""
from __future__ import annotations

import hashlib
import hmac

from eventlog.errors import Refusal
from eventlog.stores.contract import Token

ROLES = ("gm", "player", "view")


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogateescape")).hexdigest()


def same(a: str, b: str) -> bool:
    """Two digests compared in constant time."""
    return hmac.compare_digest(a.encode(), b.encode())


def make(name: str, roles: list[str], owns: str | None,
         encounter: str | None) -> tuple[str, Token]:
    """A new secret and the Token the store keeps of it; Refusal for a bad name,
    role, owned id or encounter id."""
    import secrets

    from eventlog.codec import utc_now
    from eventlog.text import check_actor
    from projections.domain.rules import check_slug
    check_actor(name)
    if len(roles) != 1:
        raise Refusal("a token has one role: give exactly one of --gm, --player, --view")
    role = roles[0]
    ids = tuple(x.strip() for x in (owns or "").split(",") if x.strip())
    if role == "player" and not ids:
        raise Refusal("a player token declares for its own combatants: name them "
                      "with --owns ID[,ID...]")
    if role != "player" and owns is not None:
        raise Refusal(f"--owns is for a player token; a {role} token owns no combatants")
    if role != "gm" and name == "gm":
        raise Refusal("the name gm is the GM's (R3c, R29): name a player's or a "
                      "view's token after who holds it")
    for cid in ids:
        check_slug(cid, "combatant id")
    if encounter is not None:
        check_slug(encounter, "encounter id")
    secret = secrets.token_urlsafe(32)
    return secret, Token(name, role, ids, encounter, digest(secret), utc_now())
