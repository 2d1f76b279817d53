"""Declarations through the server: the token is read and its reach and role
checked before the body is parsed (a JSON command, or a line of the GM's
box read by the grammar); then the core's one `execute`, under the token's
name and permit, and the batch goes to the stream."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec
from starlette.requests import Request

from eventlog.codec import envelope_dict
from eventlog.language import _
from projections import access
from projections.domain import commands as c
from projections.numbering import players_events, players_seq
from projections.visible import Sieve
from cli.grammar import BadLine, parse, split
from cli.grammar.aliases import ALIASES, COST_ALIASES, expand
from cli.server import auth
from cli.server.views import Message, encode, message, sees_all, status_for
from cli.server.replies import (
    JSON, BadInput, body_of, check_unarchived, encounter_of, guarded, ledger, one_line, run)

if TYPE_CHECKING:
    from projections.domain.state import State


class Declared(msgspec.Struct, omit_defaults=True):
    """The answer to a declaration: the head, the appended events, the status."""
    seq: int
    events: list
    status: msgspec.Raw
    preview: list[str] | None = None  # `dry_run`: what it would change; nothing appended
    party: list[str] | None = None  # a party's declaration (`party rest`): what it did
    # `end` of a fight from the party: what it carried; a correction to one that
    # ended: what the party would now differ by, and how to carry it (the GM's)
    carried: list[str] | None = None


def read_command(raw: bytes, _state: Callable[[], State]) -> c.Command:
    try:
        return c.decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise BadInput(_("not a command: {why} (see /api/schema)")
                       .format(why=c.malformed(raw, exc))) from None
    except RecursionError:  # (msgspec's depth guard, on a hostile body)
        raise BadInput(_("not a command: it is nested too deeply (see /api/schema)")) from None


def read_line(raw: bytes, state: Callable[[], State]) -> c.Command:
    """The GM's command box: one play-mode line, its one-letter words too
    (`m rook shoots`, `e`), read by the grammar; an end-turn is the careful
    one, as at play mode's prompt. `state`: the encounter's, for `m`, `n`
    and `f`, which act for whoever is acting when no id is named."""
    try:
        line = msgspec.json.decode(raw, type=dict[str, str]).get("line", "")
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise BadInput(_('not a line: send {example} ({why})')
                       .format(example='{"line": "act rook major"}', why=one_line(exc))) from None
    try:
        words = split(line)
        if words and words[0] in COST_ALIASES:
            words = expand(words, state())
        elif words and words[0] in ALIASES:
            words = expand(words, None)
        return parse(words, careful=True).command
    except BadLine as exc:
        raise BadInput(one_line(exc)) from None


def declare(request: Request, raw: bytes, read, typed: bool) -> bytes:
    """On one worker thread: the token, its reach and role, then the command
    read from `raw`, then its execution."""
    started = time.perf_counter()
    lg = ledger(request)
    token = auth.token_of(lg.store, request)
    encounter = encounter_of(request)
    access.check_reach(token, encounter)
    check_unarchived(request, token, encounter, reads=False)
    access.check_writes(token)
    if typed:
        access.check_types_lines(token)
    command = read(raw, lambda: lg.state(encounter))
    access.check_may_declare(token, command)
    if isinstance(command, c.New):  # (it names the encounter it starts)
        encounter = command.id
    out = lg.execute(None if isinstance(command, c.New) else encounter, command,
                     token.name, permit=access.permit_for(token), gm=token.role == "gm")
    if out.party is not None:  # (the party's log: nothing of this encounter's changed)
        return msgspec.json.encode(Declared(out.state.seq, [], msgspec.Raw(
            encode(status_for(out.state, token, lg)).encode()), party=out.party))
    if isinstance(command, c.Fork):  # (what it appended is the fork's, not its source's)
        encounter = command.id
    committed = time.perf_counter()
    hub = request.app.state.hub
    shown = out.state if out.preview is None else out.before  # a dry run changed nothing
    made: list[Message] = []

    def stream_message() -> Message:  # (made only if a stream listens: every reader's view)
        if not made:
            made.append(message(shown, hub.owned(encounter), lg))
        return made[0]
    if out.events:
        hub.appended(encounter, out.events[0].seq - 1, out.events[-1].seq, stream_message,
                     committed)
        request.app.state.metrics.declared(encounter, token.name, out.events[-1].seq,
                                           len(out.events), started, committed)
    # (only a fork appends what may have come from a file: its source's import)
    imported = lg.store.imported(encounter) if isinstance(command, c.Fork) else 0
    events = [envelope_dict(e, False, e.seq <= imported) for e in out.events]
    seq = shown.seq
    if sees_all(token) and made:
        view = made[0].data
    elif sees_all(token):
        view = encode(status_for(shown, token, lg))
    else:  # (numbered as the player's log is, projections/numbering.py)
        view = encode(status_for(shown, token, lg))
        if out.events:
            seq, events = players_events(lg, encounter, shown.seq, Sieve.of(shown),
                                         out.events[0].seq - 1)
        else:
            seq = players_seq(lg, encounter, shown)
    return msgspec.json.encode(Declared(seq, events, msgspec.Raw(view.encode()),
                                        out.preview,
                                        carried=out.carried if sees_all(token) else None))


@guarded
async def commands(request: Request):
    raw = await body_of(request)
    return JSON(await run(declare, request, raw, read_command, False))


@guarded
async def line(request: Request):
    raw = await body_of(request)
    return JSON(await run(declare, request, raw, read_line, True))
