"""The party's declarations as commands (`party add|set|remove|rest|carry|
undo|redo`, `session start|end`): what `Ledger.execute` runs for them (`declared`), on
the party's own log, whichever client typed them (the shell, play mode, the
GM's command box). Each is decided, judged and appended by
projections/party/declare.py and said in one line or a few."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from eventlog.codec import Envelope
from eventlog.errors import Refusal
from eventlog.language import _
from projections.domain import commands as c
from projections.party import declare as d
from projections.party.book import PartyBook

if TYPE_CHECKING:
    from eventlog.events import PartyCharacterAdded, Redone, Undone  # noqa: F401 (in casts)

Ledger = Any  # (passed in, never imported: the party stays below the ledger)


def declared(ledger: Ledger, command: c.Command, actor: str) -> tuple[list[str], list[Envelope]]:
    """Run party command `command` as `actor`: (what it did in words, the
    party events appended). Refusal when the party's rules forbid it."""
    store = ledger.store
    if isinstance(command, c.PartyCarry):
        return _carried(ledger, command, actor)
    if isinstance(command, c.PartyAdd):
        added = d.character(command.name, command.id, command.bonus, command.ap, command.grit,
                            [d.track_of(t) for t in command.tracks], reason=command.reason)
        party, envs = d.join(store, [added], actor)
        return [_said(envs, _("{id} joins the party").format(id=added.id))], envs
    if isinstance(command, c.PartySet):
        party, envs = d.change(store, d.changing(command.id, command.bonus, command.ap,
                                                 command.grit, command.tracks, command.reason),
                               actor)
        return [_said(envs, _("{id} changed").format(id=command.id))], envs
    if isinstance(command, c.PartyRemove):
        party, envs = d.remove(store, command.id, actor, command.reason)
        return [_said(envs, _("{id} leaves the party").format(id=command.id))], envs
    if isinstance(command, c.PartyRest):
        before = PartyBook(store).state()
        party, envs = d.rest(store, command.full, actor, command.reason)
        return [_said(envs, _("the party rests (a full rest)") if command.full else
                      _("the party rests")),
                *_rested(before, party)], envs
    if isinstance(command, c.PartyUndo):
        party, envs = PartyBook(store).undo(actor, command.reason, d.running(store))
        return [_said(envs, _("undid the party's seq {seq}").format(
            seq=cast("Undone", envs[0].data).batches[0]))], envs
    if isinstance(command, c.PartyRedo):
        party, envs = PartyBook(store).redo(actor)
        return [_said(envs, _("redid the party's seq {seq}").format(
            seq=cast("Redone", envs[0].data).batch))], envs
    if isinstance(command, c.SessionStart):
        party, envs = d.session_start(store, command.title, actor)
        return [_said(envs, _("session {session} started").format(
            session=party.sessions[-1].id))], envs
    if isinstance(command, c.SessionEnd):
        party, envs = d.session_end(store, actor)
        return [_said(envs, _("session {session} ended").format(
            session=party.sessions[-1].id))], envs
    raise Refusal(_("`{command}` is not the party's").format(command=command.__struct_config__.tag))


def _carried(ledger: Ledger, command: c.PartyCarry,
             actor: str) -> tuple[list[str], list[Envelope]]:
    from projections.party.fights import carried
    from projections.party.view import carry_lines
    book = PartyBook(ledger.store)
    before = book.state()
    said, envs = carried(ledger, command.encounter, actor, command.reason)
    return carry_lines(said, book.head(), before), envs


def _rested(before, after) -> list[str]:
    """The conditions a rest ended, one line per character."""
    from projections.party.view import condition
    out = []
    for cid, ch in after.characters.items():
        gone = [x for x in before.characters[cid].conditions if x not in ch.conditions]
        if gone:
            out.append("  " + _("{id}: no longer {conditions}").format(
                id=cid, conditions=", ".join(condition(x) for x in gone)))
    return out


def _said(envs: list[Envelope], what: str) -> str:
    return _("✓ party seq {seq}: {what}").format(seq=envs[0].seq, what=what)
