"""Comparing two encounters: `diff A B` (a fork and its source, or any two)."""
from __future__ import annotations

import typer

from cli.base import app, session
from cli.complete import encounter_names
from cli.session import print_json
from eventlog.language import _, n_


@app.command(help=_(
    "Where two encounters part (a fork and its source share their history\n"
    "up to the fork's seq), then side by side what each went on to: events,\n"
    "rounds, each combatant's turns, AP and Grit spent, tracks at the end,\n"
    "and who is still standing.\n\n"
    "Example: combat diff warehouse what-if        combat diff warehouse what-if --json"))
def diff(ctx: typer.Context,
         a: str = typer.Argument(..., metavar="A", help=_("An encounter id."),
                                 autocompletion=encounter_names),
         b: str = typer.Argument(..., metavar="B", help=_("Another encounter id."),
                                 autocompletion=encounter_names),
         as_json: bool = typer.Option(False, "--json", help=_("JSON for scripts."))) -> None:
    from eventlog.errors import LedgerError
    from projections.reports.diff import diff as compare
    s = session(ctx)
    for eid in (a, b):
        s.store.head(eid)  # an unknown id is one line
    if a == b:
        raise LedgerError(_("diff compares two encounters: {encounter} is given twice")
                          .format(encounter=a))
    if as_json:  # data for a program: its sentence in the language the messages are written in
        from eventlog.language import SOURCE, speaking
        with speaking(SOURCE):
            print_json(compare(s.ledger, a, b))
        return
    _show(compare(s.ledger, a, b))


def _show(result: dict) -> None:
    from rich.table import Table

    from cli.console import console
    from cli.render import escape
    a, b = result["sides"]
    shared = result["shared_until"]
    if shared and result["relation"]:
        console.print(_("{relation}: both hold seq 1 to {seq}, then part").format(
            relation=escape(result["relation"]), seq=shared))
    elif shared:
        console.print(_("{a} and {b} hold the same seq 1 to {seq}, then part").format(
            a=escape(a["encounter"]), b=escape(b["encounter"]), seq=shared))
    else:
        console.print(_("{a} and {b} share no history; from the start:").format(
            a=escape(a["encounter"]), b=escape(b["encounter"])))
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("")
    table.add_column(escape(a["encounter"]))
    table.add_column(escape(b["encounter"]))
    table.add_row(_("events after"), str(a["events_after"]), str(b["events_after"]))
    table.add_row(n_("round", "rounds", 1), _round(a), _round(b))
    ids = list(dict.fromkeys([c["id"] for c in a["combatants"]] +
                             [c["id"] for c in b["combatants"]]))
    mine = {side["encounter"]: {c["id"]: c for c in side["combatants"]} for side in (a, b)}
    for cid in ids:
        table.add_row(escape(cid), *(_cell(mine[side["encounter"]].get(cid)) for side in (a, b)))
    console.print(table)


def _round(side: dict) -> str:
    now = (str(side["round"]) if side["round"] == side["round_then"] else
           f"{side['round_then']} → {side['round']}")
    if side["phase"] == "ended":
        return _("{round}, ended").format(round=now)
    return _("{round} (setup)").format(round=now) if side["phase"] == "setup" else now


def _cell(c: dict | None) -> str:
    from cli.render import escape
    if c is None:
        return "—"
    if c["turns"] or c["ap_spent"]:
        parts = [n_("{n} turn", "{n} turns", c["turns"]).format(n=c["turns"]),
                 f"{c['ap_spent']} AP"]
    else:
        parts = [_("no turn")]
    if c["grit_spent"]:
        parts.append(f"{c['grit_spent']} Grit")
    for name, t in c["tracks"].items():
        parts.append(f"{escape(name)} {t['value']}" + (f"/{t['max']}" if t["max"] is not None else ""))
    parts.append(_("standing") if c["standing"] else _("left"))
    if c["joined"]:
        parts.append(_("joined"))
    return " · ".join(parts)
