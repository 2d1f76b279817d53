"""The table server's figures, on a real uvicorn over loopback:

  api_declare_ms / append_floor_ms   one declaration through the API (token
                 check, fold from the snapshot, judge, append, status, fan-out,
                 HTTP; sent by http.client, whose own cost is next to nothing)
                 beside a bare append of the same event to the same store;
                 core_execute_ms: Ledger.execute alone, in process;
                 bare_http_ms: a round trip to a Starlette endpoint that only
                 hops to a worker thread (what HTTP alone costs);
                 bare_core_ms: the same endpoint whose worker thread runs
                 the core's execute (the issue's floor: HTTP plus the core)
  sse_p99_ms     from sending a declaration to the last of 100 listeners
                 receiving its status (p50 and p99); sse_floor_p99_ms: the
                 same from poking a bare sse-starlette app (ssefloor.py) that
                 puts the same status payload on its 100 listeners' queues,
                 in alternate rounds; sse_p99_over_floor their ratio
  tables_dps     declarations per second, 10 tables declaring at once
"""
from __future__ import annotations

import asyncio
import statistics
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

LISTENERS = 100


def _setup(db: Path, tables: int, events: int) -> None:
    from eventlog.events import FreeActionTaken
    from eventlog.stores import open_store
    from projections.domain import commands as c
    from projections.ledger import Ledger
    ledger = Ledger(open_store(db))
    for t in range(tables):
        ledger.execute(None, c.New(id=f"t{t}"), "gm")
        ledger.execute(f"t{t}", c.Add(name="Rook", pc=True), "gm")
        head = ledger.store.head(f"t{t}")[0]
        ledger.store.append_batches(f"t{t}", head, [[FreeActionTaken(combatant="rook", label="x")]]
                                    * events, "gm")
        ledger.execute(f"t{t}", c.Note(text="snapshot"), "gm")
    ledger.store.close()


def _floor_ms(db: Path, repeat: int) -> float:
    from eventlog.events import FreeActionTaken
    from eventlog.stores import open_store
    store = open_store(db)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        head = store.head("t0")[0]
        store.append("t0", head, [FreeActionTaken(combatant="rook", label="floor")], "gm")
        times.append((time.perf_counter() - start) * 1000)
    store.close()
    return statistics.median(times)


def _core_ms(db: Path, repeat: int) -> float:
    """The same declaration through Ledger.execute in this process, no HTTP."""
    from eventlog.stores import open_store
    from projections.domain import commands as c
    from projections.ledger import Ledger
    ledger = Ledger(open_store(db))
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        ledger.execute("t0", c.Act(id="rook", cost="free", label="core"), "gm")
        times.append((time.perf_counter() - start) * 1000)
    ledger.store.close()
    return statistics.median(times)


class _Client:
    """One keep-alive connection through the standard library's http.client:
    a client that costs next to nothing, so the figure is the server's
    (httpx spends about 1.5 ms of its own on each request here)."""

    def __init__(self, url: str, secret: str | None = None):
        import http.client
        host, port = url.split("//", 1)[1].rstrip("/").rsplit(":", 1)
        self.conn = http.client.HTTPConnection(host, int(port), timeout=60)
        self.headers = {"Content-Type": "application/json"}
        if secret:
            self.headers["Authorization"] = f"Bearer {secret}"

    def post_ms(self, path: str, body: bytes, repeat: int) -> float:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            self.conn.request("POST", path, body, self.headers)
            answer = self.conn.getresponse()
            text = answer.read()
            assert answer.status == 200, text
            times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times)

    def close(self) -> None:
        self.conn.close()


DECLARATION = b'{"command": "act", "id": "rook", "cost": "free", "label": "api"}'


def _declare_ms(client: _Client, repeat: int) -> float:
    return client.post_ms("/api/encounters/t0/commands", DECLARATION, repeat)


def _bare_app(db: Path):
    """The HTTP floors. /bare: a Starlette endpoint that reads the body and
    hops to a worker thread as a declaration does, and touches no store.
    /core: the same endpoint whose worker thread runs the core's execute of
    the same declaration (a ledger per thread, as the server keeps a store
    per thread): a bare Starlette round trip plus the core's execute, paid
    in one request, where the core runs with the caches a worker thread has
    (in a tight loop of its own it runs warmer: 0.31-0.33 ms against
    0.43-0.46 ms in a request, profiled)."""
    import threading

    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import Response
    from starlette.routing import Route

    from eventlog.stores import open_store
    from projections.domain import commands as c
    from projections.ledger import Ledger
    local = threading.local()

    def execute(body: bytes) -> None:
        ledger = getattr(local, "ledger", None)
        if ledger is None:
            ledger = local.ledger = Ledger(open_store(db))
        ledger.execute("t0", c.Act(id="rook", cost="free", label="floor"), "gm")

    async def bare(request):
        body = await request.body()
        await run_in_threadpool(len, body)
        return Response(b'{"ok":true}', media_type="application/json")

    async def core(request):
        await run_in_threadpool(execute, await request.body())
        return Response(b'{"ok":true}', media_type="application/json")
    return Starlette(routes=[Route("/bare", bare, methods=["POST"]),
                             Route("/core", core, methods=["POST"])])


def _fan_outs(url: str, view: str, http, bare, rounds: int) -> tuple[list[float], list[float]]:
    """Latencies (ms) from sending each message to its last listener: ours
    (a declaration through the API, to 100 listeners of its stream) and the
    bare sse-starlette floor's (`bare`: its Running; the same status payload
    poked to 100 listeners of its own), in alternate rounds of one run."""
    import httpx
    from httpx_sse import aconnect_sse
    received: dict[tuple[str, int], list[float]] = {}
    ready = threading.Event()
    done = threading.Event()
    payload = http.get("/api/encounters/t1/status",
                       headers={"Authorization": f"Bearer {view}"}).content

    async def listen(client, path, headers, group, connected):
        async with aconnect_sse(client, "GET", path, headers=headers) as source:
            first = True
            async for message in source.aiter_sse():
                if not message.data:
                    continue  # (httpx-sse's empty event after a keep-alive comment)
                if first:
                    connected()
                    first = False
                    continue
                received.setdefault((group, int(message.id)), []).append(time.perf_counter())
                if done.is_set():
                    return

    async def everyone():
        count = 0

        def connected():
            nonlocal count
            count += 1
            if count == 2 * LISTENERS:
                ready.set()
        limits = httpx.Limits(max_connections=2 * LISTENERS + 10)
        async with httpx.AsyncClient(timeout=60, limits=limits) as client:
            tasks = [asyncio.create_task(listen(
                client, f"{url}/api/encounters/t1/stream",
                {"Authorization": f"Bearer {view}"}, "ours", connected))
                for _ in range(LISTENERS)]
            tasks += [asyncio.create_task(listen(client, f"{bare.url}/stream", {}, "bare",
                                                 connected)) for _ in range(LISTENERS)]
            while not done.is_set():
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    thread = threading.Thread(target=lambda: asyncio.run(everyone()), daemon=True)
    thread.start()
    ready.wait(60)
    sent: dict[tuple[str, int], float] = {}

    def heard(key: tuple[str, int]) -> None:  # (so that no round queues behind another)
        deadline = time.perf_counter() + 2
        while len(received.get(key, ())) < LISTENERS and time.perf_counter() < deadline:
            time.sleep(0.001)
        time.sleep(0.01)
    with httpx.Client(base_url=bare.url, timeout=60) as poker:
        for _ in range(rounds):  # interleaved: both see the same machine
            start = time.perf_counter()
            answer = http.post("/api/encounters/t1/commands",
                               json={"command": "act", "id": "rook", "cost": "free",
                                     "label": "fan"})
            sent["ours", answer.json()["seq"]] = start
            heard(("ours", answer.json()["seq"]))
            start = time.perf_counter()
            answer = poker.post("/poke", content=payload)
            sent["bare", answer.json()["seq"]] = start
            heard(("bare", answer.json()["seq"]))
    time.sleep(0.5)
    done.set()
    thread.join(10)
    latencies: dict[str, list[float]] = {"ours": [], "bare": []}
    for (group, seq), start in sent.items():
        if len(received.get((group, seq), ())) == LISTENERS:
            latencies[group].append((max(received[group, seq]) - start) * 1000)
    return sorted(latencies["ours"]), sorted(latencies["bare"])


def _tables_dps(url: str, secrets: list[str], each: int) -> float:
    import httpx

    def declare(t: int) -> None:
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {secrets[t]}"},
                          timeout=60) as http:
            for _ in range(each):
                http.post(f"/api/encounters/t{t}/commands",
                          json={"command": "act", "id": "rook", "cost": "free", "label": "busy"})
    threads = [threading.Thread(target=declare, args=(t,)) for t in range(len(secrets))]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(secrets) * each / (time.perf_counter() - start)


def measure(work: Path, quick: bool) -> dict:
    import httpx

    from serverkit import served, token
    db = work / "server.db"
    _setup(db, 10, 1_000)
    gm = token(db, "gm", "gm")
    view = token(db, "tv", "view", encounter="t1")  # (a view reaches one encounter)
    # (300 rounds: a p99 of 100 is the second slowest, one pause away from another)
    repeat, rounds, each = (20, 20, 10) if quick else (100, 300, 40)
    from cli.server.run import Running
    from ssefloor import bare_sse_app
    with served(db) as running, Running(app=_bare_app(db)) as bare, \
            Running(app=bare_sse_app()) as bare_sse:
        with httpx.Client(base_url=running.url, headers={"Authorization": f"Bearer {gm}"},
                          timeout=60) as http:
            api_client, bare_client = _Client(running.url, gm), _Client(bare.url)
            _declare_ms(api_client, 3)  # (warm: each worker thread opens its store)
            bare_client.post_ms("/core", DECLARATION, 3)
            api, core, floor, plain, together = [], [], [], [], []
            for _ in range(3):  # interleaved: all see the same machine
                api.append(_declare_ms(api_client, repeat))
                core.append(_core_ms(db, repeat))
                floor.append(_floor_ms(db, repeat))
                plain.append(bare_client.post_ms("/bare", DECLARATION, repeat))
                together.append(bare_client.post_ms("/core", DECLARATION, repeat))
            api_client.close()
            bare_client.close()
            latencies, bare_latencies = _fan_outs(running.url, view, http, bare_sse, rounds)
        dps = _tables_dps(running.url, [gm] * 10, each)
    sse, sse_floor = _percentiles(latencies), _percentiles(bare_latencies)
    api_ms, floor_ms = statistics.median(api), statistics.median(floor)
    return {"api_declare_ms": round(api_ms, 2), "append_floor_ms": round(floor_ms, 2),
            "api_ratio": round(api_ms / floor_ms, 2),
            "core_execute_ms": round(statistics.median(core), 2),
            "bare_http_ms": round(statistics.median(plain), 2),
            # the floor, a bare Starlette round trip plus the core's
            # execute, paid in one request (and the two apart, added up)
            "bare_core_ms": round(statistics.median(together), 2),
            "api_over_bare_core": round(api_ms / statistics.median(together), 2),
            "api_over_http_and_core": round(
                api_ms / (statistics.median(plain) + statistics.median(core)), 2),
            "sse_listeners": LISTENERS, "sse_samples": len(latencies),
            "sse_p50_ms": sse[0], "sse_p99_ms": sse[1],
            # the floor: a bare sse-starlette fan-out of the same payload
            "sse_floor_samples": len(bare_latencies),
            "sse_floor_p50_ms": sse_floor[0], "sse_floor_p99_ms": sse_floor[1],
            "sse_p99_over_floor": round(sse[1] / sse_floor[1], 2)
            if sse[1] is not None and sse_floor[1] else None,
            "tables_dps": round(dps)}


def _percentiles(latencies: list[float]) -> tuple[float | None, float | None]:
    """(p50, p99) of sorted `latencies`, in ms to one decimal."""
    if not latencies:
        return None, None
    return tuple(round(latencies[min(len(latencies) - 1, int(q * len(latencies)))], 1)
                 for q in (0.5, 0.99))  # type: ignore[return-value]


def show(r: dict) -> None:
    print(f"\napi_declare_ms {r['api_declare_ms']} beside a bare Starlette endpoint whose "
          f"worker thread runs the core's execute {r['bare_core_ms']}: "
          f"x{r['api_over_bare_core']} (goal <= 1.3); beside the two apart, added up: a bare "
          f"round trip (no store) {r['bare_http_ms']} plus the core in a loop of its own "
          f"{r['core_execute_ms']}: x{r['api_over_http_and_core']}; beside a bare append "
          f"{r['append_floor_ms']}: x{r['api_ratio']}")
    print(f"sse to the last of {r['sse_listeners']} listeners: p50 {r['sse_p50_ms']} ms, "
          f"p99 {r['sse_p99_ms']} ms over {r['sse_samples']} declarations (goal p99 <= 100); "
          f"a bare sse-starlette fan-out of the same payload: p50 {r['sse_floor_p50_ms']} ms, "
          f"p99 {r['sse_floor_p99_ms']} ms over {r['sse_floor_samples']}: "
          f"x{r['sse_p99_over_floor']} (goal <= 1.5)")
    print(f"10 tables declaring at once: {r['tables_dps']} declarations/s")


if __name__ == "__main__":  # run.py: the server's figures from a process of their own
    import json
    import shutil
    import tempfile
    sys.path.insert(0, str(HERE.parents[1]))
    sys.path.insert(0, str(HERE))
    work = Path(tempfile.mkdtemp(prefix="combat-bench-server-"))
    try:
        print(json.dumps(measure(work, "--quick" in sys.argv)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
