"""Choosing among the store's encounters: `use` and `list` (the declarations
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
    s.store.head(encounter)
    s.choose(encounter)
    print(f"current encounter: {encounter}")


@app.command("list")
def list_(ctx: typer.Context,
          as_json: bool = typer.Option(False, "--json", help="JSON for scripts.")) -> None:
    """List the encounters in the store; * marks the current one.

    Example: combat list
    """
    from cli.render import console, escape
    from cli.session import print_json
    s = session(ctx)
    current = s.current()
    rows = [{"id": eid, "title": title, "created_at": at, "events": n,
             "current": eid == current} for eid, title, at, n in s.store.encounters()]
    if as_json:
        print_json(rows)
        return
    if not rows:
        console.print("no encounters yet: start one with `combat new ID`")
    for r in rows:
        mark = "*" if r["current"] else " "
        console.print(f"{mark} {r['id']:<20} {r['events']:>6} events  {escape(r['title'])}")
