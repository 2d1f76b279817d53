"""The `combat` program. A declaration typed in a shell (`combat act rook
major`) is read by the grammar (cli/grammar/) and executed without building
the typer app, and so is `status [--json]`: a command line then costs what the
core costs. Everything
else, and `--help`, completion or wrong usage of a declaration, goes to
typer, which registers only the module of the command it runs; help,
completion, play mode and anything unknown get the whole app (cli/app.py).
tests/test_cli.py checks that COMMANDS matches what each module registers."""
import importlib
import os
import sys

from cli.registry import COMMANDS, HELP_ORDER, MODULES  # noqa: F401  (tests read them here)

# Global options (each takes a value) that may stand before the command.
GLOBAL_OPTIONS = ("--db", "--encounter", "--actor", "--lang")
ENVIRONMENT = {"--db": "COMBAT_DB", "--encounter": "COMBAT_ENCOUNTER",
               "--actor": "COMBAT_ACTOR", "--lang": "COMBAT_LANG"}


def command_at(argv: list[str]) -> int | None:
    """Where the command is in argv, after the global options (len(argv) when
    there is none); None when the last option lacks its value."""
    i = 0
    while i < len(argv):
        name, has_value = argv[i].split("=", 1)[0], "=" in argv[i]
        if name not in GLOBAL_OPTIONS:
            return i
        if not has_value and i + 1 >= len(argv):
            return None
        i += 1 if has_value else 2
    return i


def global_options(argv: list[str]) -> dict[str, str | None]:
    """The global options before the command, else their environment variables."""
    given: dict[str, str | None] = {name: os.environ.get(var) or None
                                    for name, var in ENVIRONMENT.items()}
    i = 0
    while i < len(argv):
        name, eq, value = argv[i].partition("=")
        given[name] = value if eq else argv[i + 1]
        i += 1 if eq else 2
    return given


def in_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def play_by_default(argv: list[str]) -> list[str]:
    """`combat` with no command, in a terminal, is `combat play`; elsewhere
    (scripts, CI) it keeps printing the help."""
    if in_terminal() and command_at(argv) == len(argv):
        return [*argv, "play"]
    return argv


def quick(argv: list[str], at: int):
    """What a declaration, or `status --json`, does with a session, read by
    the grammar without the typer app; None when the typer app should answer
    instead (help, wrong usage, every other command)."""
    from cli.grammar import BY_NAME, READ_BY_NAME, BadLine, parse
    words = argv[at:]
    if words[0] in READ_BY_NAME and "--help" not in words:
        return _read(words)
    if words[0] not in BY_NAME or "--help" in words:
        return None
    try:
        command = parse(words, read=_roster).command
    except BadLine:
        return None  # said in click's words, with exit 2, by the typer app
    except Exception as exc:  # a roster that cannot be read: one line, as a refusal

        def refused(session, exc=exc):
            raise exc
        return refused
    return lambda session: session.run(session.careful_about(command))


def _read(words: list[str]):
    """`status [--json] [--at SEQ]`: the status for scripts and the pages, or
    the table for people (what the typer command does, without typer)."""
    from cli.grammar import BadLine, parse_read
    try:
        _command, values = parse_read(words)
    except BadLine:
        return None  # said in click's words by the typer app
    at = values["at"]
    if at is not None and not -2**63 <= at < 2**63:
        return None  # (click's own words for a number no store holds)

    def show(session) -> None:
        state = session.state(at)
        if values["as_json"]:
            from cli.session import print_json
            from projections.reports.views import status
            print_json(status(state))
        else:
            from cli.render import show_state
            show_state(state, lost=True)
    return show


def run_quick(argv: list[str], at: int, work) -> int:
    """Run `work(session)` with the global options' session; the exit code.
    The store is closed on the way out, whatever happened."""
    from cli import output
    from cli.failure import failed
    from cli.session import Session
    from eventlog.stores import commits
    options, session, before = global_options(argv[:at]), None, commits()
    try:
        session = Session.opened(options["--db"], options["--encounter"],
                                 options["--actor"] or "gm")
        work(session)
        output.flush()
        return 0
    except KeyboardInterrupt:
        from eventlog.language import _
        output.say(_("Aborted!"))
        return 1
    except Exception as exc:
        return failed(session, exc, commits() > before)
    finally:
        if session is not None:
            session.close()


def leave_now(code: int) -> None:
    """End the process at once with `code`, once a quick command is done:
    its output is flushed and its store closed (run_quick), and it started
    no thread and registered nothing to run at exit. Python's own teardown
    of the ~250 modules a declaration loads takes as long as the declaration
    itself (~15 ms), and frees nothing the operating system would not."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass  # (run_quick has said what it had to; a reader gone is no news)
    os._exit(code)


def _roster(path: str):
    from cli.session import read_roster
    return read_roster(path)


def choose_language(argv: list[str]) -> str | None:
    """Speak the language `--lang` (or COMBAT_LANG) names, else the
    environment's locale (LANG, LC_MESSAGES...), from here on: before any
    command module is imported, since their help is said as they register.
    A refusal when the language named is not one we speak."""
    from eventlog import language
    from eventlog.language import _
    at = command_at(argv)
    flag = global_options(argv[:at])["--lang"] if at is not None else None
    if flag:
        named = language.chosen(flag)
        if named is None:
            from eventlog.text import neutral
            return _("no language {name}: combat speaks {known}").format(
                name=neutral(repr(flag)), known=", ".join(language.LANGUAGES))
        language.speak(named)
    else:
        language.speak(language.from_environment(os.environ))
    return None


def main(leave=sys.exit) -> None:
    """The `combat` program; `leave(code)` ends a quick command (sys.exit in
    process, so that a caller can look around afterwards; entry() leaves at
    once)."""
    from cli.output import prepare_streams
    prepare_streams()
    argv = play_by_default(sys.argv[1:])
    refused = choose_language(argv)
    if refused:
        from cli import output
        from eventlog.language import _
        output.say(_("error: {reason}").format(reason=refused))
        leave(1)
        return
    if argv == ["--version"]:  # cheap: no typer, no command module
        from cli.version import version_text
        print(version_text())
        return
    at = command_at(argv)
    if at is not None and at < len(argv):
        work = quick(argv, at)
        if work is not None:
            leave(run_quick(argv, at, work))
    import gc
    gc.enable()  # (play mode and the server run for hours)
    module = COMMANDS.get(argv[at]) if at is not None and at < len(argv) else None
    from eventlog import language
    if language.current() != language.SOURCE:  # (English reads click's own words)
        from cli.clickwords import speak_click
        speak_click()
    importlib.import_module(f"cli.{module}" if module else "cli.app")
    from cli.base import app
    app(args=argv, prog_name="combat")


def entry() -> None:
    """`combat` as a program of its own (the console script, `python -m cli`).
    The cycle collector waits while a quick command runs: the ~250 modules it
    loads set off collection after collection (~3 ms, a twentieth of the
    command) and find nothing; what the command allocates is freed by
    reference counting (folding a million events without a snapshot peaks at
    the same memory either way). Every other command turns it back on."""
    import gc
    gc.disable()
    main(leave=leave_now)
