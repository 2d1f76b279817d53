"""The one entry point: `Ledger.execute(encounter, command, actor)` folds the
encounter, decides what the command declares, judges it, and appends it with
the optimistic retry; every client (the CLI, play mode, the demo, imports,
the table server) goes through it. Reads for one attempt see one snapshot of
the store, so no check is made against one read and appended against another.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, cast

import msgspec

from eventlog.codec import Envelope, envelope_dict
from eventlog.errors import Conflict, LedgerError, Refusal, UnknownEncounter
from eventlog.language import _
from eventlog.events import (
    MARKERS, Amended, CombatantJoined, EncounterCreated, Payload, Redone, Undone,
)
from eventlog.stores.records import PARTY_STREAM
from eventlog.undo import Corrections, UndoBook
from projections import snapshot as snapshots
from projections.domain import commands as c
from projections.domain.state import State
from projections.outcome import Outcome, apply  # (re-exported: clients import them here)
from projections.history import corrections, envelope, fold

if TYPE_CHECKING:  # the Protocol, for annotations only (typing's machinery: ~1 ms)
    from eventlog.stores.contract import EventStore

MAX_ATTEMPTS = 50


def roll_d10() -> int:
    """A d10 rolled by the program (R1); `random` only loads for a roll."""
    import random
    return random.SystemRandom().randint(1, 10)


class Ledger:
    def __init__(self, store: EventStore):
        self.store = store

    # -- reading ---------------------------------------------------------

    def head(self, encounter: str) -> tuple[int, str]:
        """An encounter's (seq, hash); UnknownEncounter for none (the party's log too)."""
        _not_party(encounter)
        return self.store.head(encounter)

    def state(self, encounter: str, at: int | None = None) -> State:
        """The folded state, now or as it stood at seq `at` (R31). Now: from
        the kept snapshot and the markers since it, so a command's cost does
        not grow with the log's length."""
        _not_party(encounter)
        with self.store.reading():
            head, _hash = self.store.head(encounter)
            if at is not None and not 1 <= at <= head:
                raise Refusal(_("seq {seq} is not in the log of {encounter} (1 to {head})")
                              .format(seq=at, encounter=encounter, head=head))
            if at is not None:  # a command's batch was shown whole: its last event
                at = self.store.batch_end(encounter, at)
            kept = self._snapshot(encounter, head) if at is None else None
            if kept is not None:
                start, fixes = kept
                state = fold(self.store, encounter, fixes, start, after=start.seq)
            else:
                state = fold(self.store, encounter, corrections(self.store, encounter, at),
                             State(encounter), at)
        state.seq = head if at is None else at
        return state

    def _snapshot(self, encounter: str, head: int) -> tuple[State, Corrections] | None:
        """The kept snapshot to fold on from and the corrections since it, if
        it still holds (no later marker reaches back before it) and its seal
        says this machine wrote it; else None (fold from the start)."""
        snap = self.store.snapshot(encounter, snapshots.FOLD_VERSION)
        if not snap or snap.seq > head:
            return None
        fixes = corrections(self.store, encounter, after=snap.seq)
        if fixes.reaches_back(snap.seq):
            return None
        blob = bytes(snap.state)
        seal, body = blob[:32].decode("ascii", "replace"), blob[32:]
        if seal != snapshots.seal(encounter, snap.seq, snap.hash, body):
            return None
        try:
            state = snapshots.decode(body, encounter)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            return None
        state.seq = snap.seq
        return state, fixes

    def snapshot_problem(self, encounter: str) -> str | None:
        """Verification of the kept snapshot (R30, R31): refold the log up to
        its seq and compare. A snapshot that does not hold is never used
        (its seal, or a later correction, says so); one whose state the
        events do not give was tampered with: said here."""
        with self.store.reading():
            snap = self.store.snapshot(encounter, snapshots.FOLD_VERSION)
            if snap is None:
                return None
            if corrections(self.store, encounter, after=snap.seq).reaches_back(snap.seq):
                return None  # taken before a correction of its past: set aside already
            truth = fold(self.store, encounter, corrections(self.store, encounter, snap.seq),
                         State(encounter), snap.seq)
        truth.seq = snap.seq
        try:  # (compared as states: sets keep no order in their bytes)
            kept = snapshots.decode(bytes(snap.state)[32:], encounter)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            kept = None
        if kept != truth:
            return _("the snapshot kept at seq {seq} is not the state its events give: it was "
                     "changed behind the ledger's back and is not used").format(seq=snap.seq)
        return None

    def _maker(self, encounter: str, state: State):
        body = snapshots.encode(state)
        return snapshots.FOLD_VERSION, lambda seq, digest: (
            snapshots.seal(encounter, seq, digest, body).encode("ascii") + body)

    def keep_snapshot(self, encounter: str, state: State) -> None:
        """Keep `state` (folded in full, at its seq) as the snapshot to start from."""
        self.store.save_snapshot(encounter, state.seq, *self._maker(encounter, state))

    def corrections(self, encounter: str, at: int | None = None,
                    after: int = 0) -> Corrections:
        return corrections(self.store, encounter, at, after)

    def events(self, encounter: str) -> Iterator[tuple[Envelope, bool]]:
        """Every stored event with its derived `undone` flag."""
        _not_party(encounter)
        head, _hash = self.store.head(encounter)  # the log only grows: read up to here
        undone = self.corrections(encounter, head).undone
        for row in self.store.rows(encounter, upto=head):
            env = envelope(row)
            yield env, env.batch in undone and env.type not in MARKERS

    def event_dicts(self, encounter: str, after: int = 0) -> list[dict]:
        """`log --json`: the events after seq `after`."""
        imported = self.store.imported(encounter)
        return [envelope_dict(env, undone, env.seq <= imported)
                for env, undone in self.events(encounter) if env.seq > after]

    def batch(self, encounter: str, batch: int) -> list[Envelope]:
        out = []
        for row in self.store.rows(encounter, after=batch - 1):
            if row.batch != batch:
                break
            out.append(envelope(row))
        return out

    def book(self, encounter: str, at: int | None = None) -> UndoBook:
        """The corrections and batches, of the whole log or up to seq `at`
        (what a console showed: its undo takes back what it saw)."""
        markers = {r.seq: envelope(r).data for r in self.store.markers(encounter, at)}
        book = UndoBook()
        for batch, type_name in self.store.batch_heads(encounter):
            if at is not None and batch > at:
                break
            book.record(batch, type_name, markers.get(batch))
        return book

    # -- executing -------------------------------------------------------

    def execute(self, encounter: str | None, command: c.Command, actor: str = "gm",
                dice=roll_d10, permit=None, gm: bool | None = None) -> Outcome:
        """Execute `command` in `encounter` as `actor`: the one path every
        client takes. Refusal when the rules forbid it (nothing appended).

        `permit(state, command)`, when given, runs on the very state the
        command is decided on, before anything is appended, and raises to
        refuse it (the table server: which combatants a token declares for,
        `decide.who`). `gm` says whether the actor is the GM (a token's role);
        by default the actor named gm is (R3c)."""
        if isinstance(command, c.PARTY):
            return self._party(encounter, command, actor)
        if isinstance(command, c.New):
            if command.party is not None:  # (projections/party/fights.py)
                from projections.party.fights import start
                return start(self, command, actor)
            return self._new(command, actor)
        if encounter is None:
            raise LedgerError(_("no current encounter: start one with `combat new ID`"))
        _not_party(encounter)
        if isinstance(command, c.CORRECTING):
            return self._correct(encounter, command, actor)
        if isinstance(command, c.Fork):
            from projections.forking import take
            return Outcome(*take(self, encounter, command, actor), [])
        from projections.domain.decide import decide
        deciding = "gm" if gm else actor
        if getattr(command, "dry_run", False):
            return self._dry(encounter, command, dice, deciding, permit)

        def decided(state: State) -> list[Payload]:
            # (a permit may give the command back as its token reads it)
            chosen = (permit(state, command) or command) if permit is not None else command
            return decide(state, chosen, dice, deciding)
        state, after, envs = self._decided(encounter, decided, actor)
        if isinstance(command, c.Rename):  # the title `encounters()` lists
            self.store.retitle(encounter, after.title)
        if isinstance(command, c.End):
            from projections.party.fights import ended
            return Outcome(after, envs, [], state, carried=ended(self, encounter, command, actor))
        return Outcome(after, envs, [], state)

    def _party(self, encounter: str | None, command: c.Command, actor: str) -> Outcome:
        """A declaration on the party's log (projections/party/commands.py)."""
        from projections.party.commands import declared
        said, envs = declared(self, command, actor)
        try:
            state = self.state(encounter) if encounter is not None else State()
        except UnknownEncounter:
            state = State()
        return Outcome(state, envs, [], state, party=said)

    def _dry(self, encounter: str, command: c.Command, dice, deciding: str,
             permit) -> Outcome:
        """Decide and judge `command` as execute would, and append nothing:
        what it would change (`round --dry-run`)."""
        from projections.domain.decide import decide
        from projections.domain.dryrun import would_round
        with self.store.reading():
            state = self.state(encounter)
            if permit is not None:
                command = permit(state, command) or command
            after = apply(state, decide(state, command, dice, deciding))
        return Outcome(after, [], [], state, would_round(state, after))

    def declare(self, encounter: str, decide, actor: str) -> tuple[State, list[Envelope]]:
        """Judge and append the payloads `decide(state)` gives (bulk loads,
        tests): execute's path for events already decided."""
        _before, after, envs = self._decided(encounter, decide, actor)
        return after, envs

    def _decided(self, encounter: str, decide, actor: str) -> tuple[State, State, list[Envelope]]:
        """Fold, decide, judge and append in one read snapshot; on a Conflict
        start again from the fold. (state decided on, state after, appended)"""
        for _attempt in range(MAX_ATTEMPTS):
            with self.store.reading():
                state = self.state(encounter)
                payloads = decide(state)
                after = apply(state, payloads)
            after.seq = state.seq + len(payloads)
            try:
                envs = self.store.append(encounter, state.seq, payloads, actor,
                                         self._maker(encounter, after))
            except Conflict:
                continue
            return state, after, envs
        raise self._too_fast(encounter)

    def _new(self, command: c.New, actor: str) -> Outcome:
        from projections.domain.asks import check_new
        from projections.domain.decide import decide
        check_new(command.id, command.title)
        created = EncounterCreated(encounter=command.id, title=command.title)
        state = apply(State(command.id), [created])
        joining: list[Payload] = []
        source = None
        if command.roster is not None:
            joining = decide(state, command.roster, roll_d10)
            apply(state, joining)  # refused before anything is created
        if command.carry_grit is not None:
            source = self.state(command.carry_grit)
        envs = [self.store.create(command.id, created, actor)]
        state, more = self.declare(command.id, lambda s: joining, actor) if joining else (
            self.state(command.id), [])
        envs += more
        if source is not None:
            from projections.domain.loading import carried_grit
            ids = [e.data.id for e in more if isinstance(e.data, CombatantJoined)]
            if carried_grit(state, source, command.carry_grit, ids):
                state, grit = self.declare(
                    command.id, lambda s: carried_grit(s, source, command.carry_grit, ids),
                    actor)
                envs += grit
        return Outcome(state, envs, [])

    # -- keeping the store tidy (the docs) -----------------------------

    def set_archived(self, encounter: str, archived: bool) -> None:
        """`archive ID` / `unarchive ID`: out of `list`, the pages' pickers and
        what tokens reach, or back; the log is kept whole."""
        self.store.head(encounter)  # an unknown encounter is refused
        self.store.set_archived(encounter, archived)

    def delete(self, encounter: str, confirm: str) -> int:
        """`delete ID --confirm ID`: the whole encounter leaves the store (the
        only deletion, never part of a log), once its id is typed twice; with
        it go the tokens and join requests that reach it alone, so a new
        encounter under the same id is reached by none of them. How many
        tokens ended."""
        self.store.head(encounter)
        if confirm != encounter:
            raise Refusal(_("delete removes the whole log of {encounter} from the store: confirm "
                            "with --confirm {encounter}").format(encounter=encounter))
        ended = sum(1 for t in self.store.tokens() if t.encounter == encounter
                    and t.role in ("gm", "player", "view", "metrics"))
        self.store.delete(encounter)
        return ended

    def new(self, encounter: str, title: str, actor: str) -> State:
        return self.execute(None, c.New(id=encounter, title=title), actor).state

    def _correct(self, encounter: str, command: c.Command, actor: str) -> Outcome:
        from projections.correcting import decide_correction
        for _attempt in range(MAX_ATTEMPTS):
            with self.store.reading():
                head, _hash = self.store.head(encounter)
                book = self.book(encounter)
                state = self.state(encounter)
                marker = decide_correction(
                    command, book, head, state,
                    lambda: self.store.rows(encounter),
                    lambda b: self.batch(encounter, b), encounter)
                touched = [env for b in _touched(marker) for env in self.batch(encounter, b)]
                if getattr(command, "dry_run", False):
                    return self._dry_correction(encounter, book, head, marker, touched, state)
            try:
                envs = self.store.append(encounter, head, [marker], actor)
            except Conflict:
                continue
            after = self.state(encounter)
            self.keep_snapshot(encounter, after)
            return Outcome(after, envs, touched, state, carried=_offer(self, encounter, after))
        raise self._too_fast(encounter)

    def _dry_correction(self, encounter: str, book: UndoBook, head: int, marker: Payload,
                        touched: list[Envelope], state: State) -> Outcome:
        """The state the correction would give (its marker in force, folded
        from the start), and what it would change; nothing appended."""
        from projections.domain.dryrun import would_correct
        fixes = Corrections(book.items)
        fixes.add(head + 1, marker)
        after = fold(self.store, encounter, fixes, State(encounter))
        after.seq = head
        return Outcome(after, [], touched, state, would_correct(marker, touched, state, after))

    @staticmethod
    def _too_fast(encounter: str) -> Conflict:
        return Conflict(_("{encounter} is changing too fast: gave up after {n} attempts; try "
                          "again").format(encounter=encounter, n=MAX_ATTEMPTS))

    # -- the old spellings, for scripts and tests ------------------------

    def undo(self, encounter: str, actor: str, reason: str = "") -> tuple[State, list[Envelope]]:
        out = self.execute(encounter, c.Undo(reason=reason), actor)
        return out.state, out.touched

    def redo(self, encounter: str, actor: str) -> tuple[State, list[Envelope]]:
        out = self.execute(encounter, c.Redo(), actor)
        return out.state, out.touched

    def retract(self, encounter: str, seq: int, cascade: bool, actor: str,
                reason: str = "") -> tuple[State, list[int]]:
        out = self.execute(encounter, c.Retract(seq=seq, cascade=cascade, reason=reason), actor)
        return out.state, list(cast(Undone, out.events[0].data).batches)


def _offer(ledger: Ledger, encounter: str, after: State) -> list[str] | None:
    """A correction to an ended fight of party characters offers to carry
    what it changed for them (projections/party/fights.py)."""
    if not (after.ended and after.party):
        return None
    from projections.party.fights import offered
    return offered(ledger, encounter)


def _not_party(encounter: str) -> None:
    """The party's log is no encounter (projections/party reads it)."""
    if encounter == PARTY_STREAM:
        raise UnknownEncounter(_("no encounter {encounter!r}: the party's log is `combat party`")
                               .format(encounter=encounter))


def _touched(marker: Payload) -> list[int]:
    """The batches a correction marker acts on (an amendment: the one it corrects)."""
    batches = getattr(marker, "batches", None)
    if batches is not None:
        return list(batches)
    return [cast("Amended | Redone", marker).batch, *getattr(marker, "retracted", ()),
            *(b for b, _moved in getattr(marker, "also", ()))]  # a moved turn (R28b)
