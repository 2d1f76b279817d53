"""Undo bookkeeping on whole batches (R26-R28).

Undo and retraction append an `Undone` marker, redo a `Redone` marker; nothing
is ever deleted. From the markers alone we derive which batches are undone
(the fold skips them) and the redo stack (R27: redo is possible only while
nothing new has been declared since the undo).
"""
from __future__ import annotations

from typing import Iterable

from .events import MARKERS, Amended, Payload, Redone, Undone


class UndoBook:
    """The undone batches and the redo stack, derived from a log's batches."""

    def __init__(self) -> None:
        self.undone: set[int] = set()
        self.redo_stack: list[int] = []

    def record(self, batch: int, type_name: str, payload: Payload | None) -> None:
        """Account for one batch (markers carry their payload)."""
        if isinstance(payload, Undone):
            self.undone.update(payload.batches)
            if payload.kind == "undo":
                self.redo_stack.append(payload.batches[0])
            else:
                self.redo_stack.clear()
        elif isinstance(payload, Redone):
            self.undone.discard(payload.batch)
            if self.redo_stack and self.redo_stack[-1] == payload.batch:
                self.redo_stack.pop()
        elif type_name not in MARKERS:
            self.redo_stack.clear()

    def undo_target(self, heads_newest_first: Iterable[tuple[int, str]]) -> int | None:
        """The latest still-effective declaration (R26); never the creation."""
        for batch, type_name in heads_newest_first:
            if type_name in MARKERS or batch in self.undone:
                continue
            return None if type_name == "EncounterCreated" else batch
        return None

    def redo_target(self) -> int | None:
        return self.redo_stack[-1] if self.redo_stack else None


class Corrections:
    """What later events say about earlier batches: which are undone, and
    which are replaced by an amendment (the latest effective one wins)."""

    def __init__(self, corrections: Iterable[tuple[int, Payload]]) -> None:
        self.undone: set[int] = set()
        self.items = list(corrections)  # (seq, payload), in seq order
        amendments = []
        for batch, payload in self.items:
            if isinstance(payload, Undone):
                self.undone.update(payload.batches)
            elif isinstance(payload, Redone):
                self.undone.discard(payload.batch)
            elif isinstance(payload, Amended):
                amendments.append((batch, payload))
        self.replaced: dict[int, list[Payload]] = {
            a.batch: list(a.events) for batch, a in amendments if batch not in self.undone}
