"""Choosing among the store's encounters: `use`, `list`, `archive`,
`unarchive`, `rename` and `delete` (the declarations
are cli/declare_cmds.py, from the grammar)."""
import typer

from cli.base import app, session
from cli.complete import encounter_names
from eventlog.language import _, n_


@app.command(help=_(
    "Make another encounter the current one.\n\n"
    "Example: combat use warehouse"))
def use(ctx: typer.Context, encounter: str = typer.Argument(..., help=_("An encounter id."), autocompletion=encounter_names)) -> None:
    s = session(ctx)
    s.ledger.head(encounter)
    s.choose(encounter)
    print(_("current encounter: {encounter}").format(encounter=encounter))


@app.command("list", help=_(
    "List the encounters in the store; * marks the current one.\n\n"
    "Example: combat list        combat list --all"))
def list_(ctx: typer.Context,
          as_json: bool = typer.Option(False, "--json", help=_("JSON for scripts.")),
          everything: bool = typer.Option(False, "--all", help=_("Archived encounters too."))) -> None:
    from cli.console import console
    from cli.render import escape
    from cli.session import print_json
    s = session(ctx)
    current = s.current()
    archived = s.store.archived()
    from projections.forking import point_of
    rows = [{"id": eid, "title": title, "created_at": at, "events": n,
             "current": eid == current, **({"archived": True} if eid in archived else {}),
             **_parent(point_of(s.store, eid))}
            for eid, title, at, n in s.store.encounters() if everything or eid not in archived]
    if as_json:
        print_json(rows)
        return
    if not rows:
        console.print(_("no encounters yet: start one with `combat new ID`"))
    for r in rows:
        mark = "*" if r["current"] else " "
        tag = "  " + _("(archived)") if r.get("archived") else ""
        if "parent" in r:
            tag = "  " + _("(fork of {encounter} at seq {seq})").format(
                encounter=r["parent"]["encounter"], seq=r["parent"]["seq"]) + tag
        events = _("{n} events").format(n=f"{r['events']:>6}")
        console.print(f"{mark} {r['id']:<20} {events}  {escape(r['title'])}{tag}")


def _parent(point) -> dict:
    return {} if point is None else {"parent": {"encounter": point.encounter, "seq": point.seq}}


ID = typer.Argument(..., metavar="ID", help=_("An encounter id."), autocompletion=encounter_names)


@app.command(help=_(
    "Set an encounter aside: it leaves `list`, the pages' pickers and what\n"
    "tokens reach; its log is kept (`list --all` shows it, `unarchive` brings it back).\n\n"
    "Example: combat archive demo-1"))
def archive(ctx: typer.Context, encounter: str = ID) -> None:
    session(ctx).ledger.set_archived(encounter, True)
    print(_("archived {encounter}: `combat unarchive {encounter}` brings it back").format(encounter=encounter))


@app.command(help=_(
    "Bring an archived encounter back into `list` and the pages.\n\n"
    "Example: combat unarchive demo-1"))
def unarchive(ctx: typer.Context, encounter: str = ID) -> None:
    session(ctx).ledger.set_archived(encounter, False)
    print(_("{encounter} is listed again").format(encounter=encounter))


@app.command(help=_(
    "Give an encounter a new title, declared as an event of its log.\n\n"
    'Example: combat rename warehouse --title "Warehouse raid, part 1"'))
def rename(ctx: typer.Context, encounter: str = ID,
           title: str = typer.Option(..., "--title", help=_("The new title."))) -> None:
    from projections.domain import commands as c
    s = session(ctx)
    s.ledger.execute(encounter, c.Rename(title=title), s.actor)
    print(_("{encounter} is now titled {title}").format(encounter=encounter, title=title))


@app.command(help=_(
    "Remove a whole encounter from the store: the only deletion, never part\n"
    "of a log. `archive` keeps the log instead.\n\n"
    "Example: combat delete demo-1 --confirm demo-1"))
def delete(ctx: typer.Context, encounter: str = ID,
           confirm: str = typer.Option("", "--confirm", metavar="ID", help=_("The id again: the whole log is removed."))) -> None:
    ended = session(ctx).ledger.delete(encounter, confirm)
    if ended:
        print(n_("deleted {encounter} from the store; {n} token that reached it alone ended",
                 "deleted {encounter} from the store; {n} tokens that reached it alone ended",
                 ended).format(encounter=encounter, n=ended))
    else:
        print(_("deleted {encounter} from the store").format(encounter=encounter))
