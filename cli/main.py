"""The `combat` program. A declaration typed in a shell (`combat act rook
major`) is read by the grammar (cli/grammar/) and executed without building
the typer app: a command line then costs what the core costs. Everything
else, and `--help`, completion or wrong usage of a declaration, goes to
typer, which registers only the module of the command it runs; help,
completion, play mode and anything unknown get the whole app (cli/app.py).
tests/test_cli.py checks that COMMANDS matches what each module registers."""
import importlib
import os
import sys

# Each module's commands, in the order `--help` lists them.
MODULES = {
    "setup_cmds": ("use", "list"),
    "declare_cmds": ("new", "add", "group", "roll", "order", "load", "round", "seize",
                     "act", "interrupt", "end-turn", "leave", "rejoin", "max-ap",
                     "adjust-ap", "grit", "set-initiative", "note", "end", "undo", "redo",
                     "retract", "amend", "effect", "end-effect"),
    "record_cmds": ("status", "log", "verify", "head", "export", "import", "demo"),
    "review_cmds": ("stats", "report", "replay", "schema"),
    "store_cmds": ("copy",),
    "play_cmds": ("play",),
    "token_cmds": ("token",),
    "serve_cmds": ("serve",),
}
COMMANDS = {name: module for module, names in MODULES.items() for name in names}

# Global options (each takes a value) that may stand before the command.
GLOBAL_OPTIONS = ("--db", "--encounter", "--actor")
ENVIRONMENT = {"--db": "COMBAT_DB", "--encounter": "COMBAT_ENCOUNTER",
               "--actor": "COMBAT_ACTOR"}


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


def declare(argv: list[str], at: int) -> int | None:
    """A declaration read by the grammar and executed: its exit code, or None
    when the typer app should answer instead (help, wrong usage)."""
    from cli.grammar import BY_NAME, BadLine, parse
    words = argv[at:]
    if words[0] not in BY_NAME or "--help" in words:
        return None
    try:
        command = parse(words, read=_roster).command
    except BadLine:
        return None  # said in click's words, with exit 2, by the typer app
    from eventlog.stores import commits

    from cli import output
    from cli.failure import failed
    from cli.session import Session
    options, session, before = global_options(argv[:at]), None, commits()
    try:
        session = Session.opened(options["--db"], options["--encounter"],
                                 options["--actor"] or "gm")
        session.run(session.careful_about(command))
        output.flush()
        return 0
    except KeyboardInterrupt:
        output.say("Aborted!")
        return 1
    except Exception as exc:
        return failed(session, exc, commits() > before)


def _roster(path: str):
    from cli.session import read_roster
    return read_roster(path)


def main() -> None:
    from cli.output import prepare_streams
    prepare_streams()
    argv = play_by_default(sys.argv[1:])
    at = command_at(argv)
    if at is not None and at < len(argv):
        code = declare(argv, at)
        if code is not None:
            sys.exit(code)
    module = COMMANDS.get(argv[at]) if at is not None and at < len(argv) else None
    importlib.import_module(f"cli.{module}" if module else "cli.app")
    from cli.base import app
    app(args=argv, prog_name="combat")
