"""A correction refused for what it would make illegal (R28c): each later
declaration in force that would no longer be legal, in the log's words,
the first ten of them a line each, and what to do instead."""
from __future__ import annotations

from eventlog.codec import Envelope
from eventlog.errors import Refusal
from eventlog.events import Payload
from eventlog.language import _, n_

SHOWN = 10  # casualties a refusal names (R28)


class Casualty:
    """A declaration in force that the change would make illegal."""

    def __init__(self, env: Envelope, payload: Payload, why: str):
        self.env, self.payload, self.why = env, payload, why

    def __str__(self) -> str:  # R28c: the log's words, never an event type's name
        from projections.domain.narrate import describe
        return _("seq {seq}: {what} ({why})").format(seq=self.env.seq,
                                                      what=describe(self.payload), why=self.why)


class Casualties(Refusal):
    """A correction refused for what it would make illegal: the message,
    and its `lines` (what, each casualty, what to do) for a terminal to
    print one a line (R28c). `doing`: retract, undo, redo or amend seq `seq`;
    `tail` (N_-marked): what to do instead."""

    def __init__(self, doing: str, seq: int, lost: list[Casualty], tail: str):
        self.lines = [_head(doing, seq, len(lost)), *(f"  {x}" for x in lost[:SHOWN])]
        if len(lost) > SHOWN:
            more = len(lost) - SHOWN
            self.lines.append("  " + n_("and {n} more", "and {n} more", more).format(n=more))
        self.lines.append(_(tail))
        super().__init__("\n".join(self.lines))


def _head(doing: str, seq: int, n: int) -> str:
    """What correcting seq `seq` would make illegal: one later declaration, or n."""
    if doing == "retract":
        said = n_("retracting seq {seq} would make {n} later declaration illegal:",
                  "retracting seq {seq} would make {n} later declarations illegal:", n)
    elif doing == "undo":
        said = n_("undoing seq {seq} would make {n} later declaration illegal:",
                  "undoing seq {seq} would make {n} later declarations illegal:", n)
    elif doing == "redo":
        said = n_("redoing seq {seq} would make {n} later declaration illegal:",
                  "redoing seq {seq} would make {n} later declarations illegal:", n)
    else:
        said = n_("amending seq {seq} would make {n} later declaration illegal:",
                  "amending seq {seq} would make {n} later declarations illegal:", n)
    return said.format(seq=seq, n=n)
