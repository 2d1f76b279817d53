"""`combat stats` as tables in the terminal: one encounter, or a campaign."""
from __future__ import annotations

from projections.reports.timing import duration


def show_stats(numbers: dict) -> None:
    from rich import box
    from cli.render import escape
    from rich.table import Table

    from projections.reports.stats import CATEGORIES

    from cli.render import console
    t = numbers["totals"]
    title = f"[bold]{numbers['encounter']}[/bold]" + (f" · {escape(numbers['title'])}" if numbers["title"] else "")
    console.print(f"{title} — {t['rounds']} rounds, {t['passes']} passes, {t['turns']} turns, "
                  f"{t['ap_spent']} AP spent · seq {numbers['seq']}")
    people = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 0))
    for name in ("combatant", "turns", "AP in\nturns", "AP in\nintr.", "free", "minor",
                 "major", "cust.", "intr.", "AP\nleft", "seize", "Grit\nspent",
                 "Grit\ngained", "time in\nturns"):
        people.add_column(name, justify="left" if name == "combatant" else "right",
                          no_wrap=True)
    for c in numbers["combatants"]:
        people.add_row(c["id"], str(c["turns"]), str(c["ap_in_turns"]), str(c["ap_on_interrupts"]),
                       *(str(c["actions"][k]) for k in CATEGORIES), str(c["interrupts"]),
                       str(c["ap_unspent"]), str(c["seizes"]), str(c["grit_spent"]),
                       str(c["grit_gained"]), duration(c["turn_seconds"]),
                       style=None if c["active"] else "dim")
    console.print(people)
    gone = [c["id"] for c in numbers["combatants"] if not c["active"]]
    console.print("[dim]AP spent in turns and on interrupts (intr.), actions by category "
                  "(cust.: a cost of its own), AP left unspent when a round ended"
                  + (f"; left the encounter: {', '.join(gone)}" if gone else "") + "[/dim]\n")
    if numbers["rounds"]:
        rounds = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
        for name in ("round", "passes", "turns per pass", "AP spent", "interrupts",
                     "seized by", "AP unspent", "time"):
            rounds.add_column(name, justify="left" if name in ("turns per pass", "seized by") else "right")
        for r in numbers["rounds"]:
            rounds.add_row(str(r["round"]), str(r["passes"]),
                           " / ".join(map(str, r["turns_per_pass"])), str(r["ap_spent"]),
                           str(r["interrupts"]), ", ".join(r["seizes"]),
                           "" if r["ap_unspent"] is None else str(r["ap_unspent"]),
                           duration(r["seconds"]))
        console.print(rounds)
    console.print(f"totals: AP in turns {t['ap_in_turns']}, on interrupts {t['ap_on_interrupts']} "
                  f"({t['interrupts']} interrupts), left unspent {t['ap_unspent']} · seizes "
                  f"{t['seizes']} · Grit spent {t['grit_spent']} · events {t['events']} "
                  f"({t['undone']} undone, {t['amended']} amended)")
    console.print(f"time: {duration(t['duration_seconds'])} from the first event to the last, "
                  f"{duration(t['turn_seconds'])} in turns")
    if numbers["slowest_turns"]:
        console.print("slowest turns: " + ", ".join(
            f"{escape(x['combatant'])} {duration(x['seconds'])} (round {x['round']}, pass {x['pass']})"
            for x in numbers["slowest_turns"]))


def show_campaign(numbers: dict) -> None:
    from rich import box
    from rich.table import Table

    from cli.render import console, escape
    t = numbers["totals"]
    fights = f"{t['encounters']} encounter{'s' if t['encounters'] != 1 else ''}"
    console.print(f"[bold]{fights}[/bold] — {t['rounds']} rounds, "
                  f"{t['turns']} turns, {t['ap_spent']} AP spent, {t['interrupts']} interrupts, "
                  f"{t['seizes']} seizes, {duration(t['duration_seconds'])}")

    def table(columns: list[str], rows: list[list]) -> None:
        out = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
        for i, name in enumerate(columns):
            out.add_column(name, justify="left" if i == 0 else "right", no_wrap=i == 0)
        for row in rows:
            out.add_row(*(escape(str("–" if v is None else v)) for v in row))
        console.print(out)

    table(["encounter", "rounds", "turns", "AP spent", "interrupts", "seizes", "time"],
          [[e["encounter"], e["rounds"], e["turns"], e["ap_spent"], e["interrupts"],
            e["seizes"], duration(e["duration_seconds"])] for e in numbers["encounters"]])
    table(["combatant", "side", "fights", "turns", "AP in turns", "AP per turn",
           "interrupts", "seizes", "Grit spent", "time in turns"],
          [[c["id"], c["side"], c["encounters"], c["turns"], c["ap_in_turns"],
            c["ap_per_turn"], c["interrupts"], c["seizes"], c["grit_spent"],
            duration(c["turn_seconds"])] for c in numbers["combatants"]])
    table(["side", "turns", "AP per turn", "interrupts", "seizes", "time per turn"],
          [[s["side"], s["turns"], s["ap_per_turn"], s["interrupts"], s["seizes"],
            duration(s["seconds_per_turn"] or 0)] for s in numbers["sides"]])
