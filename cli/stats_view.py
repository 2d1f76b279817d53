"""`combat stats` as tables in the terminal: one encounter, or a campaign."""
from __future__ import annotations

from eventlog.language import N_, _, n_
from eventlog.language import pgettext
from projections.reports.words import category, column, count as whole, figure, side
from projections.reports.timing import duration


def show_stats(numbers: dict) -> None:
    from rich import box
    from rich.table import Table

    from cli.console import console
    from cli.render import NARROW, escape
    from projections.reports.stats import CATEGORIES
    t = numbers["totals"]
    title = f"[bold]{numbers['encounter']}[/bold]" + (f" · {escape(numbers['title'])}" if numbers["title"] else "")  # noqa: E501
    console.print(_("{title} — {rounds} rounds, {passes} passes, {turns} turns, {ap} AP spent "
                    "· seq {seq}").format(title=title, rounds=whole(t["rounds"]),
                                          passes=whole(t["passes"]), turns=whole(t["turns"]),
                                          ap=whole(t["ap_spent"]), seq=numbers["seq"]))
    # Two tables of a few columns each rather than one of fourteen, so each
    # fits an 80-column terminal with its headers whole; under NARROW columns
    # (a split pane, a phone's terminal) a line of words per combatant.
    narrow = console.width < NARROW

    def people(columns: tuple[str, ...], cells) -> None:
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1),
                      collapse_padding=True)
        for i, name in enumerate((N_("combatant"),) + columns):
            table.add_column(column(name), justify="left" if i == 0 else "right", no_wrap=True)
        for c in numbers["combatants"]:
            table.add_row(escape(c["name"]), *cells(c), style=None if c["active"] else "dim")
        console.print(table)
    if narrow:
        for c in numbers["combatants"]:
            console.print(_person_line(c), style=None if c["active"] else "dim")
    else:
        people((N_("turns"), N_("AP in\nturns"), N_("AP on\nintr."), N_("AP\nleft"),
                N_("time in\nturns")),
               lambda c: (str(c["turns"]), str(c["ap_in_turns"]), str(c["ap_on_interrupts"]),
                          str(c["ap_unspent"]), duration(c["turn_seconds"])))
        people((N_("free"), N_("minor"), N_("major"), N_("cust."), N_("intr."), N_("seizes"),
                N_("Grit\nspent"), N_("Grit\ngained")),
               lambda c: (*(str(c["actions"][k]) for k in CATEGORIES), str(c["interrupts"]),
                          str(c["seizes"]), str(c["grit_spent"]), str(c["grit_gained"])))
    # Names, as the report prints them (an id is what a GM types, not what a table reads).
    named = {c["id"]: escape(c["name"]) for c in numbers["combatants"]}
    gone = [named[c["id"]] for c in numbers["combatants"] if not c["active"]]
    key = _("AP spent in turns and on interrupts (intr.), AP left unspent when a round ended, "
            "actions by category (cust.: a cost of its own)")
    if gone:
        key = _("{key}; left the encounter: {names}").format(key=key, names=", ".join(gone))
    console.print(f"[dim]{key}[/dim]\n")
    _show_rounds(numbers, named, narrow)
    console.print(_("totals: AP in turns {in_turns}, on interrupts {on_interrupts} ({interrupts} "
                    "interrupts), left unspent {unspent} · seizes {seizes} · Grit spent {grit} · "
                    "events {events} ({undone} undone, {amended} amended)").format(
        in_turns=whole(t["ap_in_turns"]), on_interrupts=whole(t["ap_on_interrupts"]),
        interrupts=whole(t["interrupts"]), unspent=whole(t["ap_unspent"]),
        seizes=whole(t["seizes"]), grit=whole(t["grit_spent"]), events=whole(t["events"]),
        undone=whole(t["undone"]), amended=whole(t["amended"])))
    console.print(_("time: {duration} from the first event to the last, {in_turns} in turns")
                  .format(duration=duration(t["duration_seconds"]),
                          in_turns=duration(t["turn_seconds"])))
    _show_tail(numbers, named)


def _person_line(c: dict) -> str:
    """A combatant's numbers as a line of words (a narrow terminal)."""
    from cli.render import escape
    from projections.reports.stats import CATEGORIES
    actions = ", ".join(f"{category(k)} {c['actions'][k]}" for k in CATEGORIES)
    name = f"[bold]{escape(c['name'])}[/bold]"
    return ((_("{name}: ") if c["active"] else _("{name} (left): ")).format(name=name)
            + n_("{n} turn", "{n} turns", c["turns"]).format(n=c["turns"]) + ", "
            + _("AP {in_turns} in turns, {on_interrupts} on intr., {left} left; {time} in "
                "turns; {actions}, intr. {interrupts}; seizes {seizes}, Grit spent {spent}, "
                "gained {gained}").format(
                in_turns=c["ap_in_turns"], on_interrupts=c["ap_on_interrupts"],
                left=c["ap_unspent"], time=duration(c["turn_seconds"]), actions=actions,
                interrupts=c["interrupts"], seizes=c["seizes"], spent=c["grit_spent"],
                gained=c["grit_gained"]))


def _show_rounds(numbers: dict, named: dict[str, str], narrow: bool) -> None:
    """Each round: a line of words on a narrow terminal, else a table."""
    from rich import box
    from rich.table import Table

    from cli.console import console
    if numbers["rounds"] and narrow:
        for r in numbers["rounds"]:
            turns = r["turns_per_pass"]
            seizers = ", ".join(named.get(x, x) for x in r["seizes"]) or pgettext("seized by", "nobody")
            facts = dict(round=r["round"], passes=n_("{n} pass", "{n} passes", r["passes"]).format(
                             n=r["passes"]),
                         turns=n_("{turns} turn", "{turns} turns", 2 if turns != [1] else 1).format(
                             turns=" / ".join(map(str, turns))),
                         ap=r["ap_spent"], interrupts=r["interrupts"], seizers=seizers,
                         unspent=r["ap_unspent"], time=duration(r["seconds"]))
            console.print(
                (_("[bold]round {round}[/bold]: {passes} ({turns}), {ap} AP spent, "
                   "{interrupts} intr., seized by {seizers}, {time}") if r["ap_unspent"] is None
                 else _("[bold]round {round}[/bold]: {passes} ({turns}), {ap} AP spent, "
                        "{interrupts} intr., seized by {seizers}, {unspent} AP unspent, {time}"))
                .format(**facts))
    elif numbers["rounds"]:
        rounds = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1),
                       collapse_padding=True)
        # ("round" and "encounter" are the singular of a counted word: column() says them)
        for name in ("round", N_("passes"), N_("turns\nper pass"), N_("AP\nspent"),
                     N_("intr."), N_("seized by"), N_("AP\nunspent"), N_("time")):
            rounds.add_column(column(name), justify="left" if name in ("turns\nper pass", "seized by")
                              else "right", no_wrap=name != "seized by")
        for r in numbers["rounds"]:
            rounds.add_row(str(r["round"]), str(r["passes"]),
                           " / ".join(map(str, r["turns_per_pass"])), str(r["ap_spent"]),
                           str(r["interrupts"]), ", ".join(named.get(x, x) for x in r["seizes"]),
                           "" if r["ap_unspent"] is None else str(r["ap_unspent"]),
                           duration(r["seconds"]))
        console.print(rounds)


def _show_tail(numbers: dict, named: dict[str, str]) -> None:
    """The slowest turns; hp taken, dealt and healed, and the conditions of
    each round."""
    from cli.console import console
    from cli.render import escape
    if numbers["slowest_turns"]:
        console.print(_("slowest turns: {turns}").format(turns=", ".join(
            _("{name} {time} (round {round}, pass {pass_})").format(
                name=named.get(x["combatant"], escape(x["combatant"])),
                time=duration(x["seconds"]), round=x["round"], pass_=x["pass"])
            for x in numbers["slowest_turns"])))
    hp = numbers.get("hp") or {}
    if hp.get("used"):
        console.print(_("hp: {who}").format(who="; ".join(
            _("{name} took {taken}, dealt {dealt}, healed {healed}").format(
                name=escape(c["name"]), taken=c["taken"], dealt=c["dealt"], healed=c["healed"])
            for c in hp["combatants"])))
    for r in numbers.get("conditions") or ():
        console.print(_("conditions in round {round}: {who}").format(round=r["round"], who="; ".join(
            f"{named.get(cid, escape(cid))} {', '.join(escape(n) for n in names)}"
            for cid, names in r["on"].items())))


def said(value) -> str:
    """A cell of the campaign's tables: a count grouped, a ratio with the
    reader's decimal mark, a missing one a dash."""
    if value is None:
        return "–"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    return whole(value) if isinstance(value, int) else figure(value)


def show_campaign(numbers: dict) -> None:
    from rich import box
    from rich.table import Table

    from cli.console import console
    from cli.render import escape
    t = numbers["totals"]
    fights = n_("{n} encounter", "{n} encounters", t["encounters"]).format(
        n=whole(t["encounters"]))
    console.print(_("{fights} — {rounds} rounds, {turns} turns, {ap} AP spent, {interrupts} "
                    "interrupts, {seizes} seizes, {time}").format(
        fights=f"[bold]{fights}[/bold]", rounds=whole(t["rounds"]), turns=whole(t["turns"]),
        ap=whole(t["ap_spent"]), interrupts=whole(t["interrupts"]), seizes=whole(t["seizes"]),
        time=duration(t["duration_seconds"])))

    def table(columns: list[str], rows: list[list]) -> None:
        out = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1),
                    collapse_padding=True)
        for i, name in enumerate(columns):
            out.add_column(column(name), justify="left" if i == 0 or name == "encounter" else "right",
                           no_wrap=i == 0)
        for row in rows:
            out.add_row(*(escape(said(v)) for v in row))
        console.print(out)

    sessions = any(e.get("session") for e in numbers["encounters"])
    table(([N_("session")] if sessions else []) + ["encounter", N_("rounds"), N_("turns"),
                                                   N_("AP\nspent"), N_("intr."), N_("seizes"),
                                                   N_("time")],
          [([e["session"]] if sessions else []) + [
              e["encounter"], e["rounds"], e["turns"], e["ap_spent"], e["interrupts"],
              e["seizes"], duration(e["duration_seconds"])] for e in numbers["encounters"]])
    table([N_("combatant"), N_("side"), N_("fights"), N_("turns"), N_("AP in\nturns"),
           N_("AP per\nturn"), N_("intr."), N_("seizes"), N_("Grit\nspent"), N_("time in\nturns")],
          [[c.get("name") or c["id"], side(c["side"]), c["encounters"], c["turns"], c["ap_in_turns"],
            c["ap_per_turn"], c["interrupts"], c["seizes"], c["grit_spent"],
            duration(c["turn_seconds"])] for c in numbers["combatants"]])
    if numbers.get("harm", {}).get("used"):
        console.print(_("hp: {who}").format(who="; ".join(
            _("{name} lost {lost}, dealt {dealt}, healed {healed}").format(
                name=escape(c.get("name") or c["id"]), lost=c["hp_taken"], dealt=c["hp_dealt"],
                healed=c["hp_healed"]) for c in numbers["combatants"]
            if c["hp_taken"] or c["hp_dealt"] or c["hp_healed"])))
    suffered = [c for c in numbers["combatants"] if c.get("conditions")]
    if suffered:
        console.print(_("conditions: {who}").format(who="; ".join(
            f"{escape(c.get('name') or c['id'])} {', '.join(escape(x) for x in c['conditions'])}"
            for c in suffered)))
    table([N_("side"), N_("turns"), N_("AP per\nturn"), N_("intr."), N_("seizes"),
           N_("time per\nturn")],
          [[side(s["side"]), s["turns"], s["ap_per_turn"], s["interrupts"], s["seizes"],
            duration(s["seconds_per_turn"] or 0)] for s in numbers["sides"]])
