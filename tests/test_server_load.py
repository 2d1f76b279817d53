"""A bounded load on one table server, loopback only: 10 tables of 6
players declaring at once while 100 listeners follow the streams. Every
acknowledged declaration is stored once; every listener ends with the
final status of its table."""
from __future__ import annotations

import json
import threading

import httpx
import pytest
from httpx_sse import connect_sse

from eventlog.stores import open_store
from projections.domain import commands as c
from projections.ledger import Ledger
from serverkit import client, messages, post, served, token

pytestmark = pytest.mark.sqlite
TABLES, PLAYERS, EACH, LISTENERS = 10, 6, 5, 100


def tables(db):
    ledger = Ledger(open_store(db))
    for t in range(TABLES):
        ledger.execute(None, c.New(id=f"t{t}"), "gm")
        ledger.execute(f"t{t}", c.Load(combatant=[
            c.RosterCombatant(name=f"P{p}", side="pc") for p in range(PLAYERS)]), "gm")
    ledger.store.close()


def test_ten_tables_of_six_players_and_a_hundred_listeners(tmp_path):
    db = tmp_path / "load.db"
    tables(db)
    start = 2  # created, then one batch of six joins: head seq 7
    final = {f"t{t}": 1 + PLAYERS + PLAYERS * EACH for t in range(TABLES)}
    views = {t: token(db, f"tv{t}", "view", encounter=f"t{t}")  # (one encounter each)
             for t in range(TABLES)}
    players = {(t, p): token(db, f"t{t}-p{p}", "player", f"p{p}", encounter=f"t{t}")
               for t in range(TABLES) for p in range(PLAYERS)}
    acknowledged: list[tuple[str, str]] = []
    heard: dict[int, list] = {}
    with served(db) as running:
        ready = threading.Barrier(LISTENERS + 1, timeout=60)

        def listen(n: int) -> None:
            table = f"t{n % TABLES}"
            got = heard.setdefault(n, [])
            with client(running, views[n % TABLES]) as http, connect_sse(
                    http, "GET", f"/api/encounters/{table}/stream",
                    timeout=httpx.Timeout(60)) as source:
                for message in messages(source):
                    got.append((int(message.id), message.data))
                    if len(got) == 1:
                        ready.wait()
                    if int(message.id) >= final[table]:
                        return

        def declare(t: int, p: int) -> None:
            with client(running, players[(t, p)]) as http:
                for i in range(EACH):
                    label = f"t{t}-p{p}-{i}"
                    answer = post(http, {"command": "act", "id": f"p{p}", "cost": "free",
                                         "label": label}, f"t{t}")
                    if answer.status_code == 200:
                        acknowledged.append((f"t{t}", label))
        listeners = [threading.Thread(target=listen, args=(n,)) for n in range(LISTENERS)]
        for thread in listeners:
            thread.start()
        ready.wait()
        writers = [threading.Thread(target=declare, args=(t, p))
                   for t in range(TABLES) for p in range(PLAYERS)]
        for thread in writers:
            thread.start()
        for thread in writers + listeners:
            thread.join(120)
        statuses = {}
        for t in range(TABLES):
            with client(running, views[t]) as http:
                statuses[f"t{t}"] = http.get(f"/api/encounters/t{t}/status").json()
    assert len(acknowledged) == TABLES * PLAYERS * EACH
    ledger = Ledger(open_store(db))
    for table in final:
        stored = [e["data"]["label"] for e in ledger.event_dicts(table)
                  if e["type"] == "FreeActionTaken"]
        assert sorted(stored) == sorted(label for t, label in acknowledged if t == table)
        assert statuses[table]["seq"] == final[table]
    ledger.store.close()
    assert len(heard) == LISTENERS
    for n, got in heard.items():
        table = f"t{n % TABLES}"
        seqs = [seq for seq, _ in got]
        assert seqs == list(range(seqs[0], final[table] + 1))  # each batch once, in order
        assert seqs[0] >= start
        assert json.loads(got[-1][1]) == statuses[table]
