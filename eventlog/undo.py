"""Corrections on whole batches (R26-R28): which batches are in force, and the
undo/redo stack. Nothing is ever deleted: undo and retraction append an
`Undone` marker, redo a `Redone` marker, an amendment an `Amended` batch.

Undo takes back the latest command still in force, whatever it was (R26): a
declaration, a retraction (its batches come back) or an amendment (the
original stands again, and what its cascade retracted comes back). Redo
re-applies what was undone. Everything here is derived from the markers, in
seq order, so a log read from anywhere gives the same answer.
"""
from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from typing import cast

from eventlog.events import EVENT_TYPES, MARKERS, Amended, Payload, Redone, Undone
from eventlog.language import _

_NAMES = tuple(EVENT_TYPES)
_CODES = {name: i for i, name in enumerate(_NAMES)}


class Corrections:
    """What the markers say about earlier batches: which are undone, and which
    are replaced by an amendment in force (the latest wins)."""

    def __init__(self, markers: Iterable[tuple[int, Payload]] = ()) -> None:
        self.undone: set[int] = set()
        self.items: list[tuple[int, Payload]] = []   # (batch, marker), in seq order
        self._retractions: dict[int, list[int]] = {}  # marker batch -> batches it retracts
        self._amendments: dict[int, Amended] = {}     # amendment batch -> it
        for batch, payload in markers:
            self.add(batch, payload)

    def add(self, batch: int, p: Payload) -> None:
        """Account for the marker that opens `batch` (the next in seq order)."""
        self.items.append((batch, p))
        if isinstance(p, Undone):
            if p.kind == "retract":
                self._retractions[batch] = list(p.batches)
            for target in p.batches:
                self.undone.add(target)
                self._lift(target)
        elif isinstance(p, Redone):
            self.undone.discard(p.batch)
            self._impose(p.batch)
        elif isinstance(p, Amended):
            self._amendments[batch] = p
            self._impose(batch)

    def _impose(self, marker: int) -> None:
        """A retraction or amendment comes into force: what it retracts is undone."""
        self.undone.update(self._retracts(marker))

    def _lift(self, marker: int) -> None:
        """A retraction or amendment is undone: what it retracted is back."""
        self.undone.difference_update(self._retracts(marker))

    def retracts(self, marker: int) -> list[int]:
        """The batches the retraction or amendment opening batch `marker`
        retracts (none for any other batch)."""
        return self._retracts(marker)

    def _retracts(self, marker: int) -> list[int]:
        if marker in self._retractions:
            return self._retractions[marker]
        amendment = self._amendments.get(marker)
        return amendment.retracted if amendment is not None else []

    @property
    def replaced(self) -> dict[int, list[Payload]]:
        """Batch -> the declarations that read in its place (amendments in force)."""
        out: dict[int, list[Payload]] = {}
        for batch, a in self._amendments.items():
            if batch not in self.undone:
                out[a.batch] = list(a.events)
                out.update((b, list(events)) for b, events in a.also)
        return out

    @property
    def kept(self) -> dict[int, list[str]]:
        """Batch -> the turns taken as ended just before it (R28a), by the
        retractions and amendments in force, in the order they were kept."""
        out: dict[int, list[str]] = {}
        for batch, p in self.items:
            kept = getattr(p, "kept", ())
            if kept and batch not in self.undone:
                for before, cid in kept:
                    out.setdefault(before, []).append(cid)
        return out

    def reaches_back(self, seq: int) -> bool:
        """Does a marker after `seq` change a batch at or before it (so a
        snapshot taken at `seq` no longer holds)?"""
        for batch, p in self.items:
            if batch <= seq:
                continue
            touched = p.batches if isinstance(p, Undone) else [cast("Redone | Amended", p).batch]
            touched = [*touched, *(b for t in touched for b in self._retracts(t))]
            if isinstance(p, Amended):
                touched += [*p.retracted, *(b for b, _moved in p.also)]
            if any(t <= seq for t in touched):
                return True
        return False


class UndoBook(Corrections):
    """Corrections plus the batches themselves, newest last: what undo and
    redo act on, and what a retraction or amendment may name."""

    def __init__(self) -> None:
        super().__init__()
        # Every batch and the type of its first event, kept compact: an
        # import may read half a million.
        self._batches, self._types = array("q"), bytearray()
        self.redo_stack: list[int] = []

    def record(self, batch: int, type_name: str, payload: Payload | None) -> None:
        """Account for one batch, in seq order (markers carry their payload)."""
        self._batches.append(batch)
        self._types.append(_CODES[type_name])
        if isinstance(payload, Undone) and payload.kind == "undo":
            self.redo_stack.append(payload.batches[0])
        elif isinstance(payload, Redone):
            if self.redo_stack and self.redo_stack[-1] == payload.batch:
                self.redo_stack.pop()
        else:  # anything newly declared, retracted or amended (R27)
            self.redo_stack.clear()
        if payload is not None and (type_name in MARKERS or type_name == "Amended"):
            self.add(batch, payload)

    def heads(self) -> Iterator[tuple[int, str]]:
        """(batch, type of its first event), newest first."""
        for i in range(len(self._batches) - 1, -1, -1):
            yield self._batches[i], _NAMES[self._types[i]]

    def kind(self, batch: int) -> str | None:
        i = bisect_left(self._batches, batch)
        if i < len(self._batches) and self._batches[i] == batch:
            return _NAMES[self._types[i]]
        return None

    def in_force(self, batch: int) -> bool:
        """A command still in force that undo may take back: a declaration,
        a retraction or an amendment (not an undo or redo marker)."""
        kind = self.kind(batch)
        if kind is None or kind == "EncounterCreated" or batch in self.undone:
            return False
        if kind == "Undone":
            return batch in self._retractions
        return kind != "Redone"

    def undo_target(self) -> int | None:
        """The latest command still in force (R26); never the creation."""
        for batch, type_name in self.heads():
            if type_name == "EncounterCreated":
                return None
            if self.in_force(batch):
                return batch
        return None

    def redo_target(self) -> int | None:
        return self.redo_stack[-1] if self.redo_stack else None

    def declaration(self, batch: int) -> bool:
        """An effective declaration a retraction or amendment may name."""
        kind = self.kind(batch)
        return (kind is not None and kind not in MARKERS and kind not in
                ("EncounterCreated", "Amended") and batch not in self.undone)

    def problem(self, p: Payload) -> str | None:
        """Why the correction `p` cannot be the next batch, or None: the one
        check a live correction and an imported one both pass (R26-R28)."""
        if isinstance(p, Undone):
            if not p.batches:
                return _("Undone names no batch")
            if p.kind == "undo":
                if p.batches != [self.undo_target()]:
                    return _("Undone does not name the latest command in force (R26)")
            elif not all(self.declaration(b) for b in p.batches):
                return _("Undone names a batch that is not an effective declaration (R28)")
            return None
        if isinstance(p, Redone):
            if p.batch != self.redo_target():
                return _("Redone does not name the most recently undone command (R27)")
            return None
        if isinstance(p, Amended):
            nested = {type(e).__name__ for e in p.events}
            if (not self.declaration(p.batch) or not p.events
                    or nested & {"Undone", "Redone", "Amended", "EncounterCreated"}):
                return _("Amended does not correct an effective declaration (R28)")
            if not all(b > p.batch and self.declaration(b) for b in p.retracted):
                return _("Amended retracts a batch that is not a later effective declaration (R28)")
            if not all(b > p.batch and self.declaration(b) and evs for b, evs in p.also):
                return _("Amended moves a batch that is not a later effective declaration (R28b)")
            return None
        return None
