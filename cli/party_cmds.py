"""The party between fights (`party`, `party add|set|remove|rest|undo|redo`)
and the evenings (`session start|end`, `session`): kept in the store as the
party's own stream (projections/party)."""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

import typer

from cli.base import app, session
from eventlog.language import N_, _, n_

if TYPE_CHECKING:
    from eventlog.events import PartyCharacterAdded, Redone, Undone  # noqa: F401 (in casts)

party_app = typer.Typer(
    help=_("The party: characters kept between fights (bonus, AP, Grit, tracks, lasting "
         "conditions). `new ID --party` starts a fight with them; `end` carries what the "
         "fight left them back.\n\nExample: combat party add Rook --bonus 5 --track hp=20/20"),
    invoke_without_command=True)
session_app = typer.Typer(
    help=_("Evenings: the fights started while a session is open belong to it.\n\n"
         "Example: combat session start \"Night one\"        combat session end"),
    invoke_without_command=True)
app.add_typer(party_app, name="party")
app.add_typer(session_app, name="session")

TRACK_HELP = N_("A track, NAME=VALUE or NAME=VALUE/MAX (hp=12/20); repeat for more.")


def _shown(ctx: typer.Context, party, as_json: bool) -> None:
    from cli.output import write
    from projections.party.view import party_json, party_lines
    if as_json:
        import json
        write(json.dumps(party_json(party), ensure_ascii=False) + "\n")
    else:
        write("".join(line + "\n" for line in party_lines(party)))


@party_app.callback()
def party(ctx: typer.Context,
          as_json: bool = typer.Option(False, "--json", help=_("The party as JSON.")),
          at: int = typer.Option(None, "--at", help=_("The party as it was at this seq of its log."),
                                 metavar="SEQ")) -> None:
    """Show the party (with no subcommand)."""
    if ctx.invoked_subcommand is not None:
        return
    from cli.output import write
    from projections.party.book import PartyBook
    from projections.party.declare import running
    from projections.party.fights import waiting
    s = session(ctx)
    party = PartyBook(s.store).state(at, running(s.store))
    _shown(ctx, party, as_json)
    if not as_json and at is None:
        write("".join(line + "\n" for line in waiting(s.ledger, party)))


@party_app.command("add", help=_(
    "A character joins the party.\n\n"
    "\b\n"
    "Example: combat party add Rook --bonus 5 --grit 1 --track hp=20/20"))
def add(ctx: typer.Context,
        name: str = typer.Argument(..., help=_("The character's name.")),
        id: str = typer.Option(None, "--id", help=_("Its id (default: made from the name).")),
        bonus: int = typer.Option(0, "--bonus", help=_("Initiative bonus.")),
        ap: int = typer.Option(3, "--ap", help=_("Maximum AP.")),
        grit: int = typer.Option(0, "--grit", help=_("Grit now.")),
        track: list[str] = typer.Option([], "--track", help=_(TRACK_HELP), metavar="NAME=VALUE[/MAX]"),
        reason: str = typer.Option("", "--reason", help=_("Why."))) -> None:
    from projections.domain.commands import PartyAdd
    from projections.party.declare import track_of
    for t in track:  # (a mistyped track makes no store for it)
        track_of(t)
    session(ctx).run(PartyAdd(name=name, id=id, bonus=bonus, ap=ap, grit=grit, tracks=track,
                              reason=reason))


@party_app.command("import", help=_(
    "Characters join the party from where they already are: every row of\n"
    "the CSV, every actor of the export, their portraits kept; one line per\n"
    "mistake of the file, and then nothing is added.\n\n"
    "\b\n"
    "Example: combat party import party.csv\n"
    "         combat party import rook.json --map bonus=system.abilities.dex.mod"))
def import_(ctx: typer.Context,
            file: str = typer.Argument(..., metavar="FILE", help=_("A spreadsheet's .csv (a header row) or a Foundry VTT actor export (.json).")),
            map: list[str] = typer.Option([], "--map", metavar="FIELD=KEY", help=_("Foundry VTT: the actor's key (a dotted path) for bonus, ap, grit or a track; repeat it."))) -> None:
    from pathlib import Path

    from projections.inputs.sheetfiles import read
    from projections.party.declare import imported
    sheets = read(Path(file), map)  # (a file with a mistake: no store is made for it)
    s = session(ctx)
    s.creates = True  # (a campaign may begin with its party: the store too)
    _party, envs = imported(s.store, sheets, s.actor)
    added = [cast("PartyCharacterAdded", e.data).id for e in envs
             if e.type == "PartyCharacterAdded"]
    _said(envs, n_("{ids} joins the party", "{ids} join the party", len(added)).format(
        ids=", ".join(added)))


@party_app.command("set", help=_(
    "A change to a character between fights.\n\n"
    "\b\n"
    'Example: combat party set rook --track hp=20 --reason "healed in town"'))
def set_(ctx: typer.Context,
         id: str = typer.Argument(..., help=_("The character's id.")),
         bonus: int = typer.Option(None, "--bonus", help=_("Initiative bonus.")),
         ap: int = typer.Option(None, "--ap", help=_("Maximum AP.")),
         grit: int = typer.Option(None, "--grit", help=_("Grit.")),
         track: list[str] = typer.Option([], "--track", help=_(TRACK_HELP), metavar="NAME=VALUE[/MAX]"),
         reason: str = typer.Option("", "--reason", help=_("Why."))) -> None:
    from projections.domain.commands import PartySet
    session(ctx).run(PartySet(id=id, bonus=bonus, ap=ap, grit=grit, tracks=track,
                              reason=reason))


@party_app.command("remove", help=_(
    "A character leaves the party (its history stays in the log)."))
def remove(ctx: typer.Context, id: str = typer.Argument(..., help=_("The character's id.")),
           reason: str = typer.Option("", "--reason", help=_("Why."))) -> None:
    from projections.domain.commands import PartyRemove
    session(ctx).run(PartyRemove(id=id, reason=reason))


@party_app.command("rest", help=_(
    "A rest: conditions that last until a rest end; --full also restores\n"
    "every track with a maximum to it."))
def rest(ctx: typer.Context,
         full: bool = typer.Option(False, "--full", help=_("A full rest: every track back to its maximum too.")),
         reason: str = typer.Option("", "--reason", help=_("Why."))) -> None:
    from projections.domain.commands import PartyRest
    session(ctx).run(PartyRest(full=full, reason=reason))


@party_app.command("undo", help=_(
    "Take back the party's latest declaration (a carry included)."))
def undo(ctx: typer.Context, reason: str = typer.Option("", "--reason", help=_("Why."))) -> None:
    from projections.domain.commands import PartyUndo
    session(ctx).run(PartyUndo(reason=reason))


@party_app.command("redo", help=_(
    "Declare again the party's most recently undone declaration."))
def redo(ctx: typer.Context) -> None:
    from projections.domain.commands import PartyRedo
    session(ctx).run(PartyRedo())


@session_app.callback()
def sessions(ctx: typer.Context,
             as_json: bool = typer.Option(False, "--json", help=_("The sessions as JSON."))) -> None:
    """List the sessions (with no subcommand)."""
    if ctx.invoked_subcommand is not None:
        return
    from cli.output import write
    from projections.party.book import PartyBook
    from projections.party.view import session_lines, sessions_json
    party = PartyBook(session(ctx).store).state()
    if as_json:
        import json
        write(json.dumps(sessions_json(party), ensure_ascii=False) + "\n")
    else:
        write("".join(line + "\n" for line in session_lines(party)))


@session_app.command("start", help=_(
    "Open a session: the fights started from now on belong to it."))
def session_start(ctx: typer.Context,
                  title: str = typer.Argument("", help=_("The evening's title."))) -> None:
    from projections.domain.commands import SessionStart
    session(ctx).run(SessionStart(title=title))


@session_app.command("end", help=_(
    "Close the open session."))
def session_end(ctx: typer.Context) -> None:
    from projections.domain.commands import SessionEnd
    session(ctx).run(SessionEnd())


def _said(envs, what: str) -> None:
    from cli.output import write
    write(_("✓ party seq {seq}: {what}").format(seq=envs[0].seq, what=what) + "\n")


@party_app.command("carry", help=_(
    "Carry into the party what a fight left its characters and the party\n"
    "does not hold yet (after a correction to the fight, or `end --no-carry`).\n\n"
    "\b\n"
    'Example: combat party carry bridge --reason "the hit was retracted"'))
def carry(ctx: typer.Context,
          encounter: str = typer.Argument(..., help=_("The fight (started with --party).")),
          reason: str = typer.Option("", "--reason", help=_("Why."))) -> None:
    from projections.domain.commands import PartyCarry
    session(ctx).run(PartyCarry(encounter=encounter, reason=reason))
