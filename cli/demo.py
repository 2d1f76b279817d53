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
from eventlog.language import _, current

HERE = Path(__file__).resolve().parent
DEFAULT_SCRIPT = "warehouse-raid.combat"  # in another language: warehouse-raid.LANG.combat
MAX_SCRIPT_BYTES = 1 << 20
NESTED = ("demo", "play")


def default_script() -> Path:
    """The script ships inside the wheel; a source checkout has it in
    examples/. A reader of another language watches it in theirs, where it
    is written (its headings, titles, labels and reasons: the table's words)."""
    stem, dot, ext = DEFAULT_SCRIPT.rpartition(".")
    names = ([f"{stem}.{current()}.{ext}"] if current() != "en" else []) + [DEFAULT_SCRIPT]
    for name in names:
        for folder in (HERE / "examples", HERE.parent / "examples"):
            if (folder / name).is_file():
                return folder / name
    raise LedgerError(_("the demo script {name} is missing from this installation").format(
        name=DEFAULT_SCRIPT))


def script_lines(path: Path) -> list[tuple[str | None, list[str]]]:
    """(heading, None) or (None, command words) for each line that has one.
    The whole script is read and split first: a broken line plays nothing."""
    from eventlog.files import read_bounded
    try:  # bounded: `combat demo /dev/zero` stops at the limit
        text = read_bounded(path, MAX_SCRIPT_BYTES, "the most a script may be").decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidFile(_("{path} is not a text file (UTF-8)").format(path=path)) from None
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
            raise InvalidFile(_("{file} line {n}: {reason}").format(file=path.name, n=n,
                                                                     reason=exc)) from None
        if args:
            _check_nested(path, n, args)
            lines.append((None, args))
    if not any(args for _heading, args in lines):
        raise InvalidFile(_("{path} has no commands to play").format(path=path))
    return lines


def _check_nested(path: Path, n: int, args: list[str]) -> None:
    """A script that runs `demo` (itself, or another) or `play` would
    recurse or wait for a person: refused before anything is played."""
    from cli.main import command_at
    at = command_at(args)
    if at is not None and at < len(args) and args[at] in NESTED:
        raise InvalidFile(_("{file} line {n}: a script cannot run `combat {command}`").format(
            file=path.name, n=n, command=args[at]))


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
        stopped = _("the demo stopped at `combat {line}` ({file})").format(
            line=shlex.join(args), file=path.name)
        try:
            code = run_line(tree, quiet, args)
        except LedgerError as exc:  # the script no longer fits the rules
            raise LedgerError(_("{stopped}: {reason}").format(stopped=stopped, reason=exc)) \
                from None
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
    console.print("\n" + _("The demo is encounter {id}, now current: try `combat status`, "
                           "`combat log --json` or `combat export --format html -o "
                           "report.html`.").format(id=eid))
