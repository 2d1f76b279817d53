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
    MAX_CHARACTERS, NOTHING, Fields, Sheet, character, label, track_name, track_names)
from eventlog.language import _

COLUMNS = ("name", "id", "bonus", "ap", "grit", "portrait")
EXPECTED = ", ".join([*COLUMNS, "track:NAME", "max:NAME"])


def rows(name: str, text: str, fields: Fields) -> list[Sheet]:
    first = text.split("\n", 1)[0]
    delimiter = next((d for d in ",;\t" if d in first), ",")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
        if header is None or not any(cell.strip() for cell in header):
            raise InvalidFile(_("{name} is empty: its first row names the columns ({columns}); "
                                "{nothing}").format(name=name, columns=EXPECTED,
                                                    nothing=_(NOTHING)))
        columns = _columns(header, fields)
        if columns is None:
            return []
        sheets: list[Sheet] = []
        for index, row in enumerate(reader, start=2):
            if not any(cell.strip() for cell in row):
                continue  # (a spreadsheet's empty rows)
            if index - 1 > MAX_CHARACTERS:
                raise InvalidFile(_("{name} holds more than {most} characters, the most one "
                                    "import adds; {nothing}").format(
                    name=name, most=MAX_CHARACTERS, nothing=_(NOTHING)))
            if len(row) != len(columns):
                named = columns.index("name")
                fields.note(label("row", index, row[named] if named < len(row) else None),
                            _("{n} cells, but the header names {columns} columns").format(
                                n=len(row), columns=len(columns)))
                continue
            sheet = _row(fields, index, dict(zip(columns, row, strict=True)))
            if sheet is not None:
                sheets.append(sheet)
    except csv.Error as exc:
        fields.note(_("line {n}").format(n=reader.line_num),
                    _("not readable as CSV ({why})").format(why=exc))
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
        kind, _sep, track = column.partition(":")
        if not column:
            fields.note(_("the header"), _("column {n} has no name").format(n=number))
        elif column in columns:
            fields.note(_("the header"), _("column {column} is given twice").format(column=shown))
        elif kind in ("track", "max") and track:
            if track_name(track) is None:
                fields.note(_("the header"), _("column {column}: a track's name is {rule}")
                            .format(column=shown, rule=track_names()))
        elif column not in COLUMNS:
            said = dict(column=shown, known=EXPECTED, track=f"track:{column}")
            fields.note(_("the header"), (
                _("unknown column {column} (expected one of: {known}); a track is a column "
                  "{track}") if track_name(column) else
                _("unknown column {column} (expected one of: {known})")).format(**said))
        columns.append(column)
    if "name" not in columns:
        fields.note(_("the header"), _("no column 'name': every character has one"))
    for column in columns:
        if column.startswith("max:") and f"track:{column[4:]}" not in columns:
            fields.note(_("the header"), _("column {column} has no column {track} beside it "
                                           "for the value").format(
                column=repr(column), track=repr(f"track:{column[4:]}")))
    return None if len(fields.mistakes) > before else columns


def _row(fields: Fields, index: int, cells: dict[str, str]) -> Sheet | None:
    tracks = {column[6:]: (cells[column], cells.get(f"max:{column[6:]}"))
              for column in cells if column.startswith("track:")}
    return character(fields, label("row", index, cells["name"]), cells["name"],
                     cells.get("id"), cells.get("bonus"), cells.get("ap"), cells.get("grit"),
                     tracks, cells.get("portrait"))
