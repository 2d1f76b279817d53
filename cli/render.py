"""The status and the log for people: the table after every declaration,
laid out by cli/inkgrid.py and written by cli/ink.py in rich's look without
importing rich (rich prints what ink is unsure of: `write`)."""
from __future__ import annotations

import sys
from collections.abc import Sequence

from cli.ink import Page, Screen, Unfit, escape, screen
from cli.inkgrid import Grid

from projections.reports.worded import Said
from projections.domain.narrate import unspent
from projections.reports.flow import tie_hint
from projections.domain.narrate import describe, lasting, side_word
from projections.domain.phrases import slugify
from projections.domain.state import State
from projections.domain.tracks import shown
from eventlog.language import N_, _
from eventlog.language import clock as time_of_day

PIPS_UP_TO = 8
NARROW = 64  # columns: below this, the status table's compact layout


def _pips(ap: int, max_ap: int) -> str:
    if max_ap <= PIPS_UP_TO and ap <= PIPS_UP_TO:
        return "●" * ap + "○" * max(max_ap - ap, 0)
    return f"{ap}/{max_ap}"


def headline(s: State) -> str:
    title = f"[bold]{s.encounter}[/bold]" + (f" · {escape(s.title)}" if s.title else "")
    if s.ended:
        where = _("ended after round {n}").format(n=s.round)
    elif s.round == 0:
        where = _("setting up: roll initiative, then `combat round`")
    elif s.round_complete:
        where = _("round {n} complete · the GM starts the next with `combat round`").format(
            n=s.round)
    else:
        where = _("round {n}, pass {p}").format(n=s.round, p=s.pass_)
        if s.window:
            where += " · [yellow]" + _("seize window open") + "[/yellow]"
    return f"{title} — {where} · seq {s.seq}"


def _when(s: State, e) -> str:
    """When an effect holds, as its state word says it."""
    if e.covers(s.round):
        if e.until_ended:
            return lasting(e)
        if e.last == s.round:
            return _("this round")
        return _("to round {n}").format(n=e.last)
    if e.first == e.last:
        return _("round {n}").format(n=e.first)
    if e.until_ended:
        return _("from round {n}").format(n=e.first)
    return _("rounds {first}-{last}").format(first=e.first, last=e.last)


def _state_word(s: State, cid: str) -> str:
    c = s.combatants[cid]
    if not c.active:
        return "[dim]" + _("left") + "[/dim]"
    words = []
    if s.running and s.turn == cid:
        words.append("[bold green]" + _("acting") + "[/bold green]")
    elif cid in s.up():
        words.append("[green]" + _("up") + "[/green]")
    elif s.running and cid in s.done:
        words.append(_("done"))
    elif s.running and c.ap > 0 and s.slot_of(cid) in s.passed:
        words.append(_("next pass"))
    if c.seized and s.round:
        words.append("[yellow]" + _("seized") + "[/yellow]")
    if s.initiative_of(cid) is None:
        words.append("[red]" + _("no initiative") + "[/red]")
    if cid in s.hidden:  # (the players do not see it yet)
        words.append("[dim]" + _("hidden") + "[/dim]")
    for e in s.effects_on(cid):
        when = _when(s, e)
        change = f" {e.delta:+d}" if e.delta else ""
        words.append(f"[magenta]{escape(e.name)}{change}[/magenta] ({when})")
    for name, track in s.tracks.get(cid, {}).items():
        words.append(f"[cyan]{escape(name)} {shown(track)}[/cyan]")
    return ", ".join(words)


def _initiative(slot) -> str:
    """The total, and the roll it came from unless the GM set it (R4)."""
    if slot.die is not None and slot.total == slot.die + slot.bonus:
        return f"{slot.total} ({slot.die}{slot.bonus:+d})"
    return _("{total} (GM)").format(total=slot.total)


def status_table(s: State):
    """The status table as a rich renderable, at the console's width (play
    mode prints it in its panels)."""
    from cli.console import console
    return status_grid(s, console.width).to_rich()


def status_grid(s: State, width: int) -> Grid:
    """A row per slot and member in turn order. Under NARROW columns (a split
    pane, a phone's terminal) the table keeps the id, the total, the pips and
    the state words whole, and says the rest in the words (`grit 1`, `spent
    2`), rather than cut every cell down to `r…`."""
    narrow = width < NARROW
    combatant, init = _("combatant"), _("init")
    columns = ((("#", "right"), (combatant, "left"), (init, "right"), ("AP", "left"),
                ("", "left")) if narrow else
               (("#", "right"), (combatant, "left"), (_("side"), "left"), (init, "right"),
                ("AP", "left"), (_("turn"), "right"), (_("grit"), "right"), ("", "left")))
    table = Grid(columns, [narrow and name != "" for name, _justify in columns])
    shown: set[str] = set()

    def member_row(pos: str, cid: str, indent: str = "") -> None:
        c = s.combatants[cid]
        slot = s.initiative_of(cid)
        spent = c.spent_this_turn if s.running and s.turn == cid else ""
        pips = _pips(c.ap, c.in_force)  # the maximum in force; a pending one beside it (R14)
        if s.max_ap_of(cid) != c.in_force:
            pips += f" → {s.max_ap_of(cid)}"
        if narrow:
            init = "" if slot is None or indent else str(slot.total)
            words = [w for w in (_state_word(s, cid),
                                 _("spent {n}").format(n=spent) if spent != "" else "",
                                 _("grit {n}").format(n=c.grit) if c.grit else "") if w]
            table.add_row(pos, f"{indent}[bold]{cid}[/bold]", init, pips, ", ".join(words))
        else:
            init = "" if slot is None or indent else _initiative(slot)
            name = ("" if slugify(c.name, transliterate=False) == cid
                    else f" [dim]{escape(c.name)}[/dim]")
            table.add_row(pos, f"{indent}[bold]{cid}[/bold]{name}", side_word(c.side), init, pips,
                          str(spent), str(c.grit), _state_word(s, cid))
        shown.add(cid)

    def group_row(pos: str, gid: str, init: str) -> None:
        if narrow:
            table.add_row(pos, f"[bold]{gid}[/bold]", init.split(" ")[0], "",
                          "[dim]" + _("group") + "[/dim]")
        else:
            table.add_row(pos, f"[bold]{gid}[/bold] [dim]" + _("(group)") + "[/dim]",
                          side_word(s.side_of(gid)), init, "", "", "", "")

    for pos, key in enumerate(s.order(), 1):
        marker = "▶" if key == s.current and s.running else ""
        group = s.groups.get(key)
        if group is None:
            member_row(f"{marker}{pos}", key)
            continue
        group_row(f"{marker}{pos}", group.id, _initiative(s.slots[key]))
        for cid in group.members:
            if cid not in s.seizers or not s.combatants[cid].active:
                member_row("", cid, "  ")
    for cid in s.combatants:  # not in the order: no initiative yet, or left
        if cid in shown:
            continue
        gid = s.combatants[cid].group
        if gid is None or gid in s.slots:
            member_row("", cid)
            continue
        group_row("", gid, "")
        for mid in s.groups[gid].members:
            member_row("", mid, "  ")
    return table


def terminal() -> tuple[Screen | None, int]:
    """The screen as rich would find it (None where cli/ink.py does not
    follow rich), and the width to lay out for: looked at once a command."""
    try:
        on = screen()
    except Unfit:
        from cli.console import console
        return None, console.width
    return on, on.width


def write(page: Page, on: Screen | None) -> None:
    """`page` on stdout, by cli/ink.py on the screen `on`, or by rich where
    ink is unsure."""
    if on is not None:
        try:
            shown = page.text(on)
        except Unfit:
            pass
        else:
            sys.stdout.write(shown)
            sys.stdout.flush()
            return
    from cli.console import console
    page.print_to(console)


def show_state(s: State, lost: bool = False, page: Page | None = None) -> None:
    """The headline, the table, who is up and the ties, written at once
    (after what `page` holds already); with `lost`, the AP a new round would
    throw away now (R15, R24)."""
    on, width = terminal()
    write(state_page(s, width, lost, page), on)


def state_page(s: State, width: int, lost: bool = False, page: Page | None = None) -> Page:
    """show_state's page, laid out for `width` columns."""
    page = page or Page()
    page.line(headline(s))
    if not s.combatants:
        page.line(_("nobody yet: add combatants with `combat add NAME`"))
        return page
    page.grid(status_grid(s, width))
    if s.running and s.up():
        page.line(_("up: {up}").format(up=", ".join(s.up())))
    for run in s.ties():
        page.line("[yellow]" + _("unresolved tie") + "[/yellow]: " + _("{tie} ({hint})").format(
            tie=" = ".join(run), hint=tie_hint(s, run)))
    if lost and unspent(s):
        ap = ", ".join(f"{cid} {n}" for cid, n in unspent(s))
        page.line(_("unspent AP, lost if `combat round` starts the next round now "
                    "(R15, R24): {ap}").format(ap=ap))
    return page


def done_page(s: State, lines: list[Said], flow: Sequence[str], width: int) -> Page:
    """What a command did: a line per declaration (projections/reports/worded.py),
    how the round moved on (a turn that ended by itself, a new pass, who is
    up), then the state."""
    page = Page()
    for said in lines:
        page.line(escape(said.text))
    for line in flow:
        page.line(f"[bold yellow]↪ {escape(line)}[/bold yellow]")
    return state_page(s, width, page=page)


def show_done(s: State, lines: list[Said], flow: Sequence[str] = ()) -> None:
    on, width = terminal()
    write(done_page(s, lines, flow, width), on)


def show_outcome(command, outcome) -> None:
    """What a command did, and how the round moved on (projections/flow.py)."""
    from projections.domain import commands as c
    from projections.reports.flow import announce
    if outcome.preview is not None:  # --dry-run: what it would change, nothing appended
        page = Page()
        page.line(_("dry run, nothing appended:"))
        for line in outcome.preview:
            page.line(f"  {escape(line)}")
        write(page, terminal()[0])
        return
    from projections.reports.worded import from_touched, worded
    lines = worded(outcome.events, from_touched(outcome.touched))
    flow = []
    if outcome.before is not None:
        named = isinstance(command, c.EndTurn) and command.id is not None
        # a correction's lines are what it took back, not what happened now
        said = [] if isinstance(command, c.CORRECTING) else [
            p for x in lines for p in (x.payload, *x.also)]
        flow = announce(outcome.before, outcome.state, said, named)
    show_done(outcome.state, lines, flow)


def clock(at: str, utc: bool = False) -> str:
    """An event's time of day: this machine's local time, or UTC as stored."""
    if not utc:
        from datetime import datetime
        try:
            return time_of_day(datetime.fromisoformat(at.replace("Z", "+00:00")).astimezone())
        except ValueError:  # (a stored time is checked on the way in: never here)
            pass
    return at[11:19]


HEADINGS = {"seq": N_("seq"), "time": N_("time"), "actor": N_("actor"), "when": N_("when"),
            "declaration": N_("declaration")}


def log_table(encounter: str, entries, audit: bool = False, utc: bool = False,
              width: int | None = None) -> Grid:
    """The log for people: seq, time (local, or UTC with `utc`), actor,
    context, the declaration (under NARROW columns: seq, actor and the
    declaration, which matters most), laid out for `width` columns (the
    screen's by default). An imported entry's actor says so: it is what the
    file claimed, not a declaration this store witnessed."""
    narrow = (terminal()[1] if width is None else width) < NARROW
    names = ("seq", "actor", "declaration") if narrow else (
        "seq", "UTC" if utc else "time", "actor", "when", "declaration")
    title = _("audit trail of {id}") if audit else _("log of {id}")
    table = Grid([(_(HEADINGS.get(name, name)), "right" if name == "seq" else "left")
                  for name in names], [name == "seq" for name in names],
                 title=title.format(id=encounter))
    for e in entries:
        text = escape(describe(e.env.data))
        if e.fate:
            text = f"[strike]{text}[/strike] [dim]({escape(e.fate)})[/dim]"
        if e.env.seq != e.env.batch:  # the rest of one command's batch
            text = f"[dim]+[/dim] {text}"
        actor = escape(e.env.actor) + (" [dim]" + _("(imported)") + "[/dim]" if e.imported
                                       else "")
        if narrow:
            table.add_row(str(e.env.seq), actor, text)
        else:
            table.add_row(str(e.env.seq), clock(e.env.at, utc), actor, e.where, text)
    return table
