"""The `combat` program. Typer turns every registered command into a click
command on each run, and each command module has imports of its own, so a
command typed in the shell registers only its own module; help, completion,
play mode and anything unknown get the whole app (cli/app.py). Building
them all cost ~12 ms a run, against issue 8's target of `status` and `act`
within 1.3x of importing their libraries. tests/test_cli.py checks that
COMMANDS matches what each module registers."""
import importlib
import sys

# Each module's commands, in the order `--help` lists them.
MODULES = {
    "setup_cmds": ("new", "use", "list", "add", "group", "roll", "order"),
    "roster_cmds": ("load",),
    "turn_cmds": ("round", "seize", "act", "interrupt", "end-turn"),
    "gm_cmds": ("leave", "rejoin", "max-ap", "adjust-ap", "grit", "set-initiative",
                "note", "end", "undo", "redo", "retract", "amend", "effect", "end-effect"),
    "record_cmds": ("status", "log", "verify", "head", "export", "import", "demo"),
    "review_cmds": ("stats", "report", "replay", "schema"),
    "store_cmds": ("copy",),
    "play_cmds": ("play",),
    "token_cmds": ("token",),
    "serve_cmds": ("serve",),
    "rules_cmds": ("rules",),
}
COMMANDS = {name: module for module, names in MODULES.items() for name in names}

# Global options (each takes a value) that may stand before the command.
GLOBAL_OPTIONS = ("--db", "--encounter", "--actor")


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


def in_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def play_by_default(argv: list[str]) -> list[str]:
    """`combat` with no command, in a terminal, is `combat play`; elsewhere
    (scripts, CI) it keeps printing the help."""
    if in_terminal() and command_at(argv) == len(argv):
        return [*argv, "play"]
    return argv


def version_text() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return f"combat-ledger {version('combat-ledger')}"
    except PackageNotFoundError:  # a checkout run without installing it
        return "combat-ledger (not installed)"


def main() -> None:
    from cli.output import prepare_streams
    prepare_streams()
    argv = play_by_default(sys.argv[1:])
    if argv == ["--version"]:  # cheap: no typer, no command module
        print(version_text())
        return
    at = command_at(argv)
    module = COMMANDS.get(argv[at]) if at is not None and at < len(argv) else None
    importlib.import_module(f"cli.{module}" if module else "cli.app")
    from cli.base import app
    app(args=argv, prog_name="combat")
