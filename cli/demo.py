"""`combat demo [SCRIPT]`: plays a script of `combat` lines (the warehouse
raid by default) into the store under a fresh id, showing each line and what
it declared.

A script is what you would type, one command per line without the word
`combat`; `#` starts a comment, and a comment on a line of its own is shown as
a heading (the comment block that opens the file describes it and is not).
A first `new` line gets the fresh id put in; paths are relative to the
script's folder."""
from __future__ import annotations

import contextlib
import shlex
from functools import partial
from pathlib import Path

from cli.console import console
from cli.render import escape
from cli.session import Session
from eventlog.errors import InvalidFile, LedgerError

HERE = Path(__file__).resolve().parent
DEFAULT_SCRIPT = "warehouse-raid.combat"
MAX_SCRIPT_BYTES = 1 << 20
NESTED = ("demo", "play")


def default_script() -> Path:
    """The script ships inside the wheel; a source checkout has it in examples/."""
    for folder in (HERE / "examples", HERE.parent / "examples"):
        if (folder / DEFAULT_SCRIPT).is_file():
            return folder / DEFAULT_SCRIPT
    raise LedgerError(f"the demo script {DEFAULT_SCRIPT} is missing from this installation")


def script_lines(path: Path) -> list[tuple[str | None, list[str]]]:
    """(heading, None) or (None, command words) for each line that has one.
    The whole script is read and split first: a broken line plays nothing."""
    from eventlog.files import read_bounded
    try:  # bounded: `combat demo /dev/zero` stops at the limit
        text = read_bounded(path, MAX_SCRIPT_BYTES, "the most a script may be").decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidFile(f"{path} is not a text file (UTF-8)") from None
    lines: list[tuple[str | None, list[str]]] = []
    preamble = True
    for n, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        preamble = preamble and stripped != ""
        if stripped.startswith("#"):
            if not preamble:
                lines.append((stripped.lstrip("#").strip(), []))
            continue
        try:
            args = shlex.split(raw, comments=True)
        except ValueError as exc:
            raise InvalidFile(f"{path.name} line {n}: {exc}") from None
        if args:
            _check_nested(path, n, args)
            lines.append((None, args))
    if not any(args for _, args in lines):
        raise InvalidFile(f"{path} has no commands to play")
    return lines


def _check_nested(path: Path, n: int, args: list[str]) -> None:
    """A script that runs `demo` (itself, or another) or `play` would
    recurse or wait for a person: refused before anything is played."""
    from cli.main import command_at
    at = command_at(args)
    if at is not None and at < len(args) and args[at] in NESTED:
        raise InvalidFile(f"{path.name} line {n}: a script cannot run `combat {args[at]}`")


def fresh_id(session: Session) -> str:
    taken = {row[0] for row in session.ledger.store.encounters()}
    n = 1
    while f"demo-{n}" in taken:
        n += 1
    return f"demo-{n}"


def play(tree, session: Session, script: Path | None = None) -> None:
    """Play `script` on `tree`, the shell's command tree (its reads run there)."""
    from cli.terminal import run_line
    from projections.ledger import envelope
    from projections.reports.worded import worded
    path = (script or default_script()).resolve()
    lines = script_lines(path)
    eid = fresh_id(session)
    # The script is the GM's (it orders NPCs, R3c); its lines may name another actor.
    from eventlog.stores import is_url
    quiet = Session(session.db if is_url(session.db) else Path(session.db).resolve(), eid,
                    "gm", quiet=True)
    store = quiet.ledger.store

    def run(args: list[str]) -> None:
        console.print(f"[bold]$ combat {escape(shlex.join(args))}[/bold]")
        seen = store.head(eid)[0] if args[0] != "new" else 0
        stopped = f"the demo stopped at `combat {shlex.join(args)}` ({path.name})"
        try:
            code = run_line(tree, quiet, args)
        except LedgerError as exc:  # the script no longer fits the rules
            raise LedgerError(f"{stopped}: {exc}") from None
        if code:  # a read's error was shown
            raise LedgerError(stopped)
        appended = [envelope(row) for row in store.rows(eid, after=seen)]
        for said in worded(appended, partial(quiet.ledger.batch, eid)):
            console.print(f"  {escape(said.text)}")

    with contextlib.chdir(path.parent):
        started = False
        for heading, args in lines:
            if heading is not None:
                console.print(f"\n[dim]# {escape(heading)}[/dim]")
                continue
            if not started:
                started = True
                if args[0] == "new":
                    args = ["new", eid, *args[1:]]
                else:
                    run(["new", eid])
            run(args)
    console.print(f"\nThe demo is encounter {eid}, now current: try `combat status`, "
                  "`combat log --json` or `combat export --format html -o report.html`.")
