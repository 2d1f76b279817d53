"""Characters from where they already are (docs/characters.md, "Importing
characters"): a spreadsheet's CSV and Foundry VTT's actor exports, read as
strictly as a roster: every mistake said, one line each, nothing imported
unless there is none."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from eventlog.errors import InvalidFile
from projections.inputs.sheetfiles import read
from projections.inputs.sheets import MAX_CHARACTERS, MAX_SHEET_BYTES, SheetMistakes

from pictures import bomb_png, garbage_png, image, noise_png

FIXTURES = Path(__file__).parent / "fixtures" / "sheets"
DND5E = ["bonus=system.abilities.dex.mod", "ap=system.resources.secondary.value",
         "grit=system.resources.primary.value", "track:hp=system.attributes.hp.value",
         "max:hp=system.attributes.hp.max"]


def sheet_file(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def mistakes(path: Path, maps=()) -> list[str]:
    with pytest.raises(SheetMistakes) as caught:
        read(path, maps)
    head, *lines = caught.value.lines
    assert head == (f"{path.name}: {len(lines)} mistake{'s' if len(lines) != 1 else ''}; "
                    "nothing of the file was imported")
    return [line.strip() for line in lines]


# -- good files -----------------------------------------------------------

def test_sheets_csv_fixture_reads_every_column():
    rook, vex, mara, tom = read(FIXTURES / "party.csv")
    assert (rook.name, rook.id, rook.bonus, rook.ap, rook.grit) == ("Rook", "rook", 5, 3, 1)
    assert rook.tracks == {"hp": (17, 24), "stun": (0, None)}
    assert rook.portrait.media == "image/png"
    assert (vex.id, vex.tracks, vex.portrait.media) == (None, {"hp": (20, None)}, "image/webp")
    assert (mara.bonus, mara.ap, mara.portrait.media) == (2, 4, "image/jpeg")
    assert tom.portrait is None and tom.tracks == {"hp": (9, None)}


def test_sheets_csv_of_a_european_spreadsheet_reads(tmp_path):
    text = "\ufeffName;AP;Track:HP\r\nRook;4;12\r\n;;\r\nVex;;7\r\n"
    rook, vex = read(sheet_file(tmp_path, "party.csv", text))
    assert (rook.name, rook.ap, rook.tracks) == ("Rook", 4, {"hp": (12, None)})
    assert (vex.ap, vex.bonus, vex.grit) == (3, 0, 0)  # empty cells: the defaults


def test_sheets_foundry_actor_reads_the_mapped_fields():
    (rook,) = read(FIXTURES / "foundry-rook.json", DND5E)
    assert (rook.name, rook.bonus, rook.ap, rook.grit) == ("Rook", 4, 3, 1)
    assert rook.tracks == {"hp": (17, 24)} and rook.portrait.media == "image/png"


def test_sheets_foundry_list_reads_old_exports_and_the_stand_in_image():
    vex, mara = read(FIXTURES / "foundry-crew.json", DND5E)
    assert (vex.bonus, vex.grit, vex.tracks) == (3, 2, {"hp": (20, 20)})
    assert (mara.bonus, mara.ap, mara.tracks) == (2, 4, {"hp": (12, 18)})  # `data.` of v9
    assert mara.portrait is None  # Foundry's mystery man is no portrait


def test_sheets_foundry_folder_export_and_no_map(tmp_path):
    shutil.copytree(FIXTURES / "portraits", tmp_path / "portraits")
    actors = json.loads((FIXTURES / "foundry-crew.json").read_text())
    path = sheet_file(tmp_path, "crew.json", json.dumps({"name": "Crew", "actors": actors}))
    vex, mara = read(path)
    assert (vex.name, vex.bonus, vex.ap, vex.grit, vex.tracks) == ("Vex", 0, 3, 0, {})


# -- hostile and mistaken files -----------------------------------------

def test_sheets_unknown_column_is_refused_by_name(tmp_path):
    path = sheet_file(tmp_path, "p.csv", "name,hp,Initiative\nRook,12,5\n")
    assert mistakes(path) == [
        "the header: unknown column 'hp' (expected one of: name, id, bonus, ap, grit, "
        "portrait, track:NAME, max:NAME); a track is a column track:hp",
        "the header: unknown column 'Initiative' (expected one of: name, id, bonus, ap, "
        "grit, portrait, track:NAME, max:NAME); a track is a column track:initiative"]


def test_sheets_header_mistakes_are_each_said(tmp_path):
    path = sheet_file(tmp_path, "p.csv", "id,ID,,max:hp,track:Hit Points\nrook,rook,,1,2\n")
    assert mistakes(path) == [
        "the header: column 'ID' is given twice", "the header: column 3 has no name",
        "the header: column 'track:Hit Points': a track's name is lowercase letters, digits "
        "and dashes, starting with a letter, at most 32 characters",
        "the header: no column 'name': every character has one",
        "the header: column 'max:hp' has no column 'track:hp' beside it for the value"]


def test_sheets_every_mistake_of_every_row_is_listed(tmp_path):
    text = ("name,id,bonus,ap,grit,track:hp,max:hp\n"
            "Rook,rook,five,3.5,-1,30,24\n"
            "Vex,Vex!,+2,3,1000000001,,5\n"
            "rook,,,,,,\n"
            "Mara,rook,,,,,\n"
            "Esc\x1b[2Jape,,,,,,\n"
            ",,1,,,,\n"
            "Tom,tom,1\n")
    assert mistakes(sheet_file(tmp_path, "p.csv", text)) == [
        "row 2 (Rook): bonus: expected a whole number, got \"five\"",
        "row 2 (Rook): ap: expected a whole number, got \"3.5\"",
        "row 2 (Rook): grit is -1: it runs from 0 to 1,000,000,000",
        "row 2 (Rook): track 'hp' is 30, above its maximum 24",
        "row 3 (Vex): id \"Vex!\": expected lowercase letters, digits and dashes",
        "row 3 (Vex): grit is 1,000,000,001: it runs from 0 to 1,000,000,000",
        "row 3 (Vex): track 'hp' has a maximum but no value",
        "row 6 (Esc\\x1b[2Jape): name holds a control character: names and ids are plain "
        "text on one line",
        "row 7: the name is empty: every character has one",
        "row 8 (Tom): 3 cells, but the header names 7 columns",
        "row 4 (rook): the name 'rook' is already used by row 2 (Rook)",
        "row 5 (Mara): id 'rook' is already used by row 2 (Rook)"]


def test_sheets_duplicate_name_is_refused(tmp_path):
    path = sheet_file(tmp_path, "p.csv", "name\nRook\nVex\nROOK\n")
    assert mistakes(path) == ["row 4 (ROOK): the name 'ROOK' is already used by row 2 (Rook)"]


def test_sheets_huge_numbers_and_text_are_refused(tmp_path):
    path = sheet_file(tmp_path, "p.csv", f"name,bonus\n{'x' * 65},{'9' * 5000}\n")
    assert mistakes(path) == ["row 2 (" + "x" * 40 + "): name is 65 characters long, at most 64",
                              "row 2 (" + "x" * 40 + "): bonus: expected a whole number, got \""
                              + "9" * 36 + "..."]


@pytest.mark.parametrize(("name", "data", "said"), [
    ("p.txt", b"name\nRook\n", "p.txt: characters are imported from a spreadsheet's .csv"),
    ("p.csv", b"", "p.csv is empty: its first row names the columns"),
    ("p.csv", b"name\n", "p.csv holds no character"),
    ("p.csv", b"name\n\xff\xfeRook\n", "p.csv is not UTF-8 text (byte 6)"),
    ("p.csv", b"name\nRo\0ok\n", "p.csv is not a text file"),
    ("p.json", b"{\"name\": \"Rook\", \"name\": \"Vex\"}", "p.json is not valid JSON: key "
                                                          "\"name\" is given twice"),
    ("p.json", b"[1, 2", "p.json is not valid JSON"),
    ("p.json", b"\"Rook\"", "p.json: expected a Foundry VTT actor or a list of them"),
    ("p.json", b"[" + b"[" * 100_000 + b"]" * 100_000 + b"]", "p.json is not valid JSON"),
])
def test_sheets_unreadable_file_is_refused_in_one_line(tmp_path, name, data, said):
    with pytest.raises(InvalidFile, match="^" + said.replace("(", r"\(").replace(")", r"\)")):
        read(sheet_file(tmp_path, name, data))


def test_sheets_too_many_characters_or_bytes_are_refused(tmp_path):
    many = "name\n" + "".join(f"c{i}\n" for i in range(MAX_CHARACTERS + 1))
    with pytest.raises(InvalidFile, match=f"more than {MAX_CHARACTERS} characters"):
        read(sheet_file(tmp_path, "p.csv", many))
    actors = json.dumps([{"name": f"c{i}"} for i in range(MAX_CHARACTERS + 1)])
    with pytest.raises(InvalidFile, match=f"holds {MAX_CHARACTERS + 1} actors"):
        read(sheet_file(tmp_path, "p.json", actors))
    big = sheet_file(tmp_path, "big.csv", "name\n" + "x" * MAX_SHEET_BYTES)
    with pytest.raises(InvalidFile, match="big.csv is larger than 8 MiB"):
        read(big)


def test_sheets_hostile_portraits_are_each_named(tmp_path):
    (tmp_path / "sheets").mkdir()
    folder = tmp_path / "sheets"
    (folder / "notes.png").write_text("not an image")
    (folder / "garbage.png").write_bytes(garbage_png())
    (folder / "huge.png").write_bytes(noise_png(900))
    (folder / "bomb.png").write_bytes(bomb_png(20_000))
    (tmp_path / "outside.png").write_bytes(image())
    os.symlink(tmp_path / "outside.png", folder / "link.png")
    text = ("name,portrait\nA,notes.png\nB,garbage.png\nC,huge.png\nD,bomb.png\n"
            "E,../outside.png\nF,link.png\nG,https://example.com/g.png\nH,missing.png\n")
    found = mistakes(sheet_file(folder, "p.csv", text))
    assert [line.split(": ", 1)[0] for line in found] == [f"row {n} ({c})"
                                                          for n, c in zip(range(2, 10), "ABCDEFGH")]
    for line, said in zip(found, ["is not a PNG, JPEG or WebP image",
                                  "is not a PNG, JPEG or WebP image",
                                  "is larger than 2 MiB", "is a decompression bomb",
                                  "is outside the sheet's folder",
                                  "leads outside the sheet's folder (a symbolic link)",
                                  "is a web address", "is not there next to the sheet"]):
        assert said in line


def test_sheets_map_mistakes_are_each_said(tmp_path):
    path = FIXTURES / "foundry-rook.json"
    assert mistakes(path, ["speed=system.attributes.movement.walk", "bonus",
                           "bonus=a..b", "ap=x", "ap=y", "max:ac=system.ac"]) == [
        "--map 'speed=system.attributes.movement.walk': unknown field 'speed' (expected one "
        "of: name, id, bonus, ap, grit, portrait, track:NAME, max:NAME)",
        "--map 'bonus': expected FIELD=KEY, e.g. bonus=system.abilities.dex.mod",
        "--map 'bonus=a..b': KEY is a dotted path of the actor's keys, e.g. "
        "system.attributes.hp.value",
        "--map 'ap=y': ap is mapped twice",
        "--map max:ac: max:ac needs track:ac for the value"]


def test_sheets_map_of_a_missing_or_wrong_field_names_the_actor():
    found = mistakes(FIXTURES / "foundry-crew.json",
                     ["bonus=system.attributes.init.bonus", "track:hp=system.attributes.hp",
                      "grit=system.resources.tertiary.value"])
    assert found == [
        "actor 1 (Vex): system.resources.tertiary.value is not in the actor "
        "(--map grit=system.resources.tertiary.value)",
        "actor 1 (Vex): track 'hp': expected a whole number, got a table",
        "actor 2 (Mara Quinn): system.attributes.init.bonus is not in the actor "
        "(--map bonus=system.attributes.init.bonus)",
        "actor 2 (Mara Quinn): system.resources.tertiary.value is not in the actor "
        "(--map grit=system.resources.tertiary.value)",
        "actor 2 (Mara Quinn): track 'hp': expected a whole number, got a table"]


def test_sheets_huge_json_number_is_said_in_a_few_words(tmp_path):
    path = sheet_file(tmp_path, "p.json", json.dumps({"name": "Rook", "g": 10**400}))
    assert mistakes(path, ["grit=g"]) == [
        "actor 1 (Rook): grit is a number of 401 digits: it runs from 0 to 1,000,000,000"]


def test_sheets_map_on_a_csv_is_refused(tmp_path):
    with pytest.raises(InvalidFile, match="--map names the fields of a Foundry VTT export"):
        read(FIXTURES / "party.csv", ["bonus=x"])


def test_sheets_portraits_are_kept_by_digest_once():
    from hashlib import sha256

    from eventlog.stores.memory import MemoryStore
    from projections.portraits import keep
    store = MemoryStore()
    sheets = read(FIXTURES / "party.csv")
    digests = keep(store, sheets)
    assert digests[3] is None and len(set(digests[:3])) == 3
    assert digests[0] == sha256((FIXTURES / "portraits" / "rook.png").read_bytes()).hexdigest()
    assert keep(store, sheets) == digests and len(store.portraits()) == 3
