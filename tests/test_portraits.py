"""Portraits (docs/characters.md, "Portraits"): only PNG, JPEG and WebP images,
decoded whole, bounded in bytes and pixels, read from the sheet's own folder
and never fetched."""
from __future__ import annotations

import os

import pytest

from eventlog.errors import InvalidFile
from projections.inputs.portraits import MAX_BYTES, MAX_SIDE, beside, checked

from pictures import bomb_png, garbage_png, image, noise_png, truncated


@pytest.mark.parametrize(("kind", "media"), [("PNG", "image/png"), ("JPEG", "image/jpeg"),
                                             ("WEBP", "image/webp")])
def test_portrait_of_each_kind_is_read_with_its_type(kind, media):
    picture = checked(image(kind, (40, 30)), "rook.img")
    assert (picture.media, picture.width, picture.height) == (media, 40, 30)


@pytest.mark.parametrize(("data", "said"), [
    (b"", "rook.png is empty"),
    (b"GIF89a" + bytes(64), "rook.png is not a PNG, JPEG or WebP image"),
    (b"<svg xmlns='http://www.w3.org/2000/svg'/>", "rook.png is not a PNG, JPEG or WebP"),
    (garbage_png(), "rook.png is not a PNG, JPEG or WebP image"),
    (truncated("PNG"), "rook.png is damaged: it does not decode"),
    (truncated("JPEG"), "rook.png is damaged: it does not decode"),
])
def test_portrait_that_is_no_image_is_refused_by_name(data, said):
    with pytest.raises(InvalidFile, match="^" + said):
        checked(data, "rook.png")


def test_portrait_over_the_byte_limit_is_refused():
    data = noise_png(900)
    assert len(data) > MAX_BYTES
    with pytest.raises(InvalidFile, match="larger than 2 MiB, the most a portrait may hold"):
        checked(data, "rook.png")


def test_portrait_over_the_pixel_limit_is_refused_before_decoding():
    data = bomb_png(MAX_SIDE * 2)  # under Pillow's own bomb limit: ours speaks
    assert len(data) < MAX_BYTES
    with pytest.raises(InvalidFile, match="8192 x 8192 pixels: a portrait is at most 4096"):
        checked(data, "rook.png")


def test_portrait_decompression_bomb_is_refused():
    with pytest.raises(InvalidFile, match="rook.png is a decompression bomb"):
        checked(bomb_png(20_000), "rook.png")


# -- where a sheet's image may be --------------------------------------------

def test_portrait_beside_the_sheet_is_read(tmp_path):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "rook.webp").write_bytes(image("WEBP"))
    assert beside(tmp_path, "art/rook.webp", "row 2 (Rook)").media == "image/webp"
    assert beside(tmp_path, "art\\rook.webp", "row 2 (Rook)").media == "image/webp"


def test_portrait_foundry_stand_in_is_no_portrait(tmp_path):
    assert beside(tmp_path, "icons/svg/mystery-man.svg", "actor 1 (Rook)") is None
    assert beside(tmp_path, "  ", "actor 1 (Rook)") is None


@pytest.mark.parametrize(("given", "said"), [
    ("../secret.png", "is outside the sheet's folder"),
    ("art/../../secret.png", "is outside the sheet's folder"),
    ("/etc/passwd", "is outside the sheet's folder"),
    ("C:\\Users\\gm\\rook.png", "is outside the sheet's folder"),
    ("https://example.com/rook.png", "is a web address: a portrait is read from a file"),
    ("file:///etc/passwd", "is a web address"),
    ("//evil.example/rook.png", "is outside the sheet's folder"),
    ("rook\x1b[2J.png", "the portrait's path holds a control character"),
    ("missing.png", "'missing.png' is not there next to the sheet"),
    ("art", "'art' is not a file"),
])
def test_portrait_path_out_of_bounds_is_refused(tmp_path, given, said):
    (tmp_path / "art").mkdir()
    (tmp_path.parent / "secret.png").write_bytes(image())
    with pytest.raises(InvalidFile, match=r"^row 2 \(Rook\): .*" + said.replace("(", r"\(")):
        beside(tmp_path, given, "row 2 (Rook)")


def test_portrait_symlink_leading_out_is_refused(tmp_path):
    sheets = tmp_path / "sheets"
    sheets.mkdir()
    (tmp_path / "elsewhere.png").write_bytes(image())
    os.symlink(tmp_path / "elsewhere.png", sheets / "rook.png")
    with pytest.raises(InvalidFile, match="leads outside the sheet's folder"):
        beside(sheets, "rook.png", "row 2 (Rook)")
    os.symlink(tmp_path, sheets / "up")
    with pytest.raises(InvalidFile, match="leads outside the sheet's folder"):
        beside(sheets, "up/elsewhere.png", "row 2 (Rook)")


def test_portrait_symlink_inside_the_folder_is_read(tmp_path):
    (tmp_path / "rook.png").write_bytes(image())
    os.symlink(tmp_path / "rook.png", tmp_path / "alias.png")
    assert beside(tmp_path, "alias.png", "row 2 (Rook)").media == "image/png"


def test_portrait_fifo_is_not_read(tmp_path):
    os.mkfifo(tmp_path / "pipe.png")
    with pytest.raises(InvalidFile, match="'pipe.png' is not a file"):
        beside(tmp_path, "pipe.png", "row 2 (Rook)")


def test_portrait_written_in_the_sheet_is_read(tmp_path):
    import base64
    address = "data:image/png;base64," + base64.b64encode(image()).decode()
    assert beside(tmp_path, address, "row 2 (Rook)").media == "image/png"
    with pytest.raises(InvalidFile, match="its base64 is not readable"):
        beside(tmp_path, "data:image/png;base64,%%%", "row 2 (Rook)")
    with pytest.raises(InvalidFile, match="is not a PNG, JPEG or WebP"):
        beside(tmp_path, "data:image/png;base64," + base64.b64encode(b"GIF89a").decode(),
               "row 2 (Rook)")
