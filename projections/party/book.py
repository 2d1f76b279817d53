"""The party's stream in the store: folded, judged and appended as an
encounter's log is (the same chain, codec, markers and store calls), under
the reserved id PARTY_STREAM. A store made before the party existed has no
such stream: its party is empty until the first declaration creates it."""
from __future__ import annotations

from collections.abc import Callable, Collection

from eventlog.codec import Envelope
from eventlog.errors import Conflict, Refusal, UnknownEncounter
from eventlog.language import N_, _, n_
from eventlog.events import MARKERS, EncounterCreated, FightStarted, Payload, Redone, Undone
from eventlog.stores.contract import EventStore
from eventlog.stores.records import PARTY_STREAM
from eventlog.undo import UndoBook
from projections.history import corrections, envelope
from projections.party.state import Party, evolve, judge

MAX_ATTEMPTS = 20
Decide = Callable[[Party], list[Payload]]


class PartyBook:
    """The party of one store: what it is (now or at a seq) and how it changes."""

    def __init__(self, store: EventStore):
        self.store = store

    def head(self) -> int:
        try:
            return self.store.head(PARTY_STREAM)[0]
        except UnknownEncounter:
            return 0

    def state(self, at: int | None = None,
              running: Callable[[str], Collection[str]] | None = None) -> Party:
        """The party now, or as it stood at its seq `at`. `running(fight)`
        says which of its characters a fight it started holds now (an ended
        or deleted one holds nobody, one whose end was undone after its carry
        holds them again); by default the fold's word stands."""
        with self.store.reading():
            head = self.head()
            if at is not None and not 1 <= at <= head:
                raise Refusal((_("seq {seq} is not in the party's log (1 to {head})") if head else
                               _("seq {seq} is not in the party's log (it is empty)")).format(
                                   seq=at, head=head))
            upto = head if at is None else self.store.batch_end(PARTY_STREAM, at)
            party = Party()
            if head:
                undone = corrections(self.store, PARTY_STREAM, upto).undone
                for row in self.store.rows(PARTY_STREAM, upto=upto):
                    env = envelope(row)
                    party.seq = env.seq
                    if env.type in MARKERS or env.batch in undone or isinstance(
                            env.data, EncounterCreated):
                        continue
                    evolve(party, env.data)
        if running is not None:
            party.fights = self._held(party, running)
        return party

    def _held(self, party: Party, running: Callable[[str], Collection[str]]) -> dict[str, list[str]]:
        """The fights that hold party characters now: those the fold says
        run, and those carried or released that have gone on since (an `end`
        undone), each asked."""
        held = {}
        for fight, started in party.started.items():
            if fight not in party.fights and not self._went_on(fight, party.carried.get(fight)):
                continue
            now = running(fight)
            ids = [cid for cid in started.characters if cid in now]
            if ids:
                held[fight] = ids
        return held

    def _went_on(self, fight: str, carried: int | None) -> bool:
        """Whether `fight` has entries after the seq it was carried at."""
        try:
            return self.store.head(fight)[0] > (carried or 0)
        except UnknownEncounter:
            return False

    def check(self, payloads: list, running: Callable[[str], Collection[str]] | None = None) -> None:
        """Raise the Refusal `declare` would give these payloads now; append
        nothing (what must not be kept for a refused declaration is checked
        first: a portrait)."""
        with self.store.reading():
            party = self.state(running=running)
        for p in payloads:
            judge(party, p)
            evolve(party, p)

    def declare(self, decide: Decide, actor: str,
                running: Callable[[str], Collection[str]] | None = None) -> tuple[Party, list[Envelope]]:
        """Fold, decide, judge and append in one read snapshot (a Conflict:
        again from the fold). The party after, and what was appended."""
        for _attempt in range(MAX_ATTEMPTS):
            with self.store.reading():
                party = self.state(running=running)
                payloads = decide(party)
                for p in payloads:
                    judge(party, p)
                    evolve(party, p)
            if not payloads:
                return party, []
            try:
                if not party.seq:
                    self._create(actor)
                    continue
                envs = self.store.append(PARTY_STREAM, party.seq, payloads, actor)
            except Conflict:
                continue
            party.seq = envs[-1].seq
            return party, envs
        raise Conflict(_("the party is changing too fast: gave up; try again"))

    def _create(self, actor: str) -> None:
        try:
            self.store.create(PARTY_STREAM, EncounterCreated(encounter=PARTY_STREAM,
                                                             title="The party"), actor)
        except Refusal:
            pass  # (made meanwhile by another command: fold again)

    def undo(self, actor: str, reason: str = "",
             running: Callable[[str], Collection[str]] | None = None) -> tuple[Party, list[Envelope]]:
        """`party undo`: the party's latest declaration in force is taken back
        (never a running fight's start: the fight holds its characters)."""
        def marker(book) -> Undone:
            batch = _target(book.undo_target(), N_("nothing in the party to undo"))
            started = [e.data for e in map(envelope, self.store.rows(
                PARTY_STREAM, after=batch - 1, upto=self.store.batch_end(PARTY_STREAM, batch)))
                if isinstance(e.data, FightStarted)]
            if started and running is not None and running(started[0].encounter):
                raise Refusal(_("the party's latest declaration started fight {fight}, which is "
                                "running: end it (or delete it) first").format(
                                    fight=started[0].encounter))
            return Undone(batches=[batch], reason=reason)
        return self._correct(actor, marker)

    def redo(self, actor: str) -> tuple[Party, list[Envelope]]:
        """`party redo`: the party's most recently undone declaration again."""
        return self._correct(actor, lambda book: Redone(batch=_target(
            book.redo_target(), N_("nothing in the party to redo"))))

    def _book(self) -> UndoBook:
        """The party's batches and markers: what undo and redo act on."""
        markers = {r.seq: envelope(r).data for r in self.store.markers(PARTY_STREAM)}
        book = UndoBook()
        for batch, type_name in self.store.batch_heads(PARTY_STREAM):
            book.record(batch, type_name, markers.get(batch))
        return book

    def _correct(self, actor: str, marker) -> tuple[Party, list[Envelope]]:
        for _attempt in range(MAX_ATTEMPTS):
            with self.store.reading():
                head = self.head()
                if not head:
                    raise Refusal(_("the party has no declarations yet"))
                mark = marker(self._book())
            try:
                envs = self.store.append(PARTY_STREAM, head, [mark], actor)
            except Conflict:
                continue
            return self.state(), envs
        raise Conflict(_("the party is changing too fast: gave up; try again"))


def _target(batch: int | None, nothing: str) -> int:
    if batch is None:
        raise Refusal(_(nothing))
    return batch


def verified(store: EventStore) -> tuple[dict, str, str | None]:
    """`verify --party`: the party's hash chain (R30) as `verify --json`
    shows it, the line that says it holds, and the error when it does not."""
    import msgspec

    from eventlog.chain import verify_chain
    if not PartyBook(store).head():
        return {"party": True, "ok": True, "events": 0}, _("ok: the party's log is empty"), None
    verdict = verify_chain(store.rows(PARTY_STREAM), store.head(PARTY_STREAM))
    view = {"party": True, **msgspec.structs.asdict(verdict)}
    said = n_("ok: {n} events of the party, hash chain intact (head {head}…)",
              "ok: {n} events of the party, hash chain intact (head {head}…)",
              verdict.events).format(n=verdict.events, head=verdict.head_hash[:12])
    if not verdict.ok:
        return view, said, _("the party's log is broken at seq {seq}: {problem} (R30)").format(
            seq=verdict.first_bad_seq, problem=verdict.problem)
    return view, said, None
