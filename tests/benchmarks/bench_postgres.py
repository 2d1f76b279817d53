"""The PostgreSQL store's figures, beside their floors (run.py prints them
after SQLite's, in the same run):

  append_<n>_ms      one batch of n events (1, 5, 100) appended by the store
                     (head row locked, seq checked, head moved, NOTIFY), beside
                     floor: a raw psycopg BEGIN, insert of the same rows and
                     bytes into a bare table, COMMIT (goal: <= 1.3x)
  fold_eps           the full fold of an encounter, beside floor: the same
                     rows read with psycopg and decoded by msgspec (>= 0.5x)
  writers_8          8 processes appending to 8 encounters at once: batches
                     per second in all, beside one writer alone; conflicts (0)
  changes            how servers learn of appends (eventlog/stores/postgres/
                     changes.py), each way in turn on the same machine: the
                     8 writers' batches per second with the marks polled
                     (the default) and with NOTIFY, and the wait from an
                     append's commit to a waiting server waking (p50, p99)

The server: $COMBAT_TEST_PG_DSN, else a private throwaway cluster
(tests/pgserver.py); without either, run.py prints one line and goes on.
"""
from __future__ import annotations

import multiprocessing
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from eventlog.codec import encode_data, event_hash, utc_now  # noqa: E402
from eventlog.events import EncounterCreated, NoteAdded  # noqa: E402

WRITERS = 8


def _notes(n: int, tag: str) -> list[NoteAdded]:
    return [NoteAdded(text=f"{tag} note {i} of a batch") for i in range(n)]


def _floor_rows(encounter: str, start: int, payloads) -> list[tuple]:
    """The rows the store would insert for `payloads`: the same bytes, hashed."""
    at, prev, rows = utc_now(), "0" * 64, []
    for i, p in enumerate(payloads):
        seq = start + i
        digest = event_hash(seq, start, "NoteAdded", at, "gm", p, prev)
        rows.append((encounter, seq, start, "NoteAdded", at, "gm", encode_data(p), prev,
                     digest, 1))
        prev = digest
    return rows


def append_figures(store, raw, repeat: int) -> dict:
    # The floor's table in a schema of its own: the store's schema holds only
    # what the program makes (a store with a stranger's table is not opened).
    floor_schema = raw.execute("SELECT current_schema()").fetchone()[0] + "_floor"
    raw.execute(f'CREATE SCHEMA "{floor_schema}"')
    raw.execute(f'CREATE TABLE "{floor_schema}".floor_events (encounter text, seq bigint, '
                "batch bigint, type text, at text, actor text, data bytea, prev_hash text, "
                "hash text, version integer, PRIMARY KEY (encounter, seq))")
    out = {}
    for n in (1, 5, 100):
        eid = f"append-{n}"
        store.create(eid, EncounterCreated(encounter=eid, title="append"), "gm")
        head, floor_seq = 1, 1
        ours, floor = [], []
        for k in range(repeat):  # interleaved, so both see the same machine
            payloads = _notes(n, f"{k}")
            t = time.perf_counter()
            store.append(eid, head, payloads, "gm")
            ours.append(time.perf_counter() - t)
            head += n
            rows = _floor_rows(eid, floor_seq + 1, payloads)
            t = time.perf_counter()
            with raw.transaction():
                raw.cursor().executemany(
                    f'INSERT INTO "{floor_schema}".floor_events '
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    rows)
            floor.append(time.perf_counter() - t)
            floor_seq += n
        o, f = statistics.median(ours) * 1000, statistics.median(floor) * 1000
        out[f"append_{n}_ms"] = {"ms": round(o, 2), "floor_ms": round(f, 2),
                                 "ratio": round(o / f, 2)}
    return out


def fold_figures(store, raw, events: int, repeat: int) -> dict:
    import msgspec

    from generate import build
    from projections.history import fold
    from projections.ledger import Ledger
    from projections.domain.state import State
    eid = f"fold-{events}"
    count = build(store, eid, events)
    ledger = Ledger(store)
    decoder = msgspec.json.Decoder()

    def floor() -> float:
        t = time.perf_counter()
        counts: dict = {}
        cur = raw.cursor(binary=True)
        for type_name, data in cur.execute(
                "SELECT type, data FROM events WHERE encounter = %s ORDER BY seq", (eid,)):
            decoder.decode(data)
            counts[type_name] = counts.get(type_name, 0) + 1
        return time.perf_counter() - t

    def ours() -> float:
        t = time.perf_counter()
        fold(store, eid, ledger.corrections(eid), State(eid))
        return time.perf_counter() - t
    mine, base = [], []
    for _ in range(repeat):
        base.append(floor())
        mine.append(ours())
    o, f = count / statistics.median(mine), count / statistics.median(base)
    return {"events": count, "fold_eps": round(o), "floor_eps": round(f),
            "ratio": round(o / f, 2)}


def _writer(url: str, encounter: str, batches: int, ready, go, out, mode: str = "poll") -> None:
    import os

    from eventlog.errors import Conflict
    from eventlog.stores.postgres import PostgresStore
    os.environ["COMBAT_PG_CHANGES"] = mode
    store = PostgresStore(url)
    head = store.head(encounter)[0]
    conflicts = 0
    ready.put(1)
    go.wait()
    t = time.perf_counter()
    for k in range(batches):
        try:
            store.append(encounter, head, _notes(1, f"{encounter}.{k}"), "gm")
            head += 1
        except Conflict:
            conflicts += 1
            head = store.head(encounter)[0]
    out.put((time.perf_counter() - t, conflicts))
    store.close()


def _written(store, url: str, writers: int, batches: int, tag: str, mode: str = "poll") -> dict:
    """`writers` processes appending `batches` one-event batches each, at once."""
    ctx = multiprocessing.get_context("spawn")
    ids = [f"w{tag}-{i}" for i in range(writers)]
    for eid in ids:
        store.create(eid, EncounterCreated(encounter=eid, title="writer"), "gm")
    ready, go, out = ctx.Queue(), ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=_writer, args=(url, eid, batches, ready, go, out, mode))
             for eid in ids]
    for p in procs:
        p.start()
    for _ in procs:
        ready.get(timeout=300)  # every writer started, connected and waiting
    t = time.perf_counter()
    go.set()
    done = [out.get(timeout=300) for _ in procs]
    elapsed = time.perf_counter() - t
    for p in procs:
        p.join(60)
    return {"batches_per_s": round(writers * batches / elapsed),
            "conflicts": sum(c for _, c in done)}


def _wakes(url: str, mode: str, count: int) -> list[float]:
    """Seconds from an append's commit to a waiting store's wait_changes
    returning with it, `count` times (another store appends, 20 ms apart)."""
    import os
    import threading

    from eventlog.stores.postgres import PostgresStore
    os.environ["COMBAT_PG_CHANGES"] = mode
    try:
        waiter, writer = PostgresStore(url), PostgresStore(url)
    finally:
        os.environ.pop("COMBAT_PG_CHANGES", None)
    eid = f"wake-{mode}-{time.time_ns()}"
    writer.create(eid, EncounterCreated(encounter=eid, title="wake"), "gm")
    waiter.wait_changes(0.01)
    woke: list[float] = []
    stop = threading.Event()

    def wait() -> None:
        while not stop.is_set():
            if eid in (waiter.wait_changes(1) or ()):
                woke.append(time.perf_counter())
    thread = threading.Thread(target=wait)
    thread.start()
    time.sleep(0.2)
    sent, head = [], writer.head(eid)[0]
    for k in range(count):
        writer.append(eid, head, _notes(1, f"wake {k}"), "gm")
        sent.append(time.perf_counter())
        head += 1
        deadline = time.monotonic() + 5
        while len(woke) <= k and time.monotonic() < deadline:
            time.sleep(0.001)
        time.sleep(0.02)
    stop.set()
    thread.join(5)
    waiter.close()
    writer.close()
    return [max(0.0, w - s) for s, w in zip(sent, woke)]  # (a wake may beat the append's return)


def changes_figures(store, url: str, batches: int, wakes: int, rounds: int = 2) -> dict:
    """Polled marks against NOTIFY, in turns (each sees the same machine)."""
    out = {}
    for mode in ("poll", "notify"):
        out[mode] = {"bps": [], "wakes": []}
    for r in range(rounds):
        for mode in ("poll", "notify"):
            out[mode]["bps"].append(
                _written(store, url, WRITERS, batches, f"{mode}{r}", mode)["batches_per_s"])
            out[mode]["wakes"] += _wakes(url, mode, wakes)
    figures = {}
    for mode, got in out.items():
        w = sorted(got["wakes"])
        figures[mode] = {"writers_bps": round(statistics.median(got["bps"])),
                         "wake_p50_ms": round(statistics.median(w) * 1000, 1),
                         "wake_p99_ms": round(w[min(len(w) - 1, int(len(w) * 0.99))] * 1000, 1)}
    figures["poll_over_notify"] = round(figures["poll"]["writers_bps"] /
                                        figures["notify"]["writers_bps"], 2)
    return figures


def writers_figures(store, url: str, batches: int) -> dict:
    result = {}
    for writers in (1, WRITERS):
        result[writers] = _written(store, url, writers, batches, str(writers))
    return {"writers_1_bps": result[1]["batches_per_s"],
            f"writers_{WRITERS}_bps": result[WRITERS]["batches_per_s"],
            "conflicts": result[1]["conflicts"] + result[WRITERS]["conflicts"]}


def measure(quick: bool) -> dict | str:
    """The figures, or the one line saying why there are none."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    from pgserver import Server
    server = Server()
    if server.url is None:
        return server.why
    try:
        url = server.fresh_url(f"bench_{int(time.time())}")
        from eventlog.stores.postgres import PostgresStore
        store = PostgresStore(url)
        with psycopg.connect(url, autocommit=True) as raw:
            results = append_figures(store, raw, 21 if quick else 51)
            results["fold"] = fold_figures(store, raw, 20_000 if quick else 100_000,
                                           3 if quick else 5)
        results["writers"] = writers_figures(store, url, 50 if quick else 300)
        results["changes"] = changes_figures(store, url, 50 if quick else 300,
                                             20 if quick else 100, 1 if quick else 3)
        store.close()
        return results
    finally:
        server.close()


def show(results: dict | str) -> None:
    if isinstance(results, str):
        print(f"\nPostgreSQL: skipped ({results})")
        return
    print("\nPostgreSQL store")
    for n in (1, 5, 100):
        r = results[f"append_{n}_ms"]
        print(f"append batch of {n:>3}: {r['ms']:>7} ms  floor {r['floor_ms']:>7} ms  "
              f"ratio {r['ratio']:>5}  ({'met ' if r['ratio'] <= 1.3 else 'MISS'} <= 1.3x)")
    f = results["fold"]
    print(f"fold of {f['events']} events: {f['fold_eps']} eps  floor {f['floor_eps']} eps  "
          f"ratio {f['ratio']}  ({'met ' if f['ratio'] >= 0.5 else 'MISS'} >= 0.5x)")
    w = results["writers"]
    print(f"writers: 1 alone {w['writers_1_bps']} batches/s, {WRITERS} on {WRITERS} "
          f"encounters {w[f'writers_{WRITERS}_bps']} batches/s, conflicts {w['conflicts']}")
    c = results["changes"]
    for mode in ("poll", "notify"):
        m = c[mode]
        print(f"changes by {mode:<6}: {WRITERS} writers {m['writers_bps']:>6} batches/s, "
              f"a waiting server wakes {m['wake_p50_ms']:>6} ms p50, {m['wake_p99_ms']:>6} ms p99")
    print(f"polled marks / NOTIFY, {WRITERS} writers' batches per second: {c['poll_over_notify']}")
