"""The shape of the code (the house style's habits), read from its source:
no import circle, the table server a client of the core and the grammar only,
the grammar free of UI libraries, small modules and functions, and one
`execute` on the way of a command."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("eventlog", "projections", "cli")
MAX_MODULE_LINES, MAX_FUNCTION_LINES = 400, 80


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules `path` imports anywhere in it (function-level too)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from package import submodule` imports the submodule
            names = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in known
                     else node.module for a in node.names]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name:
                out.add(name)
    return out


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(path, known) - {name} for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_anywhere_module_or_function_level():
    assert circles(graph()) == []


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def layer(name: str) -> str:
    """Where a module sits: the event log, the domain, the core (the
    application and its adapters), the reads (reports) or a client."""
    if name.startswith("projections.domain"):
        return "domain"
    if name.startswith("projections.reports"):
        return "reads"
    return {"eventlog": "eventlog", "projections": "core"}.get(name.split(".")[0], "cli")


# What each layer may import of the project: the event log is below all,
# the domain below the core, the core below the reads, the clients on top.
BELOW = {"eventlog": {"eventlog"},
         "domain": {"eventlog", "domain"},
         "core": {"eventlog", "domain", "core"},
         "reads": {"eventlog", "domain", "core", "reads"},
         "cli": {"eventlog", "domain", "core", "reads", "cli"}}


def upward(edges: dict[str, set[str]]) -> list[str]:
    return sorted(f"{name} -> {target}" for name, targets in edges.items()
                  for target in targets if layer(target) not in BELOW[layer(name)])


def test_imports_go_down_only_domain_below_core_below_reads():
    """Imports inside functions and under TYPE_CHECKING count: an import
    the layers' direction forbids is forbidden wherever it is written."""
    assert upward(graph()) == []


def test_the_direction_rule_finds_an_upward_import():
    edges = {"projections.domain.phrases": {"projections.reports.narrate"},
             "projections.ledger": {"projections.reports.dryrun", "projections.domain.state"},
             "projections.inputs.transfer": {"projections.reports.jsonexport"},
             "eventlog.codec": {"projections.domain.state"},
             "projections.domain.rules": {"cli.main", "projections.ledger"},
             "projections.reports.stats": {"projections.ledger", "projections.domain.state"},
             "cli.render": {"projections.reports.flow"}}
    assert upward(edges) == [
        "eventlog.codec -> projections.domain.state",
        "projections.domain.phrases -> projections.reports.narrate",
        "projections.domain.rules -> cli.main",
        "projections.domain.rules -> projections.ledger",
        "projections.inputs.transfer -> projections.reports.jsonexport",
        "projections.ledger -> projections.reports.dryrun"]


def test_an_import_inside_a_function_or_for_types_only_counts(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("from typing import TYPE_CHECKING\n"
                      "if TYPE_CHECKING:\n    from projections.reports import stats\n"
                      "def f():\n    import cli.main\n")
    known = {"projections.reports.stats": source, "cli.main": source}
    assert imports(source, known) == {"projections.reports.stats", "cli.main"}


def test_the_server_imports_of_cli_only_itself_and_the_grammar():
    for name, targets in graph().items():
        if name.startswith("cli.server"):
            outside = {t for t in targets if t.startswith("cli")
                       and not t.startswith(("cli.server", "cli.grammar"))}
            assert outside == set(), name


def test_the_grammar_imports_no_ui_library():
    for path in (ROOT / "cli" / "grammar").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for n in names:
                assert n.split(".")[0] not in ("typer", "click", "rich", "prompt_toolkit"), path


@pytest.mark.parametrize("name", sorted(modules()))
def test_modules_and_functions_are_small(name):
    path = modules()[name]
    text = path.read_text()
    assert len(text.splitlines()) <= MAX_MODULE_LINES, f"{path}: over {MAX_MODULE_LINES} lines"
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            assert length <= MAX_FUNCTION_LINES, f"{path}:{node.lineno} {node.name} ({length})"


def test_one_function_named_execute():
    found = [f"{path}:{node.lineno}" for path in modules().values()
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
             and node.name == "execute"]
    assert len(found) == 1, found


def test_no_test_imports_from_conftest():
    """Shared helpers live in tests/helpers.py; conftest.py holds fixtures."""
    found = [p.name for p in (ROOT / "tests").rglob("*.py")
             for node in ast.walk(ast.parse(p.read_text()))
             if isinstance(node, ast.ImportFrom) and node.module == "conftest"
             or isinstance(node, ast.Import) and any(a.name == "conftest" for a in node.names)]
    assert found == []


def test_no_module_calls_a_private_method_defined_in_another():
    """The fold's steps call State's own public methods, not its private ones."""
    known = modules()
    defined: dict[str, set[str]] = {}
    for name, path in known.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                    node.name.startswith("_") and not node.name.startswith("__"):
                defined.setdefault(node.name, set()).add(name)
    found = []
    for name, path in known.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name) \
                    and node.func.value.id not in ("self", "cls"):
                attr = node.func.attr
                owners = defined.get(attr, set())
                if attr.startswith("_") and owners and name not in owners:
                    found.append(f"{path.name}:{node.lineno} {node.func.value.id}.{attr}")
    assert found == []


# Words that point outside the repository: a tracker's issue number and the
# documents the project was built from. Spelled in pieces so that this file
# holds none of them.
OUTSIDE = re.compile("|".join([r"\b[Ii]ssue\s+#?\d+", "INTERFACE" + r"\.md", "RULES" + r"\.md",
                               r"\bshared" + "/"]))
RUNS_THE_SUITE = "../" + "shar" + "ed/conformance"  # .ci/run runs the acceptance suite from there


def outside_words(text: str) -> list[str]:
    return [m.group() for line in text.replace(RUNS_THE_SUITE, "").splitlines()
            for m in OUTSIDE.finditer(line)]


def test_nothing_names_an_issue_or_a_file_outside_the_repository():
    """Users have the project, not the documents it was built from nor its
    tracker: code, comments, tests, docs and CI say what the code does."""
    places = [ROOT / "README.md", *(ROOT / ".ci").rglob("*"),
              *(p for k in ("docs", "examples", "tests", *PACKAGES) for p in (ROOT / k).rglob("*")
                if not {"__pycache__", "node_modules"} & set(p.parts))]
    found = [f"{p.relative_to(ROOT)}: {word}" for p in places
             if p.is_file() and p.suffix not in (".png", ".db", ".pyc")
             for word in outside_words(p.read_text(errors="ignore"))]
    assert found == []


def test_the_outside_words_are_found():
    assert outside_words("see " + "Iss" + "ue 24, item 2; " + "INTERFACE" + ".md and ../"
                         + "shar" + "ed/" + "RULES" + ".md") == [
        "Iss" + "ue 24", "INTERFACE" + ".md", "shared" + "/", "RULES" + ".md"]
    assert outside_words("pytest " + RUNS_THE_SUITE + "; docs/rules.md; InterfaceError") == []
