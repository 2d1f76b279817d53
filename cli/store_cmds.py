"""Moving a store: `copy --to TARGET`, every encounter into another store."""
import typer

from cli.base import app, session
from eventlog.language import _, n_


@app.command(help=_(
    "Copy every encounter of this store into another store (either kind).\n\n"
    "Each chain is verified on both sides (R30); the copy's events, hashes and\n"
    "`status` are identical. Run again, it skips what is already there; an\n"
    "encounter there with another log refuses the copy, and nothing is written;\n"
    "one there as an older copy of the same log is brought up to date.\n\n"
    "\b\n"
    "Example: combat copy --to postgresql://club@db.example/ledger\n"
    "         combat --db postgresql://club@db.example/ledger copy --to home.db"))
def copy(ctx: typer.Context,
         to: str = typer.Option(..., "--to", help=_("The store to copy into: a SQLite file or "
                                                  "a PostgreSQL URL (postgresql://...)."))) -> None:
    from cli.console import console
    from cli.render import escape
    from eventlog.errors import LedgerError
    from eventlog.stores import is_url, open_store, shown
    from eventlog.stores.copying import copy_store
    from eventlog.text import neutral
    s = session(ctx)
    if to == "":
        raise LedgerError(_("--to is empty: name a ledger file or a PostgreSQL URL"))
    if not is_url(to):
        from pathlib import Path

        from eventlog.stores.sqlite.connection import check_path
        check_path(Path(to), to)
    where = neutral(shown(to))
    target = open_store(to)
    from eventlog.stores.records import PARTY_STREAM
    copied = skipped = 0
    party = False
    try:
        for done in copy_store(s.store, target, where):
            if done.encounter == PARTY_STREAM:  # (the party's log: counted apart)
                party = True
                done = done._replace(encounter=_("the party"))
                copied -= not done.skipped
                skipped -= done.skipped
            if done.skipped:
                skipped += 1
                console.print(n_("{encounter}: already there with the same chain ({n} event), skipped",
                                 "{encounter}: already there with the same chain ({n} events), skipped",
                                 done.events).format(encounter=done.encounter, n=done.events))
            elif done.since:
                copied += 1
                console.print(_("{encounter}: brought up to date, events {first} to {last} added "
                                "(head {head}…)").format(encounter=done.encounter, first=done.since + 1,
                                                         last=done.events, head=done.head[:12]))
            else:
                copied += 1
                console.print(n_("{encounter}: copied {n} event (head {head}…)",
                                 "{encounter}: copied {n} events (head {head}…)", done.events).format(
                    encounter=done.encounter, n=done.events, head=done.head[:12]))
    finally:
        target.close()
    if party:
        said = n_("copied {n} encounter and the party's log to {store}",
                  "copied {n} encounters and the party's log to {store}", copied)
    else:
        said = n_("copied {n} encounter to {store}", "copied {n} encounters to {store}", copied)
    said = said.format(n=copied, store=escape(where))
    if skipped:
        said = _("{copied}, {skipped} already there").format(copied=said, skipped=skipped)
    console.print(_("{copied}; every chain verified on both sides").format(copied=said))
