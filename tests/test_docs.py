"""The docs cannot drift from the program: the generated pages are what
docs/gen_commands.py writes now, and every console example of the README and
of docs/ prints what it shows."""
import importlib.util
import re
import shlex
from pathlib import Path

import pytest

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


# -- console examples: every ```console block of the README and docs/*.md ------

CONSOLE = re.compile(r"^```console\n(.*?)^```", re.M | re.S)
TIME = re.compile(r"\b\d\d:\d\d:\d\d\b")  # the log's UTC column
HASH = re.compile(r"\b[0-9a-f]{12,64}\b")  # heads and hashes (they cover the time)
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def examples(page: Path) -> list[tuple[str, list[str]]]:
    """Each `$ combat ...` line of the page's console blocks with the lines
    shown under it, in the page's order."""
    found = []
    for block in CONSOLE.findall(page.read_text()):
        for line in block.splitlines():
            if line.startswith("$ "):
                found.append((line[2:], []))
            else:
                assert found, f"{page.name}: output before any command: {line!r}"
                found[-1][1].append(line)
    return found


def normal(text: str) -> str:
    return HASH.sub("<hash>", TIME.sub("<time>", text))


def matches(shown: list[str], got: str) -> bool:
    """`got` is what the page shows, a line `...` standing for any lines."""
    pattern = "".join(r"(?:.*\n)*?" if line == "..." else re.escape(normal(line.rstrip())) + r"\n"
                      for line in shown)
    got = "".join(normal(line.rstrip()) + "\n" for line in got.splitlines())
    return re.fullmatch(pattern, got) is not None


@pytest.mark.parametrize("page", [p for p in PAGES if examples(p)], ids=lambda p: p.name)
def test_every_console_example_prints_what_the_page_shows(page, tmp_path, monkeypatch):
    """The page's examples run in order on one fresh store in an empty
    folder, 80 columns wide, without colour; each prints what the page shows
    (times and hashes aside: they differ on every run)."""
    from typer.testing import CliRunner

    from cli.app import app
    from cli.console import console
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(console, "_width", 80)  # made by an earlier test, at its width
    env = {"COMBAT_DB": str(tmp_path / "ledger.db"), "COMBAT_ENCOUNTER": None,
           "COMBAT_ACTOR": None, "XDG_STATE_HOME": str(tmp_path / "state"),
           "NO_COLOR": "1", "COLUMNS": "80"}
    runner = CliRunner()
    for line, shown in examples(page):
        words = shlex.split(line, comments=True)
        extra = {}
        while "=" in words[0]:  # `COMBAT_CAREFUL=1 combat end-turn`
            name, value = words.pop(0).split("=", 1)
            extra[name] = value
        assert words[0] == "combat", f"{page.name}: a console example runs `combat` only: {line}"
        del console._buffer[:]  # what an earlier in-process test's failed output left
        result = runner.invoke(app, words[1:], env={**env, **extra})
        assert result.exception is None or isinstance(result.exception, SystemExit), \
            (line, result.exception)
        assert matches(shown, result.output), \
            f"{page.name}: `{line}` printed:\n{result.output}\nbut the page shows:\n" + "\n".join(shown)
