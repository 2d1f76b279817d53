"""What each token reads of a status: the GM everything; a view and a player
what projections/visible.py leaves them (no hidden combatant before its
reveal); a player also `mine`, what the core says each owned combatant may
declare now (projections/domain/may.py), and `on_deck`, who is up next
(projections/domain/deck.py). A stream message is made once per
batch with all three, and each listener takes its own."""
from __future__ import annotations

from typing import NamedTuple

import msgspec

from eventlog.language import N_, _

from eventlog.stores.contract import Token
from projections.domain.deck import on_deck
from projections.domain.may import may, mine
from projections.reports.views import status
from projections.numbering import players_seq
from projections.visible import Sieve, secret, status_for_players


class Message(NamedTuple):
    seq: int
    data: str  # the status JSON after the batch ending at seq (the GM's)
    shown: str = ""  # what a player or a view reads of it ("": the same as data)
    may: dict = {}  # combatant id -> what a player may declare for it now
    deck: tuple = ()  # who a player reads is up next (domain/deck.py), secrets left out
    seen: int = -1  # seq in a player's numbering (projections/numbering.py; -1: seq)
    sieve: object = None  # what players may read as of this batch (projections/visible.py)
    frames: dict | None = None  # role view -> its whole SSE message, made once (frame_for)

    @property
    def players_seq(self) -> int:
        return self.seq if self.seen < 0 else self.seen


TABLE_SEQ = -1  # a message that is no batch: the encounter on the table changed


def table_message(encounter: str | None) -> Message:
    return Message(TABLE_SEQ, encode({"encounter": encounter}))


CLOSED_SEQ = -2  # a message that is no batch: the encounter left the store or was archived
ENDED = {"archived": N_("{e} was archived: `combat unarchive {e}` brings it back"),
         "deleted": N_("{e} was deleted from the store")}


def closed_message(encounter: str, why: str) -> Message:
    """A stream's last message: why it ends (`why` is a key of ENDED)."""
    return Message(CLOSED_SEQ, encode({"encounter": encounter, "reason": why,
                                       "error": _(ENDED[why]).format(e=encounter)}))


def encode(view: dict | list) -> str:
    return msgspec.json.encode(view).decode()


def message(state, owned: frozenset[str] | set[str] = frozenset(), ledger=None) -> Message:
    """The status after a batch, for every kind of reader; `owned`: the
    combatants some player token owns (their `may` is worked out). With
    the `ledger` it was read from, a player's seq is counted as players
    number the log (without: the store's, as for a state of no log)."""
    full = status(state)
    hidden = secret(state)
    counted = players_seq(ledger, state.encounter, state) if ledger is not None else state.seq
    seen = status_for_players(full, hidden, counted)
    shown = "" if seen == full else encode(seen)
    return Message(state.seq, encode(full), shown,
                   {cid: may(state, cid) for cid in owned if cid in state.combatants},
                   deck_for_players(state, hidden), counted, Sieve.of(state), {})


def deck_for_players(state, hidden: frozenset[str]) -> tuple:
    return tuple(on_deck(state, hidden))


def sees_all(token: Token) -> bool:
    return token.role == "gm"


def data_for(msg: Message, token: Token) -> str:
    """The stream's `data:` for `token`: the player's `mine` spliced in."""
    if sees_all(token):
        return msg.data
    text = msg.shown or msg.data
    if token.role != "player":
        return text
    own = {cid: {"may": msg.may[cid]} for cid in token.owns if cid in msg.may}
    return text[:-1] + ',"mine":' + encode(own) + ',"on_deck":' + encode(list(msg.deck)) + "}"


def frame_for(msg: Message, token: Token, keep: bool = True) -> bytes:
    """The stream's whole message of `msg` for `token`, encoded once per
    role view (the GM's, a view's, a player's owning these ids) and shared
    by every listener with that view: a batch costs the server one encoding
    per view, not one per phone. `keep=False`: a message no other listener
    reads (a stream's own catch-up) keeps no copy."""
    gm = sees_all(token)
    view = "gm" if gm else token.owns if token.role == "player" else "view"
    made = msg.frames.get(view) if msg.frames is not None and keep else None
    if made is None:
        from sse_starlette.sse import ServerSentEvent
        made = ServerSentEvent(data_for(msg, token), event="status",
                               id=str(msg.seq if gm else msg.players_seq)).encode()
        if msg.frames is not None and keep:
            msg.frames[view] = made
    return made


def status_for(state, token: Token, ledger) -> dict:
    """A status answer (GET status, a declaration's answer) for `token`."""
    view = status(state)
    if sees_all(token):
        return view
    hidden = secret(state)
    view = status_for_players(view, hidden, players_seq(ledger, state.encounter, state))
    if token.role == "player":
        view = {**view, "mine": mine(state, token.owns, token.name),
                "on_deck": list(deck_for_players(state, hidden))}
    return view


__all__ = ["CLOSED_SEQ", "Message", "TABLE_SEQ", "closed_message", "data_for", "encode",
           "frame_for", "may", "message", "sees_all", "status_for", "table_message"]
