"""Corrections decided over the history (R26-R28): undo, redo, retraction
and amendment. A correction changes the past, so it is judged by folding the
whole history with it in force: it is accepted only if every declaration
still in force stays legal. A refusal lists the first ten that would not
(and how many there are); `--cascade` retracts them in the same append.

`decide_correction` is pure: the book, the log and the state come in.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Set as AbstractSet
from itertools import tee
from typing import NamedTuple, Protocol, cast

import msgspec

from eventlog.codec import Envelope
from eventlog.errors import Refusal
from eventlog.language import N_, _, n_
from eventlog.events import (
    MARKERS,
    Amended,
    APSpent,
    CombatantLeft,
    Event,
    FreeActionTaken,
    Payload,
    Redone,
    TurnEnded,
    Undone,
)
from eventlog.stores.contract import StoredEvent
from eventlog.undo import Corrections, UndoBook
from projections.domain import commands as c
from projections.domain.evolve import evolve
from projections.domain.phrases import correction
from projections.domain.rules import judge
from projections.domain.state import KEPT_COMPLETE, State
from projections.casualties import Casualties, Casualty
from projections.history import batches

class Trial(NamedTuple):
    """The history re-judged with a correction in force: the declarations
    it would make illegal, and the turns it keeps ended (R28a) as a marker's
    `kept`."""
    lost: list[Casualty]
    kept: list[tuple[int, str]]


class _Actor(Protocol):  # a declaration about one combatant
    combatant: str


def casualties(log: Iterable[StoredEvent | Envelope], fixes: Corrections, encounter: str,
               target: int | None = None) -> list[Casualty]:
    """The declarations `fixes` would make illegal (see `rejudge`)."""
    return rejudge(log, fixes, fixes, encounter, set() if target is None else {target}).lost


def rejudge(log: Iterable[StoredEvent | Envelope], lived_fixes: Corrections, fixes: Corrections,
            encounter: str, targets: AbstractSet[int] = frozenset(), end: int | None = None,
            moving: str = "") -> Trial:
    """Fold the history twice in step: as the table lived it (`lived_fixes`)
    and as `fixes` would put it, judging every batch of the latter; a refused
    batch is listed and left out. Where the table saw a turn end by itself or
    a slot skipped and the correction left that combatant AP, the turn is
    kept ended there (R28a). A refusal of a batch in `targets` (an amended
    declaration) is the amendment's own: it is raised. `end`: the batch the
    correction itself will be (turns are kept ended up to it)."""
    from projections.history import keep
    lived, state = State(encounter), State(encounter)
    lost: list[Casualty] = []
    kept: list[tuple[int, str]] = []
    declared: set[tuple[int, int, str]] = set()  # turns the table saw ended by a declaration
    moved: dict[tuple[int, int, str], str] = {}  # a turn given to C there was A's (R28b)
    one, two = tee(log)
    apart = False  # the two histories have parted (until then they fold alike)
    for was, b in zip(batches(one, lived_fixes), batches(two, fixes)):
        keep(lived, was.kept)
        keep(state, b.kept)
        apart = apart or was.payloads != b.payloads or was.kept != b.kept
        if apart:
            kept += [(b.batch, cid) for cid in _keep_lived(lived, state, declared, moved)]
        _moving(lived, was.payloads, b.payloads, declared, moved)
        if b.payloads is not None:
            trial = _clone(state) if len(b.payloads) > 1 else state
            try:
                for p in b.payloads:
                    judge(trial, p)
                    evolve(trial, p)
            except Refusal as exc:
                if b.batch in targets:
                    raise _own(b.events[0].seq, exc, moving) from None
                lost.append(Casualty(b.events[0], b.payloads[0], str(exc)))
            else:  # (a one-event batch is refused by its judge before it evolves)
                state = trial
        for p in was.payloads or ():
            if isinstance(p, (TurnEnded, CombatantLeft)):
                declared.add((lived.round, lived.pass_, p.combatant))
            evolve(lived, p)
    if end is not None and apart:
        kept += [(end, cid) for cid in _keep_lived(lived, state, declared, moved)]
    return Trial(lost, kept)


IN_A_TURN = (APSpent, FreeActionTaken, TurnEnded)


def _moving(lived: State, was: list[Payload] | None, now: list[Payload] | None,
            declared: set, moved: dict) -> None:
    """A declaration moved to another combatant (R28b) moves the turn the
    table saw end with it: the one it was taken from has had no turn there
    (kept out of `declared`'s reach), the one it was given to has (`moved`)."""
    if not was or not now or len(was) != len(now):
        return
    for old, new in zip(was, now):
        if not isinstance(old, IN_A_TURN) or not isinstance(new, IN_A_TURN):
            continue  # (an interrupt is taken outside a turn: it moves none)
        a, b = old.combatant, new.combatant
        if a != b:
            where = (lived.round, lived.pass_)
            declared.add((*where, a))
            moved[(*where, b)] = a


def _own(seq: int, exc: Refusal, moving: str) -> Refusal:
    if moving:
        return Refusal(_("{id} could not have taken that turn there: {why} (R28b)").format(
            id=moving, why=exc))
    return Refusal(_("the correction of seq {seq} is itself illegal: {why}").format(
        seq=seq, why=exc))


def _keep_lived(lived: State, state: State, declared: set, moved: dict) -> list[str]:
    """Turns of `state` the table saw end by themselves or skipped (in
    `lived`), now kept ended; "" for a pass kept begun, KEPT_COMPLETE for a
    round kept complete in the pass it was (R28a)."""
    out: list[str] = []
    for _step in range(len(state.combatants) + 2):
        if state.round != lived.round or state.ended or not state.round:
            break
        if state.round_complete:
            if lived.pass_ <= state.pass_ or not state.keep_ended(""):
                break
            out.append("")
            continue
        if lived.round_complete and state.pass_ > lived.pass_:
            if state.keep_ended(KEPT_COMPLETE):  # the pass did not begin at the table
                out.append(KEPT_COMPLETE)
            break
        where = (state.round, state.pass_)
        cid = next((c for c in state.up() if (*where, c) not in declared
                    and _lived_past(lived, state, c, moved.get((*where, c)))), None)
        if cid is None or not state.keep_ended(cid):
            break
        out.append(cid)
    return out


def _lived_past(lived: State, state: State, cid: str, was: str | None = None) -> bool:
    """Had the table gone past `cid`'s turn in `state`'s pass? (`was`: whose
    turn it was at the table, when it has moved to `cid`, R28b.)"""
    if lived.round_complete or lived.pass_ > state.pass_:
        return True
    if lived.pass_ < state.pass_ or cid not in lived.combatants:
        return False
    if was is not None and was in lived.done:
        return True
    return cid in lived.done or lived.slot_of(cid) in lived.passed


def _clone(state: State) -> State:
    from projections.snapshot import clone
    return clone(state)


def _with(book: UndoBook, head: int, marker: Payload) -> Corrections:
    """The corrections as they would stand with `marker` as the next batch."""
    trial = Corrections(book.items)
    trial.add(head + 1, marker)
    return trial


_MARKER = {"retracted": N_("seq {seq} is an undo, redo or retraction marker: it cannot be "
                           "retracted; undo takes a retraction back (R26-R28)"),
           "amended": N_("seq {seq} is an undo, redo or retraction marker: it cannot be "
                         "amended; undo takes a retraction back (R26-R28)")}
_CREATED = {"retracted": N_("creating the encounter cannot be retracted (R26)"),
            "amended": N_("creating the encounter cannot be amended (R26)")}


def _target(book: UndoBook, seq: int, head: int, encounter: str, doing: str) -> int:
    """The batch holding `seq`, checked as a declaration one may change."""
    if not 1 <= seq <= head:
        raise Refusal(_("there is no seq {seq} in the log of {encounter} (1 to {head})").format(
            seq=seq, encounter=encounter, head=head))
    target, kind = next((b, t) for b, t in book.heads() if b <= seq)
    if kind in MARKERS:
        raise Refusal(_(_MARKER[doing]).format(seq=seq))
    if kind == "EncounterCreated":
        raise Refusal(_(_CREATED[doing]))
    if kind == "Amended":
        raise Refusal(_("seq {seq} is an amendment: amend the original declaration instead, "
                        "or undo the amendment (R26, R28)").format(seq=seq))
    if target in book.undone:
        raise Refusal(_("seq {seq} is already undone or retracted (R28)").format(seq=seq))
    return target


def decide_correction(command: c.Command, book: UndoBook, head: int, state: State,
                      log: Callable[[], Iterable[StoredEvent | Envelope]],
                      batch_of: Callable[[int], list[Envelope]],
                      encounter: str) -> Payload:
    """The marker that `command` (Undo, Redo, Retract or Amend) appends, or a
    Refusal citing the rule. `log()` streams the whole stored log, and
    `batch_of(b)` the events of batch b, as of the same snapshot as `book`."""
    if isinstance(command, c.Undo):
        target = book.undo_target()
        if target is None:
            raise Refusal(_not_seen(command.expect, "undo")
                          or _("nothing to undo: creating the encounter cannot be undone (R26)"))
        _expected(command.expect, target, batch_of, "undo")
        marker: Payload = Undone([target], "undo", command.reason)
        if book.kind(target) in ("Undone", "Amended"):  # the past changes again
            _refuse_casualties(log, _with(book, head, marker), encounter, "undo", target)
        return marker
    if isinstance(command, c.Redo):
        target = book.redo_target()
        if target is None:
            raise Refusal(_not_seen(command.expect, "redo")
                          or _("nothing to redo: redo follows an undo, before anything new is "
                               "declared (R27)"))
        _expected(command.expect, target, batch_of, "redo")
        marker = Redone(target)
        if book.kind(target) in ("Undone", "Amended"):
            _refuse_casualties(log, _with(book, head, marker), encounter, "redo", target)
        else:
            trial = _clone(state)
            for p in [e.data for e in batch_of(target)]:
                judge(trial, p)
                evolve(trial, p)
        return marker
    if isinstance(command, c.Retract):
        target = _target(book, command.seq, head, encounter, "retracted")
        marker = Undone([target], "retract", command.reason)
        lost, kept = rejudge(log(), book, _with(book, head, marker), encounter, end=head + 1)
        if lost and not command.cascade:
            raise Casualties("retract", target, lost,
                             N_("Retract them too with --cascade (R28)"))
        return Undone([target, *(x.env.batch for x in lost)], "retract", command.reason,
                      kept)
    if isinstance(command, c.Amend):
        from projections.domain.ids import resolved
        return _amendment(resolved(state, command), book, head, log, batch_of, encounter)
    raise Refusal(_("`{command}` is not a correction").format(
        command=command.__struct_config__.tag))


def _expected(expect: int | None, target: int, batch_of: Callable[[int], list[Envelope]],
              verb: str) -> None:
    """Refuse an undo or redo that would act on another batch than the one
    the person saw (`--expect`): a declaration that landed, or a second
    console's Ctrl-Z, in between must not be the one taken back."""
    if expect is None or expect == target:
        return
    if verb == "undo":
        said = _("the latest declaration is now seq {seq} ({reads}), not seq {expect}: "
                 "nothing undone (R26)")
    else:
        said = _("the latest undone declaration is now seq {seq} ({reads}), not seq "
                 "{expect}: nothing redone (R27)")
    raise Refusal(said.format(seq=target, reads=_reads(batch_of(target)), expect=expect))


def latest(book: UndoBook, batch_of: Callable[[int], list[Envelope]]) -> dict:
    """What `undo` would take back and `redo` bring back now: each batch's
    seq and its words, or None. A page shows it and sends that seq back
    with `expect`, so what is corrected is what the person saw."""
    def one(target: int | None) -> dict | None:
        return None if target is None else {"seq": target, "text": _reads(batch_of(target))}
    return {"undo": one(book.undo_target()), "redo": one(book.redo_target())}


def _not_seen(expect: int | None, verb: str) -> str:
    if expect is None:
        return ""
    if verb == "undo":
        return _("there is nothing left to undo now, not seq {expect}: nothing undone (R26)"
                 ).format(expect=expect)
    return _("there is nothing left to redo now, not seq {expect}: nothing redone (R27)"
             ).format(expect=expect)


def _reads(events: list[Envelope]) -> str:
    """A batch in the log's words (R28c): its first declaration, and how many more."""
    from projections.domain.narrate import describe
    if not events:
        return _("nothing")
    more = len(events) - 1
    if not more:
        return describe(events[0].data)
    return n_("{what} and {n} more", "{what} and {n} more", more).format(
        what=describe(events[0].data), n=more)


def _refuse_casualties(log, fixes: Corrections, encounter: str, doing: str,
                       seq: int) -> None:
    lost = casualties(log(), fixes, encounter)
    if lost:
        raise Casualties(doing, seq, lost,
                         N_("undo and redo take no --cascade: retract or amend those first "
                            "(R26, R28)"))


def _amendment(command: c.Amend, book: UndoBook, head: int, log, batch_of,
               encounter: str) -> Amended:
    if (command.die, command.cost, command.label, command.who, command.value) == (None,) * 5:
        raise Refusal(_("say what to correct: --die, --cost, --label, --who or --value (R28)"))
    target = _target(book, command.seq, head, encounter, "amended")
    payloads, offset = _reading(book, target, command.seq, batch_of)
    fixed = list(payloads)
    cost = None if command.cost is None else str(command.cost)
    fixed[offset] = correction(payloads[offset], command.die, cost, command.label, command.who,
                               command.value)
    if fixed == list(payloads):
        raise Refusal(_("the correction changes nothing in seq {seq}").format(seq=command.seq))
    also: list[tuple[int, list]] = []
    if command.who is not None:  # R28b: the whole turn moves
        who = cast(_Actor, payloads[offset]).combatant  # (correction() took --who: it has one)
        for b in turn_rest(log(), book, encounter, target, who):
            rest, _offset = _reading(book, b, b, batch_of)
            also.append((b, [correction(p, who=command.who) for p in rest]))
    amendment = Amended(target, cast("list[Event]", fixed), command.reason, also=also)
    moving = command.who if command.who is not None else ""
    lost, kept = rejudge(log(), book, _with(book, head, amendment), encounter,
                         {target, *(b for b, _moves in also)}, head + 1, moving)
    if lost and not command.cascade:
        raise Casualties("amend", command.seq, lost,
                         N_("Retract them with --cascade, or amend those first (R28)"))
    return msgspec.structs.replace(amendment, retracted=[x.env.batch for x in lost],
                                   kept=kept)


def _reading(book: UndoBook, target: int, seq: int, batch_of) -> tuple[list[Payload], int]:
    """What batch `target` declares now (as amended), and where `seq` is in it."""
    current = book.replaced.get(target)
    envs = batch_of(target)
    payloads = current or [e.data for e in envs]
    offset = seq - target if not current or len(current) == len(envs) else 0
    return payloads, offset


TURN_ACTIONS = (APSpent, TurnEnded)


def turn_rest(log: Iterable[StoredEvent | Envelope], fixes: Corrections, encounter: str, target: int,
              who: str) -> list[int]:
    """The later batches of the turn that batch `target` opened for `who`:
    their AP spent in it and its end (R28b); [] when it opened no turn."""
    from projections.history import keep
    state = State(encounter)
    rest: list[int] = []
    for b in batches(log, fixes):
        keep(state, b.kept)
        if b.payloads is None:
            continue
        if b.batch == target:
            if state.turn == who and state.turn_started:
                return []  # the turn was open already: this is not its start
        elif b.batch > target and all(isinstance(p, TURN_ACTIONS) and p.combatant == who
                                      for p in b.payloads):
            rest.append(b.batch)
        for p in b.payloads:
            evolve(state, p)
        if b.batch >= target and not (state.turn == who and state.turn_started):
            return rest
    return rest
