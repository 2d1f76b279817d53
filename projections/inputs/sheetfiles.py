"""Characters from where they already are (docs/characters.md, "Importing
characters"): a spreadsheet's CSV or Foundry VTT's exported actors, read as
strictly as a roster: every mistake of the file is found and said, one line
each, and nothing of it is imported unless it has none."""
from __future__ import annotations

from pathlib import Path

from eventlog.errors import InvalidFile
from eventlog.files import read_bounded
from eventlog.language import _
from eventlog.text import neutral
from projections.inputs.sheets import (
    MAX_SHEET_BYTES, NOTHING, Fields, Sheet, SheetMistakes, distinct)


def read(path: Path, maps: list[str] | tuple[str, ...] = ()) -> list[Sheet]:
    """The characters of the CSV or Foundry VTT export in `path`; SheetMistakes
    (every mistake, one line each) or InvalidFile (one line) when it is wrong."""
    name = neutral(path.name)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".json"):
        if not path.suffix:
            raise InvalidFile(_("{name}: characters are imported from a spreadsheet's .csv or "
                                "a Foundry VTT actor export (.json), not a file without an "
                                "extension").format(name=name))
        raise InvalidFile(_("{name}: characters are imported from a spreadsheet's .csv or a "
                            "Foundry VTT actor export (.json), not {suffix}").format(
            name=name, suffix=neutral(path.suffix)))
    raw = read_bounded(path, MAX_SHEET_BYTES, _("the most a character sheet may hold"), name)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidFile(_("{name} is not UTF-8 text (byte {n}): save it as UTF-8 (a "
                            "spreadsheet's \"CSV UTF-8\")").format(name=name, n=exc.start + 1)
                          ) from None
    if "\0" in text:
        raise InvalidFile(_("{name} is not a text file").format(name=name))
    fields = Fields(path.parent)
    if suffix == ".csv":
        if maps:
            raise InvalidFile(_("{name}: --map names the fields of a Foundry VTT export; a "
                                "CSV names its own columns (see the docs)").format(name=name))
        from projections.inputs.sheetcsv import rows  # (the one a file needs)
        sheets = rows(name, text, fields)
    else:
        from projections.inputs.foundry import actors
        sheets = actors(name, text, maps, fields)
    if not fields.mistakes and not sheets:
        raise InvalidFile(_("{name} holds no character: {nothing}").format(
            name=name, nothing=_(NOTHING)))
    distinct(fields)
    if fields.mistakes:
        raise SheetMistakes(name, fields.mistakes)
    return sheets
