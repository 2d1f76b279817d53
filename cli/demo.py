"""`combat demo`: plays examples/demo.combat into the store under a fresh id."""
import shlex
from pathlib import Path

import typer

from eventlog.errors import LedgerError

from .render import console, show_state
from .session import Session

HERE = Path(__file__).resolve().parent
SCRIPT_NAME = "demo.combat"


def script_path() -> Path:
    """The script ships inside the wheel; a source checkout has it in examples/."""
    for folder in (HERE / "examples", HERE.parent / "examples"):
        if (folder / SCRIPT_NAME).is_file():
            return folder / SCRIPT_NAME
    raise LedgerError(f"the demo script {SCRIPT_NAME} is missing from this installation")


def script_lines(path: Path) -> list[list[str]]:
    """Each line is a `combat` command without the word `combat`; # comments."""
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        args = shlex.split(raw, comments=True)
        if args:
            lines.append(args)
    return lines


def fresh_id(session: Session) -> str:
    taken = {row[0] for row in session.ledger.store.encounters()}
    n = 1
    while f"demo-{n}" in taken:
        n += 1
    return f"demo-{n}"


def play(session: Session) -> None:
    from .app import app
    command = typer.main.get_command(app)
    eid = fresh_id(session)
    quiet = Session(session.db, eid, session.actor, quiet=True)
    session.ledger.new(eid, "Demo: a street crew jumps two runners", session.actor)
    console.print(f"[bold]combat new {eid}[/bold]")
    for args in script_lines(script_path()):
        console.print(f"[bold]combat {shlex.join(args)}[/bold]")
        code = command.main(args=args, obj=quiet, standalone_mode=False, prog_name="combat")
        if code:  # a refusal was printed: the script no longer fits the rules
            raise LedgerError(f"the demo stopped at `combat {shlex.join(args)}`")
    console.print()
    show_state(session.ledger.state(eid))
    console.print()
    command.main(args=["log"], obj=quiet, standalone_mode=False, prog_name="combat")
    console.print(f"\nThe demo is encounter {eid}, now current: try `combat status`, "
                  "`combat log --json` or `combat verify`.")
