"""Choosing among the store's encounters: `use`, `list`, `archive`,
`unarchive`, `rename` and `delete` (the declarations
are cli/declare_cmds.py, from the grammar)."""
import typer

from cli.base import app, session
from cli.complete import encounter_names


@app.command()
def use(ctx: typer.Context, encounter: str = typer.Argument(..., help="An encounter id.", autocompletion=encounter_names)) -> None:
    """Make another encounter the current one.

    Example: combat use warehouse
    """
    s = session(ctx)
    s.ledger.head(encounter)
    s.choose(encounter)
    print(f"current encounter: {encounter}")


@app.command("list")
def list_(ctx: typer.Context,
          as_json: bool = typer.Option(False, "--json", help="JSON for scripts."),
          everything: bool = typer.Option(False, "--all", help="Archived encounters too.")) -> None:
    """List the encounters in the store; * marks the current one.

    Example: combat list        combat list --all
    """
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
        console.print("no encounters yet: start one with `combat new ID`")
    for r in rows:
        mark = "*" if r["current"] else " "
        tag = "  (archived)" if r.get("archived") else ""
        if "parent" in r:
            tag = f"  (fork of {r['parent']['encounter']} at seq {r['parent']['seq']})" + tag
        console.print(f"{mark} {r['id']:<20} {r['events']:>6} events  {escape(r['title'])}{tag}")


def _parent(point) -> dict:
    return {} if point is None else {"parent": {"encounter": point.encounter, "seq": point.seq}}


ID = typer.Argument(..., metavar="ID", help="An encounter id.", autocompletion=encounter_names)


@app.command()
def archive(ctx: typer.Context, encounter: str = ID) -> None:
    """Set an encounter aside: it leaves `list`, the pages' pickers and what
    tokens reach; its log is kept (`list --all` shows it, `unarchive` brings it back).

    Example: combat archive demo-1
    """
    session(ctx).ledger.set_archived(encounter, True)
    print(f"archived {encounter}: `combat unarchive {encounter}` brings it back")


@app.command()
def unarchive(ctx: typer.Context, encounter: str = ID) -> None:
    """Bring an archived encounter back into `list` and the pages.

    Example: combat unarchive demo-1
    """
    session(ctx).ledger.set_archived(encounter, False)
    print(f"{encounter} is listed again")


@app.command()
def rename(ctx: typer.Context, encounter: str = ID,
           title: str = typer.Option(..., "--title", help="The new title.")) -> None:
    """Give an encounter a new title, declared as an event of its log.

    Example: combat rename warehouse --title "Warehouse raid, part 1"
    """
    from projections.domain import commands as c
    s = session(ctx)
    s.ledger.execute(encounter, c.Rename(title=title), s.actor)
    print(f"{encounter} is now titled {title}")


@app.command()
def delete(ctx: typer.Context, encounter: str = ID,
           confirm: str = typer.Option("", "--confirm", metavar="ID", help="The id again: the whole log is removed.")) -> None:
    """Remove a whole encounter from the store: the only deletion, never part
    of a log. `archive` keeps the log instead.

    Example: combat delete demo-1 --confirm demo-1
    """
    ended = session(ctx).ledger.delete(encounter, confirm)
    print(f"deleted {encounter} from the store"
          + (f"; {ended} token{'s' if ended != 1 else ''} that reached it alone ended"
             if ended else ""))
