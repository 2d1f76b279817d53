"""What a GM's own files are told in German: a roster's, a character
sheet's, an import's and a portrait's mistakes, each a whole German
sentence with the file's own names, keys and numbers in it."""
from __future__ import annotations

from pathlib import Path

import pytest

from eventlog.errors import InvalidFile
from eventlog.language import speaking
from projections.inputs import roster, sheetfiles, transfer


def said(read, *args) -> str:
    with speaking("de"), pytest.raises(InvalidFile) as refused:
        read(*args)
    return str(refused.value)


def test_a_rosters_mistakes_in_german(tmp_path: Path):
    path = tmp_path / "crew.toml"
    path.write_text('[[combatant]]\nname = "Rook"\nbonus = "drei"\nzauber = 1\n', encoding="utf-8")
    text = said(roster.read, path)
    assert text.startswith("crew.toml: Kämpfer 1 (Rook): ")
    assert "Schlüssel 'bonus': erwartet wird eine ganze Zahl, gegeben ist" in text
    assert "unbekannter Schlüssel 'zauber'" in text
    assert said(roster.read, tmp_path / "crew.txt") == (
        "crew.txt: eine Aufstellung ist .toml, .yaml, .yml oder .json, nicht .txt")


def test_a_sheets_mistakes_in_german_each_on_its_line(tmp_path: Path):
    path = tmp_path / "party.csv"
    path.write_text("name,bonus,track:hp,max:hp\nRook,x,5,3\nVex,2,1,4\n", encoding="utf-8")
    with speaking("de"), pytest.raises(InvalidFile) as refused:
        sheetfiles.read(path)
    lines = refused.value.lines
    assert lines[0] == "party.csv: 2 Fehler; nichts aus der Datei wurde importiert"
    assert lines[1] == "  Zeile 2 (Rook): bonus: erwartet wird eine ganze Zahl, gegeben ist \"x\""
    assert lines[2] == "  Zeile 2 (Rook): Leiste 'hp' ist 5, über seinem Maximum 3"


def test_a_huge_number_is_in_the_german_form(tmp_path: Path):
    path = tmp_path / "party.csv"
    path.write_text("name,bonus\nRook,2000000000\n", encoding="utf-8")
    with speaking("de"), pytest.raises(InvalidFile) as refused:
        sheetfiles.read(path)
    assert refused.value.lines[1] == (
        "  Zeile 2 (Rook): bonus ist 2.000.000.000: erlaubt ist -1.000.000.000 bis 1.000.000.000")


def test_an_import_that_is_not_an_export_in_german(tmp_path: Path):
    path = tmp_path / "log.json"
    path.write_text('{"format": "other", "version": 1, "events": []}', encoding="utf-8")
    with speaking("de"), pytest.raises(InvalidFile) as refused, transfer.open_export(path) as doc:
        list(doc.envelopes())
    assert str(refused.value).endswith("log.json ist kein Export von combat-ledger (Format 'other')")


def test_english_is_unchanged(tmp_path: Path):
    path = tmp_path / "party.csv"
    path.write_text("name,bonus,track:hp,max:hp\nRook,x,5,3\nVex,2,1,4\n", encoding="utf-8")
    with pytest.raises(InvalidFile) as refused:
        sheetfiles.read(path)
    assert refused.value.lines[0] == "party.csv: 2 mistakes; nothing of the file was imported"
    assert refused.value.lines[2] == "  row 2 (Rook): track 'hp' is 5, above its maximum 3"
