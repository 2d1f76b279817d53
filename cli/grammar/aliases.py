"""The one-letter words of the table (`m rook shoots` is `act rook major
shoots`, `e` is `end-turn`): play mode and the table server's command box
both read them here, so a GM types the same line in either."""
from __future__ import annotations

from typing import TYPE_CHECKING

from eventlog.errors import LedgerError
from eventlog.language import _

if TYPE_CHECKING:
    from projections.domain.state import State

# The hot path: `m rook shoots` is `act rook major shoots` (R16).
COST_ALIASES = {"m": "major", "n": "minor", "f": "free"}
ALIASES = {"i": "interrupt", "s": "seize", "e": "end-turn", "u": "undo", "r": "redo",
           "t": "track"}


def expand(words: list[str], state: State | None) -> list[str]:
    """The command line an alias stands for; other lines are left as typed."""
    head, rest = words[0], words[1:]
    if head in COST_ALIASES:
        if state is None:
            raise LedgerError(_("no current encounter: start one with `new ID`"))
        from projections.domain.ids import candidates
        found = candidates(state, rest[0]) if rest else []
        if len(found) == 1:  # an id, its unique prefix or a name (the docs)
            cid, rest = found[0], rest[1:]
        else:
            if rest:  # `m kia shoots`: a slip for kai, never a label
                from projections.domain.asks import label_word
                label_word(state, rest[0])
            from projections.domain.decide import acting
            cid = acting(state)
        return ["act", cid, COST_ALIASES[head], *rest]
    if head in ALIASES:
        return [ALIASES[head], *rest]
    return words
