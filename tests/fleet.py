"""Several `combat serve` processes on one PostgreSQL store, for
tests/test_server_many.py and tests/benchmarks/bench_fleet.py: start them,
follow a stream over an address list (a phone whose server dies resumes on
the next one by Last-Event-ID), and check what every stream saw.

Every loop here is bounded in count and in time."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from httpx_sse import connect_sse

from serverkit import messages

ROOT = Path(__file__).resolve().parent.parent
_devices = iter(range(1 << 20))


def address(device: int | None = None) -> str:
    """A loopback address of its own for device number `device` (the next
    unused one by default): the phones of a table are devices of their own,
    as the server's cap of connections per address expects. 127.0.0.0/8
    is loopback whole; this stays off 127.0.0.x (the servers' own)."""
    n = next(_devices) if device is None else device
    return f"127.{1 + n // 62_500}.{1 + n // 250 % 250}.{2 + n % 250}"


class Server:
    """`combat --db URL serve --port 0` in a process of its own."""

    def __init__(self, db: str, folder: Path, pool: int = 4, start_s: float = 60):
        env = {k: v for k, v in os.environ.items() if not k.startswith("COMBAT_")}
        env.update(NO_COLOR="1", XDG_STATE_HOME=str(folder / "state"))
        # (its log, a line a declaration, goes to a file: a pipe nobody
        # reads would fill and stop the server)
        self.log = open(folder / f"serve-{os.getpid()}-{id(self)}.log", "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cli", "--db", db, "serve", "--port", "0",
             "--pool", str(pool)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
            stderr=self.log, text=True)
        line = _first_line(self.proc, start_s)
        if " at http://" not in line:
            self.kill()
            raise RuntimeError(f"combat serve did not start: {line!r}")
        self.url = line.split(" at ", 1)[1].split()[0].rstrip("/")

    def kill(self) -> None:
        """SIGKILL: no goodbye to its streams (a crash, a pulled plug)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(20)
        self.proc.stdout.close()
        self.log.close()

    def stop(self) -> None:
        self.kill()


def _first_line(proc: subprocess.Popen, limit: float) -> str:
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(limit)
    return got[0] if got else ""


class Follower:
    """One phone or TV, from an address of its own (`local`): the stream of
    `encounter` over `urls`, starting at the first; when a server drops it
    (or cannot be reached) it goes on at the next with Last-Event-ID, until
    it has seen `until` (set later) or its time is up. `seen`: every (seq, arrival time) it got, in order."""

    def __init__(self, urls: list[str], secret: str, encounter: str, first: int = 0,
                 limit_s: float = 120, last: int | None = None, local: str | None = None):
        self.urls, self.secret, self.encounter = urls, secret, encounter
        self.local = local or address()  # (the phone's own address)
        self.at = first % len(urls)
        self.last, self.limit_s = last, limit_s
        self.until: int | None = None
        self.seen: list[tuple[int, float]] = []
        self.moves = 0
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> "Follower":
        self.thread.start()
        return self

    def done(self) -> bool:
        return self.until is not None and self.last is not None and self.last >= self.until

    def _run(self) -> None:
        deadline = time.monotonic() + self.limit_s
        for _ in range(100):  # (bounded: moves between servers)
            if self.done() or time.monotonic() > deadline:
                return
            try:
                self._follow(self.urls[self.at], deadline)
            except httpx.HTTPError:
                pass
            if self.done():
                return
            self.at, self.moves = (self.at + 1) % len(self.urls), self.moves + 1
            time.sleep(0.05)

    def _follow(self, url: str, deadline: float) -> None:
        headers = {"Authorization": f"Bearer {self.secret}"}
        if self.last is not None:
            headers["Last-Event-ID"] = str(self.last)
        timeout = httpx.Timeout(10, read=30)  # (an idle stream is pinged every 15 s)
        path = f"/api/encounters/{self.encounter}/stream"
        transport = httpx.HTTPTransport(local_address=self.local)
        with httpx.Client(base_url=url, timeout=timeout, transport=transport) as http, \
                connect_sse(http, "GET", path, headers=headers) as source:
            self.opened.set()
            for message in messages(source):
                self.seen.append((int(message.id), time.time()))
                self.last = int(message.id)
                if self.done() or time.monotonic() > deadline:
                    return


def check(seen: list[int], expected: list[int], who: str) -> list[str]:
    """What is wrong with a stream: out of order, a gap, a message twice."""
    problems = []
    if len(set(seen)) != len(seen):
        problems.append(f"{who}: a message twice")
    if seen != sorted(seen):
        problems.append(f"{who}: out of order")
    if [s for s in seen if s in expected] != [s for s in expected if s >= (seen or [0])[0]]:
        problems.append(f"{who}: a gap")
    return problems
