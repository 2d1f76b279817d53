"""Write docs/commands.md from the command line itself, and the JSON Schemas
in docs/schema/ from `combat schema`: `python docs/gen_commands.py`.

tests/test_docs.py fails when the committed files differ from what this
writes, so the reference cannot drift from the program."""
from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))

WIDTH = 80
INTRO = """# Command reference

Every command of `combat`, as `combat COMMAND --help` prints it. This page is
written by `docs/gen_commands.py` from the program itself; do not edit it by
hand.

Global options come before the command (`combat --db club.db status`).
Exit codes: `0` done, `1` refused (one `error: ...` line citing the rule,
nothing appended), `2` wrong usage.
"""


def _walk(command, name: str, parent, depth: int):
    ctx = command.context_class(command, info_name=name, parent=parent,
                                terminal_width=WIDTH, max_content_width=WIDTH)
    yield depth, ctx.command_path, command.get_help(ctx)
    if hasattr(command, "list_commands"):  # a group (typer may carry its own click)
        for sub in command.list_commands(ctx):
            yield from _walk(command.get_command(ctx, sub), sub, ctx, depth + 1)


def commands_page() -> str:
    """The reference in English, whatever the machine's locale: the help is
    said as each command registers, so the app is imported speaking English
    (the process's language is never taken from LANG here: only the
    `combat` program chooses one)."""
    import typer.main

    from eventlog.language import speaking
    with speaking("en"):
        import cli.app
        root = typer.main.get_command(cli.app.app)
        parts = [INTRO]
        for depth, path, text in _walk(root, "combat", None, 0):
            title = "Global options" if depth == 0 else f"`{path}`"
            parts.append(f"\n{'#' * min(depth + 2, 4)} {title}\n\n```text\n{text.rstrip()}\n```\n")
    return "".join(parts)


def schemas() -> dict[str, str]:
    import msgspec

    from cli.output import json_text
    from projections.reports import schema
    made = {"event": schema.event_schema(), "export": schema.export_schema(),
            "command": schema.command_schema()}
    return {f"schema/{name}.schema.json":
            json_text(msgspec.json.format(msgspec.json.encode(value), indent=2).decode()) + "\n"
            for name, value in made.items()}


def pages() -> dict[str, str]:
    """Every generated file under docs/, by its path there."""
    return {"commands.md": commands_page(), **schemas()}


def main() -> None:
    for path, text in pages().items():
        target = DOCS / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        print(f"wrote docs/{path}")


if __name__ == "__main__":
    main()
