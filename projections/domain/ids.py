"""Ids as a GM types them (docs/commands.md): wherever a command takes
a combatant or slot id, a unique prefix of an id (`oka` for `okafor-dibe`)
or a combatant's exact name in any case (`"Okafor Dibe"`) stands for it; an
ambiguous one is refused naming the candidates. Resolved here, in the core,
before a command is decided, so the terminal, play mode and the table
server all read ids alike. A word that matches nothing is left as typed:
the judge refuses it, with its "did you mean" hint.
"""
from __future__ import annotations

from typing import TypeVar

import msgspec

from eventlog.errors import Refusal
from eventlog.language import _, n_, whole
from projections.domain import commands as c
from projections.domain.state import State

C = TypeVar("C", bound=c.Command)

# The fields of each command that name a combatant or a slot.
ID_FIELDS: dict[type, tuple[str, ...]] = {
    c.Act: ("id",), c.Interrupt: ("id",), c.Seize: ("id",), c.EndTurn: ("id",),
    c.Leave: ("id",), c.Rejoin: ("id",), c.MaxAP: ("id",), c.AdjustAP: ("id",),
    c.Grit: ("id",), c.Effect: ("id",), c.Track: ("id", "by"), c.Hide: ("id",),
    c.Reveal: ("id",), c.SetInitiative: ("slot",),
    c.Roll: ("slots",), c.Order: ("slots",), c.Amend: ("who",),
}


def candidates(s: State, word: str, unseen: frozenset[str] = frozenset()) -> list[str]:
    """The ids `word` may stand for: itself, the combatants it is the exact
    name of (any case), else the ids it is a prefix of. `unseen`: ids that
    do not exist for whoever typed the word (a player's view of hidden
    combatants, projections/visible.py): never a candidate."""
    if word not in unseen and (word in s.combatants or word in s.groups):
        return [word]
    folded = word.casefold()
    named = [cid for cid, comb in s.combatants.items()
             if comb.name.casefold() == folded and cid not in unseen]
    if named:
        return named
    low = word.lower()
    if not low or low != low.strip():
        return []
    return [i for i in (*s.combatants, *s.groups) if i.startswith(low) and i not in unseen]


def resolve(s: State, word: str, unseen: frozenset[str] = frozenset()) -> str:
    """The id `word` stands for; `word` itself when it matches nothing."""
    found = candidates(s, word, unseen)
    if len(found) > 1:
        if len(found) > 8:
            raise Refusal(n_("{word!r} could be {ids} and {n} more: type more of the id",
                             "{word!r} could be {ids} and {n} more: type more of the id",
                             len(found) - 8).format(word=word[:40], ids=", ".join(found[:8]),
                                                    n=len(found) - 8))
        raise Refusal(_("{word!r} could be {ids}: type more of the id").format(
            word=word[:40], ids=", ".join(found)))
    return found[0] if found else word


HIDDEN_SUFFIX = "-hidden"


def unseen_id(slug: str, hidden: bool) -> str:
    """The default id of a combatant that joins hidden (`add Goblin --hidden`:
    `goblin-hidden`): never the plain slug nor a `-2` of it, so the ids the
    players see are numbered as if it were not there (a visible `add Goblin`
    beside it is `goblin`, not `goblin-2`), as a hidden combatant's effects
    are named after it (docs/server.md, "What the players see")."""
    return f"{slug}{HIDDEN_SUFFIX}" if hidden and slug else slug


# The commands whose `id` may list several targets, `goblin-1,goblin-2`:
# one declaration, an event per target, one batch.
SEVERAL: tuple[type, ...] = (c.Track, c.Effect)
MAX_TARGETS = 100  # the most `add --count` makes at once


def targets(word: str) -> list[str]:
    """The ids a command's `id` lists (one, or several between commas)."""
    return word.split(",")


def _listed(s: State, word: str, unseen: frozenset[str] = frozenset()) -> str:
    """`word`, a comma-separated list of ids, with each resolved; refused
    when an entry is empty or names a target a second time."""
    words = targets(word)
    if len(words) > MAX_TARGETS:
        raise Refusal(_("name at most {most} targets at once, not {n}").format(
            most=MAX_TARGETS, n=whole(len(words))))
    ids: list[str] = []
    for entry in words:
        if not entry.strip():
            raise Refusal(_("{word!r} has an empty entry: list ids between commas, e.g. "
                            "goblin-1,goblin-2").format(word=word[:60]))
        cid = resolve(s, entry.strip(), unseen)
        if cid in ids:
            if cid != entry.strip():
                raise Refusal(_("{entry!r} is {id}, named twice in {word!r}: name each target "
                                "once").format(entry=entry.strip()[:40], id=cid, word=word[:60]))
            raise Refusal(_("{id}, named twice in {word!r}: name each target once").format(
                id=cid, word=word[:60]))
        ids.append(cid)
    return ",".join(ids)


def resolved(s: State, command: C, unseen: frozenset[str] = frozenset()) -> C:
    """`command` with every id it names resolved on `s` (not to `unseen` ids)."""
    fields = ID_FIELDS.get(type(command))
    if not fields:
        return command
    changes: dict[str, object] = {}
    for name in fields:
        value = getattr(command, name)
        if name == "id" and isinstance(command, SEVERAL) and isinstance(value, str) \
                and "," in value:
            changes[name] = _listed(s, value, unseen)
        elif isinstance(value, str):
            changes[name] = resolve(s, value, unseen)
        elif isinstance(value, list):
            changes[name] = [resolve(s, v, unseen) if isinstance(v, str) else v for v in value]
    return msgspec.structs.replace(command, **changes) if changes else command
