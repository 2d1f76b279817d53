"""Declarations from table words: costs (`minor`, `major`, `free`, 2) and
corrections of an earlier declaration (`amend 12 --die 8`)."""
from __future__ import annotations

import re
from typing import cast

import msgspec

from eventlog.errors import Refusal
from eventlog.language import N_, _
from eventlog.events import (
    APSpent, Category, FreeActionTaken, InitiativeRolled, InterruptTaken, Payload, TrackChanged,
)


# Unicode categories that are no letters of a name: pictures (emoji among
# them), their modifiers (skin tones) and format characters (the joiner).
SYMBOLS = {"So", "Sk", "Cf"}


def slugify(name: str, transliterate: bool = True) -> str:
    """An id from a name: `Big Ganger` -> `big-ganger`; other scripts are
    transliterated (`Ærwyn Þórsdóttir` -> `aerwyn-thorsdottir`); emoji and
    other symbols are left out (`Zoë 🐉 Dragonkin` -> `zoe-dragonkin`, where
    anyascii would spell the dragon `:dragon:`)."""
    if transliterate and not name.isascii():
        import unicodedata

        from anyascii import anyascii  # only here: most names need no import
        name = anyascii("".join(ch for ch in name if ch.isascii() or
                                unicodedata.category(ch) not in SYMBOLS))
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


COSTS = {"minor": 1, "major": 2}  # R16
COST_WORDS = N_("free, minor (1 AP), major (2 AP) or a whole number of AP (R16)")


def action(cid: str, cost: str, label: str, interrupt: bool) -> Payload:
    """A declared cost in table words, as the event it records (R16, R20)."""
    word = cost.strip().lower()
    if word == "free":
        return FreeActionTaken(combatant=cid, label=label)
    if word in COSTS:
        ap, category = COSTS[word], word
    elif re.fullmatch(r"[+-]?[0-9]{1,30}", word):  # ASCII digits: int() reads `２` as 2
        ap, category = int(word), "custom"
    else:
        raise Refusal(_("{cost} is not a cost: say {words}").format(cost=repr(cost[:40]),
                                                                    words=_(COST_WORDS)))
    kind = InterruptTaken if interrupt else APSpent
    return kind(combatant=cid, cost=ap, category=cast(Category, category), label=label)


def amendable(p: Payload) -> list[str]:
    """What `amend` may correct of the declaration `p` (as `correction`
    takes it): "die", "cost", "label", "who", "value"; none, for one that
    can only be retracted."""
    return [field for field, holds in (
        ("die", isinstance(p, InitiativeRolled)),
        ("cost", isinstance(p, (APSpent, InterruptTaken, FreeActionTaken))),
        ("label", hasattr(p, "label")),
        ("who", hasattr(p, "combatant")),
        ("value", isinstance(p, TrackChanged))) if holds]


def correction(p: Payload, die: int | None = None, cost: str | None = None,
               label: str | None = None, who: str | None = None,
               value: int | None = None) -> Payload:
    """The declaration `p` with a slip corrected: a die, a cost, a label, who,
    a track's value (a change stays a change: `-3` read as `-5`)."""
    said = _said(p)
    if value is not None:
        if not isinstance(p, TrackChanged):
            raise Refusal(_("--value corrects a track change; this one says “{said}”").format(
                said=said))
        # (a change corrected is what the GM says it was: no longer a stopped one)
        p = msgspec.structs.replace(p, **({"delta": value, "asked": None} if p.delta is not None
                                          else {"value": value}))
    if die is not None:
        if not isinstance(p, InitiativeRolled):
            raise Refusal(_("--die corrects an initiative roll; this one says “{said}”").format(
                said=said))
        p = msgspec.structs.replace(p, die=die, total=die + p.bonus, manual=True)
    if who is not None:
        if not hasattr(p, "combatant"):
            raise Refusal(_("--who corrects who acted; this one says “{said}”, which names no "
                            "combatant: retract it instead").format(said=said))
        p = msgspec.structs.replace(p, combatant=who)
    if cost is not None:
        if not isinstance(p, (APSpent, InterruptTaken, FreeActionTaken)):
            raise Refusal(_("--cost corrects an action's cost; this one says “{said}”").format(
                said=said))
        p = action(p.combatant, cost, p.label, isinstance(p, InterruptTaken))
    if label is not None:
        if not hasattr(p, "label"):
            raise Refusal(_("--label corrects an action's label; this one says “{said}”").format(
                said=said))
        p = msgspec.structs.replace(p, label=label)
    return p


def _said(p: Payload) -> str:
    """A declaration as the log words it (never its event type's name)."""
    from projections.domain.narrate import describe
    return describe(p)
