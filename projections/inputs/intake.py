"""The checks a whole log passes before a store keeps it as a new
encounter (an import's, and a fork's: projections/forking.py): its hash
chain (R30), each event's fields, batches and times (R29), what each
correction corrects, and every declaration judged again in the history in
force, all or nothing."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from itertools import groupby
from operator import itemgetter
from typing import TYPE_CHECKING

from eventlog.chain import Chain
from eventlog.codec import Envelope, decode_data
from eventlog.errors import InvalidFile, Refusal
from eventlog.events import CORRECTIONS
from eventlog.language import _
from eventlog.text import check_actor, check_at, check_payload
from eventlog.undo import Corrections, UndoBook
from projections.domain.evolve import evolve
from projections.domain.rules import judge
from projections.domain.state import State

if TYPE_CHECKING:
    from eventlog.stores.log import EventLog


def store_log(store: EventLog, encounter: str, title: str, envelopes: Iterable[Envelope],
              track=None, total: int | None = None, imported: bool | int = True) -> State:
    """Check (chain, batches, corrections, times), re-judge and store a log
    of envelopes as the new encounter `encounter`, all or nothing: an
    import's path, and a fork's (projections/forking.py)."""
    track = track or (lambda items, total, what: items)
    intake = _Intake()

    def judged(rows) -> State:
        return _judged(track(rows, intake.count, "judging"), intake.book, encounter)
    checked = intake.checked(envelopes)
    return store.import_log(encounter, title, track(checked, total, "verifying"),
                            judged, imported)


class _Intake:
    """The checks an event passes as it is read: the hash chain (R30), then
    its batch and, for an undo, redo or amendment, what it corrects (the
    same check a live correction passes, UndoBook.problem). Keeps the
    corrections, for the judging that follows."""

    def __init__(self) -> None:
        self.chain, self.book = Chain(), UndoBook()
        self.count = 0

    def checked(self, envelopes) -> Iterator[Envelope]:
        last = None
        for env in envelopes:
            try:
                bad = self.chain.check(env.seq, env.batch, env.type, env.at, env.actor,
                                       env.data, env.prev_hash, env.hash)
            except UnicodeEncodeError:  # a lone surrogate, \ud800: JSON allows it, UTF-8 not
                raise InvalidFile(_("event {seq}: its text is not valid Unicode").format(
                    seq=env.seq)) from None
            if bad is not None:
                raise InvalidFile(_("the hash chain is broken at seq {seq}: {problem} (R30)")
                                  .format(seq=bad.first_bad_seq, problem=bad.problem))
            _check_envelope(env)
            _check_time(env, last)
            alone = env.type in CORRECTIONS
            if env.batch != env.seq and (last is None or env.batch != last.batch or alone):
                raise InvalidFile(_("event {seq}: batch {batch} is not the batch of the "
                                    "event before it").format(seq=env.seq, batch=env.batch))
            if env.seq > 1 and env.type == "EncounterCreated":
                raise InvalidFile(_("event {seq}: a second {type}").format(
                    seq=env.seq, type="EncounterCreated"))
            if env.batch == env.seq:
                if alone:
                    problem = self.book.problem(env.data)
                    if problem is not None:
                        raise InvalidFile(_("event {seq}: {problem}").format(
                            seq=env.seq, problem=problem))
                self.book.record(env.batch, env.type, env.data if alone else None)
            self.count, last = env.seq, env
            yield env


def _check_envelope(env: Envelope) -> None:
    """Every field of an event, not only its data: a re-hashed log could
    otherwise carry any string as `at` or `actor` into the exports (R29)."""
    try:
        check_at(env.at)
        check_actor(env.actor)
        check_payload(env.data)
    except Refusal as exc:
        raise InvalidFile(_("event {seq}: {problem}").format(seq=env.seq, problem=exc)) from None


# An imported log's clock: a store writes `at` when it
# appends, so a log's times never run back further than a clock set back a
# little, and none is later than now (a year-9999 event made `stats` report
# an 8,000-year fight).
CLOCK_SLACK = timedelta(minutes=5)


def _check_time(env: Envelope, last: Envelope | None) -> None:
    at = _when(env.at)
    if at > datetime.now(UTC) + CLOCK_SLACK:
        raise InvalidFile(_("event {seq}: its time {at} is in the future (R29)").format(
            seq=env.seq, at=env.at))
    if last is not None and at < _when(last.at) - CLOCK_SLACK:
        raise InvalidFile(_("event {seq}: its time {at} runs backwards, before event "
                            "{before}'s {then} (R29)").format(seq=env.seq, at=env.at,
                                                              before=last.seq, then=last.at))


def _when(at: str) -> datetime:
    return datetime.fromisoformat(at[:-1]).replace(tzinfo=UTC)


def _judged(rows, fixes: Corrections, encounter: str) -> State:
    """Fold the stored (seq, batch, type, data) rows' history in force
    through the judge, so a log can never hold an illegal move."""
    from projections.history import keep
    state = State(encounter)
    kept = fixes.kept
    for batch, group in groupby(rows, key=itemgetter(1)):
        batch_rows = list(group)
        keep(state, kept.get(batch, ()))  # R28a
        state.seq = batch_rows[-1][0]
        if batch in fixes.undone or batch_rows[0][2] in CORRECTIONS:
            continue
        for payload in fixes.replaced.get(batch) or [
                decode_data(type_name, data) for _seq, _batch, type_name, data in batch_rows]:
            try:
                judge(state, payload)
            except Refusal as exc:
                raise InvalidFile(_("event {seq} ({type}) is illegal: {problem}").format(
                    seq=batch, type=type(payload).__name__, problem=exc)) from None
            evolve(state, payload)
    return state
