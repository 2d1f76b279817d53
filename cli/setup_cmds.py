"""Before and around the fight: encounters, combatants, groups, initiative."""
from pathlib import Path
from typing import List, Optional

import typer

from eventlog.errors import Refusal
from eventlog.events import CombatantJoined, GroupBonusSet, InitiativeRolled

from .base import NUMBERS, app, session
from .complete import encounter_names, group_ids, slot_ids
from projections.phrases import slugify


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
    from projections.rules import check_new
    check_new(encounter, title)
    s = session(ctx)
    if roster is None:
        if carry_grit is not None:
            raise typer.BadParameter("it carries Grit to a roster's combatants: give "
                                     "the roster with --roster FILE", param_hint="--carry-grit")
        s.report(s.ledger.new(encounter, title, s.actor), [])
        return
    from projections.roster import start
    state, envs = start(s.ledger, encounter, title, roster, s.actor, carry_grit)
    s.report(state, [("✓", e.data) for e in envs])


@app.command()
def use(ctx: typer.Context, encounter: str = typer.Argument(..., help="An encounter id.", autocompletion=encounter_names)) -> None:
    """Make another encounter the current one.

    Example: combat use warehouse
    """
    s = session(ctx)
    s.ledger.store.head(encounter)
    s.ledger.store.set_current(encounter)
    print(f"current encounter: {encounter}")


@app.command("list")
def list_(ctx: typer.Context,
          as_json: bool = typer.Option(False, "--json", help="JSON for scripts.")) -> None:
    """List the encounters in the store; * marks the current one.

    Example: combat list
    """
    from .render import console, escape
    from .session import print_json
    store = session(ctx).ledger.store
    current = store.current()
    rows = [{"id": eid, "title": title, "created_at": at, "events": n,
             "current": eid == current} for eid, title, at, n in store.encounters()]
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
    base = cid or slugify(name)
    if not 1 <= count <= MAX_COUNT:
        raise Refusal(f"--count adds 1 to {MAX_COUNT} combatants at once, not {count}")
    people = [(base, name)] if count == 1 else [
        (f"{base}-{i}", f"{name} {i}") for i in range(1, count + 1)]
    side = "pc" if pc else "npc"
    session(ctx).declare(lambda state: [
        CombatantJoined(id=i, name=n, side=side, bonus=bonus, max_ap=ap, grit=grit,
                        group=group) for i, n in people])


@app.command(context_settings=NUMBERS)
def group(ctx: typer.Context,
          gid: str = typer.Argument(..., metavar="G", help="The group's id.", autocompletion=group_ids),
          bonus: int = typer.Option(..., "--bonus", help="The group's initiative bonus.")) -> None:
    """Set a group's initiative bonus (R7).

    Example: combat group gangers --bonus 1
    """
    session(ctx).declare(lambda state: [GroupBonusSet(group=gid, bonus=bonus)])


MAX_COUNT = 100  # as in a roster: a typo like 100000 is refused at once


def _unrolled(state) -> list[str]:
    slots = []
    for c in state.combatants.values():
        key = c.group or c.id
        if c.active and key not in state.slots and key not in slots:
            slots.append(key)
    return slots


def _bonus(state, slot: str) -> int:
    if slot in state.groups:
        return state.group_bonus(slot) or 0
    c = state.combatants.get(slot)
    return c.bonus if c else 0


@app.command(context_settings=NUMBERS)
def roll(ctx: typer.Context,
         slots: Optional[List[str]] = typer.Argument(None, help="Slot ids (default: every active slot without initiative).", autocompletion=slot_ids),
         die: Optional[int] = typer.Option(None, "--die", help="A physical d10 rolled at the table (1-10), one slot only.")) -> None:
    """Roll initiative, 1d10 + bonus (R1); groups roll once (R7).

    Example: combat roll            (everyone who has not rolled)
             combat roll rook --die 7
    """
    if die is not None and len(slots or []) != 1:
        raise Refusal("--die enters one physical roll: name exactly one slot (R1)")
    import random
    dice = random.SystemRandom()

    def decide(state):
        chosen = slots or _unrolled(state)
        if not chosen:
            raise Refusal("every active slot has rolled initiative already (R1)")
        out = []
        for slot in chosen:
            d = die if die is not None else dice.randint(1, 10)
            b = _bonus(state, slot)
            out.append(InitiativeRolled(slot=slot, die=d, bonus=b, total=d + b,
                                        manual=die is not None))
        return out
    session(ctx).declare(decide)


@app.command()
def order(ctx: typer.Context,
          slots: List[str] = typer.Argument(..., help="Tied slots (R3) or same-side seizers (R12), first to act first.", autocompletion=slot_ids)) -> None:
    """Declare the order of tied slots (R3) or of seizers (R12).

    Example: combat --actor players order vex rook
    """
    from projections.rules import declared_order
    s = session(ctx)
    s.declare(lambda state: [declared_order(state, list(slots), s.actor)])
