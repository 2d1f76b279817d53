"""The log as people read it: each event with the round, pass and turn it was
declared in, and what later undid, retracted or amended it."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from eventlog.codec import Envelope, decode_data
from eventlog.language import _
from eventlog.events import CORRECTIONS, OVERRIDES, Amended, Redone, Undone
from eventlog.undo import Corrections
from projections.domain.evolve import evolve
from projections.domain.state import State
from projections.history import batches, keep
from projections.ledger import Ledger

AUDITED = OVERRIDES + ("OrderDeclared",) + CORRECTIONS
Mark = tuple[int, str, str]  # (seq, "undo"/"retract", reason)


@dataclass
class Entry:
    env: Envelope
    round: int
    pass_: int
    turn: str | None
    undone_by: Mark | None = None
    amended_by: int | None = None
    reads: object = None  # what an amendment in force reads in its place
    imported: bool = False  # came from a file (`combat import`): its actor is the file's claim

    @property
    def who(self) -> str | None:
        """Whom the line is about, as it reads now (an amended `--who` too)."""
        data = self.env.data if self.reads is None else self.reads
        return getattr(data, "combatant", None) or getattr(data, "slot", None) \
            or getattr(data, "id", None)

    @property
    def context(self) -> str:
        """`setup`, `R2.1 rook`: as data (`log --json`), the same in every language."""
        if self.round == 0:
            return "setup"
        where = f"R{self.round}.{self.pass_}"
        return f"{where} {self.turn}" if self.turn else where

    @property
    def where(self) -> str:
        """The context as the reader reads it (`setup` in their words)."""
        return _("setup") if self.round == 0 else self.context

    @property
    def fate(self) -> str | None:
        """What took the line out of force, as the log says it (`undone at seq
        13`, `retracted at seq 20: wrong target`, `amended at seq 31`)."""
        if self.undone_by:
            seq, kind, reason = self.undone_by
            if reason:
                said = (_("undone at seq {seq}: {reason}") if kind == "undo"
                        else _("retracted at seq {seq}: {reason}"))
                return said.format(seq=seq, reason=reason)
            said = _("undone at seq {seq}") if kind == "undo" else _("retracted at seq {seq}")
            return said.format(seq=seq)
        if self.amended_by:
            return _("amended at seq {seq}").format(seq=self.amended_by)
        return None


def annotate(markers: Iterable[tuple[int, str, bytes]]
             ) -> tuple[Corrections, dict[int, Mark], dict[int, int]]:
    """What the markers ((seq, type, data), as `fold_markers` reads them)
    say about each batch: the corrections, which marker undid or retracted
    each batch now out of force, and which amendment in force reads in its
    place. Each marker costs what it names, never what was undone before it
    (a log of many corrections is read in one pass)."""
    fixes = Corrections()
    cause: dict[int, Mark] = {}  # batch -> the marker that last took it out
    reasons: dict[int, str] = {}  # a retraction or amendment -> its reason (a redo brings it back)
    for seq, type_name, data in markers:
        p = decode_data(type_name, data)
        if isinstance(p, Undone):  # what it names is out (what it brings back is not)
            mark: Mark = (seq, p.kind, p.reason)
            taken = dict.fromkeys(p.batches, mark)
            if p.kind == "retract":
                reasons[seq] = p.reason
        elif isinstance(p, Redone):  # a retraction or amendment back: what it retracted is out
            mark = (p.batch, "retract", reasons.get(p.batch, ""))
            taken = dict.fromkeys(fixes.retracts(p.batch), mark)
        elif isinstance(p, Amended):
            reasons[seq] = p.reason
            taken = dict.fromkeys(p.retracted, (seq, "retract", p.reason))
        else:
            taken = {}
        fresh = [b for b in taken if b not in fixes.undone]
        fixes.add(seq, p)
        cause.update((b, taken[b]) for b in fresh if b in fixes.undone)
    undone_by = {b: cause[b] for b in fixes.undone if b in cause}
    amended_by: dict[int, int] = {}
    for seq, p in fixes.items:
        if isinstance(p, Amended) and seq not in fixes.undone:
            amended_by[p.batch] = seq
            amended_by.update((b, seq) for b, _events in p.also)  # a moved turn (R28b)
    return fixes, undone_by, amended_by


def timeline(ledger: Ledger, encounter: str) -> Iterator[Entry]:
    head, _moved = ledger.store.head(encounter)  # the log only grows: read up to here
    fixes, undone_by, amended_by = annotate(ledger.store.fold_markers(encounter, head))
    rows = ledger.store.rows(encounter, upto=head)
    imported = ledger.store.imported(encounter)
    state = State(encounter)
    for b in batches(rows, fixes):
        keep(state, b.kept)  # R28a
        same = b.amended and len(b.payloads or ()) == len(b.events)
        for i, env in enumerate(b.events):
            reads = (b.payloads[i] if same else b.payloads[0]) if b.amended and b.payloads else None
            yield Entry(env, state.round, state.pass_, state.turn if state.running else None,
                        undone_by.get(env.batch), amended_by.get(env.batch), reads,
                        env.seq <= imported)
            state.seq = env.seq
            if b.payloads is not None and not b.amended:
                evolve(state, env.data)
        if b.amended and b.payloads is not None:
            for payload in b.payloads:
                evolve(state, payload)


def said(entry: Entry) -> dict:
    """One line of the log as `combat log` reads it, as data (the table
    server's GM page): who declared what, when, what later changed it, and
    what `amend` may correct of it. `text`, `fate` and `where` (the context
    as the reader reads it) are in the reader's words; `context` is the same
    in every language."""
    from eventlog.text import neutral
    from projections.domain.phrases import amendable
    from projections.domain.narrate import describe
    mark = entry.undone_by
    return {"seq": entry.env.seq, "batch": entry.env.batch, "actor": entry.env.actor,
            "context": entry.context, "where": entry.where,
            "text": neutral(describe(entry.env.data)),
            "undone_by": None if mark is None else {
                "seq": mark[0], "kind": "undo" if mark[1] == "undo" else "retract",
                "reason": neutral(mark[2])},
            "amended_by": entry.amended_by, "imported": entry.imported,
            "amendable": amendable(entry.env.data),
            "fate": None if entry.fate is None else neutral(entry.fate)}
