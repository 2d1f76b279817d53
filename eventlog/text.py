"""Text said at the table, checked where it comes in and neutralised where it
goes out.

A name, label, note, title, reason or actor is printed to terminals and
written into exports, so a control character in it is an attack on whoever
reads the log: ESC starts terminal sequences (a cleared screen, red text,
a forged line), other C0/C1 controls move the cursor or ring the bell, and
the bidi overrides make text read in another order than it is stored. They
are refused on the way in (the command line, rosters, imports) and shown as
visible escapes (`\\x1b`, `\\u202e`) on the way out, for logs stored before
this check or forged afterwards.
"""
from __future__ import annotations

import re
from datetime import datetime

import msgspec

from eventlog.errors import Refusal
from eventlog.language import N_, _
from eventlog.names import name_problem
from eventlog.names import shown as shown_name

# C0 and DEL, C1, and the bidi controls (marks, embeddings, overrides,
# isolates): none is ever needed in a name, a label or a note.
CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
MAX_ACTOR = 64
# The store's own timestamps (codec.utc_now): UTC, ISO 8601, microseconds, Z.
UTC_AT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z\Z")


def _shown(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def neutral(text: str, keep: str = "") -> str:
    """`text` with every control character replaced by its visible escape,
    but those in `keep` (a whole document keeps its line breaks)."""
    if not isinstance(text, str):
        text = str(text)
    return CONTROLS.sub(lambda m: m.group() if m.group() in keep else _shown(m.group()), text)


# Notes and reasons may span lines: newline and tab are kept (and shown or
# exported safely on the way out); names, labels, titles and ids stay one line.
MULTILINE_FIELDS = ("text", "reason")
LINE_BREAKS = _LINE_BREAKS = "\n\t"


def check_text(value: str, what: str, keep: str = "") -> None:
    """Refuse text that holds a control character (but those in `keep`),
    naming where it is: `what` is a field's name (FIELD_WORDS says it)."""
    found = next((m for m in CONTROLS.finditer(value) if m.group() not in keep), None)
    if found:
        said = FIELD_WORDS.get(what) or (ONE_LINE_FIELD if not keep else SPANNING_FIELD)
        raise Refusal(_(said).format(field=what, char=_shown(found.group()),
                                     at=found.start() + 1))


# What a field is called at the table (the rest go by their field name).
FIELD_WORDS = {
    "text": N_("the note holds a control character ({char} at position {at}): names, labels "
               "and ids are plain text on one line"),
    "reason": N_("the reason holds a control character ({char} at position {at}): names, "
                 "labels and ids are plain text on one line"),
    "name": N_("the name holds a control character ({char} at position {at}): names, labels "
               "and ids are plain text on one line; notes and reasons may span lines"),
    "label": N_("the label holds a control character ({char} at position {at}): names, "
                "labels and ids are plain text on one line; notes and reasons may span lines"),
    "title": N_("the title holds a control character ({char} at position {at}): names, "
                "labels and ids are plain text on one line; notes and reasons may span lines")}
ONE_LINE_FIELD = N_("{field} holds a control character ({char} at position {at}): names, "
                    "labels and ids are plain text on one line; notes and reasons may span "
                    "lines")
SPANNING_FIELD = N_("{field} holds a control character ({char} at position {at}): names, "
                    "labels and ids are plain text on one line")


def check_payload(payload) -> None:
    """Every text field of a declaration (and of those an amendment carries)."""
    for field in payload.__struct_fields__:
        keep = _LINE_BREAKS if field in MULTILINE_FIELDS else ""
        _check_value(getattr(payload, field), field, keep)


def _check_value(value, what: str, keep: str = "") -> None:
    if isinstance(value, str):
        check_text(value, what, keep)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _check_value(item, what, keep)
    elif isinstance(value, msgspec.Struct):
        check_payload(value)


def check_actor(actor: str) -> None:
    """Who declares (R29): a name of 1 to 64 printable characters, without
    spaces around it (`gm`, `players`, `Zoë`)."""
    if not isinstance(actor, str) or not actor or len(actor) > MAX_ACTOR \
            or actor != actor.strip() or not actor.isprintable():
        shown = neutral(actor if isinstance(actor, str) else repr(actor))[:MAX_ACTOR + 8]
        raise Refusal(_("'{actor}' is not a valid actor: a name of 1 to {most} printable "
                        "characters (R29)").format(actor=shown, most=MAX_ACTOR))
    problem = name_problem(actor)
    if problem:  # (a name that reads as another)
        raise Refusal(_("'{actor}' is not a valid actor: {problem} (R29)").format(
            actor=shown_name(actor), problem=problem))


def check_at(at: str) -> None:
    """When an event was appended (R29): a UTC timestamp as the store writes
    them (`2026-12-02T20:15:03.123456Z`)."""
    ok = isinstance(at, str) and UTC_AT.match(at)
    if ok:
        try:
            datetime.fromisoformat(at[:-1])
        except ValueError:
            ok = None
    if not ok:
        shown = neutral(at if isinstance(at, str) else repr(at))[:40]
        raise Refusal(_("'{at}' is not a UTC timestamp like 2026-12-02T20:15:03.123456Z (R29)")
                      .format(at=shown))


# Bidi controls, DEL and C1 pass through JSON encoders raw (they are valid
# JSON); as \\u escapes they are the same JSON string and reach no terminal.
_JSON_RAW = {c: f"\\u{c:04x}" for c in (*range(0x7f, 0xa0), 0x061c, 0x200e, 0x200f,
                                         *range(0x202a, 0x202f), *range(0x2066, 0x206a))}


def json_safe(encoded: str) -> str:
    """JSON text with the characters a terminal would act on escaped."""
    return encoded.translate(_JSON_RAW)


# Spreadsheets run a cell that starts with one of these as a formula (OWASP,
# "CSV Injection"): `=cmd|' /C calc'!A0`.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value, keep: str = ""):
    """A csv cell that a spreadsheet shows as text: a leading formula
    character gets a `'` before it, as OWASP recommends; controls are shown,
    but those in `keep` (a note's line breaks: the cell spans lines)."""
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_START):
        value = "'" + value
    return neutral(value, keep)
