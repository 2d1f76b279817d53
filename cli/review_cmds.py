"""Post-game review: stats, replay, schema. (Exports are `export --format`.)"""
from __future__ import annotations

from enum import Enum
from pathlib import Path

import typer

from cli.base import app, session
from cli.session import print_json
from eventlog.errors import LedgerError
from eventlog.language import N_, _, n_

DELAY_ON_A_TERMINAL = 1.0  # seconds between frames when --delay is not given
MAX_DELAY = 3600.0  # seconds: more is a typo (and 1e308 or nan no clock can sleep)


def both(options: list[str]) -> str:
    """`--all and --session` in the reader's words."""
    from functools import reduce
    return reduce(lambda first, second: _("{first} and {second}").format(
        first=first, second=second), options)


def _evening(s, every: bool, encounters: str | None, evening: str | None,
             campaign: bool) -> tuple[list[str] | None, dict[str, str] | None]:
    """The encounters of a campaign view (None: the current one alone), and
    with --session or --campaign the session each belongs to."""
    given = [name for name, on in (("--all", every), ("--encounters", encounters is not None),
                                   ("--session", evening is not None), ("--campaign", campaign))
             if on]
    if len(given) > 1:
        raise LedgerError(_("{options}: give one of them").format(options=both(given)))
    if evening is not None or campaign:
        from projections.party.evenings import chosen_fights
        fights = chosen_fights(s.ledger.store, evening)
        return [fight for _sid, fight in fights], {fight: sid for sid, fight in fights}
    if every:
        return [e.id for e in s.ledger.store.encounters()], None
    if encounters is None:
        return None, None
    from eventlog.errors import UnknownEncounter
    ids = [e.strip() for e in encounters.split(",") if e.strip()]
    known = {e.id for e in s.ledger.store.encounters()}
    for eid in ids:
        if eid not in known:
            raise UnknownEncounter(_("--encounters: no encounter {encounter} in this store")
                                   .format(encounter=eid))
    if not ids:
        raise LedgerError(_("--encounters: name at least one encounter, e.g. --encounters a,b"))
    return ids, None


ALL_HELP = N_("Every encounter of the store: a campaign view.")
ENCOUNTERS_HELP = N_("These encounters, comma-separated (a,b,c): a campaign view.")
SESSION_HELP = N_("The fights of this session (`combat session` lists them), side by side.")
CAMPAIGN_HELP = N_("The fights of every session, session by session.")


@app.command(help=_(
    "Post-game numbers: per combatant turns, AP spent in turns and on interrupts, "
    "actions by category, AP left unspent at round ends, seizes, Grit and time in "
    "turns; per round passes, turns, AP and time; the slowest turns; the encounter's "
    "totals. With --all or --encounters, the same across many encounters of the "
    "store; with --session ID or --campaign, across the fights of an evening or of "
    "every one.\n\n"
    "Example: combat stats        combat stats --json        combat stats --campaign        combat stats --csv > turns.csv"))
def stats(ctx: typer.Context,
          as_json: bool = typer.Option(False, "--json", help=_("JSON for scripts.")),
          as_csv: bool = typer.Option(False, "--csv", help=_("One row per turn (who, where, AP, seconds), for analysis.")),
          every: bool = typer.Option(False, "--all", help=_(ALL_HELP)),
          encounters: str | None = typer.Option(None, "--encounters", help=_(ENCOUNTERS_HELP)),
          evening: str | None = typer.Option(None, "--session", metavar="ID", help=_(SESSION_HELP)),
          campaign: bool = typer.Option(False, "--campaign", help=_(CAMPAIGN_HELP))) -> None:
    if as_json and as_csv:
        raise LedgerError(_("{options}: give one of them").format(
            options=both(["--json", "--csv"])))
    from projections.reports.stats import stats as tally
    s = session(ctx)
    ids, sessions = _evening(s, every, encounters, evening, campaign)
    if ids is None:
        fights = [tally(s.ledger, s.encounter)]
        numbers = fights[0]
    else:
        from projections.reports.campaign import campaign as side_by_side
        numbers = side_by_side(s.ledger, ids, sessions=sessions)
        fights = numbers["fights"]
    if as_csv:
        write_turns(fights)
    elif as_json:
        print_json(numbers)
    elif ids is None:
        from cli.stats_view import show_stats
        show_stats(numbers)
    else:
        from cli.stats_view import show_campaign
        show_campaign(numbers)


def write_turns(fights: list[dict]) -> None:
    import csv

    from cli.output import stdout
    from eventlog.text import csv_cell
    from projections.reports.campaign import TURN_COLUMNS, per_turn
    out = stdout()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(TURN_COLUMNS)
    for numbers in fights:
        for row in per_turn(numbers):
            writer.writerow([csv_cell(cell) for cell in row])
    out.flush()


class Audience(str, Enum):
    gm = "gm"
    players = "players"


@app.command(help=_(
    "The html report: of the encounter (as `export --format html`), a players' "
    "summary of it (--for players), or a campaign report across encounters (--all, "
    "--encounters a,b), the fights of a session (--session ID) or of every session "
    "(--campaign). On a terminal without -o it is written to ID-report.html "
    "(ID-recap.html, campaign-report.html) in the current folder, replacing an "
    "earlier one, and the line says where.\n\n"
    "Example: combat report -o raid.html        combat report --for players -o recap.html        combat report --all -o campaign.html"))
def report(ctx: typer.Context,
           out: str | None = typer.Option(None, "-o", "--output", help=_("Write to FILE (default: stdout, or on a terminal ID-report.html); never the ledger or its files.")),
           audience: Audience = typer.Option(Audience.gm, "--for", help=_("gm: everything; players: the PCs' highlights, no GM-only detail (reasons of overrides, the log), nothing of a combatant still hidden.")),
           every: bool = typer.Option(False, "--all", help=_(ALL_HELP)),
           encounters: str | None = typer.Option(None, "--encounters", help=_(ENCOUNTERS_HELP)),
           evening: str | None = typer.Option(None, "--session", metavar="ID", help=_(SESSION_HELP)),
           campaign: bool = typer.Option(False, "--campaign", help=_(CAMPAIGN_HELP)),
           force: bool = typer.Option(False, "--force", help=_("Replace FILE even if it is a SQLite database."))) -> None:
    from cli.progress import progress
    from eventlog.outfile import checked_target, write_file
    s = session(ctx)
    ids, sessions = _evening(s, every, encounters, evening, campaign)
    chosen = out is None and _on_a_terminal()
    kind = "recap" if audience is Audience.players else "report"
    if chosen:  # a page of html is no terminal's reading: it goes to a file, named here
        out = (f"{evening.strip().lower()}-{kind}" if evening is not None else
               f"campaign-{kind}" if ids is not None else f"{s.encounter}-{kind}") + ".html"
    if out is not None:
        checked_target(out, s.ledger.store.path, force)
    from projections.reports import html
    if ids is not None:
        def writer(f):
            return html.write_campaign(s.ledger, ids, f, progress(), sessions, audience.value)
        what = n_("{n} encounter", "{n} encounters", len(ids)).format(n=len(ids))
    else:
        def writer(f):
            return html.write_html(s.ledger, s.encounter, f, progress(), audience.value)
        what = s.encounter
    if out is None:
        from cli.output import stdout
        writer(stdout())
        return
    write_file(out, writer, s.ledger.store.path, force)
    from cli.console import console
    from cli.render import escape
    said = (_("wrote the report of {what} to {file}: open it in a browser "
              "(`-o FILE` names another file)") if chosen else
            _("wrote the report of {what} to {file}"))
    console.print(said.format(what=escape(what), file=escape(str(out))))


def _on_a_terminal() -> bool:
    import sys
    return sys.stdout.isatty()


@app.command(help=_(
    "Play the encounter back in the terminal: after each event, its line and the "
    "status table as the table saw it then (R31). With --session ID or --campaign, "
    "the fights of an evening (or of every one) in the order they were played.\n\n"
    "Example: combat replay --delay 0.5        combat replay --step --to 30        combat replay --session s2"))
def replay(ctx: typer.Context,
           to: int | None = typer.Option(None, "--to", min=1, help=_("Stop after this seq (default: the end).")),
           start: int = typer.Option(1, "--from", min=1, help=_("Show frames from this seq on.")),
           delay: float | None = typer.Option(None, "--delay", min=0.0, help=_("Seconds between events (default: {seconds} on a terminal, 0 otherwise).").format(seconds=f"{DELAY_ON_A_TERMINAL:g}")),
           step: bool = typer.Option(False, "--step", help=_("Wait for Enter after each event (q then Enter stops).")),
           file: Path | None = typer.Option(None, "--file", help=_("Replay a json or jsonl export without importing it.")),
           evening: str | None = typer.Option(None, "--session", metavar="ID", help=_("The fights of this session, one after the other.")),
           campaign: bool = typer.Option(False, "--campaign", help=_("The fights of every session, one after the other."))) -> None:
    import tempfile
    if delay is not None and not delay <= MAX_DELAY:  # (not <=: nan too)
        raise LedgerError(_("--delay {delay}: the pause between events is 0 to {most} "
                            "seconds").format(delay=f"{delay:g}", most=f"{MAX_DELAY:g}"))
    if evening is not None or campaign:
        play_evening(ctx, evening, campaign, to, start, file, delay, step)
        return
    if file is None:
        s = session(ctx)
        play_back(s.ledger, s.encounter, to, start, delay, step)
        return
    from cli.progress import progress
    from eventlog.stores.sqlite import Store
    from projections.inputs.transfer import import_log, open_export
    from projections.ledger import Ledger
    with open_export(file) as doc, tempfile.TemporaryDirectory(prefix="combat-replay-") as tmp:
        store = Store(Path(tmp) / "replay.db")
        try:
            ledger = Ledger(store)
            state = import_log(ledger, doc, None, progress())
            play_back(ledger, state.encounter, to, start, delay, step)
        finally:
            store.close()


def play_evening(ctx, evening: str | None, campaign: bool, to: int | None, start: int,
                 file: Path | None, delay: float | None, step: bool) -> None:
    """The fights of a session (or of every one), each played back whole."""
    given = [name for name, on in (("--session", evening is not None), ("--campaign", campaign),
                                   ("--file", file is not None), ("--to", to is not None),
                                   ("--from", start != 1)) if on]
    if len(given) > 1:
        raise LedgerError(f"{' and '.join(given)}: a session or the campaign is replayed "
                          "whole, fight by fight; give one of them")
    from cli.console import console
    from projections.party.evenings import chosen_fights
    s = session(ctx)
    fights = chosen_fights(s.ledger.store, evening)
    for n, (evening_id, fight) in enumerate(fights, 1):
        console.rule(f"[bold]{fight}[/bold] · " + _("session {id} · fight {n} of {count}").format(
            id=evening_id, n=n, count=len(fights)))
        play_back(s.ledger, fight, None, 1, delay, step)


def play_back(ledger, encounter: str, to: int | None, start: int, delay: float | None,
              step: bool) -> None:
    import time

    from cli.console import console
    from projections.reports.replay import frames
    head, _hash = ledger.store.head(encounter)
    for what, seq in (("--to", to), ("--from", start)):
        if seq is not None and seq > head:
            raise LedgerError(_("{option} {seq}: the log of {id} ends at seq {head}").format(
                option=what, seq=seq, id=encounter, head=head))
    if to is not None and start > to:
        raise LedgerError(_("--from {start} is after --to {to}").format(start=start, to=to))
    live = console.is_terminal
    pause = delay if delay is not None else (DELAY_ON_A_TERMINAL if live and not step else 0.0)
    end = to or head
    shown = None
    try:
        for entry, state in frames(ledger, encounter, end):
            if entry.env.seq < start:
                continue
            if live:
                console.clear()
            elif shown is not None:
                console.print()
            show_frame(entry, state, end)
            shown = entry.env.seq
            if entry.env.seq == end:
                break
            if step:
                try:
                    answer = console.input("[dim]" + _("Enter: next event · q: stop") + "[/dim] ")
                except EOFError:
                    break
                if answer.strip().lower() in ("q", "quit"):
                    break
            elif pause:
                time.sleep(pause)
    except KeyboardInterrupt:
        pass
    if shown is not None and shown < end:
        console.print(_("replay stopped at seq {seq} of {end}").format(seq=shown, end=end))


def show_frame(entry, state, end: int) -> None:
    from cli.console import console
    from cli.render import escape, show_state
    from projections.domain.narrate import describe
    from projections.reports.replay import heading, later
    text = escape(describe(entry.env.data))
    if fate := later(entry):
        text += f" [dim]({escape(fate)})[/dim]"
    console.rule(escape(heading(entry, end)), align="left")
    console.print(f"[bold]▸[/bold] {text}")
    show_state(state)


@app.command(help=_(
    "Print the JSON Schema of the event format (one event of `log --json`, a jsonl "
    "line or an export's events), generated from the event types.\n\n"
    "Example: combat schema > event.schema.json        combat schema --export"))
def schema(export: bool = typer.Option(False, "--export", help=_("The schema of a whole json export instead of one event.")),
           commands: bool = typer.Option(False, "--commands", help=_("The schema of a command, as the table server takes it."))) -> None:
    from projections.reports.schema import command_schema, event_schema, export_schema
    print_json(command_schema() if commands else export_schema() if export else event_schema())
