"""Ids: the form an id takes, and what an id names (a combatant, a slot),
or the refusal of one that is not there or cannot be named.
Each kind of id has its own whole sentences (another language gives each
noun its own gender and article)."""
from __future__ import annotations

import re

from eventlog.errors import Refusal
from eventlog.language import N_, _, whole
from projections.domain.names import close_to
from projections.domain.ranges import MAX_ID
from projections.domain.state import Combatant, State

SLUG = re.compile(rf"[a-z0-9][a-z0-9-]{{0,{MAX_ID - 1}}}\Z")  # 10,000 characters is no id

# what an id names: (too long, not of the form); {n} its length, {value} its start
_SAID = {
    "id": (N_("an id holds at most {most} characters, not {n}"),
           N_("{value!r} is not a valid id: use lowercase letters, digits and dashes, "
              "starting with a letter or digit, at most {most}")),
    "encounter id": (N_("an encounter id holds at most {most} characters, not {n}"),
                     N_("{value!r} is not a valid encounter id: use lowercase letters, digits "
                        "and dashes, starting with a letter or digit, at most {most}")),
    "combatant id": (N_("a combatant id holds at most {most} characters, not {n}"),
                     N_("{value!r} is not a valid combatant id: use lowercase letters, digits "
                        "and dashes, starting with a letter or digit, at most {most}")),
    "group id": (N_("a group id holds at most {most} characters, not {n}"),
                 N_("{value!r} is not a valid group id: use lowercase letters, digits and "
                    "dashes, starting with a letter or digit, at most {most}")),
    "effect id": (N_("an effect id holds at most {most} characters, not {n}"),
                  N_("{value!r} is not a valid effect id: use lowercase letters, digits and "
                     "dashes, starting with a letter or digit, at most {most}")),
    "character id": (N_("a character id holds at most {most} characters, not {n}"),
                     N_("{value!r} is not a valid character id: use lowercase letters, digits "
                        "and dashes, starting with a letter or digit, at most {most}")),
    "track name": (N_("a track name holds at most {most} characters, not {n}"),
                   N_("{value!r} is not a valid track name: use lowercase letters, digits and "
                      "dashes, starting with a letter or digit, at most {most}")),
}


def check_slug(value: str, what: str = "id") -> None:
    """Refuse `value` unless it has the form of an id; `what` is one of _SAID's kinds."""
    too_long, malformed = _SAID[what]
    if len(value or "") > MAX_ID:
        raise Refusal(_(too_long).format(most=MAX_ID, n=whole(len(value))))
    if not SLUG.match(value or ""):
        shown = value if len(value or "") <= MAX_ID else f"{value[:MAX_ID]}…"
        raise Refusal(_(malformed).format(value=shown, most=MAX_ID))


def alternatives(ids: list[str]) -> str:
    """`kai`, `kai or kay`: the ids a slip may have meant, in the reader's words."""
    said = ids[0]
    for other in ids[1:]:
        said = _("{one} or {other}").format(one=said, other=other)
    return said


def unknown(s: State, sid: str, groups: bool = False,
            unseen: frozenset[str] = frozenset()) -> Refusal:
    """No such combatant (or group): the refusal, naming a close id, never one of `unseen`."""
    ids = [x for x in (*s.combatants, *(s.groups if groups else ())) if x not in unseen]
    close = close_to(sid, ids)
    if groups:
        if close:
            return Refusal(_("no combatant or group {id!r} in this encounter: did you mean "
                             "{close}?").format(id=sid, close=alternatives(close)))
        return Refusal(_("no combatant or group {id!r} in this encounter").format(id=sid))
    if close:
        return Refusal(_("no combatant {id!r} in this encounter: did you mean {close}?")
                       .format(id=sid, close=alternatives(close)))
    return Refusal(_("no combatant {id!r} in this encounter").format(id=sid))


def known_slot(s: State, sid: str) -> None:
    if sid not in s.groups and sid not in s.combatants:
        raise unknown(s, sid, groups=True)


def combatant(s: State, cid: str) -> Combatant:
    c = s.combatants.get(cid)
    if c is None:
        if cid in s.groups:
            raise Refusal(_("{id} is a group; name one of its members ({members})").format(
                id=cid, members=", ".join(s.groups[cid].members)))
        raise unknown(s, cid)
    return c


def active(s: State, cid: str) -> Combatant:
    c = combatant(s, cid)
    if not c.active:
        raise Refusal(_("{id} has left the encounter: nothing can be declared for them "
                        "until they rejoin (R22)").format(id=cid))
    return c


def slot(s: State, sid: str, alone_refused: str) -> None:
    """A slot id: a lone combatant or a group with an active member; a member
    alone is refused with `alone_refused` (a whole sentence, N_-marked)."""
    if sid in s.groups:
        members = s.groups[sid].members
        if not members:
            raise Refusal(_("group {group} has no members yet").format(group=sid))
        if not any(s.combatants[m].active for m in members):
            raise Refusal(_("every member of {group} has left the encounter (R22)")
                          .format(group=sid))
        return
    c = active(s, sid)
    if c.group is not None:
        raise Refusal(_(alone_refused).format(id=sid, group=c.group))
