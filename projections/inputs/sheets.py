"""Character sheets (docs/characters.md, "Importing characters"): what a sheet
may hold and the checks its fields share, for the readers of a spreadsheet's
CSV (sheetcsv.py) and of Foundry VTT's actors (foundry.py); sheetfiles.py
reads a file with the one that fits. Each check notes its mistake instead of
raising, so one reading finds every mistake of the file.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from eventlog.errors import InvalidFile
from eventlog.language import N_, _, n_, whole
from eventlog.text import CONTROLS, neutral
from projections.domain.phrases import slugify
from projections.domain.ranges import MAX_ID, MAX_NUMBER, TEXTS
from projections.domain.rules import SLUG
from projections.domain.tracks import MAX_NAME, MAX_TRACKS, NAME
from projections.inputs.portraits import Picture, beside

MAX_SHEET_BYTES = 8 << 20  # a Foundry actor carries its items and biography: ~100 KiB each
MAX_CHARACTERS = 100  # per file: a party, not a bestiary
NOTHING = N_("nothing of the file was imported")
WHOLE = re.compile(r"[+-]?[0-9]{1,10}\Z")
MAX_NAME_TEXT = TEXTS["name"][0]


class Sheet(NamedTuple):
    """One character as a sheet gives it, checked field by field."""
    name: str
    id: str | None  # None: the party makes one from the name
    bonus: int
    ap: int
    grit: int
    tracks: dict[str, tuple[int, int | None]]  # name -> (value, maximum or None: none)
    portrait: Picture | None
    where: str  # `row 3 (Rook)`, `actor 2 (Vex)`: how the file's reader finds it


class SheetMistakes(InvalidFile):
    """Every mistake of a file, one line each (the terminal prints them all;
    the server joins them on one line)."""

    def __init__(self, name: str, mistakes: list[str]):
        count = n_("{name}: {n} mistake; {nothing}", "{name}: {n} mistakes; {nothing}",
                   len(mistakes)).format(name=name, n=len(mistakes), nothing=_(NOTHING))
        self.lines = [count, *(f"  {m}" for m in mistakes)]
        super().__init__("\n".join(self.lines))


class Fields:
    """The checks a sheet's fields share, each noting its mistake instead of
    raising, so that one reading finds them all."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.mistakes: list[str] = []
        self.named: list[tuple[str, str, str]] = []  # (where, name, id) of every row named

    def note(self, where: str, text: str) -> None:
        self.mistakes.append(f"{where}: {text}")

    def text(self, where: str, what: str, value, most: int) -> str | None:
        if not isinstance(value, str):
            self.note(where, _("{what}: expected text, got {given}").format(
                what=what, given=shown(value)))
            return None
        value = value.strip()
        if CONTROLS.search(value):
            self.note(where, _("{what} holds a control character: names and ids are plain "
                               "text on one line").format(what=what))
            return None
        if len(value) > most:
            self.note(where, _("{what} is {n} characters long, at most {most}").format(
                what=what, n=whole(len(value)), most=most))
            return None
        return value

    def number(self, where: str, what: str, value, low: int = -MAX_NUMBER,
               default: int | None = None) -> int | None:
        """A whole number from a cell or a JSON value (`12`, `"+2"`, `12.0`
        is refused: a sheet's numbers are whole)."""
        if value is None or value == "":
            if default is None:
                self.note(where, _("{what} is empty: expected a whole number").format(what=what))
            return default
        if isinstance(value, str) and WHOLE.match(value.strip()):
            value = int(value.strip())
        if not isinstance(value, int) or isinstance(value, bool):
            self.note(where, _("{what}: expected a whole number, got {given}").format(
                what=what, given=shown(value)))
            return None
        if not low <= value <= MAX_NUMBER:
            said = (whole(value) if abs(value) < 10**15 else
                    _("a number of {n} digits").format(n=len(str(abs(value)))))
            self.note(where, _("{what} is {value}: it runs from {low} to {high}").format(
                what=what, value=said, low=whole(low), high=whole(MAX_NUMBER)))
            return None
        return value

    def track(self, where: str, name: str, value, most) -> tuple[int, int | None] | None:
        """A track's value and maximum (none given: it has no maximum)."""
        what = _("track {name}").format(name=repr(name))
        got = self.number(where, what, value, 0)
        top = (None if most is None or most == "" else self.number(
            where, _("the maximum of track {name}").format(name=repr(name)), most, 0))
        if got is None or (top is None and most not in (None, "")):
            return None
        if top is not None and got > top:
            self.note(where, _("{what} is {value}, above its maximum {top}").format(
                what=what, value=got, top=top))
            return None
        return got, top

    def portrait(self, where: str, given) -> Picture | None:
        if given is None or given == "":
            return None
        if not isinstance(given, str):
            self.note(where, _("portrait: expected a file name, got {given}").format(
                given=shown(given)))
            return None
        try:
            return beside(self.folder, given, where)
        except InvalidFile as exc:
            self.mistakes.append(str(exc))
            return None


def track_name(name: str) -> str | None:
    """`hp`, `fate-points`: a track's name as the party keeps it, else None."""
    return name if NAME.match(name) else None


def track_names() -> str:
    """What a track's name may be, in the reader's words."""
    return _("lowercase letters, digits and dashes, starting with a letter, at most "
             "{most} characters").format(most=MAX_NAME)


def character(fields: Fields, where: str, name, ident, bonus, ap, grit,
              tracks: Mapping[str, tuple[object, object]], portrait) -> Sheet | None:
    """One character from its raw fields (text or JSON values), or None with
    its mistakes noted."""
    before = len(fields.mistakes)
    name = fields.text(where, "name", name, MAX_NAME_TEXT)
    if name == "":
        fields.note(where, _("the name is empty: every character has one"))
    ident_text = fields.text(where, "id", ident, MAX_ID) if ident not in (None, "") else None
    if ident_text is not None and not SLUG.match(ident_text):
        fields.note(where, _("id {id}: expected lowercase letters, digits and dashes").format(
            id=shown(ident_text)))
    if ident in (None, "") and name and not slugify(name):
        fields.note(where, _("no id can be made from the name; give one"))
    if name:
        fields.named.append((where, name, ident_text or slugify(name)))
    numbers = (fields.number(where, "bonus", bonus, default=0),
               fields.number(where, "ap", ap, 0, default=3),
               fields.number(where, "grit", grit, 0, default=0))
    if len(tracks) > MAX_TRACKS:
        fields.note(where, _("{n} tracks: a character has at most {most}").format(
            n=len(tracks), most=MAX_TRACKS))
    kept = {n: fields.track(where, n, v, m) for n, (v, m) in tracks.items() if v not in (None, "")}
    for n, (v, m) in tracks.items():
        if v in (None, "") and m not in (None, ""):
            fields.note(where, _("track {name} has a maximum but no value").format(name=repr(n)))
    picture = fields.portrait(where, portrait)
    if len(fields.mistakes) > before or not name:
        return None
    bonus_n, ap_n, grit_n = numbers
    return Sheet(name, ident_text, bonus_n or 0, 3 if ap_n is None else ap_n, grit_n or 0,
                 {n: t for n, t in kept.items() if t is not None}, picture, where)


KINDS = {"row": (N_("row {n}"), N_("row {n} ({name})")),
         "actor": (N_("actor {n}"), N_("actor {n} ({name})"))}


def label(kind: str, index: int, name) -> str:
    """`row 3 (Rook)`: a character (a `row` or an `actor`) as a person finds
    it in the file."""
    alone, named = KINDS[kind]
    if isinstance(name, str) and name.strip():
        return _(named).format(n=index, name=neutral(name.strip()[:40]))
    return _(alone).format(n=index)


def shown(value) -> str:
    from projections.domain.loading import shown as said
    return neutral(said(value))


def distinct(fields: Fields) -> None:
    """No two characters of a file share a name or an id (case-blind, as
    ids are matched), whatever else is wrong with them."""
    names: dict[str, str] = {}
    ids: dict[str, str] = {}
    for where, name, ident in fields.named:
        key = name.casefold()
        if key in names:
            fields.note(where, _("the name {name} is already used by {other}").format(
                name=repr(name), other=names[key]))
        elif ident in ids:
            fields.note(where, _("id {id} is already used by {other}").format(
                id=repr(ident), other=ids[ident]))
        names.setdefault(key, where)
        ids.setdefault(ident, where)
