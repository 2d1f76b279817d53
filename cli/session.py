"""What every command shares: the store, the current encounter, the actor,
and the one call into the core (`run`: execute a command, show what it did)."""
from __future__ import annotations

import os
from collections.abc import Callable
from functools import cached_property

from eventlog import userstate
from eventlog.errors import LedgerError, UnknownEncounter
from eventlog.language import _
from projections.domain import commands as c
from projections.domain.state import State
from projections.ledger import Ledger, Outcome


def print_json(value) -> None:
    """JSON for scripts, indented by two and UTF-8 as is (msgspec writes what
    json.dumps(indent=2, ensure_ascii=False) would, without importing json)."""
    import msgspec

    from cli.output import json_text, write
    write(json_text(msgspec.json.format(msgspec.json.encode(value), indent=2).decode()) + "\n")


def default_db() -> str:
    """The store when none is named (a string: pathlib costs every command
    ~4 ms of start-up)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "combat-ledger", "ledger.db")


def open_store(db: os.PathLike | str):
    """The store `db` names: a SQLite file, or a PostgreSQL URL."""
    from eventlog.stores import open_store as opened
    return opened(db)


def read_roster(path: str) -> c.Load:
    """A roster file on this machine: only the terminal's clients read files."""
    from pathlib import Path

    from projections.inputs.roster import read
    return read(Path(path))


# Commands after which the encounter they made is this user's current one.
CHOOSING = (c.New, c.Fork)


class Session:
    def __init__(self, db: os.PathLike | str | None, encounter: str | None, actor: str,
                 quiet: bool = False, named: bool = False):
        self.db = db or default_db()
        # A store named by --db or COMBAT_DB that does not exist yet is made
        # only by a command that makes encounters (`creates`): a mistyped path
        # is one error line, not a new folder and an empty store.
        self.named = named
        self.creates = False
        self.chosen = encounter
        self.actor = actor or "gm"
        self.quiet = quiet  # the demo plays commands without a table each
        # A bare end-turn never ends a turn reached by an automatic end that
        # has declared nothing (play mode; COMBAT_CAREFUL=1 on the command line).
        self.careful = os.environ.get("COMBAT_CAREFUL", "") not in ("", "0")
        # Who says a refusal, when not the `error:` line of cli/failure.py (play
        # mode: in the console's words, wrapped to its width).
        self.tell_error: Callable[[str], None] | None = None

    @classmethod
    def opened(cls, db: str | None, encounter: str | None, actor: str) -> Session:
        """The session of the global options `--db`, `--encounter`, `--actor`."""
        from eventlog.stores import is_url
        if db is not None and not is_url(db):
            from eventlog.stores.sqlite.connection import check_path, plain
            check_path(plain(db), db)  # `--db ''` is one clear line, not the folder `.`
            db = plain(db)
        return cls(db or None, encounter, actor, named=db is not None)

    def as_actor(self, actor: str) -> Session:
        other = Session(self.db, self.chosen, actor, self.quiet, self.named)
        other.careful, other.tell_error = self.careful, self.tell_error
        other.creates = self.creates
        other.__dict__["ledger"] = self.ledger
        return other

    @cached_property
    def ledger(self) -> Ledger:
        from eventlog.stores import is_url
        if self.named and not self.creates and not is_url(self.db) \
                and not os.path.lexists(self.db):
            from eventlog.errors import StoreError
            raise StoreError(_("no store at {store}: check the path, or start one there with "
                               "`combat new ID`").format(store=self.where))
        return Ledger(open_store(self.db))

    @property
    def store(self):
        return self.ledger.store

    def close(self) -> None:
        """Close the store, if this session opened it."""
        ledger = self.__dict__.pop("ledger", None)
        if ledger is not None:
            ledger.store.close()

    @property
    def where(self) -> str:
        """The store as the user is shown it (a URL without its password)."""
        from eventlog.stores import is_url, shown
        if is_url(self.db):
            return shown(self.db)
        from eventlog.stores.sqlite.connection import shown as shown_path
        return shown_path(self.db)

    def current(self) -> str | None:
        """This user's current encounter in this store (remembered on this
        machine, never in the store)."""
        return userstate.current(self.store.identity)

    def choose(self, encounter: str) -> None:
        userstate.set_current(self.store.identity, encounter)

    @property
    def encounter(self) -> str:
        eid = self.chosen or self.current()
        if not eid:
            raise LedgerError(_("no current encounter: start one with `combat new ID`"))
        try:
            self.ledger.head(eid)
        except UnknownEncounter:
            if self.chosen:
                raise
            raise LedgerError(_("your current encounter {id!r} is no longer in {store}: choose "
                                "one with `combat use ID`").format(id=eid, store=self.where)) from None
        return eid

    def state(self, at: int | None = None) -> State:
        return self.ledger.state(self.encounter, at)

    def careful_about(self, command: c.Command) -> c.Command:
        """A bare end-turn never ends a turn nothing was declared in, when
        this session is careful (play mode, COMBAT_CAREFUL=1)."""
        if self.careful and isinstance(command, c.EndTurn) and not command.careful:
            return c.EndTurn(id=command.id, careful=True)
        return command

    def declare(self, command: c.Command) -> Outcome:
        """The one call into the core; a new encounter becomes current."""
        if isinstance(command, (c.New, c.PartyAdd, c.SessionStart)):
            self.creates = True  # (the store too, when it is not there yet: a campaign
            # may begin with its party)
        # (a party's declaration is on the party's log: no encounter needed)
        encounter = None if isinstance(command, (c.New, *c.PARTY)) else self.encounter
        outcome = self.ledger.execute(encounter, command, self.actor)
        if isinstance(command, CHOOSING):
            self.choose(command.id)
        return outcome

    def run(self, command: c.Command) -> Outcome:
        """Execute `command` and show what it did."""
        outcome = self.declare(command)
        if outcome.party is not None:
            from cli.output import write
            write("".join(line + "\n" for line in outcome.party))
            return outcome
        # (a quiet session, play mode's, prints what the log gains as it lands:
        # a dry run lands nothing, so its preview is shown here)
        if not self.quiet or outcome.preview is not None:
            from cli.render import show_outcome
            show_outcome(command, outcome)
        if outcome.carried:
            from cli.output import write
            write("".join(line + "\n" for line in outcome.carried))
        return outcome


__all__ = ["Session", "UnknownEncounter", "default_db", "open_store"]
