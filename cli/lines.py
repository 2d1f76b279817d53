"""A command line, read into the core's command struct.

`act rook major shoots` becomes `Act(id="rook", cost="major", label="shoots")`
by the very click commands of `combat`: one grammar for the shell, play
mode, the demo and the table server's command box. A command's callback
builds its struct and hands it to the session's `run`; here that session
is a `_Capture`, which keeps the struct instead of running it. The caller
then executes it through the core's one entry point and renders it.

A line that reads (status, log, help...) runs as it does in the shell when
a real session is given, and is refused when none is (the table server).
"""
from __future__ import annotations

import shlex
from functools import cache
from typing import NamedTuple

from eventlog.errors import LedgerError
from projections.domain import commands as c

# Every command that declares something: the tags of the command structs.
DECLARING = frozenset(c.COMMANDS)
# Lines a remote client may not give: they read a file on the server's disk.
READS_FILES = {"load": None, "new": "--roster"}


class BadLine(LedgerError):
    """Wrong usage: what click says, as one line."""


class Line(NamedTuple):
    command: c.Command | None  # None: the line was a read and has run
    actor: str | None = None   # `--actor NAME` given on the line
    code: int = 0              # a read's exit code (1: its error was shown)


class _Captured(BaseException):  # past the command group's error handling
    def __init__(self, command: c.Command, actor: str | None):
        super().__init__(command)
        self.command, self.actor = command, actor


class _Capture:
    """A stand-in session: declarations are kept, reads go to `session`."""

    def __init__(self, session, actor: str | None = None, careful: bool = False):
        self._session, self._actor = session, actor
        self.careful = session.careful if session is not None else careful

    def run(self, command: c.Command):
        raise _Captured(command, self._actor)

    execute = run

    def as_actor(self, actor: str) -> "_Capture":
        return _Capture(self._session, actor, self.careful)

    def __getattr__(self, name: str):
        if self._session is None:
            raise BadLine("only declarations can be sent here")
        return getattr(self._session, name)


@cache
def command_tree():
    """The click command tree of `combat`, built once per process."""
    import typer

    from cli.app import app
    return typer.main.get_command(app)


def split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise BadLine(f"cannot read that line: {exc}") from None


def parse(args: list[str], session=None, careful: bool = False) -> Line:
    """Read the words of one command line (`combat` itself may lead them).

    With `session`, a read runs on it and gives `Line(None, ...)`; without,
    only a declaring command is accepted (the table server's box)."""
    from cli.app import CLICK_ERROR

    if args[:1] == ["combat"]:
        args = args[1:]
    if session is None:
        _check_remote(args)
    try:
        code = command_tree().main(args=args, obj=_Capture(session, careful=careful),
                            standalone_mode=False, prog_name="combat")
    except _Captured as kept:
        return Line(kept.command, kept.actor)
    except CLICK_ERROR as exc:  # wrong usage: click's words, one line
        ctx = getattr(exc, "ctx", None)
        where = ctx.command_path.removeprefix("combat").strip() if ctx else ""
        message = exc.format_message().rstrip(".")
        message = message[:1].lower() + message[1:]
        raise BadLine(f"{message}: see `help {where}`" if where else
                      f"{message}: `help` lists the commands") from None
    return Line(None, None, code or 0)


def parse_line(text: str, careful: bool = False) -> Line:
    """One line from a client that may only declare (the table server)."""
    words = split(text)
    if not words:
        raise BadLine("say what to declare, e.g. `act rook major shoots`")
    return parse(words, careful=careful)


def _check_remote(args: list[str]) -> None:
    name = next((a for a in args if not a.startswith("-")), None)
    fixed = next((a.split("=", 1)[0] for a in args
                  if a.split("=", 1)[0] in ("--db", "--encounter", "--actor")), None)
    if fixed:
        raise BadLine(f"{fixed} is not for this box: the page's encounter and "
                      "your token's name are used")
    if "--help" in args:
        raise BadLine("help is on the page: this box only declares")
    if name not in DECLARING:
        shown = name if name is not None else " ".join(args)
        raise BadLine(f"`{shown}` declares nothing: only declarations can be sent here")
    option = READS_FILES.get(name, "")
    if option is None or (option and any(a.split("=", 1)[0] == option for a in args)):
        raise BadLine(f"`{name}` reads a file on the server: send the roster as the "
                      "JSON `load` command instead")
