"""The docs cannot drift from the program: the generated pages are what
docs/gen_commands.py writes now."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_commands", DOCS / "gen_commands.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_command_reference_and_schemas_are_what_the_program_says():
    for path, text in _generator().pages().items():
        committed = (DOCS / path).read_text()
        assert committed == text, f"docs/{path} is stale: run `python docs/gen_commands.py`"


def test_the_command_reference_names_every_command():
    import typer.main

    from cli.app import app
    page = (DOCS / "commands.md").read_text()
    for name in typer.main.get_command(app).commands:
        assert f"### `combat {name}`" in page, name
