"""A typed line on a terminal client (play mode, the demo, a `.combat`
script): a declaration is read by the grammar and run through the session;
a read (`status`, `log --audit`, `help act`) runs on the shell's own command
tree, which the client is handed by its command (never imported here: the
typer app imports the clients, not the other way round)."""
from __future__ import annotations

from cli.grammar import DECLARING, BadLine, parse
from cli.session import Session, read_roster
from eventlog.errors import LedgerError


def expected(ledger, encounter: str, seen: int, command: list[str]) -> list[str]:
    """`--expect SEQ` for an `undo` or `redo` typed at a console without one:
    the batch it would act on as of the log the console has shown (up to
    seq `seen`), so one that landed since (another terminal's, a phone's)
    is refused, named, rather than taken back unseen (R26, R27)."""
    if command[:1] not in (["undo"], ["redo"]) or any(
            w.split("=", 1)[0] == "--expect" for w in command):
        return []
    book = ledger.book(encounter, at=seen)
    target = book.undo_target() if command[0] == "undo" else book.redo_target()
    return [] if target is None else ["--expect", str(target)]


def forked(store, encounter: str) -> str:
    """A fork's first event in the log's words (the rest is its source's)."""
    from projections.history import envelope
    from projections.domain.narrate import describe
    return describe(envelope(next(store.rows(encounter, upto=1))).data)


def leading(words: list[str]) -> tuple[list[str], list[str]]:
    """Leading `--option value` words, and the command after them."""
    i = 0
    while i < len(words) and words[i].startswith("--") and words[i] != "--help":
        i += 1 if "=" in words[i] else 2
    return words[:i], words[i:]


def run_line(tree, session: Session, words: list[str]) -> int:
    """Run one line's words; 0, or a read's exit code (1: its error was shown)."""
    _, rest = leading(words)
    if rest and rest[0] in DECLARING and "--help" not in rest:
        line = parse(words, local=True, read=read_roster, careful=session.careful)
        (session.as_actor(line.actor) if line.actor else session).run(line.command)
        return 0
    return run_read(tree, session, words)


def run_read(tree, session: Session, words: list[str]) -> int:
    """A read on the shell's command tree, with this session; wrong usage is
    one line (BadLine), as the grammar says it."""
    try:
        return tree.main(args=words, obj=session, standalone_mode=False,
                         prog_name="combat") or 0
    except LedgerError:
        raise
    except Exception as exc:
        if not hasattr(exc, "format_message"):  # not click's usage error
            raise
        ctx = getattr(exc, "ctx", None)
        where = ctx.command_path.removeprefix("combat").strip() if ctx else ""
        message = exc.format_message().rstrip(".")
        message = message[:1].lower() + message[1:]
        raise BadLine(f"{message}: see `help {where}`" if where else
                      f"{message}: `help` lists the commands") from None
