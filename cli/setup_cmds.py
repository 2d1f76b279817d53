"""Before and around the fight: encounters, combatants, groups, initiative."""
from pathlib import Path
from typing import List, Optional

import typer

from projections.domain import commands as c

from cli.base import NUMBERS, app, session
from cli.complete import encounter_names, group_ids, slot_ids


@app.command()
def new(ctx: typer.Context,
        encounter: str = typer.Argument(..., help="Its id, a slug like `warehouse`."),
        title: str = typer.Option("", "--title", help="A title for people."),
        roster: Optional[Path] = typer.Option(None, "--roster", metavar="FILE", help="Start with this roster file in (see `load`)."),
        carry_grit: Optional[str] = typer.Option(None, "--carry-grit", metavar="FROM", autocompletion=encounter_names, help="Copy each roster combatant's current Grit from encounter FROM, as an audited declaration.")) -> None:
    """Create an encounter; it becomes the current one.

    \b
    Example: combat new warehouse --title "Warehouse raid"
             combat new docks --roster examples/party.toml --carry-grit warehouse
    """
    if roster is None and carry_grit is not None:
        raise typer.BadParameter("it carries Grit to a roster's combatants: give "
                                 "the roster with --roster FILE", param_hint="--carry-grit")
    load = None
    if roster is not None:
        from projections.inputs.roster import read
        load = read(roster)
    session(ctx).run(c.New(id=encounter, title=title, roster=load, carry_grit=carry_grit))


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


@app.command(context_settings=NUMBERS)
def add(ctx: typer.Context,
        name: str = typer.Argument(..., help="The combatant's name, e.g. \"Big Ganger\"."),
        cid: Optional[str] = typer.Option(None, "--id", help="Id (default: the slug of NAME)."),
        pc: bool = typer.Option(False, "--pc", help="A player character (default: NPC)."),
        bonus: int = typer.Option(0, "--bonus", help="Initiative bonus."),
        ap: int = typer.Option(3, "--ap", help="Maximum AP (R14)."),
        grit: int = typer.Option(0, "--grit", help="Grit pool."),
        group: Optional[str] = typer.Option(None, "--group", help="Join this group (R7)."),
        count: int = typer.Option(1, "--count", help="Add K of them: ID-1..ID-K.")) -> None:
    """Add a combatant (or --count of them); reinforcements roll on joining (R5).

    Example: combat add "Big Ganger" --bonus 1 --count 3 --group gangers
    """
    session(ctx).run(c.Add(name=name, id=cid, pc=pc, bonus=bonus, ap=ap, grit=grit,
                           group=group, count=count))


@app.command(context_settings=NUMBERS)
def group(ctx: typer.Context,
          gid: str = typer.Argument(..., metavar="G", help="The group's id.", autocompletion=group_ids),
          bonus: int = typer.Option(..., "--bonus", help="The group's initiative bonus.")) -> None:
    """Set a group's initiative bonus (R7).

    Example: combat group gangers --bonus 1
    """
    session(ctx).run(c.Group(id=gid, bonus=bonus))


@app.command(context_settings=NUMBERS)
def roll(ctx: typer.Context,
         slots: Optional[List[str]] = typer.Argument(None, help="Slot ids (default: every active slot without initiative).", autocompletion=slot_ids),
         die: Optional[int] = typer.Option(None, "--die", help="A physical d10 rolled at the table (1-10), one slot only.")) -> None:
    """Roll initiative, 1d10 + bonus (R1); groups roll once (R7).

    Example: combat roll            (everyone who has not rolled)
             combat roll rook --die 7
    """
    session(ctx).run(c.Roll(slots=list(slots or []), die=die))


@app.command()
def order(ctx: typer.Context,
          slots: List[str] = typer.Argument(..., help="Tied slots (R3) or same-side seizers (R12), first to act first.", autocompletion=slot_ids)) -> None:
    """Declare the order of tied slots (R3) or of seizers (R12).

    Example: combat --actor players order vex rook
    """
    session(ctx).run(c.Order(slots=list(slots)))
