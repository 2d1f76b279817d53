"""A spreadsheet's CSV of characters (docs/characters.md, "From a spreadsheet"):
a header row naming its columns, then one character a row. The columns are
`name` (the only one required), `id`, `bonus`, `ap`, `grit`, `portrait` and
for each track `track:NAME` (its value) with, if its maximum differs,
`max:NAME`; any other column is refused by name. Commas, semicolons or tabs
separate the cells (whichever the header row uses): spreadsheets in many
languages write semicolons."""
from __future__ import annotations

import csv
import io

from eventlog.errors import InvalidFile
from eventlog.text import neutral
from projections.inputs.sheets import (
    MAX_CHARACTERS, NOTHING, TRACK_NAMES, Fields, Sheet, character, label, track_name)

COLUMNS = ("name", "id", "bonus", "ap", "grit", "portrait")
EXPECTED = ", ".join([*COLUMNS, "track:NAME", "max:NAME"])


def rows(name: str, text: str, fields: Fields) -> list[Sheet]:
    first = text.split("\n", 1)[0]
    delimiter = next((d for d in ",;\t" if d in first), ",")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
        if header is None or not any(cell.strip() for cell in header):
            raise InvalidFile(f"{name} is empty: its first row names the columns "
                              f"({EXPECTED}); {NOTHING}")
        columns = _columns(header, fields)
        if columns is None:
            return []
        sheets: list[Sheet] = []
        for index, row in enumerate(reader, start=2):
            if not any(cell.strip() for cell in row):
                continue  # (a spreadsheet's empty rows)
            if index - 1 > MAX_CHARACTERS:
                raise InvalidFile(f"{name} holds more than {MAX_CHARACTERS} characters, the "
                                  f"most one import adds; {NOTHING}")
            if len(row) != len(columns):
                named = columns.index("name")
                fields.note(label("row", index, row[named] if named < len(row) else None),
                            f"{len(row)} cells, but the header names {len(columns)} columns")
                continue
            sheet = _row(fields, index, dict(zip(columns, row, strict=True)))
            if sheet is not None:
                sheets.append(sheet)
    except csv.Error as exc:
        fields.note(f"line {reader.line_num}", f"not readable as CSV ({exc})")
        return []
    return sheets


def _columns(header: list[str], fields: Fields) -> list[str] | None:
    """The header's columns in the reader's words (`Track:HP` is `track:hp`),
    or None with every mistake of the header noted."""
    before = len(fields.mistakes)
    columns: list[str] = []
    for number, cell in enumerate(header, start=1):
        column = cell.strip().lower()
        shown = neutral(repr(cell.strip()[:40]))
        kind, _, track = column.partition(":")
        if not column:
            fields.note("the header", f"column {number} has no name")
        elif column in columns:
            fields.note("the header", f"column {shown} is given twice")
        elif kind in ("track", "max") and track:
            if track_name(track) is None:
                fields.note("the header", f"column {shown}: a track's name is "
                                          f"{TRACK_NAMES}")
        elif column not in COLUMNS:
            hint = f"; a track is a column track:{column}" if track_name(column) else ""
            fields.note("the header", f"unknown column {shown} (expected one of: "
                                      f"{EXPECTED}){hint}")
        columns.append(column)
    if "name" not in columns:
        fields.note("the header", "no column 'name': every character has one")
    for column in columns:
        if column.startswith("max:") and f"track:{column[4:]}" not in columns:
            fields.note("the header", f"column {column!r} has no column "
                                      f"'track:{column[4:]}' beside it for the value")
    return None if len(fields.mistakes) > before else columns


def _row(fields: Fields, index: int, cells: dict[str, str]) -> Sheet | None:
    tracks = {column[6:]: (cells[column], cells.get(f"max:{column[6:]}"))
              for column in cells if column.startswith("track:")}
    return character(fields, label("row", index, cells["name"]), cells["name"],
                     cells.get("id"), cells.get("bonus"), cells.get("ap"), cells.get("grit"),
                     tracks, cells.get("portrait"))
