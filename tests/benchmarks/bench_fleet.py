"""Several servers, one store, under load, on this machine and a private
PostgreSQL cluster (tests/pgserver.py), bounded in count and time:

  N tables of 6 players and a TV each: 7 streams a table, each on the
  table's own server, as the proxy that hashes tables to servers places
  them (examples/proxy; `--spread`: each device of a table on another
  server, so every server folds every table); a stream whose server dies
  resumes on the next by Last-Event-ID. Every table declares at table pace
  (6 players, one declaration each every PACE_S seconds on average, sent
  to the table's server, failing over to the next).

The phones hold player tokens, each owning its PC, and the TV a view
token, so each batch goes out in a table's real mix of role views (the GM
sees the whole status, the TV the players' status, each phone the players'
status with what its PC may do).

Three runs, one after the other, each on a fresh schema:
  single   1 server
  fleet    3 servers
  kill     3 servers, one SIGKILLed halfway through

For each: declarations/s acknowledged, errors (refused or unanswered
declarations, streams with a gap, a message twice or out of order), and
the SSE latency from commit (the batch's `at`, stamped just before its
commit) to the last of the table's 7 listeners (p50, p99), over every
acknowledged declaration; and where the machine's CPU went: the servers',
PostgreSQL's and this load generator's own CPU seconds (all three compete
for the same cores; `generator_share` is the generator's part of the
three, and the machine's busy seconds say whether anything else ran), and
stream messages delivered per CPU second of the servers (the fan-out's
cost, with the declarations' own work in it).

    python tests/benchmarks/bench_fleet.py [--tables 100] [--seconds 30] [--quick]
                                           [--runs single,fleet,kill] [--spread]

Each phone, TV and GM laptop connects from a loopback address of its own
(127.x.y.z, tests/fleet.py), as a table's devices do: no address comes
near the server's cap of connections per address.

--quick: 5 tables for 8 s a run (CI may run it; tests/benchmarks/run.py
--quick does). Prints one JSON object.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

PLAYERS, PACE_S = 6, 10.0  # a table: 6 players, each declaring every ~10 s
RUNS = {"single": (1, False), "fleet": (3, False), "kill": (3, True)}  # servers, one killed


def setup(url: str, tables: int) -> tuple[str, dict[str, list[str]], dict[str, int]]:
    """The tables (6 PCs each), a GM token, a player token per PC and a view
    token per table (the TV)."""
    from eventlog.stores import open_store
    from projections.access import make
    from projections.domain import commands as c
    from projections.ledger import Ledger
    ledger = Ledger(open_store(url))
    try:
        gm, kept = make("gm", ["gm"], None, None)
        ledger.store.add_token(kept)
        views, heads = {}, {}
        for t in range(tables):
            e = f"t{t}"
            ledger.execute(None, c.New(id=e, title=f"Table {t}"), "gm")
            for p in range(PLAYERS):
                ledger.execute(e, c.Add(name=f"P{p}", pc=True, bonus=p), "gm")
            views[e] = []
            for k in range(PLAYERS + 1):  # (a token each: the 6 players' phones and the TV)
                role, owns = ("view", None) if k == PLAYERS else ("player", f"p{k}")
                secret, kept = make(f"t{t}-{k}", [role], owns, e)
                ledger.store.add_token(kept)
                views[e].append(secret)
            heads[e] = ledger.store.head(e)[0]
        return gm, views, heads
    finally:
        ledger.store.close()


TICK = os.sysconf("SC_CLK_TCK")


def cpu_of(pid: int) -> float:
    """A process's CPU seconds so far (user and system), 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def children_of(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def data_folder(pg) -> Path | None:
    """The cluster's data folder: the private one's, or the one a server named
    by COMBAT_TEST_PG_DSN says it runs from (readable when it runs on this
    machine, as in CI; elsewhere its CPU cannot be read and counts 0)."""
    cluster = getattr(pg, "cluster", None)
    if cluster is not None:
        return cluster.data
    if pg.__dict__.get("_data_folder") is None:
        import psycopg
        try:
            with psycopg.connect(pg.url, connect_timeout=5) as db:
                pg._data_folder = Path(db.execute("SHOW data_directory").fetchone()[0])
        except psycopg.Error:
            pg._data_folder = Path("/nonexistent")
    return pg._data_folder


def postgres_cpu(pg) -> float:
    """The cluster's CPU seconds so far: its postmaster's backends' (a
    backend's CPU counts once it has ended, in the postmaster's children
    time, field 16 and 17; live ones are read one by one)."""
    try:
        master = int((data_folder(pg) / "postmaster.pid").read_text().split()[0])
        fields = Path(f"/proc/{master}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, ValueError, TypeError):
        return 0.0
    done = (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / TICK
    return done + sum(cpu_of(pid) for pid in children_of(master))


def busy_cpu() -> float:
    """The whole machine's busy CPU seconds so far (/proc/stat)."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / TICK


def own_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


def epoch(at: str) -> float:
    return datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()


class Run:
    def __init__(self, urls, gm, views, heads, seconds, kill=None, meter=None, hashed=True):
        self.urls, self.gm, self.views, self.heads = urls, gm, views, heads
        self.hashed = hashed
        self.seconds, self.kill, self.meter = seconds, kill, meter
        self.acked: dict[str, list[tuple[int, float]]] = {e: [] for e in heads}
        self.seen: dict[tuple[str, int], list[tuple[int, float]]] = {}
        self.errors = {"declarations": 0, "streams": 0}
        self.missed: list[dict] = []
        self.moves = 0
        self.addresses: set[str] = set()

    async def listen(self, e: str, k: int, stop: asyncio.Event) -> None:
        got = self.seen[(e, k)] = []
        from fleet import address
        local = address(int(e[1:]) * (PLAYERS + 2) + k)  # (this device's own address)
        self.addresses.add(local)
        at, last = self.home(e, k), None
        for _ in range(200):  # (bounded: reconnections)
            if stop.is_set():
                return
            # As a page does: the first stream asks for the status now, a
            # reconnection for what it missed (Last-Event-ID: a catch-up).
            try:
                last = await self.follow(self.urls[at], local, e, k, last, got)
            except (OSError, ValueError, asyncio.IncompleteReadError):
                pass
            at, self.moves = (at + 1) % len(self.urls), self.moves + 1
            await asyncio.sleep(0.1)

    async def follow(self, url: str, local: str, e: str, k: int, last: int | None,
                     got: list) -> int | None:
        """One stream until it ends: a bare HTTP/1.0 request (the answer is
        the stream's bytes until the server closes it, no chunks) and its
        lines read as they come, keeping each message's id and arrival.
        Lean on purpose: the generator shares the cores with the servers it
        measures, and a full HTTP client's parsing costs several times this."""
        host, port = url.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port), local_addr=(local, 0),
                                                       limit=1 << 20)
        try:
            resume = "" if last is None else f"Last-Event-ID: {last}\r\n"
            writer.write((f"GET /api/encounters/{e}/stream HTTP/1.0\r\nHost: {host}\r\n"
                          f"Authorization: Bearer {self.views[e][k]}\r\n{resume}"
                          "Accept: text/event-stream\r\n\r\n").encode())
            if b" 200 " not in await reader.readline():
                return last
            while (await reader.readline()).strip():  # (the answer's headers)
                pass
            seq, status = None, False
            while line := await reader.readline():
                if line.startswith(b"id: "):
                    seq = int(line[4:])
                elif line.startswith(b"event: "):
                    status = line[7:].strip() == b"status"
                elif not line.strip():
                    if status and seq is not None:
                        last = seq
                        got.append((seq, time.time()))
                    seq, status = None, False
            return last
        finally:
            writer.close()

    async def declare(self, http: list, e: str, until: float) -> None:
        rng = random.Random(e)
        n = 0
        while time.monotonic() < until:
            await asyncio.sleep(rng.expovariate(PLAYERS / PACE_S))
            if time.monotonic() >= until:  # (a wait past the end: the run's rate stays true)
                break
            n += 1
            first = self.home(e, rng.randrange(PLAYERS))
            for k in range(len(self.urls)):
                try:
                    answer = await http[(first + k) % len(self.urls)].post(
                        f"/api/encounters/{e}/commands",
                        json={"command": "note", "text": f"{e} says {n}"},
                        headers={"Authorization": f"Bearer {self.gm}"})
                except (httpx.HTTPError, OSError) as exc:
                    unanswered = type(exc).__name__
                    continue
                if answer.status_code == 200:
                    last = answer.json()["events"][-1]
                    self.acked[e].append((last["seq"], epoch(last["at"])))
                else:
                    self.refused(str(answer.status_code))
                break
            else:
                self.refused(unanswered)

    def refused(self, why: str) -> None:
        self.errors["declarations"] += 1
        self.errors[f"declarations_{why}"] = self.errors.get(f"declarations_{why}", 0) + 1

    def home(self, e: str, k: int) -> int:
        """The server device k of table e goes to first: the table's own when
        the proxy hashes tables to servers (as examples/proxy does), else
        each device its own, spread (every server then folds every table)."""
        table = int(e[1:])
        return (table if self.hashed else table + k) % len(self.urls)

    def clients(self, e: str, k: int) -> list:
        """Device k of table e's clients, one a server, from a loopback
        address of its own (each phone, the TV and the GM's laptop is a
        device on the network, as the server's cap of connections per
        address expects)."""
        from fleet import address
        local = address(int(e[1:]) * (PLAYERS + 2) + k)
        self.addresses.add(local)
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=20,
                             keepalive_expiry=3)  # (under the server's 5 s: no reuse of a
        # connection the server is closing, which a POST cannot safely retry)
        return [httpx.AsyncClient(base_url=u, limits=limits, timeout=httpx.Timeout(30, read=60),
                                  transport=httpx.AsyncHTTPTransport(local_address=local))
                for u in self.urls]

    async def go(self) -> None:
        tables = {e: self.clients(e, PLAYERS + 1) for e in self.heads}  # (the GM's)
        stop = asyncio.Event()
        listeners = [asyncio.create_task(self.listen(e, k, stop))
                     for e in self.heads for k in range(PLAYERS + 1)]
        opening = time.monotonic() + 60  # (every stream has its first status, or a minute)
        while time.monotonic() < opening and not all(self.seen.get((e, k)) for e in self.heads
                                                     for k in range(PLAYERS + 1)):
            await asyncio.sleep(0.2)
        self.opened_s = round(time.monotonic() - opening + 60, 1)
        started = time.monotonic()
        if self.meter is not None:
            self.meter.sample("writing")
        until = started + self.seconds
        writers = [asyncio.create_task(self.declare(tables[e], e, until)) for e in self.heads]
        if self.kill is not None:
            await asyncio.sleep(self.seconds / 2)
            await asyncio.to_thread(self.kill)
        await asyncio.gather(*writers)
        self.elapsed = time.monotonic() - started
        if self.meter is not None:
            self.meter.sample("written")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not self.caught_up():
            await asyncio.sleep(0.2)
        stop.set()
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
        for http in tables.values():
            for client in http:
                await client.aclose()

    def caught_up(self) -> bool:
        return all((got[-1][0] if got else self.heads[e]) >= (self.acked[e] or [(0, 0)])[-1][0]
                   for (e, _), got in self.seen.items())

    def figures(self) -> dict:
        latencies = []
        for e, acked in self.acked.items():
            streams = [self.seen[(e, k)] for k in range(PLAYERS + 1)]
            for got in streams:
                seqs = [s for s, _ in got]
                want = {s for s, _ in acked}
                kinds = [kind for kind, bad in (
                    ("twice", len(set(seqs)) != len(seqs)), ("order", seqs != sorted(seqs)),
                    ("missed", not want <= set(seqs))) if bad]
                if kinds:
                    self.errors["streams"] += 1
                    for kind in kinds:
                        self.errors[kind] = self.errors.get(kind, 0) + 1
                    if "missed" in kinds:  # (what, and whether anything came after it)
                        gone = sorted(want - set(seqs))
                        self.missed.append({"table": e, "seqs": gone[:5], "last_seen": seqs[-1:],
                                            "later_seen": any(x > gone[0] for x in seqs)})
            arrivals = [dict(got) for got in streams]
            for seq, at in acked:
                times = [a[seq] for a in arrivals if seq in a]
                if len(times) == len(arrivals):
                    latencies.append(max(times) - at)
        total = sum(len(a) for a in self.acked.values())
        q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0] * 99
        # (every declaration was sent within the run's seconds; `elapsed_s`
        # adds the wait for the last answers and the writers' last sleeps)
        return {"declarations": total, "per_s": round(total / self.seconds, 1),
                "elapsed_s": round(self.elapsed, 1),
                "sse_p50_ms": round(q[49] * 1000, 1), "sse_p99_ms": round(q[98] * 1000, 1),
                "errors": dict(self.errors), "stream_moves": self.moves,
                **({"missed": self.missed[:5]} if self.missed else {}),
                "streams": len(self.seen), "streams_opened_s": self.opened_s,
                "client_addresses": len(self.addresses),
                "offered_per_s": round(len(self.heads) * PLAYERS / PACE_S, 1)}


class Meter:
    """Where the CPU went between two moments: the servers' (a killed one's
    as read just before its kill), PostgreSQL's, this generator's and the
    whole machine's busy seconds."""

    def __init__(self, pg, fleet):
        self.pg, self.fleet = pg, fleet
        self.spent: dict[int, float] = {}  # a killed server's last reading
        self.at: dict[str, tuple] = {}

    def servers(self) -> float:
        return sum(self.spent.get(s.proc.pid) or cpu_of(s.proc.pid) for s in self.fleet)

    def kill(self, server) -> None:
        self.spent[server.proc.pid] = cpu_of(server.proc.pid)
        server.kill()

    def sample(self, name: str) -> None:
        self.at[name] = (self.servers(), postgres_cpu(self.pg), own_cpu(), busy_cpu(),
                         time.monotonic(), time.time())

    def between(self, first: str, last: str, seen) -> dict:
        served, postgres, generator, machine, wall = (
            self.at[last][i] - self.at[first][i] for i in range(5))
        since, until = self.at[first][5], self.at[last][5]
        delivered = sum(1 for got in seen for _, t in got if since <= t <= until)
        ours = served + postgres + generator
        return {"servers": round(served, 2), "postgres": round(postgres, 2),
                "generator": round(generator, 2), "machine": round(machine, 1),
                "wall": round(wall, 1), "cores": os.cpu_count(),
                # (the generator's part of what this benchmark spent; the
                # machine's figure says whether anything else was running)
                "generator_share": round(generator / ours, 2) if ours else None,
                "messages": delivered,
                "messages_per_server_cpu_s": round(delivered / served) if served else None}


def checked(tables: int, servers: float, figures: dict, cpu: dict) -> dict:
    """The capacity model's cores (capacity.py) beside this run's, while it
    declared: their ratio (1.0: the model is exact). A kill run counts
    its servers as 2.5 (three for half the run, two for the rest)."""
    from capacity import cores
    rate = figures["declarations"] / figures["elapsed_s"]
    model = cores(tables, servers, rate)
    out = {}
    for name in ("servers", "postgres"):
        measured = cpu[name] / cpu["wall"]
        out[name] = {"model": round(model[name], 3), "measured": round(measured, 3),
                     "ratio": round(model[name] / measured, 2) if measured else None}
    return out


def one_run(pg, folder: Path, servers: int, tables: int, seconds: float,
            kill: bool, hashed: bool = True) -> dict:
    from fleet import Server
    url = pg.fresh_url()
    gm, views, heads = setup(url, tables)
    fleet = [Server(url, folder, pool=8) for _ in range(servers)]
    meter = Meter(pg, fleet)
    try:
        run = Run([s.url for s in fleet], gm, views, heads, seconds,
                  kill=(lambda: meter.kill(fleet[1])) if kill else None, meter=meter,
                  hashed=hashed)
        meter.sample("start")  # (the servers' start-up left out)
        asyncio.run(run.go())
        meter.sample("end")
        figures = run.figures()
        seen = run.seen.values()
        # the whole run (streams opening, declaring, the last messages), and
        # the declaring alone: the steady state a capacity model counts
        figures["cpu_s"] = meter.between("start", "end", seen)
        declaring = figures["cpu_s_declaring"] = meter.between("writing", "written", seen)
        figures["model"] = checked(tables, servers - (0.5 if kill else 0), figures, declaring)
        return figures
    finally:
        for s in fleet:
            s.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", default="single,fleet,kill",
                        help="which runs, comma-separated: single, fleet, kill")
    parser.add_argument("--spread", action="store_true",
                        help="each device of a table to another server, not the table's own")
    args = parser.parse_args()
    runs = [r.strip() for r in args.runs.split(",") if r.strip()]
    if not runs or set(runs) - set(RUNS):
        parser.error(f"--runs takes some of {', '.join(RUNS)}")
    tables, seconds = (5, 8.0) if args.quick else (args.tables, args.seconds)
    from pgserver import Server as PG
    pg = PG()
    if pg.url is None:
        sys.exit(f"no PostgreSQL: {pg.why}")
    out = {"tables": tables, "streams_per_table": PLAYERS + 1, "seconds": seconds,
           "placement": "spread" if args.spread else "hashed",
           "pace": f"{PLAYERS} players x 1 declaration / {PACE_S:g} s"}
    try:
        with tempfile.TemporaryDirectory() as folder:
            for name in runs:
                servers, kill = RUNS[name]
                out[name] = one_run(pg, Path(folder), servers, tables, seconds, kill,
                                    hashed=not args.spread)
    finally:
        pg.close()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
