"""The GM console's link that `combat serve --lan` prints (docs/guide.md,
"The evening in three commands"): the GM's token made when the store has
none, a fresh `gm-console` token otherwise (replacing the last start's), on
the terminal of whoever started the server only."""
from __future__ import annotations

import re
import subprocess

import httpx
import pytest

from helpers import STORES, make_store
from projections.access import console_token, digest, make
from serverkit import E, serve_lan, stop, table, token


@pytest.mark.parametrize("kind", STORES)
def test_console_token_is_the_gms_own_when_the_store_has_no_gm_token(kind, tmp_path):
    store = make_store(kind, tmp_path)
    try:
        secret, made = console_token(store)
        assert (made.name, made.role, made.encounter) == ("gm", "gm", None)
        assert store.token(digest(secret)).name == "gm"
    finally:
        store.close()


@pytest.mark.parametrize("kind", STORES)
def test_console_token_is_made_afresh_when_a_gm_token_exists(kind, tmp_path):
    store = make_store(kind, tmp_path)
    try:
        _, gm = make("gm", ["gm"], None, None)
        store.add_token(gm)
        first, made = console_token(store)
        assert (made.name, made.role) == ("gm-console", "gm")
        second, _ = console_token(store)
        assert store.token(digest(first)) is None  # the last start's link ends
        assert store.token(digest(second)).name == "gm-console"
        assert sorted(t.name for t in store.tokens()) == ["gm", "gm-console"]
    finally:
        store.close()


def test_console_token_refused_when_a_players_token_holds_its_name(tmp_path):
    store = make_store("sqlite", tmp_path)
    try:
        for name, role in (("gm", "gm"), ("GM-Console", "view")):
            _, kept = make(name, [role], None, "raid" if role == "view" else None)
            store.add_token(kept)
        with pytest.raises(Exception, match="'GM-Console' is taken by a view token"):
            console_token(store)
        assert sorted(t.name for t in store.tokens()) == ["GM-Console", "gm"]
    finally:
        store.close()


def _serve_lan(db) -> tuple[list[str], subprocess.Popen]:
    """The GM console's three lines (its link, a word, its QR's first line),
    or the whole output up to an error."""
    lines, server = serve_lan(db)
    return (lines[-3:] if len(lines) >= 3 and lines[-3].startswith("GM console:") else lines), server


def test_serve_lan_prints_a_gm_console_link_that_opens_the_gm_page(tmp_path):
    db = tmp_path / "table.db"
    table(db)
    lines, server = _serve_lan(db)
    try:
        console = re.fullmatch(r"GM console: (http://127\.0\.0\.1:\d+/)\?token=([\w-]{43})", lines[0])
        assert console, lines
        assert lines[1].startswith("(the GM token gm, made now and shown only here")
        assert set(lines[2].strip()) <= set("█▀▄ ") and lines[2].strip()  # its QR code
        base, secret = console.groups()
        me = httpx.get(base + "api/me", headers={"Authorization": f"Bearer {secret}"})
        assert (me.json()["name"], me.json()["role"]) == ("gm", "gm")
        assert '<section id="gm"' in httpx.get(base).text  # (the page holds the console)
    finally:
        stop(server)


def test_serve_lan_again_replaces_the_console_link_and_keeps_the_gms(tmp_path):
    db = tmp_path / "table.db"
    table(db)
    gm_secret = token(db, "gm", "gm")
    secrets = []
    for _ in range(2):
        lines, server = _serve_lan(db)
        try:
            secrets.append(re.search(r"\?token=([\w-]{43})", lines[0]).group(1))
            base = re.search(r"(http://\S+/)\?", lines[0]).group(1)
            heard = [httpx.get(base + "api/me", headers={"Authorization": f"Bearer {s}"})
                     for s in (gm_secret, *secrets)]
        finally:
            stop(server)
    assert [h.status_code for h in heard] == [200, 401, 200]  # the first console link ended
    assert heard[2].json()["name"] == "gm-console"


def test_serve_lan_refused_in_one_line_when_the_console_name_is_a_players(tmp_path):
    db = tmp_path / "table.db"
    table(db)
    token(db, "gm", "gm")
    token(db, "gm-console", "view", encounter=E)
    lines, server = _serve_lan(db)
    stop(server)
    assert lines[-1].startswith("error: the name 'gm-console' is taken by a view token"), lines
    assert not any("token=" in line for line in lines)
