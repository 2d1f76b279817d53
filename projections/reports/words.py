"""The words and numbers of the review (the html report, the campaign page,
the terminal's `stats`) in the reader's language: the names of categories
and sides, a table column's shorter word, counts, ratios, percentages and
moments in the reader's form. English keeps the forms the product always
printed (1234, 1.333, 40%, 2026-12-05 21:07)."""
from __future__ import annotations

from eventlog.language import N_, SOURCE, _, current, n_, pgettext

# The names of the categories of actions and of harm as a page words them
# (the numbers' keys stay as they are: they are data).
KINDS = {"free": N_("free"), "minor": N_("minor"), "major": N_("major"), "custom": N_("custom")}
HARM = {"taken": N_("taken"), "dealt": N_("dealt"), "healed": N_("healed")}


def side(key: str) -> str:
    """A side (pc, npc) in the reader's language, as the log words it."""
    from projections.domain.narrate import side_word
    return side_word(key)


def column(word: str) -> str:
    """A table column's header: said shorter where a long translation would
    widen the table past the page (Unterbrechungen: Unterbr.)."""
    narrow = {"interrupts": pgettext("column", "interrupts"),
              "seizes": pgettext("column", "seizes"), "pass": pgettext("column", "pass"),
              "AP spent": pgettext("column", "AP spent"),
              # the singular of the words the cards count (1 round, 2 rounds)
              "round": n_("round", "rounds", 1), "encounter": n_("encounter", "encounters", 1)}
    return narrow.get(word) or _(word)


def category(key: str) -> str:
    """A category of actions in the reader's language."""
    return _(KINDS[key]) if key in KINDS else key


def count(value):
    """A count as the page always wrote it in English (1234), grouped in
    another language's form (1.234)."""
    from eventlog.language import whole
    if current() == SOURCE or not isinstance(value, int) or isinstance(value, bool):
        return str(value) if isinstance(value, int) else value
    return whole(value)


def percent(value: int) -> str:
    """A whole percentage: 40% / 40 % (German sets the sign apart)."""
    return f"{value}%" if current() == SOURCE else f"{value}\u00a0%"


def figure(value: float) -> str:
    """A ratio as the page always wrote it (1.333), in the reader's form (1,333)."""
    from eventlog.language import decimal
    written = str(value)
    if current() == SOURCE or "e" in written:
        return written
    return decimal(value, len(written.partition(".")[2]))


def moment(at: str | None) -> str:
    """An event's `at` (ISO 8601 UTC) as a date and a time to the minute,
    in the reader's form: 2026-12-05 21:07 / 05.12.2026 21:07."""
    if not at:
        return ""
    from datetime import datetime

    from eventlog.language import clock, day
    when = datetime.fromisoformat(at[:19])
    return f"{day(when)} {clock(when)[:5]}"
