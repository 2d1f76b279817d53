"""The rules reference (docs/rules.md) read into one section per rule, for
`combat rules`, play mode's `help R17` and the table server's /rules/R17.
Imports nothing of typer or rich: every client of the rules can use it.

The page ships inside the wheel as projections/docs/rules.md (pyproject.toml,
force-include); a source checkout reads docs/rules.md itself. The terminal,
play mode and the table server all read it here. Each language has its own
page with the same ids (docs/de/rules.md): the reader's is read."""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import NamedTuple

from eventlog.errors import LedgerError
from eventlog.language import SOURCE, _, current

HERE = Path(__file__).resolve().parent
PLACES = (HERE / "docs" / "rules.md", HERE.parent / "docs" / "rules.md")  # (English's)


def places(language: str) -> tuple[Path, ...]:
    """Where the reference in `language` is: in the wheel, then in a checkout."""
    if language == SOURCE:
        return PLACES
    return tuple(place.parent / language / place.name for place in PLACES)
HEADING = re.compile(r"^(#{1,6}) +(.*?)(?: *\{#[^}]*\})? *$")
RULE_ID = re.compile(r"^(R\d+[a-z]?)\b")
ANY_ID = re.compile(r"^[Rr]\d+[A-Za-z]?$")


class UnknownRule(LedgerError):
    """A rule id the reference does not have."""


class Rule(NamedTuple):
    id: str  # "R28a"
    title: str  # "R28a — A correction keeps what the table lived through"
    text: str  # the rule's markdown without its heading, sub-rules included


def looks_like_rule(word: str) -> bool:
    """`R17`, `r28a`: a word that names a rule rather than a command."""
    return bool(ANY_ID.match(word))


def source() -> str:
    """The reference's markdown in the reader's language, from the wheel or
    from a source checkout."""
    return _source(current())


@cache
def _source(language: str) -> str:
    for place in places(language):
        if place.is_file():
            return place.read_text(encoding="utf-8")
    raise LedgerError(_("the rules reference is missing from this installation "
                        "(docs/rules.md): reinstall combat-ledger"))


def rules() -> dict[str, Rule]:
    """Every rule by its id, each with the text up to the next heading of its
    level or above (so R28 holds R28a-R28c), in the reader's language."""
    return _rules(current())


@cache
def _rules(language: str) -> dict[str, Rule]:
    lines = _source(language).splitlines()
    heads = [(i, len(m.group(1)), m.group(2)) for i, line in enumerate(lines)
             if (m := HEADING.match(line))]
    found = {}
    for n, (at, level, title) in enumerate(heads):
        rid = RULE_ID.match(title)
        if not rid:
            continue
        end = next((i for i, lv, _title in heads[n + 1:] if lv <= level), len(lines))
        found[rid.group(1)] = Rule(rid.group(1), title, "\n".join(lines[at + 1:end]).strip())
    return found


def known() -> str:
    """The ids there are, as a short range: `R1 to R31 (with R3a, ...)`."""
    ids = list(rules())
    whole = [r for r in ids if r[-1].isdigit()]
    subs = [r for r in ids if not r[-1].isdigit()]
    ranged = _("{first} to {last}").format(first=whole[0], last=whole[-1])
    return ranged + (_(" (and {rules})").format(rules=", ".join(subs)) if subs else "")


def rule(rid: str) -> Rule:
    """One rule by its id, in any case (`r28a` is R28a)."""
    wanted = rid.strip()
    wanted = wanted[:1].upper() + wanted[1:].lower()
    found = rules().get(wanted)
    if found is None:
        shown = rid if rid.isprintable() and len(rid) <= 20 else "that"
        raise UnknownRule(_("there is no rule {rule}: the rules are {known}").format(
            rule=shown, known=known()))
    return found


def plain(markdown: str) -> str:
    """Markdown as a terminal shows it: headings without their marks and anchors."""
    out = []
    for line in markdown.splitlines():
        m = HEADING.match(line)
        out.append(m.group(2) if m else line)
    return "\n".join(out)


def as_text(found: Rule) -> str:
    return f"{found.title}\n\n{plain(found.text)}"
