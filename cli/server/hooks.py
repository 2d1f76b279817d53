"""Webhooks (`combat hook add URL [--discord]`), delivered by the table
server: each batch of each encounter POSTed once, in order per encounter,
on threads of their own (a declaration never waits for a receiver).

- A hook reads as a view does (docs/server.md, "What the players see"):
  nothing of a hidden combatant, the log numbered as a view numbers it
  (projections/numbering.py); a batch a view reads nothing of posts nothing.
- A signed hook gets the batch as JSON (`encounter`, `seq` the batch's last,
  `events` as a view's `log --json` words them, `status` after it as a view
  reads it, `correction` for an undo, redo or amendment), signed:
  `X-Combat-Signature: sha256=HEX`, the HMAC-SHA256 of the body with the
  hook's secret; `X-Combat-Delivery` names the batch
  (hook:encounter:seq:tag) for a receiver to drop a repeat.
- A Discord hook gets the turn and round changes as Discord messages
  (`{"content": ...}`), and an undo's correction; other batches send nothing.

A receiver that fails, stalls (TIMEOUT_S), is gone or answers a redirect
(never followed: it could point anywhere) is retried with backoff
(BACKOFF_S, doubling to BACKOFF_MAX_S) until it answers 2xx; only then is
the batch marked delivered in the store, so a server restarted, or another
server taking over, goes on from the mark. Each failure is logged (logger
`combat.server`, the URL as `destinations.shown` words it: never its
credentials or token). Before every try the destination is checked again
(destinations.py) and the connection made to the very address checked. Of
several servers on one store only the one that holds the store's claim
delivers."""
from __future__ import annotations

import base64
import contextvars
import hashlib
import hmac
import http.client
import logging
import socket
import ssl
import threading

import msgspec

from eventlog.errors import LedgerError
from eventlog.events import CORRECTIONS
from eventlog.language import N_, _
from projections.numbering import players_events
from projections.visible import Sieve

from cli.server import destinations
from cli.server.catchup import CatchUp, next_page
from cli.server.views import message

LOG = logging.getLogger("combat.server")

POLL_S = 0.3  # how often the store is asked for new batches
TIMEOUT_S = 10.0  # a receiver that has not answered by then is tried again
BACKOFF_S, BACKOFF_MAX_S = 0.25, 30.0


class Deliverer:
    """One per server: a worker thread per hook, while this process holds the claim."""

    def __init__(self, handles):
        self.handles = handles
        self.stopping = threading.Event()
        self.workers: dict[str, Worker] = {}
        # (a thread starts with a context of its own: the hooks speak the
        # server's language, the one `serve` was started in)
        self.thread = threading.Thread(target=contextvars.copy_context().run, args=(self._run,),
                                       name="combat-hooks", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(5)
        for worker in self.workers.values():
            worker.thread.join(2)

    def _run(self) -> None:
        while not self.stopping.wait(POLL_S):
            try:
                store = self.handles.store()
                hooks = {h.id: h for h in store.hooks()} if store.claim_hooks() else {}
            except Exception:  # (the store is away: ask again)
                continue
            for gone in set(self.workers) - set(hooks):
                self.workers.pop(gone).stopping.set()
            for hook_id, hook in hooks.items():
                if hook_id not in self.workers:
                    self.workers[hook_id] = Worker(self.handles, hook, self.stopping)


class Worker:
    def __init__(self, handles, hook, server_stopping: threading.Event):
        self.handles, self.hook = handles, hook
        self.stopping = threading.Event()
        self.server_stopping = server_stopping
        self.said: dict[str, tuple] = {}  # Discord: the (round, acting) last told, per encounter
        self.thread = threading.Thread(target=contextvars.copy_context().run, args=(self._run,),
                                       name=f"combat-hook-{hook.id}", daemon=True)
        self.thread.start()

    def done(self) -> bool:
        return self.stopping.is_set() or self.server_stopping.is_set()

    def _run(self) -> None:
        while not self.done():
            try:
                self._round()
            except Exception:  # (the store is away, or the hook was removed: again later)
                pass
            self.stopping.wait(POLL_S)

    def _round(self) -> None:
        ledger = self.handles.ledger()
        store = ledger.store
        marks = store.hook_marks(self.hook.id)
        for info in store.encounters():
            mark = marks.get(info.id, 0)
            if info.events > mark and not self.done():
                self._encounter(ledger, info.id, mark)

    def _encounter(self, ledger, encounter: str, mark: int) -> None:
        """Deliver the batches after `mark`, a page at a time (catchup.py):
        a hook far behind (added to a long log, a server down a while)
        holds one page of statuses, never the whole backlog. A hook reads
        as a view does (projections/numbering.py): a batch a view reads
        nothing of is marked delivered without a POST."""
        if self.hook.discord and encounter not in self.said:
            self.said[encounter] = _turn(_status_at(ledger, encounter, mark))
        catching = CatchUp(encounter, mark, frozenset())
        while not self.done():
            page = next_page(ledger, catching)
            if not page:
                return
            for msg in page:
                end = msg.seq
                sieve = msg.sieve
                assert isinstance(sieve, Sieve)  # (a batch's message carries its sieve)
                _players, events = players_events(ledger, encounter, end, sieve, mark)
                if events:
                    body = self._body(encounter, msg.players_seq, events,
                                      msgspec.json.decode(msg.shown or msg.data))
                    if body is not None and not self._post(
                            body, f"{encounter}:{msg.players_seq}:{self._tag(encounter, end)}"):
                        return  # (stopping: the mark stays, the next server goes on from it)
                ledger.store.mark_hook(self.hook.id, encounter, end)
                mark = end

    def _tag(self, encounter: str, end: int) -> str:
        """What tells one batch's delivery from another's of the same seq as
        a view numbers it (a hide renumbers): opaque, so it never counts
        what a view does not read."""
        key = (self.hook.secret or self.hook.id).encode()
        return hmac.new(key, f"{encounter}:{end}".encode(), hashlib.sha256).hexdigest()[:12]

    def _body(self, encounter: str, seq: int, events: list[dict], status: dict) -> bytes | None:
        correction = events[0]["type"] in CORRECTIONS
        if not self.hook.discord:
            return msgspec.json.encode({
                "encounter": encounter, "seq": seq, "correction": correction,
                "events": events, "status": status})
        was, now = self.said.get(encounter), _turn(status)
        self.said[encounter] = now
        if correction:
            first = events[0]
            said = {"Undone": N_("Correction: {actor}'s seq {seq} undone; now {now}"),
                    "Redone": N_("Correction: {actor}'s seq {seq} redone; now {now}"),
                    "Amended": N_("Correction: {actor}'s seq {seq} amended; now {now}")}
            line = _(said[first["type"]]).format(actor=first["actor"], seq=_target(first["data"]),
                                                 now=_words(status, now))
        elif now != was and status.get("phase") != "setup":
            line = _words(status, now)
        else:
            return None
        return msgspec.json.encode({"content": f"**{status.get('title') or encounter}**: {line}",
                                    "allowed_mentions": {"parse": []}})

    def _post(self, body: bytes, delivery: str) -> bool:
        """POST until a 2xx answer; False if the server stops first."""
        headers = {"Content-Type": "application/json", "User-Agent": "combat-ledger",
                   "X-Combat-Delivery": f"{self.hook.id}:{delivery}"}
        if not self.hook.discord:
            digest = hmac.new(self.hook.secret.encode(), body, hashlib.sha256).hexdigest()
            headers["X-Combat-Signature"] = f"sha256={digest}"
        wait = BACKOFF_S
        while not self.done():
            failed = self._try(body, headers)
            if failed is None:
                return True
            LOG.warning("hook %s: %s not delivered: %s; again in %.2g s", self.hook.id,
                        delivery, failed, wait,
                        extra={"hook": self.hook.id, "url": destinations.shown(self.hook.url)})
            if self.stopping.wait(wait):
                return False
            wait = min(wait * 2, BACKOFF_MAX_S)
        return False

    def _try(self, body: bytes, headers: dict[str, str]) -> str | None:
        """One POST; None if the receiver took it (2xx), else why not, in
        words that never hold the URL's credentials or token."""
        shown = destinations.shown(self.hook.url)
        try:
            where, addresses = destinations.checked(self.hook.url, self.hook.allow_private)
        except LedgerError as exc:  # (refused, or no longer resolves: nothing sent)
            return str(exc)
        if where.credentials is not None:
            pair = ":".join(where.credentials).encode()
            headers = {**headers, "Authorization": "Basic " + base64.b64encode(pair).decode()}
        kind = _PinnedTLS if where.scheme == "https" else _Pinned
        connection = kind(where.host, where.port, str(addresses[0]), TIMEOUT_S)
        try:
            connection.request("POST", where.target, body, headers)
            with connection.getresponse() as answer:
                answer.read(64 * 1024)
                code = answer.status
        except (OSError, http.client.HTTPException, ValueError) as exc:
            return f"{shown}: {type(exc).__name__}"  # (a message may quote the URL)
        finally:
            connection.close()
        if 200 <= code < 300:
            return None
        if 300 <= code < 400:
            return f"{shown} answered {code}, a redirect: not followed"
        return f"{shown} answered {code}"


class _Pinned(http.client.HTTPConnection):
    """A connection to the address the destination check passed, not to
    whatever the name resolves to a moment later."""

    def __init__(self, host: str, port: int, address: str, timeout: float):
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedTLS(_Pinned):
    default_port = http.client.HTTPS_PORT

    def connect(self) -> None:
        super().connect()
        context = ssl.create_default_context()
        self.sock = context.wrap_socket(self.sock, server_hostname=self.host)


def _status_at(ledger, encounter: str, seq: int) -> dict:
    """The status a view read after seq `seq`."""
    if not seq:
        return {}
    msg = message(ledger.state(encounter, at=seq), frozenset(), ledger)
    return msgspec.json.decode(msg.shown or msg.data)


def _turn(status: dict) -> tuple:
    return (status.get("round"), status.get("pass"), status.get("acting"),
            status.get("phase"))


def _target(data: dict) -> str:
    batches = data.get("batches") or [data.get("batch", "?")]
    return ", ".join(str(b) for b in batches)


def _words(status: dict, turn: tuple) -> str:
    rnd, _pass, acting, phase = turn
    if phase == "ended":
        return _("the fight is over")
    names = {c["id"]: c["name"] for c in status.get("combatants", [])}
    if acting:
        return _("round {round}: {name} is up").format(round=rnd, name=names.get(acting, acting))
    up = [names.get(c, c) for c in status.get("up", [])]
    if up:
        return _("round {round}: {names} may act").format(round=rnd, names=", ".join(up))
    return _("round {round}: between turns").format(round=rnd)
