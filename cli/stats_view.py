"""`combat stats` as tables in the terminal: one encounter, or a campaign."""
from __future__ import annotations

from projections.reports.timing import duration


def show_stats(numbers: dict) -> None:
    from rich import box
    from rich.table import Table

    from cli.console import console
    from cli.render import NARROW, escape
    from projections.reports.stats import CATEGORIES
    t = numbers["totals"]
    title = f"[bold]{numbers['encounter']}[/bold]" + (f" · {escape(numbers['title'])}" if numbers["title"] else "")  # noqa: E501
    console.print(f"{title} — {t['rounds']} rounds, {t['passes']} passes, {t['turns']} turns, "
                  f"{t['ap_spent']} AP spent · seq {numbers['seq']}")
    # Two tables of a few columns each rather than one of fourteen, so each
    # fits an 80-column terminal with its headers whole; under NARROW columns
    # (a split pane, a phone's terminal) a line of words per combatant.
    narrow = console.width < NARROW

    def people(columns: tuple[str, ...], cells) -> None:
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1),
                      collapse_padding=True)
        for name in ("combatant",) + columns:
            table.add_column(name, justify="left" if name == "combatant" else "right",
                             no_wrap=True)
        for c in numbers["combatants"]:
            table.add_row(escape(c["name"]), *cells(c), style=None if c["active"] else "dim")
        console.print(table)
    if narrow:
        for c in numbers["combatants"]:
            actions = ", ".join(f"{k} {c['actions'][k]}" for k in CATEGORIES)
            console.print(
                f"[bold]{escape(c['name'])}[/bold]{'' if c['active'] else ' (left)'}: {c['turns']} "
                f"turn{'' if c['turns'] == 1 else 's'}, "
                f"AP {c['ap_in_turns']} in turns, {c['ap_on_interrupts']} on intr., "
                f"{c['ap_unspent']} left; {duration(c['turn_seconds'])} in turns; {actions}, "
                f"intr. {c['interrupts']}; seizes {c['seizes']}, Grit spent {c['grit_spent']}, "
                f"gained {c['grit_gained']}", style=None if c["active"] else "dim")
    else:
        people(("turns", "AP in\nturns", "AP on\nintr.", "AP\nleft", "time in\nturns"),
               lambda c: (str(c["turns"]), str(c["ap_in_turns"]), str(c["ap_on_interrupts"]),
                          str(c["ap_unspent"]), duration(c["turn_seconds"])))
        people(("free", "minor", "major", "cust.", "intr.", "seizes", "Grit\nspent",
                "Grit\ngained"),
               lambda c: (*(str(c["actions"][k]) for k in CATEGORIES), str(c["interrupts"]),
                          str(c["seizes"]), str(c["grit_spent"]), str(c["grit_gained"])))
    # Names, as the report prints them (an id is what a GM types, not what a table reads).
    named = {c["id"]: escape(c["name"]) for c in numbers["combatants"]}
    gone = [named[c["id"]] for c in numbers["combatants"] if not c["active"]]
    console.print("[dim]AP spent in turns and on interrupts (intr.), AP left unspent when "
                  "a round ended, actions by category (cust.: a cost of its own)"
                  + (f"; left the encounter: {', '.join(gone)}" if gone else "") + "[/dim]\n")
    if numbers["rounds"] and narrow:
        for r in numbers["rounds"]:
            unspent = "" if r["ap_unspent"] is None else f", {r['ap_unspent']} AP unspent"
            turns = r["turns_per_pass"]
            console.print(f"[bold]round {r['round']}[/bold]: {r['passes']} "
                          f"pass{'' if r['passes'] == 1 else 'es'} "
                          f"({' / '.join(map(str, turns))} turn{'' if turns == [1] else 's'}), "
                          f"{r['ap_spent']} AP spent, {r['interrupts']} intr., seized by "
                          f"{', '.join(named.get(x, x) for x in r['seizes']) or 'nobody'}{unspent}, "
                          f"{duration(r['seconds'])}")
    elif numbers["rounds"]:
        rounds = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1),
                       collapse_padding=True)
        for name in ("round", "passes", "turns\nper pass", "AP\nspent", "intr.",
                     "seized by", "AP\nunspent", "time"):
            rounds.add_column(name, justify="left" if name in ("turns\nper pass", "seized by")
                              else "right", no_wrap=name != "seized by")
        for r in numbers["rounds"]:
            rounds.add_row(str(r["round"]), str(r["passes"]),
                           " / ".join(map(str, r["turns_per_pass"])), str(r["ap_spent"]),
                           str(r["interrupts"]), ", ".join(named.get(x, x) for x in r["seizes"]),
                           "" if r["ap_unspent"] is None else str(r["ap_unspent"]),
                           duration(r["seconds"]))
        console.print(rounds)
    console.print(f"totals: AP in turns {t['ap_in_turns']}, on interrupts {t['ap_on_interrupts']} "
                  f"({t['interrupts']} interrupts), left unspent {t['ap_unspent']} · seizes "
                  f"{t['seizes']} · Grit spent {t['grit_spent']} · events {t['events']} "
                  f"({t['undone']} undone, {t['amended']} amended)")
    console.print(f"time: {duration(t['duration_seconds'])} from the first event to the last, "
                  f"{duration(t['turn_seconds'])} in turns")
    _show_tail(numbers, named)


def _show_tail(numbers: dict, named: dict[str, str]) -> None:
    """The slowest turns; hp taken, dealt and healed, and the conditions of
    each round."""
    from cli.console import console
    from cli.render import escape
    if numbers["slowest_turns"]:
        console.print("slowest turns: " + ", ".join(
            f"{named.get(x['combatant'], escape(x['combatant']))} {duration(x['seconds'])} "
            f"(round {x['round']}, pass {x['pass']})"
            for x in numbers["slowest_turns"]))
    hp = numbers.get("hp") or {}
    if hp.get("used"):
        console.print("hp: " + "; ".join(
            f"{escape(c['name'])} took {c['taken']}, dealt {c['dealt']}, healed {c['healed']}"
            for c in hp["combatants"]))
    for r in numbers.get("conditions") or ():
        console.print(f"conditions in round {r['round']}: " + "; ".join(
            f"{named.get(cid, escape(cid))} {', '.join(escape(n) for n in names)}"
            for cid, names in r["on"].items()))


def show_campaign(numbers: dict) -> None:
    from rich import box
    from rich.table import Table

    from cli.console import console
    from cli.render import escape
    t = numbers["totals"]
    fights = f"{t['encounters']} encounter{'s' if t['encounters'] != 1 else ''}"
    console.print(f"[bold]{fights}[/bold] — {t['rounds']} rounds, "
                  f"{t['turns']} turns, {t['ap_spent']} AP spent, {t['interrupts']} interrupts, "
                  f"{t['seizes']} seizes, {duration(t['duration_seconds'])}")

    def table(columns: list[str], rows: list[list]) -> None:
        out = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1),
                    collapse_padding=True)
        for i, name in enumerate(columns):
            out.add_column(name, justify="left" if i == 0 or name == "encounter" else "right",
                           no_wrap=i == 0)
        for row in rows:
            out.add_row(*(escape(str("–" if v is None else v)) for v in row))
        console.print(out)

    sessions = any(e.get("session") for e in numbers["encounters"])
    table((["session"] if sessions else []) + ["encounter", "rounds", "turns", "AP\nspent",
                                               "intr.", "seizes", "time"],
          [([e["session"]] if sessions else []) + [
              e["encounter"], e["rounds"], e["turns"], e["ap_spent"], e["interrupts"],
              e["seizes"], duration(e["duration_seconds"])] for e in numbers["encounters"]])
    table(["combatant", "side", "fights", "turns", "AP in\nturns", "AP per\nturn",
           "intr.", "seizes", "Grit\nspent", "time in\nturns"],
          [[c.get("name") or c["id"], c["side"], c["encounters"], c["turns"], c["ap_in_turns"],
            c["ap_per_turn"], c["interrupts"], c["seizes"], c["grit_spent"],
            duration(c["turn_seconds"])] for c in numbers["combatants"]])
    if numbers.get("harm", {}).get("used"):
        console.print("hp: " + "; ".join(
            f"{escape(c.get('name') or c['id'])} lost {c['hp_taken']}, dealt {c['hp_dealt']}, "
            f"healed {c['hp_healed']}" for c in numbers["combatants"]
            if c["hp_taken"] or c["hp_dealt"] or c["hp_healed"]))
    suffered = [c for c in numbers["combatants"] if c.get("conditions")]
    if suffered:
        console.print("conditions: " + "; ".join(
            f"{escape(c.get('name') or c['id'])} {', '.join(escape(x) for x in c['conditions'])}"
            for c in suffered))
    table(["side", "turns", "AP per\nturn", "intr.", "seizes", "time per\nturn"],
          [[s["side"], s["turns"], s["ap_per_turn"], s["interrupts"], s["seizes"],
            duration(s["seconds_per_turn"] or 0)] for s in numbers["sides"]])
