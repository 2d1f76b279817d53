"""Moving a store: `copy --to TARGET`, every encounter into another store."""
import typer

from cli.base import app, session


@app.command()
def copy(ctx: typer.Context,
         to: str = typer.Option(..., "--to", help="The store to copy into: a SQLite file or "
                                                  "a PostgreSQL URL (postgresql://...).")) -> None:
    """Copy every encounter of this store into another store (either kind).

    Each chain is verified on both sides (R30); the copy's events, hashes and
    `status` are identical. Run again, it skips what is already there; an
    encounter there with another log refuses the copy, and nothing is written;
    one there as an older copy of the same log is brought up to date.

    \b
    Example: combat copy --to postgresql://club@db.example/ledger
             combat --db postgresql://club@db.example/ledger copy --to home.db
    """
    from cli.console import console
    from cli.render import escape
    from eventlog.errors import LedgerError
    from eventlog.stores import is_url, open_store, shown
    from eventlog.stores.copying import copy_store
    from eventlog.text import neutral
    s = session(ctx)
    if to == "":
        raise LedgerError("--to is empty: name a ledger file or a PostgreSQL URL")
    if not is_url(to):
        from pathlib import Path

        from eventlog.stores.sqlite.connection import check_path
        check_path(Path(to), to)
    where = neutral(shown(to))
    target = open_store(to)
    from eventlog.stores.records import PARTY_STREAM
    copied = skipped = 0
    party = ""
    try:
        for done in copy_store(s.store, target, where):
            if done.encounter == PARTY_STREAM:  # (the party's log: counted apart)
                party = " and the party's log"
                done = done._replace(encounter="the party")
                copied -= not done.skipped
                skipped -= done.skipped
            if done.skipped:
                skipped += 1
                console.print(f"{done.encounter}: already there with the same chain "
                              f"({done.events} event{'s' if done.events != 1 else ''}), skipped")
            elif done.since:
                copied += 1
                console.print(f"{done.encounter}: brought up to date, events {done.since + 1}"
                              f" to {done.events} added (head {done.head[:12]}…)")
            else:
                copied += 1
                console.print(f"{done.encounter}: copied {done.events} "
                              f"event{'s' if done.events != 1 else ''} "
                              f"(head {done.head[:12]}…)")
    finally:
        target.close()
    console.print(f"copied {copied} encounter{'s' if copied != 1 else ''}{party} to {escape(where)}"
                  + (f", {skipped} already there" if skipped else "")
                  + "; every chain verified on both sides")
