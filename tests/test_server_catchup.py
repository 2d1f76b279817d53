"""A stream resuming from `Last-Event-ID` is caught up a
page at a time as the client reads (cli/server/catchup.py), not from a
backlog built whole: many streams resuming from 0 by as many tokens and
reading slowly leave the server's memory flat and a legitimate request
answered within a second; a catch-up over many pages still sends every
batch once, in order, with the status after it; the limits of long reads
hold, and a HEAD never keeps a place. Every loop is bounded in count and
time; every address is 127.0.0.1."""
from __future__ import annotations

import json
import socket
import time

import httpx
import pytest
from httpx_sse import connect_sse

from cli.server.bounded import PER_SERVER, PER_TOKEN
from cli.server.catchup import PAGE_BATCHES, PAGE_SPAN
from eventlog.events import NoteAdded
from eventlog.stores import open_store
from helpers import fresh_db
from projections.domain import commands as c
from projections.ledger import Ledger
from projections.reports.views import status as status_view
from serverkit import E, client, messages, served, serving, table, token
from test_server_reads import rss_kib

STREAM = f"/api/encounters/{E}/stream"
BATCHES, STREAMS = 3000, 24
LONG = 2000  # events of a log whose full fold a catch-up should not repeat


def _long_table(db, batches: int) -> None:
    table(db)
    store = open_store(db)
    store.append_batches(E, store.head(E)[0], [[NoteAdded(text=f"note {i}")]
                                               for i in range(batches)], "gm")
    store.close()


def _slow_stream(port: int, secret: str) -> socket.socket:
    """A stream resuming from 0 whose reader reads its status line, then
    nothing more (its window: 4 KiB)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.sendall(f"GET {STREAM} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                 f"{secret}\r\nLast-Event-ID: 0\r\n\r\n".encode())
    return sock


def test_slow_streams_resuming_from_zero_keep_memory_flat_and_the_table_answered(tmp_path):
    assert STREAMS < PER_SERVER  # (each its own token: none is refused)
    db = tmp_path / "ledger.db"
    _long_table(db, BATCHES)
    secrets = [token(db, f"tv{i}", "view") for i in range(STREAMS)]
    gm = token(db, "gm", "gm")
    with serving(db, with_pid=True) as (url, pid):
        port = int(url.rsplit(":", 1)[1])
        with httpx.Client(base_url=url, timeout=1.0,
                          headers={"Authorization": f"Bearer {gm}"}) as http:
            assert http.get(f"/api/encounters/{E}/status").status_code == 200
            before = rss_kib(pid)
            held = []
            try:
                for secret in secrets:
                    held.append(_slow_stream(port, secret))
                for sock in held:
                    assert sock.recv(64).startswith(b"HTTP/1.1 200 ")
                for _ in range(10):  # (timeout=1.0: each within a second)
                    start = time.monotonic()
                    assert http.get(f"/api/encounters/{E}/status").status_code == 200
                    assert time.monotonic() - start < 1.0
                time.sleep(0.5)  # (what a catch-up built whole would have built by now)
                grown = rss_kib(pid) - before
                assert grown < 32 * 1024, (before, grown)
            finally:
                for sock in held:
                    sock.close()


def _batch_ends(db) -> list[int]:
    ledger = Ledger(open_store(db))
    try:
        events = ledger.event_dicts(E)
    finally:
        ledger.store.close()
    return [e["seq"] for i, e in enumerate(events)
            if i + 1 == len(events) or events[i + 1]["batch"] != e["batch"]]


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_catch_up_of_many_pages_sends_every_batch_once_in_order(tmp_path, kind):
    db = fresh_db(kind, tmp_path, "ledger.db")
    _long_table(db, PAGE_BATCHES * 2)
    ledger = Ledger(open_store(db))
    ledger.execute(E, c.Add(name="Drone", count=3), "gm")  # one batch of three
    ledger.execute(E, c.Undo(), "gm")  # a correction mid-way: the fold reaches back (R26)
    ledger.store.append_batches(E, ledger.store.head(E)[0], [[  # one longer than a span
        NoteAdded(text=f"long {i}") for i in range(PAGE_SPAN + 5)]], "gm")
    ledger.store.append_batches(E, ledger.store.head(E)[0],
                                [[NoteAdded(text=f"later {i}")] for i in range(PAGE_BATCHES)],
                                "gm")
    ledger.store.close()
    gm = token(db, "gm", "gm")
    ends = _batch_ends(db)
    with served(db) as running, client(running, gm) as http:
        got = []
        with connect_sse(http, "GET", STREAM, headers={"Last-Event-ID": "0"},
                         timeout=httpx.Timeout(30)) as source:
            for message in messages(source):
                got.append((int(message.id), json.loads(message.data)))
                if int(message.id) >= ends[-1] or len(got) > len(ends):
                    break
    assert [seq for seq, _ in got] == ends
    ledger = Ledger(open_store(db))
    try:
        for seq, view in got[::7] + got[-PAGE_BATCHES - 3:]:
            assert view == status_view(ledger.state(E, at=seq)), seq
    finally:
        ledger.store.close()


def test_heads_and_excess_catch_ups_keep_the_limits_of_long_reads(tmp_path):
    db = tmp_path / "ledger.db"
    _long_table(db, 10)
    view = token(db, "tv", "view")
    with served(db) as running, client(running, view) as http:
        for _ in range(PER_TOKEN + 2):  # a HEAD never reads the body: no place kept
            head = http.head(STREAM, headers={"Last-Event-ID": "0"})
            assert head.status_code == 200
        got = []
        with connect_sse(http, "GET", STREAM, headers={"Last-Event-ID": "0"},
                         timeout=httpx.Timeout(10)) as source:
            for message in messages(source):
                got.append(int(message.id))
                break
        assert got == [1]


class _Counted:
    """A store whose folds count the rows they read."""

    def __init__(self, store):
        self._store, self.read = store, 0

    def __getattr__(self, name):
        return getattr(self._store, name)

    def _counted(self, rows):
        for row in rows:
            self.read += 1
            yield row

    def fold_data(self, *args, **kwargs):
        return self._counted(self._store.fold_data(*args, **kwargs))

    def fold_batched(self, *args, **kwargs):
        return self._counted(self._store.fold_batched(*args, **kwargs))


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
def test_a_catch_up_across_a_correction_folds_what_the_correction_touches(tmp_path, kind):
    """R26-R28: an undo, a retraction or an amendment in a catch-up costs
    the batches it reaches back over, not a fold of the whole log; every
    status sent is still the one `status --at` gives."""
    from cli.server.catchup import CatchUp, next_page
    from eventlog.events import GritAdjusted
    from helpers import make_store
    store = _Counted(make_store(kind, tmp_path))
    ledger = Ledger(store)
    ledger.execute(None, c.New(id=E))
    ledger.execute(E, c.Add(name="Rook", pc=True))
    store.append_batches(E, store.head(E)[0], [[GritAdjusted(combatant="rook", delta=1)]
                                               for _ in range(LONG)], "gm")
    seen = store.head(E)[0]  # where the client left
    ledger.execute(E, c.Grit(id="rook", delta=2))
    ledger.execute(E, c.Undo())  # the grit just given
    ledger.execute(E, c.Grit(id="rook", delta=-1, reason="spent"))
    ledger.execute(E, c.Retract(seq=seen - 1))  # a grit of the long past: a full fold
    ledger.execute(E, c.Grit(id="rook", delta=1))
    ledger.execute(E, c.Undo())
    ledger.execute(E, c.Redo())
    head = store.head(E)[0]
    cu = CatchUp(E, seen, frozenset())
    sent, reads = [], []
    while not cu.done:
        store.read = 0
        for msg in next_page(ledger, cu):
            sent.append(msg)
        reads.append(store.read)
    assert [m.seq for m in sent] == list(range(seen + 1, head + 1))
    for m in sent:
        assert json.loads(m.data) == status_view(ledger.state(E, at=m.seq)), m.seq
    # the first status folds the log once; the retraction of the long past
    # refolds it once more; the undo and the redo fold a few batches each
    assert sum(reads) < 2 * LONG + 50, reads
