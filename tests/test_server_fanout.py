"""A batch's stream message is encoded once per role view (the GM's, a
view's, a player's owning the same ids) and shared by every listener with
that view: the server's work per batch does not grow with its listeners."""
from __future__ import annotations

from cli.server.views import frame_for, message
from eventlog.stores.contract import Token
from projections.domain import commands as c
from projections.ledger import Ledger
from eventlog.stores import open_store


def token(name: str, role: str, owns: tuple[str, ...] = ()) -> Token:
    return Token(name, role, owns, "alley", "0" * 64, "2026-12-05T00:00:00Z")


def batch(hidden: bool = True):
    ledger = Ledger(open_store(":memory:"))
    ledger.execute(None, c.New(id="alley", title="Alley"), "gm")
    ledger.execute("alley", c.Add(name="Rook", pc=True, bonus=2), "gm")
    ledger.execute("alley", c.Add(name="Vex", pc=True, bonus=1), "gm")
    ledger.execute("alley", c.Add(name="Boss", pc=False, bonus=3, hidden=hidden), "gm")
    return message(ledger.state("alley"), frozenset({"rook", "vex"}), ledger)


def test_one_frame_per_role_view_shared_by_its_listeners():
    msg = batch()
    gm, view = frame_for(msg, token("gm", "gm")), frame_for(msg, token("tv", "view"))
    rook = frame_for(msg, token("ana", "player", ("rook",)))
    assert frame_for(msg, token("gm-2", "gm")) is gm
    assert frame_for(msg, token("tv-2", "view")) is view
    assert frame_for(msg, token("ben", "player", ("rook",))) is rook  # (the same PC's two phones)
    vex = frame_for(msg, token("cat", "player", ("vex",)))
    assert len({gm, view, rook, vex}) == 4
    assert len(msg.frames) == 4


def test_frames_are_what_each_reader_may_read():
    msg = batch()
    gm, view = frame_for(msg, token("gm", "gm")), frame_for(msg, token("tv", "view"))
    rook = frame_for(msg, token("ana", "player", ("rook",)))
    assert gm.startswith(f"id: {msg.seq}\r\nevent: status\r\ndata: {{".encode())
    assert gm.endswith(b"}\r\n\r\n") and b"boss" in gm
    assert view.startswith(f"id: {msg.players_seq}\r\n".encode()) and msg.players_seq < msg.seq
    assert b"boss" not in view and b"boss" not in rook and b'"mine"' not in view
    assert b'"mine":{"rook":' in rook and b'"vex":{"may"' not in rook
