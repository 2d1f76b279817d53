"""What a command did, in the table's words: one line per declaration it
appended, or per earlier declaration it undid, redid, retracted or amended.
The terminal's answer, play mode, the demo and a script all say it so."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from eventlog.codec import Envelope
from eventlog.events import Amended, Payload, Redone, Undone
from eventlog.language import N_, _
from projections.domain.narrate import describe, describe_together

UNDONE, RETRACTED, REDONE = N_("↶ undone (seq {seqs}):"), N_("✗ retracted (seq {seqs}):"), \
    N_("↷ redone (seq {seqs}):")


class Said(NamedTuple):
    mark: str         # "✓", "↶ undone (seq 7):", "✎ seq 7 now reads:" ... (the reader's words)
    payload: Payload  # the declaration the line is about
    declared: bool    # a declaration of its own, rather than a fix of an earlier one
    also: tuple[Payload, ...] = ()  # the rest of one declaration about several targets

    @property
    def text(self) -> str:
        if self.also:
            together = describe_together([self.payload, *self.also])
            if together is not None:
                return f"{self.mark} {together}"
        return f"{self.mark} {describe(self.payload)}"


BatchOf = Callable[[int], list[Envelope]]  # the events of an earlier batch


def worded(appended: Iterable[Envelope], batch_of: BatchOf) -> list[Said]:
    """The lines for the events a command appended: one for a declaration
    about several targets (`track goblin-1,goblin-2 hp -3`)."""
    out: list[Said] = []
    batch = None
    for env in appended:
        for said in _lines(env, batch_of):
            last = out[-1] if out else None
            if last is not None and said.declared and last.declared and env.batch == batch \
                    and describe_together([last.payload, *last.also, said.payload]):
                out[-1] = last._replace(also=(*last.also, said.payload))
            else:
                out.append(said)
        batch = env.batch
    return out


def _lines(env: Envelope, batch_of: BatchOf) -> list[Said]:
    data = env.data
    if isinstance(data, Undone):
        mark = UNDONE if data.kind == "undo" else RETRACTED
        return [said for batch in data.batches for said in _batch(mark, batch_of(batch))]
    if isinstance(data, Redone):
        return _batch(REDONE, batch_of(data.batch))
    if isinstance(data, Amended):
        was = [e.data for e in batch_of(data.batch)]
        changed = [(data.batch + i, p) for i, p in enumerate(data.events)
                   if len(was) != len(data.events) or p != was[i]]
        reads = _("✎ seq {seq} now reads:")
        lines = [Said(reads.format(seq=seq), p, False)
                 for seq, p in changed or enumerate(data.events, data.batch)]
        lines += [Said(reads.format(seq=b + i), p, False)  # the turn moves with it (R28b)
                  for b, events in data.also for i, p in enumerate(events)]
        return lines + [Said(_(RETRACTED).format(seqs=e.seq), e.data, False)
                        for batch in data.retracted for e in batch_of(batch)]
    return [Said("✓", data, True)]


def _batch(mark: str, events: list[Envelope]) -> list[Said]:
    """An earlier batch taken back or brought back (`mark`: UNDONE, ...): a
    line per event, or one for a declaration about several targets."""
    payloads = [e.data for e in events]
    if len(events) > 1 and describe_together(payloads):
        seqs = f"{events[0].seq}-{events[-1].seq}"
        return [Said(_(mark).format(seqs=seqs), payloads[0], False, tuple(payloads[1:]))]
    return [Said(_(mark).format(seqs=e.seq), e.data, False) for e in events]


def from_touched(touched: list[Envelope]) -> BatchOf:
    """A batch's events among those a command's outcome touched."""
    return lambda batch: [e for e in touched if e.batch == batch]
