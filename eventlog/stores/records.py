"""The records a store hands over (rows, encounters, tokens, hooks,
portraits, snapshots), apart from the contract's Protocol (contract.py) so that a
command that only reads imports no typing machinery it does not use."""
from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

# The party's stream: kept beside the encounters' logs, under an id no
# encounter can take (an encounter id is a slug, and `~` is none), and left
# out of `encounters()`, so `list`, the pages and tokens never see it.
PARTY_STREAM = "~party"


class StoredEvent(NamedTuple):
    """One stored event as the store keeps it: `data` is the canonical bytes."""
    seq: int
    batch: int
    type: str
    at: str
    actor: str
    data: bytes
    prev_hash: str
    hash: str


class EncounterInfo(NamedTuple):
    id: str
    title: str
    created_at: str
    events: int  # the head seq


class FoldRow(NamedTuple):
    """What a fold reads of an event (streamed as plain tuples of this shape)."""
    seq: int
    batch: int
    type: str
    data: bytes


class Token(NamedTuple):
    """A table server token as the store keeps it: never the token itself,
    only its SHA-256 (hex) digest."""
    name: str                # unique in the store; becomes the event's actor (R29)
    role: str                # "gm", "player" or "view"
    owns: tuple[str, ...]    # the combatant ids a player declares for
    encounter: str | None    # the one encounter it reaches; None: every one
    digest: str              # hex SHA-256 of the token
    created_at: str
    language: str | None = None  # what its pages speak (`--lang`); None: the browser's


class JoinRequest(NamedTuple):
    """A phone's request to play a PC (the join page). It opens nothing: the
    GM's approval makes a player token of it (projections/joining.py). Only
    the digest of the secret the phone keeps is stored."""
    name: str          # the name the player gave; unique case-blind with the tokens'
    pc: str            # the PC asked for
    seat: str          # its name, as the join page showed it
    encounter: str
    life: str          # the hash of the encounter's first event: this life of its id
    digest: str        # hex SHA-256 of the phone's secret
    address: str       # the client address that asked (requests are bounded per address)
    asked_at: str
    expires_at: str
    state: str = "waiting"  # "waiting", "denied", or "given" (the seat went to `said`)
    said: str = ""


class TableChoice(NamedTuple):
    """The encounter the GM put on the table, in the life it had then."""
    encounter: str
    life: str


class Hook(NamedTuple):
    """A webhook of the table server (`combat hook add`): every batch of every
    encounter is POSTed to `url`, signed with `secret` (HMAC-SHA256), or, for
    a Discord hook, the turn and round changes in Discord's message format."""
    id: str                  # short, from the URL (what `hook list` shows, `hook remove` takes)
    url: str
    discord: bool
    secret: str              # shown once when added; kept to sign with
    created_at: str
    allow_private: bool = False  # `--allow-private`: a bot on the GM's own network


class Portrait(NamedTuple):
    """A portrait as the store keeps it: content-addressed, its bytes
    checked as an image before they reach the store (projections/portraits.py)."""
    digest: str   # hex SHA-256 of `data`: its only name
    media: str    # "image/png", "image/jpeg" or "image/webp"
    data: bytes


class Snapshot(NamedTuple):
    seq: int
    hash: str      # the chain hash of the event at `seq` when it was taken
    state: bytes


# Given the seq and hash of a batch's last event, the snapshot bytes to keep.
SnapshotMaker = Callable[[int, str], bytes]


# What `wait_changes` names among the encounters when the tokens changed (a
# token added or revoked, a join request, the table's choice): no encounter
# id can be it (ids are slugs), and a server re-reads its tokens, requests
# and the table's choice on it.
TOKENS_CHANGED = "(tokens)"
