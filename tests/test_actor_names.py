"""A token name or `--actor` that reads as another name
(`ɡm` with U+0261, `gm` with a braille blank, a Hangul filler that reads as
nobody) is refused in one line, on a real store, and nothing is written."""
from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

from eventlog.errors import Refusal
from eventlog.names import INVISIBLE, name_problem, skeleton
from eventlog.text import check_actor
from helpers import one_error_line, real

CONFUSABLE = {
    "script g (U+0261)": "\u0261m",
    "braille blank (U+2800)": "gm\u2800",
    "hangul filler (U+3164)": "\u3164",
    "zero-width space": "gm\u200b",
    "fullwidth": "\uff47\uff4d",
    "cyrillic em": "g\u043c",
    "upper case": "GM",
    "cyrillic look-alikes": "\u0440\u043c",
    "variation selector": "gm\ufe0f",
    "decomposed accent": "Zoe\u0308",
}


@pytest.fixture
def db(tmp_path):
    db = tmp_path / "ledger.db"
    assert real(db, "new", "alley").returncode == 0
    assert real(db, "add", "Rook", "--pc").returncode == 0
    return db


@pytest.mark.parametrize("name", CONFUSABLE.values(), ids=CONFUSABLE.keys())
def test_a_confusable_token_name_is_refused_and_nothing_kept(db, name):
    err = one_error_line(real(db, "token", "add", name, "--player", "--owns", "rook"))
    assert "is not a valid actor" in err
    assert real(db, "token", "list").stdout.startswith("no tokens")


@pytest.mark.parametrize("name", CONFUSABLE.values(), ids=CONFUSABLE.keys())
def test_r29_a_confusable_actor_is_refused_and_nothing_appended(db, name):
    before = real(db, "log", "--json").stdout
    err = one_error_line(real(db, "--actor", name, "note", "forged"))
    assert "is not a valid actor" in err and "(R29)" in err
    assert real(db, "log", "--json").stdout == before


def test_a_token_name_that_reads_as_another_tokens_is_refused(db):
    assert real(db, "token", "add", "ana", "--player", "--owns", "rook").returncode == 0
    err = one_error_line(real(db, "token", "add", "Ana", "--view"))
    assert "reads as the token 'ana'" in err
    assert [line.split("\t")[0] for line in real(db, "token", "list").stdout.splitlines()] == ["ana"]


@pytest.mark.parametrize("name", ["gm", "ana", "Zo\u00eb", "\u0410\u043d\u044f", "\u0395\u03bb\u03ad\u03bd\u03b7",
                                  "\u5c71\u7530", "\u00c9lodie", "O'Brien", "Nguy\u1ec5n", "ana-2"])
def test_names_people_have_are_kept(db, name):
    role = ["--gm"] if name == "gm" else ["--view"]
    assert real(db, "token", "add", name, *role).returncode == 0
    assert real(db, "--actor", name, "note", "hi").returncode == 0


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=12))
def test_r29_an_accepted_actor_reads_as_itself(name):
    try:
        check_actor(name)
    except Refusal:
        return
    assert unicodedata.normalize("NFKC", name) == name
    assert not any(c in INVISIBLE or unicodedata.category(c) in ("Cf", "Cn", "Co", "Zl", "Zp")
                   for c in name)
    assert name == "gm" or skeleton(name).casefold() != "gm"
    assert name_problem(name) is None
