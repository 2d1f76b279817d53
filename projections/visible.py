"""What a player's or a view's token may read (the docs, "What the
players see"): every read with no trace of a hidden combatant, until it is
revealed; from then on it and its whole past are there. The GM and the CLI
read everything; the table server passes its reads through here for the
other roles.

Which combatants are secret is the state's to say (`State.hidden`, folded:
`hide`, `reveal`, and the reveal by itself when its turn starts or it
interrupts or seizes); a group all of whose members are secret is secret
too, so its slot gives nothing away."""
from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Set as AbstractSet

from projections.domain.state import State


# -- what a player's or view's token reads of tracks (the docs, "What the
# players see"): a PC's tracks, and an NPC's only where the GM made them public
# (`track ID NAME VALUE --public`). Conditions are seen by everyone. The GM and
# the CLI see everything.

def for_players(view: dict) -> dict:
    """A status (`status(state)`) as a player's or view's token reads it."""
    people = []
    for c in view["combatants"]:
        tracks = c.get("tracks") or {}
        if c["side"] != "pc" and not all(t["public"] for t in tracks.values()):
            c = {**c, "tracks": {n: t for n, t in tracks.items() if t["public"]}}
        people.append(c)
    return {**view, "combatants": people}


def unseen_tracks(s: State) -> set[tuple[str, str]]:
    """(combatant, track) of every track players do not see."""
    return {(cid, name) for cid, own in s.tracks.items() for name, t in own.items()
            if not t.public and s.combatants[cid].side != "pc"}


def hides(unseen: AbstractSet[tuple[str, str]], type_name: str | None, data) -> bool:
    """Whether an event (its type and data, a dict or a payload) tells the
    value of a track players do not see (in an amendment too)."""
    if not unseen:
        return False
    get = data.get if isinstance(data, dict) else (lambda k, d=None: getattr(data, k, d))
    if type_name == "TrackChanged":
        return (get("combatant"), get("track")) in unseen
    if type_name == "Amended":
        for e in get("events") or ():
            name = e.get("type") if isinstance(e, dict) else type(e).__name__
            if hides(unseen, name, e):
                return True
    return False


def secret(state: State) -> frozenset[str]:
    """The ids a player may not read now: hidden combatants, and groups
    with no member the players see."""
    if not state.hidden:
        return frozenset()
    groups = {g.id for g in state.groups.values()
              if g.members and all(m in state.hidden for m in g.members)}
    return frozenset(state.hidden | groups)


def status_for_players(view: dict, hidden: frozenset[str], seq: int | None = None) -> dict:
    """`status --json` (views.status) without the secret combatants, their
    group slots, or their place in the order, the tie lists and who is up;
    and without NPC tracks the GM keeps to the table (for_players).
    `seq`: the status's seq as players number the log (projections/numbering.py)."""
    view = for_players(view)
    if seq is not None and seq != view.get("seq"):
        view = {**view, "seq": seq}
    if not hidden:
        return view
    shown = dict(view)
    shown["combatants"] = [c for c in view["combatants"] if c["id"] not in hidden]
    shown["groups"] = [{**g, "members": [m for m in g["members"] if m not in hidden]}
                       for g in view["groups"] if g["id"] not in hidden]
    shown["order"] = [x for x in view["order"] if x not in hidden]
    shown["up"] = [x for x in view["up"] if x not in hidden]
    shown["acting"] = None if view["acting"] in hidden else view["acting"]
    ties = ([x for x in tie if x not in hidden] for tie in view["ties"])
    shown["ties"] = [tie for tie in ties if len(tie) > 1]
    return shown


def _mentions(data) -> Iterator[str]:
    """Every combatant, group or slot id an event's data names."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("combatant", "id", "slot", "group") and isinstance(value, str):
                yield value
            elif key == "slots" and isinstance(value, list):
                yield from (v for v in value if isinstance(v, str))
            elif key in ("events", "also"):
                yield from _mentions(value)
    elif isinstance(data, (list, tuple)):
        for item in data:
            yield from _mentions(item)


def _cited(data: dict) -> list[int]:
    """The batches a correction marker acts on."""
    if "batches" in data:
        return list(data["batches"])
    return [data["batch"]] if isinstance(data.get("batch"), int) else []


class Sieve:
    """Walks a log in order and says which events a player may read: those
    naming no secret id, an effect's end when its start was read, and
    markers that correct a batch the players saw."""

    def __init__(self, hidden: frozenset[str], unseen: frozenset = frozenset()):
        self.hidden, self.unseen = hidden, unseen  # unseen: (combatant, track) pairs
        self.seen: set[int] = set()  # batches with an event the players read
        self.effects: set[str] = set()  # effects of secret combatants: their end is theirs

    def fresh(self) -> Sieve:
        """The same view, to walk a log from its start."""
        return Sieve(self.hidden, self.unseen)

    @classmethod
    def of(cls, state: State) -> Sieve:
        """What a player or view may read of `state`'s log."""
        return cls(secret(state), frozenset(unseen_tracks(state)))

    def keeps(self, type_name: str, batch: int, data: dict) -> bool:
        if self.unseen and hides(self.unseen, type_name, data):
            return False
        if not self.hidden:
            return True
        if type_name in ("Undone", "Redone"):
            keep = any(b in self.seen for b in _cited(data))
        elif type_name == "Amended":
            keep = data.get("batch") in self.seen and not any(
                x in self.hidden for x in _mentions(data))
        elif type_name == "EffectEnded":
            keep = data.get("effect") not in self.effects
        else:
            keep = not any(x in self.hidden for x in _mentions(data))
            if not keep and type_name == "EffectApplied":
                self.effects.add(str(data.get("effect")))
        if keep:
            self.seen.add(batch)
        return keep

    def worded(self, data: dict) -> dict:
        """An event's data as a player reads it: what a secret combatant
        did to another is told without it (`track ash hp -3 --by boss`
        reads as a change with nobody named)."""
        if data.get("by") in self.hidden:
            return {**data, "by": None}
        return data
