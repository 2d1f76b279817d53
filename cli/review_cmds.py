"""Post-game review: stats, replay, schema. (Exports are `export --format`.)"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from eventlog.errors import LedgerError

from cli.base import app, session
from cli.session import print_json

DELAY_ON_A_TERMINAL = 1.0  # seconds between frames when --delay is not given
MAX_DELAY = 3600.0  # seconds: more is a typo (and 1e308 or nan no clock can sleep)


@app.command()
def stats(ctx: typer.Context,
          as_json: bool = typer.Option(False, "--json", help="JSON for scripts.")) -> None:
    """Post-game numbers: per combatant turns, AP spent in turns and on
    interrupts, actions by category, AP left unspent at round ends, seizes and
    Grit spent; per round passes, turns and AP; the encounter's totals.

    Example: combat stats        combat stats --json
    """
    from projections.reports.stats import stats as tally
    s = session(ctx)
    numbers = tally(s.ledger, s.encounter)
    if as_json:
        print_json(numbers)
    else:
        show_stats(numbers)


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
                 "major", "cust.", "intr.", "AP\nleft", "seize", "Grit\nspent"):
        people.add_column(name, justify="left" if name == "combatant" else "right",
                          no_wrap=True)
    for c in numbers["combatants"]:
        people.add_row(c["id"], str(c["turns"]), str(c["ap_in_turns"]), str(c["ap_on_interrupts"]),
                       *(str(c["actions"][k]) for k in CATEGORIES), str(c["interrupts"]),
                       str(c["ap_unspent"]), str(c["seizes"]), str(c["grit_spent"]),
                       style=None if c["active"] else "dim")
    console.print(people)
    gone = [c["id"] for c in numbers["combatants"] if not c["active"]]
    console.print("[dim]AP spent in turns and on interrupts (intr.), actions by category "
                  "(cust.: a cost of its own), AP left unspent when a round ended"
                  + (f"; left the encounter: {', '.join(gone)}" if gone else "") + "[/dim]\n")
    if numbers["rounds"]:
        rounds = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
        for name in ("round", "passes", "turns per pass", "AP spent", "interrupts",
                     "seized by", "AP unspent"):
            rounds.add_column(name, justify="left" if name in ("turns per pass", "seized by") else "right")
        for r in numbers["rounds"]:
            rounds.add_row(str(r["round"]), str(r["passes"]),
                           " / ".join(map(str, r["turns_per_pass"])), str(r["ap_spent"]),
                           str(r["interrupts"]), ", ".join(r["seizes"]),
                           "" if r["ap_unspent"] is None else str(r["ap_unspent"]))
        console.print(rounds)
    console.print(f"totals: AP in turns {t['ap_in_turns']}, on interrupts {t['ap_on_interrupts']} "
                  f"({t['interrupts']} interrupts), left unspent {t['ap_unspent']} · seizes "
                  f"{t['seizes']} · Grit spent {t['grit_spent']} · events {t['events']} "
                  f"({t['undone']} undone, {t['amended']} amended)")


@app.command()
def replay(ctx: typer.Context,
           to: Optional[int] = typer.Option(None, "--to", min=1, help="Stop after this seq (default: the end)."),
           start: int = typer.Option(1, "--from", min=1, help="Show frames from this seq on."),
           delay: Optional[float] = typer.Option(None, "--delay", min=0.0, help=f"Seconds between events (default: {DELAY_ON_A_TERMINAL:g} on a terminal, 0 otherwise)."),
           step: bool = typer.Option(False, "--step", help="Wait for Enter after each event (q then Enter stops)."),
           file: Optional[Path] = typer.Option(None, "--file", help="Replay a json or jsonl export without importing it.")) -> None:
    """Play the encounter back in the terminal: after each event, its line
    and the status table as the table saw it then (R31).

    Example: combat replay --delay 0.5        combat replay --step --to 30        combat replay --file raid.json
    """
    import tempfile
    if delay is not None and not delay <= MAX_DELAY:  # (not <=: nan too)
        raise LedgerError(f"--delay {delay:g}: the pause between events is 0 to "
                          f"{MAX_DELAY:g} seconds")
    if file is None:
        s = session(ctx)
        play_back(s.ledger, s.encounter, to, start, delay, step)
        return
    from eventlog.stores.sqlite import Store
    from projections.ledger import Ledger
    from projections.inputs.transfer import import_log, open_export

    from cli.progress import progress
    with open_export(file) as doc, tempfile.TemporaryDirectory(prefix="combat-replay-") as tmp:
        store = Store(Path(tmp) / "replay.db")
        try:
            ledger = Ledger(store)
            state = import_log(ledger, doc, None, progress())
            play_back(ledger, state.encounter, to, start, delay, step)
        finally:
            store.close()


def play_back(ledger, encounter: str, to: int | None, start: int, delay: float | None,
              step: bool) -> None:
    import time

    from projections.reports.replay import frames

    from cli.render import console
    head, _ = ledger.store.head(encounter)
    for what, seq in (("--to", to), ("--from", start)):
        if seq is not None and seq > head:
            raise LedgerError(f"{what} {seq}: the log of {encounter} ends at seq {head}")
    if to is not None and start > to:
        raise LedgerError(f"--from {start} is after --to {to}")
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
                    answer = console.input("[dim]Enter: next event · q: stop[/dim] ")
                except EOFError:
                    break
                if answer.strip().lower() in ("q", "quit"):
                    break
            elif pause:
                time.sleep(pause)
    except KeyboardInterrupt:
        pass
    if shown is not None and shown < end:
        console.print(f"replay stopped at seq {shown} of {end}")


def show_frame(entry, state, end: int) -> None:
    from cli.render import escape

    from projections.reports.narrate import describe

    from cli.render import console, show_state
    env = entry.env
    text = escape(describe(env.data))
    if entry.undone_by:
        seq, kind, reason = entry.undone_by
        word = "undone" if kind == "undo" else "retracted"
        why = f": {escape(reason)}" if reason else ""
        text += f" [dim](later {word} at seq {seq}{why})[/dim]"
    elif entry.amended_by:
        text += f" [dim](later amended at seq {entry.amended_by})[/dim]"
    console.rule(f"seq {env.seq} of {end} · {env.at[11:19]} UTC · {escape(env.actor)} · "
                 f"{entry.context}", align="left")
    console.print(f"[bold]▸[/bold] {text}")
    show_state(state)


@app.command()
def schema(export: bool = typer.Option(False, "--export", help="The schema of a whole json export instead of one event."),
           commands: bool = typer.Option(False, "--commands", help="The schema of a command, as the table server takes it.")) -> None:
    """Print the JSON Schema of the event format (one event of `log --json`,
    a jsonl line or an export's events), generated from the event types.

    Example: combat schema > event.schema.json        combat schema --export
    """
    from projections.reports.schema import command_schema, event_schema, export_schema
    print_json(command_schema() if commands else export_schema() if export else event_schema())
