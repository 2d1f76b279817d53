"""What a command asks, worked out before it is judged: which order an
`order` declares and whether its actor may (R3, R3c, R12), which turn an
`end-turn` ends (R8, R21), whether a new encounter's id and title hold, and
whether a word typed where an id goes is a slip. decide.py and play mode
call these; the judge (rules.py) then checks what they give."""
from __future__ import annotations

from typing import Literal

from eventlog.errors import Refusal, Unconfirmed
from eventlog.events import EncounterCreated, OrderDeclared, TurnEnded
from eventlog.language import _, n_
from projections.domain.names import close_to
from projections.domain.ranges import check_numbers
from projections.domain.rules import check_slug
from projections.domain.slugs import alternatives
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
            raise Refusal(n_("{slots} is an NPC slot: only the GM orders NPCs; {actor} may order "
                             "PC slots only (R3c)", "{slots} are NPC slots: only the GM orders "
                             "NPCs; {actor} may order PC slots only (R3c)", len(npcs)).format(
                                 slots=", ".join(npcs), actor=actor))
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
            raise Refusal(_("no turn is in progress in this group slot: name the member who "
                            "passes ({up}) (R8)").format(up=", ".join(up)))
        if not up:
            raise Refusal(_("no turn is in progress (R21)"))
        target = up[0]
    if careful and cid is None and untouched(s, target):
        named = {"command": "end-turn", "id": target}
        if untouched_after_auto_end(s, target):
            raise Unconfirmed(
                _("{ended}'s turn already ended by itself and {id} has declared nothing yet: "
                  "`end-turn {id}` ends {id}'s turn (R21)").format(ended=s.auto_ended, id=target),
                named, _("{ended}'s turn already ended by itself and {id} has declared nothing "
                         "yet (R21)").format(ended=s.auto_ended, id=target))
        raise Unconfirmed(
            _("{id} has spent no AP in this turn yet: `end-turn {id}` ends it (R21)").format(
                id=target),
            named, _("{id} has spent no AP in this turn yet (R21)").format(id=target))
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
    close = close_to(word, ids)
    if word.lower() not in ids and close:
        raise Refusal(_("{word!r} is not an id here: did you mean {close}? (to start the label "
                        "with it, name who acts first)").format(
                            word=word, close=alternatives(close)))
