"""Comparing two encounters: `diff A B` (a fork and its source, or any two)."""
from __future__ import annotations

import typer

from cli.base import app, session
from cli.complete import encounter_names
from cli.session import print_json


@app.command()
def diff(ctx: typer.Context,
         a: str = typer.Argument(..., metavar="A", help="An encounter id.",
                                 autocompletion=encounter_names),
         b: str = typer.Argument(..., metavar="B", help="Another encounter id.",
                                 autocompletion=encounter_names),
         as_json: bool = typer.Option(False, "--json", help="JSON for scripts.")) -> None:
    """Where two encounters part (a fork and its source share their history
    up to the fork's seq), then side by side what each went on to: events,
    rounds, each combatant's turns, AP and Grit spent, tracks at the end,
    and who is still standing.

    Example: combat diff warehouse what-if        combat diff warehouse what-if --json
    """
    from eventlog.errors import LedgerError
    from projections.reports.diff import diff as compare
    s = session(ctx)
    for eid in (a, b):
        s.store.head(eid)  # an unknown id is one line
    if a == b:
        raise LedgerError(f"diff compares two encounters: {a} is given twice")
    result = compare(s.ledger, a, b)
    if as_json:
        print_json(result)
        return
    _show(result)


def _show(result: dict) -> None:
    from rich.table import Table

    from cli.console import console
    from cli.render import escape
    a, b = result["sides"]
    shared = result["shared_until"]
    if shared and result["relation"]:
        console.print(f"{escape(result['relation'])}: both hold seq 1 to {shared}, then part")
    elif shared:
        console.print(f"{escape(a['encounter'])} and {escape(b['encounter'])} hold the same "
                      f"seq 1 to {shared}, then part")
    else:
        console.print(f"{escape(a['encounter'])} and {escape(b['encounter'])} share no "
                      "history; from the start:")
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("")
    table.add_column(escape(a["encounter"]))
    table.add_column(escape(b["encounter"]))
    table.add_row("events after", str(a["events_after"]), str(b["events_after"]))
    table.add_row("round", _round(a), _round(b))
    ids = list(dict.fromkeys([c["id"] for c in a["combatants"]] +
                             [c["id"] for c in b["combatants"]]))
    mine = {side["encounter"]: {c["id"]: c for c in side["combatants"]} for side in (a, b)}
    for cid in ids:
        table.add_row(escape(cid), *(_cell(mine[side["encounter"]].get(cid)) for side in (a, b)))
    console.print(table)


def _round(side: dict) -> str:
    end = {"ended": ", ended", "setup": " (setup)"}.get(side["phase"], "")
    if side["round"] == side["round_then"]:
        return f"{side['round']}{end}"
    return f"{side['round_then']} → {side['round']}{end}"


def _cell(c: dict | None) -> str:
    from cli.render import escape
    if c is None:
        return "—"
    if c["turns"] or c["ap_spent"]:
        parts = [f"{c['turns']} turn{'s' if c['turns'] != 1 else ''}", f"{c['ap_spent']} AP"]
    else:
        parts = ["no turn"]
    if c["grit_spent"]:
        parts.append(f"{c['grit_spent']} Grit")
    for name, t in c["tracks"].items():
        parts.append(f"{escape(name)} {t['value']}" + (f"/{t['max']}" if t["max"] is not None else ""))
    parts.append("standing" if c["standing"] else "left")
    if c["joined"]:
        parts.append("joined")
    return " · ".join(parts)
