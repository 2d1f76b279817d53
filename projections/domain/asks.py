"""What a command asks, worked out before it is judged: which order an
`order` declares and whether its actor may (R3, R3c, R12), which turn an
`end-turn` ends (R8, R21), whether a new encounter's id and title hold, and
whether a word typed where an id goes is a slip. decide.py and play mode
call these; the judge (rules.py) then checks what they give."""
from __future__ import annotations

from typing import Literal

from eventlog.errors import Refusal, Unconfirmed
from eventlog.events import EncounterCreated, OrderDeclared, TurnEnded
from projections.domain.names import did_you_mean
from projections.domain.ranges import check_numbers
from projections.domain.rules import check_slug
from projections.domain.state import State


def check_new(encounter: str, title: str) -> None:
    """A new encounter's id and title, judged before the store creates it."""
    check_slug(encounter, "encounter id")
    check_numbers(EncounterCreated(encounter=encounter, title=title))


def order_context(s: State, slots: list[str]) -> Literal["tie", "seize"]:
    """What `order` orders: the seizers while every slot named has seized this
    round, until the next round starts (R3b, R12), else a tie (R3)."""
    return "seize" if s.round and all(x in s.seizers for x in slots) else "tie"


def declared_order(s: State, slots: list[str], actor: str) -> OrderDeclared:
    """`order SLOT...` by `actor`: the GM orders any slots, anyone else only
    PC slots (R3c)."""
    if actor != "gm":
        npcs = [x for x in slots if (x in s.groups or x in s.combatants)
                and s.side_of(x) == "npc"]
        if npcs:
            raise Refusal(f"{', '.join(npcs)} {'is an NPC slot' if len(npcs) == 1 else 'are NPC slots'}: "
                          f"only the GM orders NPCs; {actor} may order PC slots only (R3c)")
    return OrderDeclared(slots=list(slots), context=order_context(s, slots))


def turn_to_end(s: State, cid: str | None, careful: bool = False) -> TurnEnded:
    """`end-turn [ID]`: the turn in progress, or in an open group slot the
    only member up. `careful` (play mode, the GM console's End turn,
    COMBAT_CAREFUL=1): a turn with nothing declared in it is ended only by
    naming it, so a reflexive end-turn never skips a combatant (nor starts
    the next one's turn, which shows a hidden combatant to the players).
    Without it the contract's bare end-turn stands, and the output says
    what happened (flow.announce)."""
    if s.running and s.turn is not None:
        target = cid or s.turn
    elif cid:
        target = cid
    else:
        up = s.up()
        if len(up) > 1:
            raise Refusal(f"no turn is in progress in this group slot: name the member "
                          f"who passes ({', '.join(up)}) (R8)")
        if not up:
            raise Refusal("no turn is in progress (R21)")
        target = up[0]
    if careful and cid is None and untouched(s, target):
        named = {"command": "end-turn", "id": target}
        if untouched_after_auto_end(s, target):
            why = (f"{s.auto_ended}'s turn already ended by itself and {target} "
                   "has declared nothing yet")
            raise Unconfirmed(f"{why}: `end-turn {target}` ends {target}'s turn (R21)",
                              named, f"{why} (R21)")
        why = f"{target} has spent no AP in this turn yet"
        raise Unconfirmed(f"{why}: `end-turn {target}` ends it (R21)", named, f"{why} (R21)")
    return TurnEnded(combatant=target)


def untouched(s: State, target: str) -> bool:
    """Is `target` up with nothing declared in their turn: a turn the pass
    reached that has spent no AP, or a group member's turn not begun?"""
    if not s.running or target not in s.up():
        return False
    return s.turn is None or (s.turn == target and not s.turn_started)


def untouched_after_auto_end(s: State, target: str) -> bool:
    """Is `target`'s turn one the pass reached because the turn before it
    ended by itself (R21), with nothing declared in it yet?"""
    return bool(s.running and s.auto_ended and not s.turn_started
                and target != s.auto_ended)


def label_word(s: State, word: str) -> None:
    """Play mode's `m WORD ...`: a first word that is not an id but close to
    one is a slip, never the start of a label."""
    ids = list(s.combatants) + list(s.groups)
    if word.lower() not in ids and did_you_mean(word, ids):
        raise Refusal(f"{word!r} is not an id here{did_you_mean(word, ids)} "
                      "(to start the label with it, name who acts first)")
