"""What the command line writes, made safe both ways.

- Text from the log is neutralised before it meets a terminal: a control
  character stored in a label is shown as `\\x1b`, never sent raw (and
  render.SafeConsole does it for every string rich is given).
- A failing output never turns a recorded declaration into exit 1: once a
  batch is committed, a closed pipe, a full disk or an encoding that cannot
  show a character changes nothing about what was recorded, and a script
  that retries on exit 1 would spend the AP twice. A broken pipe is silent,
  as for any Unix tool; characters the output encoding lacks are replaced.
"""
from __future__ import annotations

import errno
import os
import sys

# (no rich here: every command imports this module, `status --json` too)
from eventlog.text import json_safe as json_text  # noqa: F401 (session.py)
from eventlog.text import neutral

# What a write to stdout fails with when its reader or its disk is gone.
OUTPUT_ERRNOS = {errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG,
                 errno.ECONNRESET, errno.EBADF}


def stdout():
    """sys.stdout, or a sink when the process was started without one."""
    return sys.stdout if sys.stdout is not None else open(os.devnull, "w")


def write(text: str) -> None:
    stdout().write(text)


def prepare_streams() -> None:
    """A real process: output the encoding cannot show is replaced, not
    fatal (PYTHONIOENCODING=ascii, a C locale)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="replace" if stream is sys.stdout else "backslashreplace")
            except (ValueError, OSError):
                pass


def flush() -> None:
    """Flush stdout while the command can still say what failed (at exit
    Python would print `Exception ignored` and exit 120)."""
    if sys.stdout is not None:
        sys.stdout.flush()


def is_output_failure(exc: BaseException) -> bool:
    return isinstance(exc, OSError) and exc.errno in OUTPUT_ERRNOS


def silence_stdout() -> None:
    """Point stdout at /dev/null, so that what is still buffered for a reader
    who left (or a full disk) is dropped quietly at exit."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(fd, sys.stdout.fileno())
        finally:
            os.close(fd)
    except (OSError, AttributeError, ValueError):
        pass  # not a real file (tests capture it): nothing is left to flush


def say(line: str, keep: str = "") -> None:
    """One line on stderr (more where `keep` has "\n"), if stderr is still
    there to take it."""
    try:
        print(neutral(line, keep), file=sys.stderr)
    except (OSError, ValueError, AttributeError):
        pass


def output_failed(exc: BaseException, committed: bool) -> int:
    """The exit code after the output failed with `exc`: 0 once something
    was committed (it was recorded) or when the reader closed the pipe."""
    silence_stdout()
    if isinstance(exc, BrokenPipeError):
        return 0
    from eventlog.language import _, reason
    why = reason(exc) if isinstance(exc, OSError) and exc.strerror else str(exc)
    if committed:
        say(_("warning: the declaration was recorded, but its output could not be "
              "written ({why})").format(why=why))
        return 0
    say(_("error: cannot write the output: {why}").format(why=why))
    return 1
