"""The export formats, by name: `export --format NAME` writes with the
writer registered here. A writer is `write(ledger, encounter, out, track)
-> events written`, streaming to a text file or stdout alike; a new format
is one module with its writer and one line in FORMATS. Writers are imported
only when used (the html one loads matplotlib).
"""
from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import NamedTuple

from eventlog.language import N_, _


class Format(NamedTuple):
    module: str
    writer: str
    help: str  # marked for the catalogue; said in the reader's language by described()


FORMATS: dict[str, Format] = {
    "json": Format("projections.reports.jsonexport", "write_json",
                   N_("the portable log that `import` reads")),
    "jsonl": Format("projections.reports.exports", "write_jsonl", N_("one event per line")),
    "csv": Format("projections.reports.exports", "write_csv",
                  N_("one row per event with its round, pass and turn")),
    "md": Format("projections.reports.exports", "write_md", N_("the fight round by round, with stats")),
    "html": Format("projections.reports.html", "write_html", N_("a self-contained report with charts")),
}


def writer(name: str) -> Callable[..., int]:
    """The writer of the format `name` (a key of FORMATS)."""
    spec = FORMATS[name]
    return getattr(import_module(spec.module), spec.writer)


def described() -> str:
    """`json: ...; jsonl: ...`: every format with what it writes."""
    return "; ".join(f"{name}: {_(spec.help)}" for name, spec in FORMATS.items()) + "."
