"""Reading the record: status, log, verify, head, export, import, and the demo."""
from enum import Enum
from pathlib import Path

import typer

from cli.base import app, session
from cli.grammar import READ_BY_NAME
from cli.session import print_json
from eventlog.language import _

STATUS = READ_BY_NAME["status"].options  # what the grammar reads of it (cli/main.py)
JSON = typer.Option(False, "--json", help=_(STATUS["--json"].help))


@app.command(help=_(
    "Show the order, who is up, AP, Grit, round and pass.\n\n"
    "Example: combat status        combat status --json --at 12"))
def status(ctx: typer.Context, as_json: bool = JSON,
           at: int | None = typer.Option(None, "--at", help=_(STATUS["--at"].help))) -> None:
    state = session(ctx).state(at)
    if as_json:
        from projections.reports.views import status as status_view
        print_json(status_view(state))
    else:
        from cli.render import show_state
        show_state(state, lost=True)


@app.command(help=_(
    "Show the event log: context, who declared it, and what undid or amended it.\n\n"
    "Example: combat log --who rook --round 2        combat log --audit        combat log --last 5"))
def log(ctx: typer.Context, as_json: bool = JSON,
        who: str | None = typer.Option(None, "--who", help=_("Only declarations for this combatant or slot.")),
        round_: int | None = typer.Option(None, "--round", help=_("Only declarations made in this round.")),
        kind: str | None = typer.Option(None, "--type", help=_("Only events of this type, e.g. APSpent.")),
        undone: bool = typer.Option(False, "--undone", help=_("Only undone, retracted or amended declarations.")),
        audit: bool = typer.Option(False, "--audit", help=_("The audit trail: GM overrides with reasons, undo, redo, retractions, amendments, and who declared what.")),
        last: int | None = typer.Option(None, "--last", min=0, metavar="N", help=_("Only the last N lines (after the other filters), as `l N` in play mode.")),
        utc: bool = typer.Option(False, "--utc", help=_("Times in UTC, as stored (default: the local time of this machine)."))) -> None:
    s = session(ctx)
    if as_json:
        print_json(s.ledger.event_dicts(s.encounter))
        return
    from projections.reports.timeline import AUDITED, timeline
    entries = list(timeline(s.ledger, s.encounter))
    if who is not None:  # a prefix or a name, as everywhere (projections/domain/ids.py)
        from projections.domain.ids import resolve
        who = resolve(s.ledger.state(s.encounter), who)
    shown = [e for e in entries
             if (who is None or e.who == who)
             and (round_ is None or e.round == round_)
             and (kind is None or e.env.type.lower() == kind.lower())
             and (not undone or e.undone_by or e.amended_by)
             and (not audit or e.env.type in AUDITED)]
    if last is not None:
        shown = shown[-last:] if last else []
    from cli.ink import Page
    from cli.render import escape, log_table, terminal, write
    on, width = terminal()
    page = Page()
    if shown:
        page.grid(log_table(s.encounter, shown, audit, utc, width))
    else:
        page.line((_("nothing in the log of {encounter} matches") if entries else
                   _("nothing in the log of {encounter} yet")).format(encounter=escape(s.encounter)))
    if audit and entries:  # who declared what, even when nothing was overridden
        from collections import Counter
        counts = Counter((e.env.actor, e.imported) for e in entries)
        page.line(_("declared by: {counts}").format(counts=", ".join(
            (_("{actor} (imported) {n}") if imported else _("{actor} {n}")).format(
                actor=escape(actor), n=n) for (actor, imported), n in counts.most_common())))
    write(page, on)


@app.command(help=_(
    "Check the hash chain of the log (R30); exit 1 when it is broken.\n\n"
    "The chain shows any edit, insertion or reordering, and a deletion unless\n"
    "the head row was set back too; --against FILE also shows that.\n\n"
    "Example: combat verify        combat verify --against warehouse.head\n"
    "         combat --db backup.db verify --all        combat verify --party"))
def verify(ctx: typer.Context, as_json: bool = JSON,
           against: Path | None = typer.Option(
               None, "--against", help=_("A saved head (`combat head`) or an earlier export: "
               "the log must still hold the event it ends at (R30).")),
           every: bool = typer.Option(
               False, "--all", help=_("Every encounter of the store (a backup, say); also what "
               "verify does where no encounter is current.")),
           party: bool = typer.Option(
               False, "--party", help=_("The party's log (`combat party`) instead."))) -> None:
    from eventlog.errors import LedgerError
    s = session(ctx)
    if party:
        from projections.party.book import verified
        view, said, error = verified(s.ledger.store)
        if as_json:
            print_json(view)
        elif error is None:
            print(said)
        if error is not None:
            typer.echo(_("error: {reason}").format(reason=error), err=True)
            raise typer.Exit(1)
        return
    if not every and not s.chosen and not s.current():
        every = True  # a store nobody works in here (a backup): all of it
    if every and against is not None:
        raise LedgerError(_("--against checks one encounter: name it with --encounter"))
    if every:
        ids = [e.id for e in s.ledger.store.encounters()]
        if not ids:
            raise LedgerError(_("no encounter in {store} to verify").format(store=s.where))
    else:
        ids = [s.encounter]
    witness = None
    if against is not None:
        from projections.inputs.witness import read_witness
        witness = read_witness(against)
    answers, failed = [], False
    for enc in ids:
        view, said, error = _verified(s, enc, witness, against)
        answers.append(view)
        if error is not None:
            failed = True
            typer.echo(_("error: {reason}").format(reason=error), err=True)
        elif not as_json:
            print(said)
    if as_json:
        print_json(answers if every else answers[0])
    if failed:
        raise typer.Exit(1)


def _verified(s, enc: str, witness, against) -> tuple[dict, str, str | None]:
    """One encounter's verdict: its `verify --json` object, the line that
    says it holds, and the error line when it does not (R30)."""
    import msgspec

    from eventlog.chain import verify_chain
    store = s.ledger.store
    verdict = verify_chain(store.rows(enc), store.head(enc))
    witnessed = None
    if verdict.ok and witness is not None:
        from projections.inputs.witness import against as check_against
        witnessed = check_against(store, enc, *witness)
    proof = None
    if verdict.ok:
        from projections.forking import prove
        proof = prove(store, enc)
    extra: dict = {} if witness is None else {"against": {
        "seq": witness[0], "hash": witness[1], "ok": verdict.ok and witnessed is None,
        "problem": witnessed or ""}}
    if proof is not None:
        extra["fork"] = {"encounter": proof.point.encounter, "seq": proof.point.seq,
                         "hash": proof.point.hash, "source": proof.source,
                         "ok": proof.problem is None, "problem": proof.problem or ""}
    view = {"encounter": enc, **msgspec.structs.asdict(verdict), **extra}
    said = (_("ok: {events} events of {encounter}, hash chain intact (head {head}…)")
            if witness is None else
            _("ok: {events} events of {encounter}, hash chain intact (head {head}…), and seq "
              "{seq} is as witnessed")).format(events=verdict.events, encounter=enc,
                                              head=verdict.head_hash[:12],
                                              seq=witness[0] if witness else None)
    if proof is not None and proof.problem is None:
        from projections.forking import proof_line
        said += "\n" + proof_line(proof)
    if not verdict.ok:
        return view, said, _("the log of {encounter} is broken at seq {seq}: {problem} (R30)").format(
            encounter=enc, seq=verdict.first_bad_seq, problem=verdict.problem)
    if witnessed is not None:
        return view, said, _("the log of {encounter} does not match {witness}: {problem}").format(
            encounter=enc, witness=against, problem=witnessed)
    if proof is not None and proof.problem is not None:
        return view, said, _("{encounter} is a fork of {parent}, but {problem} (R30)").format(
            encounter=enc, parent=proof.point.encounter, problem=proof.problem)
    spoiled = s.ledger.snapshot_problem(enc)
    if spoiled is not None:
        return view, said, _("{encounter}: {problem} (R30)").format(encounter=enc, problem=spoiled)
    return view, said, None


@app.command(help=_(
    "Print the log's head, `seq hash`: keep it outside the store, and\n"
    "`verify --against` it later shows a log cut short (R30).\n\n"
    "Example: combat head > warehouse.head        combat verify --against warehouse.head"))
def head(ctx: typer.Context) -> None:
    from projections.inputs.witness import head_line
    s = session(ctx)
    print(head_line(*s.ledger.store.head(s.encounter)))


from projections.reports.formats import FORMATS, described  # noqa: E402 (names only)

Format = Enum("Format", {name: name for name in FORMATS}, type=str)  # type: ignore[misc]  # (members from FORMATS: mypy wants literals)


@app.command(help=_(
    "Write the encounter's log out, to import elsewhere or for review; with\n"
    "--session ID or --campaign, the fights of an evening (or of every one)\n"
    "as one csv or jsonl table for DuckDB or a spreadsheet.\n\n"
    "Example: combat export --format json -o warehouse.json        combat export --campaign --format csv -o campaign.csv"))
def export(ctx: typer.Context,
           fmt: Format = typer.Option("json", "--format", help=described()),
           out: str | None = typer.Option(None, "-o", "--output", help=_("Write to FILE (default: stdout); never the ledger or its files.")),
           force: bool = typer.Option(False, "--force", help=_("Replace FILE even if it is a SQLite database.")),
           evening: str | None = typer.Option(None, "--session", metavar="ID", help=_("Every fight of this session as one table (csv or jsonl), with session and encounter columns.")),
           campaign: bool = typer.Option(False, "--campaign", help=_("Every fight of every session as one table (csv or jsonl)."))) -> None:
    from cli.progress import progress
    from eventlog.outfile import checked_target, write_file
    from projections.reports.formats import writer
    s = session(ctx)
    if evening is not None or campaign:
        export_evening(s, Format(fmt).value, out, force, evening, campaign)
        return
    if out is not None:  # refused before the log is read, not after
        checked_target(out, s.ledger.store.path, force)
    track, write = progress(), writer(Format(fmt).value)
    if out is None:  # one path: the same writer streams to stdout or a file
        from cli.output import stdout
        write(s.ledger, s.encounter, stdout(), track)
        return
    count = write_file(out, lambda f: write(s.ledger, s.encounter, f, track),
                       s.ledger.store.path, force)
    from cli.output import neutral, write as write_out  # (not rich: the export to stdout does without it)
    write_out(neutral(_("exported {count} events of {encounter} to {file} ({format})").format(
        count=count, encounter=s.encounter, file=out, format=fmt.value)) + "\n")


def export_evening(s, fmt: str, out: str | None, force: bool, evening: str | None,
                   campaign: bool) -> None:
    from cli.output import neutral, write as write_out
    from cli.progress import progress
    from eventlog.errors import LedgerError
    from eventlog.outfile import checked_target, write_file
    from projections.party.evenings import chosen_fights
    from projections.reports.evenings import writer
    if evening is not None and campaign:
        raise LedgerError(_("--session and --campaign: give one of them"))
    write = writer(fmt)
    fights = chosen_fights(s.ledger.store, evening)
    if out is None:
        from cli.output import stdout
        write(s.ledger, fights, stdout(), progress())
        return
    checked_target(out, s.ledger.store.path, force)
    count = write_file(out, lambda f: write(s.ledger, fights, f, progress()),
                       s.ledger.store.path, force)
    said = (_("exported {count} events of session {session} ({fights} fights) to {file} ({format})")
            if evening is not None else
            _("exported {count} events of the campaign ({fights} fights) to {file} ({format})"))
    write_out(neutral(said.format(count=count, session=fights[0][0] if fights else "",
                                  fights=len(fights), file=out, format=fmt)) + "\n")


@app.command("import", help=_(
    "Load an exported log (json or jsonl) as a new encounter, verified and re-judged.\n\n"
    "Example: combat import warehouse.json --as warehouse-copy"))
def import_(ctx: typer.Context,
            file: Path = typer.Argument(..., help=_("A json export, or a jsonl one (up to 256 MiB).")),
            as_id: str | None = typer.Option(None, "--as", help=_("Store it under this encounter id."))) -> None:
    from projections.inputs.transfer import import_log, open_export
    with open_export(file) as doc:
        s = session(ctx)
        s.creates = True  # (a new encounter: the store too, when it is not there yet)
        from cli.progress import progress
        state = import_log(s.ledger, doc, as_id, progress())
    s.choose(state.encounter)
    from cli.console import console
    from cli.render import show_state
    console.print(_("imported {count} events as {encounter}; it is now current").format(
        count=state.seq, encounter=state.encounter))
    show_state(state)


@app.command(help=_(
    "Play a scripted encounter (the warehouse raid) into a fresh encounter.\n\n"
    "Every line is shown with what it declared; the encounter (demo-1, demo-2,\n"
    "...) becomes the current one. A SCRIPT is one `combat` command per line\n"
    "without the word `combat` (see examples/warehouse-raid.combat).\n\n"
    "\b\n"
    "Example: combat demo\n"
    "         combat demo my-ambush.combat"))
def demo(ctx: typer.Context,
         script: Path | None = typer.Argument(
             None, metavar="[SCRIPT]", help=_("A script of `combat` lines (default: the warehouse raid)."))) -> None:
    from cli.demo import play
    s = session(ctx)
    s.creates = True  # (a new encounter: the store too, when it is not there yet)
    play(ctx.find_root().command, s, script)
