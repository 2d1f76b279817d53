"""The one place a failure becomes `error: ...` and an exit code, for the
typer app (cli/base.py) and the grammar's own path (cli/main.py) alike.
Exit 1 means nothing was appended: once a batch is committed the command
succeeds, whatever happens to its output (cli/output.py)."""
from __future__ import annotations

import os

from cli import output
from eventlog.language import _
from eventlog.errors import LedgerError
from eventlog.text import neutral


def damage(session) -> str | None:
    """After a failure that no check foresaw: the first damaged event of the
    encounter, if its chain says so (a row edited behind our back)."""
    ledger = getattr(session, "__dict__", {}).get("ledger")
    if ledger is None:
        return None
    try:
        from eventlog.chain import verify_chain
        eid = session.chosen or session.current()
        verdict = verify_chain(ledger.store.rows(eid))
    except Exception:  # the diagnosis must not fail in its turn
        return None
    if verdict.ok:
        return None
    return _("the log of {encounter} is damaged at seq {seq}: {problem} (R30)").format(
        encounter=eid, seq=verdict.first_bad_seq, problem=verdict.problem)


def said(session, exc: Exception) -> str:
    """What went wrong, in one line of the table's language."""
    if isinstance(exc, (LedgerError, UnicodeEncodeError, OverflowError)):  # not UTF-8, not int64
        lines = getattr(exc, "lines", None)  # a correction's casualties: a line each (R28c)
        if lines:
            return "\n".join(neutral(line) for line in lines)
        return " ".join(str(exc).splitlines())
    if isinstance(exc, RecursionError):
        return _("nested too deeply to be read (a file or script that refers to "
                 "itself, or a damaged store)")
    if os.environ.get("COMBAT_DEBUG"):
        raise exc
    found = damage(session)
    if found:
        return _("{damage}; nothing was changed").format(damage=found)
    return _("unexpected failure ({kind}: {what}); set COMBAT_DEBUG=1 for details").format(
        kind=type(exc).__name__, what=exc)


def failed(session, exc: Exception, committed: bool, nested: bool = False) -> int:
    """The exit code for `exc`, said in one line (or none: a closed pipe)."""
    if output.is_output_failure(exc) or (committed and isinstance(exc, UnicodeEncodeError)):
        if nested:
            raise exc  # the outermost command says it, once
        return output.output_failed(exc, committed)
    what = said(session, exc)
    if committed and not isinstance(exc, LedgerError):  # (a demo that stopped: 1)
        output.say(_("warning: the declaration was recorded, but {what}").format(what=what))
        return 0
    tell = getattr(session, "tell_error", None)  # play mode words and wraps its own
    if tell is not None:
        tell(what)
        return 1
    output.say(_("error: {reason}").format(reason=what), keep="\n" if getattr(exc, "lines", None) else "")
    return 1
