"""The live stream: one message per appended batch, `id:` its last seq, the
status JSON after it (docs/server.md), fanned out to every
listener of the encounter.

One watcher thread per server waits on the store's change hint
(`wait_changes`: another process's append, a revoked token) and publishes
each encounter's new batches in order; an append made by the server itself
is published at once by the request that made it. Per encounter the hub
remembers the last seq it published, so every batch goes out once, in
order, whoever notices it first. A listener subscribes before it reads what
it missed, then skips live messages it has already sent: nothing is missed,
nothing doubled.
"""
from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

from eventlog.errors import UnknownEncounter
from eventlog.events import CORRECTIONS
from eventlog.stores.records import TOKENS_CHANGED
from projections import snapshot as snapshots
from projections.history import fold

from cli.server.views import Message, closed_message, message, table_message

__all__ = ["Hub", "Listener", "Message", "batch_statuses"]

TICK_S = 1.0  # a stream rechecks its token at least this often (the watcher's tick)
WATCH_S = 0.25  # the watcher looks at the store at least this often (and stops within it)
FULL_S = 2.0  # and at every encounter's head at least this often (a lost notification)


def batch_statuses(ledger, encounter: str, after: int,
                   owned: frozenset[str] = frozenset()) -> list[Message]:
    """The status after each batch that ends after seq `after`, in order,
    read in one snapshot. Folds forward batch by batch; a correction (undo,
    redo, amend) refolds, as its effect reaches back."""
    store = ledger.store
    out: list[Message] = []
    with store.reading():
        head = store.head(encounter)[0]
        if head <= after:
            return out
        ends: list[tuple[int, int, str]] = []  # (batch, last seq, first type)
        for row in store.fold_rows(encounter, after=after, upto=head):
            seq, batch, type_name = row[0], row[1], row[2]
            if ends and ends[-1][0] == batch:
                ends[-1] = (batch, seq, ends[-1][2])
            else:
                ends.append((batch, seq, type_name))
        if ends:  # (inert events are left out of fold_rows: stretch to the head)
            ends = [(b, store.batch_end(encounter, last), t) for b, last, t in ends]
        if not ends or ends[-1][1] < head:
            ends.append((head, head, ""))
        state = None
        prev = after
        for _, end, first in ends:
            if end <= prev:
                continue
            if end == head:
                state = ledger.state(encounter)
            elif state is None or first in CORRECTIONS:
                state = ledger.state(encounter, at=end)
            else:
                # (markers name only earlier batches: those before `prev`
                # cannot change a fold that starts after it)
                state = fold(store, encounter, ledger.corrections(encounter, end, prev),
                             snapshots.clone(state), upto=end, after=prev)
                state.seq = end
            out.append(message(state, owned, ledger))
            prev = end
    return out


class Listener:
    """One open stream: messages arrive on its event loop's queue. A listener
    that falls BACKLOG messages behind (a phone asleep with its socket
    open) is told to end its response; the browser reconnects with
    Last-Event-ID and reads what it missed from the store."""

    BACKLOG = 1000

    def __init__(self, encounter: str, token):
        self.encounter, self.token = encounter, token
        self.digest = getattr(token, "digest", token)
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[Message | None] = asyncio.Queue()
        self.behind = False
        self.archived = False  # reads an archived encounter on purpose (a GM, ?archived=1)

    def send(self, message: Message | None) -> None:
        """`message` onto its queue, from any thread (None: recheck the token)."""
        deliver([self], [message])

    def put(self, message: Message | None) -> None:
        """On its own event loop."""
        if self.queue.qsize() >= self.BACKLOG:
            self.behind, message = True, None
        self.queue.put_nowait(message)


def deliver(listeners, messages: list) -> None:
    """`messages` onto every listener's queue, from any thread: one wake-up
    of each event loop for them all, not one per listener (a hundred
    phones are a hundred listeners on the server's one loop)."""
    loops: dict = {}
    for listener in listeners:
        loops.setdefault(listener.loop, []).append(listener)
    for loop, group in loops.items():
        try:
            loop.call_soon_threadsafe(_put_all, group, messages)
        except RuntimeError:  # (its loop has closed: the server is stopping)
            pass


def _put_all(listeners, messages: list) -> None:
    for made in messages:
        for listener in listeners:
            listener.put(made)


class Hub:
    def __init__(self, handles):
        self.handles = handles
        self.published: dict[str, int] = {}
        self.locks: dict[str, threading.Lock] = {}
        self.listeners: dict[str, set[Listener]] = {}
        self.digests: frozenset[str] = frozenset()
        self.owners: dict[str, frozenset[str]] = {}  # encounter -> ids player tokens own
        self.seen_tokens: frozenset = frozenset()
        self.table: str | None = None  # the encounter on the table (projections/joining.py)
        self.guard = threading.Lock()
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None
        self.timed = None  # a histogram of fan-out seconds, by origin (metrics.py)

    def open_streams(self) -> int:
        with self.guard:
            return sum(len(group) for group in self.listeners.values())

    def _took(self, origin: str, since: float | None) -> None:
        if self.timed is not None and since is not None:
            self.timed.labels(origin).observe(time.perf_counter() - since)

    # -- listeners ---------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        with self.guard:
            self.listeners.setdefault(listener.encounter, set()).add(listener)

    def unsubscribe(self, listener: Listener) -> None:
        with self.guard:
            self.listeners.get(listener.encounter, set()).discard(listener)

    def valid(self, digest: str) -> bool:
        return digest in self.digests

    def owned(self, encounter: str) -> frozenset[str]:
        """The combatants of `encounter` some player token owns (their `may`
        goes out with each message)."""
        return self.owners.get(encounter, frozenset())

    def _tokens(self, tokens) -> None:
        owners: dict[str, set[str]] = {}
        for t in tokens:
            if t.role == "player" and t.encounter is not None:
                owners.setdefault(t.encounter, set()).update(t.owns)
        self.owners = {e: frozenset(ids) for e, ids in owners.items()}
        self.seen_tokens = frozenset(tokens)
        self.digests = frozenset(t.digest for t in tokens)

    def _table(self, choice) -> None:
        """The table's choice as the store has it now (projections/joining.py)."""
        table = choice.encounter if choice is not None else None
        if table is not None and table != self.table:  # (None: a choice being replaced)
            self.table = table
            self._announce_table(table)

    def _announce_table(self, encounter: str | None) -> None:
        """Every open stream hears that the GM put another encounter on the table."""
        with self.guard:
            everyone = [x for group in self.listeners.values() for x in group]
        deliver(everyone, [table_message(encounter)])

    # -- publishing --------------------------------------------------------

    def _lock(self, encounter: str) -> threading.Lock:
        with self.guard:
            return self.locks.setdefault(encounter, threading.Lock())

    def _fan_out(self, encounter: str, messages: list[Message]) -> None:
        with self.guard:
            targets = list(self.listeners.get(encounter, ()))
        deliver(targets, messages)

    def appended(self, encounter: str, before: int, seq: int, view: Callable[[], Message],
                 committed: float | None = None) -> None:
        """The server appended the batch (before, seq] and knows the status
        after it (`view()` makes its Message): out at once (earlier unseen
        batches first). `committed`: when (time.perf_counter), for the
        fan-out metric."""
        with self._lock(encounter):
            known = self.published.get(encounter)
            if known is None:  # (an encounter the hub has not seen yet)
                known = 0 if self.listeners.get(encounter) else seq
            if known >= seq:
                self.published[encounter] = max(known, seq)
                return  # (out already, or nobody can have listened)
            if not self.listeners.get(encounter):  # (nobody here to tell: no status made;
                self.published[encounter] = seq  # one who comes reads it from the store)
            else:
                if known == before:
                    messages = [view()]
                else:
                    messages = [m for m in batch_statuses(self.handles.ledger(), encounter,
                                                          known, self.owned(encounter))
                                if m.seq <= seq] or [view()]
                self.published[encounter] = messages[-1].seq
                self._fan_out(encounter, messages)
        self._took("here", committed)

    def catch_up(self, ledger, encounter: str, head: int, woke: float | None = None) -> None:
        """Publish what was appended to `encounter` up to `head`, by anyone."""
        with self._lock(encounter):
            known = self.published.get(encounter)
            if known is None:  # (a new encounter: only a listener already there needs it)
                known = 0 if self.listeners.get(encounter) else head
                self.published[encounter] = known
            if head <= known:
                return
            if not self.listeners.get(encounter):  # (nobody here to tell: no fold)
                self.published[encounter] = head
                return
            messages = [m for m in batch_statuses(ledger, encounter, known, self.owned(encounter))
                        if m.seq <= head]
            if messages:
                self.published[encounter] = messages[-1].seq
                self._fan_out(encounter, messages)
        if messages:
            self._took("elsewhere", woke)

    def ended(self, encounter: str, why: str) -> None:
        """The encounter was archived or deleted: each of its open streams
        gets a last message saying so (views.ENDED) and ends."""
        with self.guard:
            group = self.listeners.get(encounter, set())
            # (a GM reading an archived encounter on purpose, ?archived=1, reads on)
            targets = [x for x in group if why == "deleted" or not x.archived]
            group.difference_update(targets)
        if why == "deleted":
            with self._lock(encounter):
                self.published.pop(encounter, None)  # (a new one of that id starts afresh)
        if targets:
            deliver(targets, [closed_message(encounter, why)])

    def _gone(self, store, heads: list[tuple[str, int]]) -> None:
        """On a look at every encounter: end the streams of those no longer
        in the store, or archived."""
        with self.guard:
            listened = [e for e, group in self.listeners.items() if group]
        if not listened:
            return
        live = {e for e, _ in heads}
        archived = store.archived()
        for encounter in listened:
            if encounter not in live:
                self.ended(encounter, "deleted")
            elif encounter in archived and any(not x.archived for x in
                                               self.listeners.get(encounter, ())):
                self.ended(encounter, "archived")

    # -- the watcher ---------------------------------------------------------

    def start(self) -> None:
        ledger = self.handles.ledger()  # (the heads before any request)
        self.published = {e.id: e.events for e in ledger.store.encounters()}
        self._tokens(ledger.store.tokens())
        self._table(ledger.store.table_choice())
        self.thread = threading.Thread(target=self._watch, name="combat-hub", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(5)

    def _watch(self) -> None:
        ledger = self.handles.ledger()
        store = ledger.store
        last_full = last_tick = 0.0
        while not self.stopping.is_set():
            changed = store.wait_changes(WATCH_S)
            now = time.monotonic()
            if now - last_tick >= TICK_S - WATCH_S:
                last_tick = now
                self.tick()
            if changed is None or now - last_full >= FULL_S:
                changed, last_full = None, now
            try:
                self.look(ledger, changed)
            except Exception:  # a damaged encounter must not stop every stream
                continue

    def tick(self) -> None:
        """Every open stream rechecks its token (one wake-up of the event
        loop for them all, where a timeout per stream and message cost a
        timer each time)."""
        with self.guard:
            everyone = [x for group in self.listeners.values() for x in group]
        deliver(everyone, [None])

    def look(self, ledger, changed: set[str] | None = None) -> None:
        """Publish what others appended: to the encounters `changed` (as the
        store's notifications name them), or to any (None), each from the
        last seq published here."""
        store = ledger.store
        woke = time.perf_counter()
        # (the tokens are read when the store says they changed, or at a look
        # at everything: not at every batch, as every server would read them all)
        tokens_changed = changed is None or TOKENS_CHANGED in changed
        encounters = set() if changed is None else changed - {TOKENS_CHANGED}
        with store.reading():  # (one snapshot: a delete ends its streams before its tokens go)
            if changed is None:
                heads = [(info.id, info.events) for info in store.encounters()]
                self._gone(store, heads)
            else:
                heads = [(e, head) for e in encounters
                         if (head := self._head(store, e)) is not None]
                for e in encounters - {e for e, _ in heads}:  # (deleted meanwhile)
                    if self.listeners.get(e):
                        self.ended(e, "deleted")
                for e, _ in heads:  # (archived by another server or the terminal)
                    if self.listeners.get(e) and store.is_archived(e):
                        self.ended(e, "archived")
            tokens = store.tokens() if tokens_changed else None
            choice = store.table_choice() if tokens_changed else None
        if tokens_changed:
            self._table(choice)
        if tokens is not None and frozenset(tokens) != self.seen_tokens:  # (an approval keeps its digest)
            gone = self.digests - frozenset(t.digest for t in tokens)
            self._tokens(tokens)
            if gone:  # every listener rechecks its token at once
                with self.guard:
                    everyone = [x for group in self.listeners.values() for x in group]
                deliver([x for x in everyone if x.digest in gone], [None])
        for encounter, head in heads:
            if head > self.published.get(encounter, -1):
                self.catch_up(ledger, encounter, head, woke)

    @staticmethod
    def _head(store, encounter: str) -> int | None:
        try:
            return store.head(encounter)[0]
        except UnknownEncounter:  # (deleted meanwhile, or a stray notification)
            return None
