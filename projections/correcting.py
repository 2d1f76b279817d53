"""Corrections decided over the history (R26-R28): undo, redo, retraction
and amendment. A correction changes the past, so it is judged by folding the
whole history with it in force: it is accepted only if every declaration
still in force stays legal. A refusal lists the first ten that would not
(and how many there are); `--cascade` retracts them in the same append.

`decide_correction` is pure: the book, the log and the state come in.
"""
from __future__ import annotations

from typing import Callable, Iterable

import msgspec

from eventlog.codec import Envelope
from eventlog.errors import Refusal
from eventlog.events import MARKERS, Amended, Payload, Redone, Undone
from eventlog.undo import Corrections, UndoBook

from projections.domain import commands as c
from projections.history import batches
from projections.domain.phrases import correction
from projections.domain.rules import judge
from projections.domain.state import State
from projections.domain.evolve import evolve

SHOWN = 10  # casualties a refusal names (R28)


class Casualty:
    """A declaration in force that the change would make illegal."""

    def __init__(self, env: Envelope, payload: Payload, why: str):
        self.env, self.payload, self.why = env, payload, why

    def __str__(self) -> str:
        from projections.reports.narrate import describe
        who = getattr(self.payload, "combatant", None) or getattr(self.payload, "slot", "")
        whom = f" by {who}" if who else ""
        return (f"seq {self.env.seq} {type(self.payload).__name__}{whom} "
                f"({describe(self.payload)}): {self.why}")


def listing(lost: list[Casualty]) -> str:
    """`3 later declarations illegal: ...`, naming at most SHOWN of them."""
    named = "; ".join(str(x) for x in lost[:SHOWN])
    more = f"; and {len(lost) - SHOWN} more" if len(lost) > SHOWN else ""
    return (f"{len(lost)} later declaration{'s' if len(lost) != 1 else ''} "
            f"illegal: {named}{more}")


def casualties(log: Iterable[Envelope], fixes: Corrections, encounter: str,
               target: int | None = None) -> list[Casualty]:
    """Fold the history as `fixes` put it in force, judging every batch; a
    refused batch is listed and left out. A refusal of batch `target` (an
    amended declaration) is the amendment's own: it is raised."""
    state = State(encounter)
    lost: list[Casualty] = []
    for b in batches(log, fixes):
        if b.payloads is None:
            continue
        trial = _clone(state) if len(b.payloads) > 1 else state
        try:
            for p in b.payloads:
                judge(trial, p)
                evolve(trial, p)
        except Refusal as exc:
            if b.batch == target:
                raise Refusal(f"the correction of seq {target} is itself illegal: "
                              f"{exc}") from None
            lost.append(Casualty(b.events[0], b.payloads[0], str(exc)))
            continue  # (a one-event batch is refused by its judge before it evolves)
        state = trial
    return lost


def _clone(state: State) -> State:
    from projections.snapshot import clone
    return clone(state)


def _with(book: UndoBook, head: int, marker: Payload) -> Corrections:
    """The corrections as they would stand with `marker` as the next batch."""
    trial = Corrections(book.items)
    trial.add(head + 1, marker)
    return trial


def _target(book: UndoBook, seq: int, head: int, encounter: str, doing: str) -> int:
    """The batch holding `seq`, checked as a declaration one may change."""
    if not 1 <= seq <= head:
        raise Refusal(f"there is no seq {seq} in the log of {encounter} (1 to {head})")
    target, kind = next((b, t) for b, t in book.heads() if b <= seq)
    if kind in MARKERS:
        raise Refusal(f"seq {seq} is an undo, redo or retraction marker: it cannot "
                      f"be {doing}; undo takes a retraction back (R26-R28)")
    if kind == "EncounterCreated":
        raise Refusal(f"creating the encounter cannot be {doing} (R26)")
    if kind == "Amended":
        raise Refusal(f"seq {seq} is an amendment: amend the original declaration "
                      "instead, or undo the amendment (R26, R28)")
    if target in book.undone:
        raise Refusal(f"seq {seq} is already undone or retracted (R28)")
    return target


def decide_correction(command: c.Command, book: UndoBook, head: int, state: State,
                      log: Callable[[], Iterable[Envelope]],
                      batch_of: Callable[[int], list[Envelope]],
                      encounter: str) -> Payload:
    """The marker that `command` (Undo, Redo, Retract or Amend) appends, or a
    Refusal citing the rule. `log()` streams the whole stored log, and
    `batch_of(b)` the events of batch b, as of the same snapshot as `book`."""
    if isinstance(command, c.Undo):
        target = book.undo_target()
        if target is None:
            raise Refusal("nothing to undo: creating the encounter cannot be undone (R26)")
        marker: Payload = Undone([target], "undo", command.reason)
        if book.kind(target) in ("Undone", "Amended"):  # the past changes again
            _refuse_casualties(log, _with(book, head, marker), encounter,
                               f"undoing seq {target}", "")
        return marker
    if isinstance(command, c.Redo):
        target = book.redo_target()
        if target is None:
            raise Refusal("nothing to redo: redo follows an undo, before anything "
                          "new is declared (R27)")
        marker = Redone(target)
        if book.kind(target) in ("Undone", "Amended"):
            _refuse_casualties(log, _with(book, head, marker), encounter,
                               f"redoing seq {target}", "")
        else:
            trial = _clone(state)
            for p in [e.data for e in batch_of(target)]:
                judge(trial, p)
                evolve(trial, p)
        return marker
    if isinstance(command, c.Retract):
        target = _target(book, command.seq, head, encounter, "retracted")
        marker = Undone([target], "retract", command.reason)
        lost = casualties(log(), _with(book, head, marker), encounter)
        if lost and not command.cascade:
            raise Refusal(f"retracting seq {target} would make {listing(lost)}. "
                          "Retract them too with --cascade (R28)")
        return Undone([target, *(x.env.batch for x in lost)], "retract", command.reason)
    if isinstance(command, c.Amend):
        return _amendment(command, book, head, log, batch_of, encounter)
    raise Refusal(f"`{command.__struct_config__.tag}` is not a correction")


def _refuse_casualties(log, fixes: Corrections, encounter: str, doing: str, hint: str) -> None:
    lost = casualties(log(), fixes, encounter)
    if lost:
        raise Refusal(f"{doing} would make {listing(lost)}{hint} (R26, R28)")


def _amendment(command: c.Amend, book: UndoBook, head: int, log, batch_of,
               encounter: str) -> Amended:
    if (command.die, command.cost, command.label, command.who) == (None,) * 4:
        raise Refusal("say what to correct: --die, --cost, --label or --who (R28)")
    target = _target(book, command.seq, head, encounter, "amended")
    current = book.replaced.get(target)
    envs = batch_of(target)
    payloads = current or [e.data for e in envs]
    offset = command.seq - target if not current or len(current) == len(envs) else 0
    fixed = list(payloads)
    cost = None if command.cost is None else str(command.cost)
    fixed[offset] = correction(payloads[offset], command.die, cost, command.label, command.who)
    if fixed == list(payloads):
        raise Refusal(f"the correction changes nothing in seq {command.seq}")
    amendment = Amended(target, fixed, command.reason)
    lost = casualties(log(), _with(book, head, amendment), encounter, target)
    if lost and not command.cascade:
        raise Refusal(f"amending seq {command.seq} would make {listing(lost)}. Retract "
                      "them with --cascade, or amend those first (R28)")
    return msgspec.structs.replace(amendment, retracted=[x.env.batch for x in lost])
