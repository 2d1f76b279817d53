"""The commands a person gives at the table: one msgspec Struct each, tagged by
the CLI command's name and carrying the CLI's argument names, so that the
table server's JSON (`{"command": "act", "id": "rook", "cost": "major"}`)
decodes straight into one (docs/server.md).

A command is what was *asked*; `decide` turns it into the events that are
*declared* (projections/decide.py). Reads (status, log, export...) are not
commands: they change nothing.
"""
from __future__ import annotations

from typing import Union, get_args

import msgspec

from eventlog.language import _

Cost = Union[int, str]  # noqa: UP007 - free, minor, major, or a whole number of AP (R16)


class Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="command",
              forbid_unknown_fields=True):
    """Base of every command."""


class RosterTrack(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A roster's track given as a table: its value, maximum, and whether
    players see it (an NPC's)."""
    value: int
    max: int | None = None
    public: bool = False


class RosterCombatant(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One combatant entry of a roster (the file's keys, docs/guide.md, "Rosters")."""
    name: str
    id: str | None = None
    side: str = "npc"
    bonus: int = 0
    ap: int = 3
    grit: int = 0
    group: str | None = None
    count: int = 1
    tracks: dict[str, int | RosterTrack] = {}  # a number: the value and its maximum
    hidden: bool = False  # the players do not see them yet, like `add --hidden`
    portrait: str | None = None  # the digest of a portrait the store keeps (docs/characters.md)


class RosterGroup(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    bonus: int | None = None


class Load(Command, frozen=True, tag="load"):
    """A roster's entries, read from a file by projections/roster.py (or sent
    as JSON): they join in one declaration."""
    combatant: list[RosterCombatant]
    group: list[RosterGroup] = []
    file: str = "roster"  # how refusals name the roster


class New(Command, frozen=True, tag="new"):
    """A new encounter; with a roster, its combatants join at once, and with
    `carry_grit`, their Grit is carried over from that encounter."""
    id: str
    title: str = ""
    roster: Load | None = None
    carry_grit: str | None = None
    party: str | None = None  # `--party [IDS]`: "" brings the whole party in


class Add(Command, frozen=True, tag="add"):
    name: str
    id: str | None = None
    pc: bool = False
    bonus: int = 0
    ap: int = 3
    grit: int = 0
    group: str | None = None
    count: int = 1
    hidden: bool = False  # the players do not see it yet (`hide`)


class Hide(Command, frozen=True, tag="hide"):
    id: str


class Reveal(Command, frozen=True, tag="reveal"):
    id: str


class Group(Command, frozen=True, tag="group"):
    id: str
    bonus: int


class Roll(Command, frozen=True, tag="roll"):
    slots: list[str] = []
    die: int | None = None


class Order(Command, frozen=True, tag="order"):
    slots: list[str]


class Round(Command, frozen=True, tag="round"):
    dry_run: bool = False  # say what it would change, append nothing


class Seize(Command, frozen=True, tag="seize"):
    id: str


class Act(Command, frozen=True, tag="act"):
    id: str
    cost: Cost
    label: str = ""


class Interrupt(Command, frozen=True, tag="interrupt"):
    id: str
    cost: Cost
    label: str = ""


class EndTurn(Command, frozen=True, tag="end-turn"):
    id: str | None = None
    careful: bool = False  # a bare end-turn never ends an untouched turn (R21, play mode)


class Leave(Command, frozen=True, tag="leave"):
    id: str
    reason: str = ""


class Rejoin(Command, frozen=True, tag="rejoin"):
    id: str


class MaxAP(Command, frozen=True, tag="max-ap"):
    id: str
    n: int
    reason: str = ""


class AdjustAP(Command, frozen=True, tag="adjust-ap"):
    id: str
    delta: int
    reason: str = ""


class Grit(Command, frozen=True, tag="grit"):
    id: str
    delta: int
    reason: str = ""


class SetInitiative(Command, frozen=True, tag="set-initiative"):
    slot: str
    total: int
    reason: str = ""


class Note(Command, frozen=True, tag="note"):
    text: str


class End(Command, frozen=True, tag="end"):
    no_carry: bool = False  # a fight from the party leaves the party alone


class Rename(Command, frozen=True, tag="rename"):
    """A new title for the encounter it is declared in (an event)."""
    title: str


class Fork(Command, frozen=True, tag="fork"):
    """A new encounter (`id`, "as" in JSON) whose history is the one it is
    declared in up to `seq` (the whole batch holding it), then its own
    (projections/forking.py)."""
    seq: int
    id: str = msgspec.field(name="as")
    title: str = ""


class Effect(Command, frozen=True, tag="effect"):
    """Without `max_ap`: a condition (prone, blinded), a name with a duration."""
    id: str
    name: str
    max_ap: int | None = None
    rounds: int | None = None
    until_round_end: bool = False
    effect: str | None = None  # the effect's own id (CLI: --id)
    until_ended: bool = False
    until_rest: bool = False  # a party character's condition that outlasts the fight
    fights: int | None = None  # ... for N fights, this one included


class Track(Command, frozen=True, tag="track"):
    """A named counter of a combatant: set to `value`, or changed by `delta`
    (the line's VALUE `10`, `+2` or `-3`). `public`: players see an NPC's
    value (True), or no longer (False); None keeps it as it is."""
    id: str
    name: str
    value: int | None = None
    delta: int | None = None
    max: int | None = None
    reason: str = ""
    by: str | None = None
    public: bool | None = None


class EndEffect(Command, frozen=True, tag="end-effect"):
    effect: str
    reason: str = ""


class Undo(Command, frozen=True, tag="undo"):
    reason: str = ""
    dry_run: bool = False
    expect: int | None = None  # the batch the person saw as latest (refused if another is)


class Redo(Command, frozen=True, tag="redo"):
    dry_run: bool = False
    expect: int | None = None


class Retract(Command, frozen=True, tag="retract"):
    seq: int
    cascade: bool = False
    reason: str = ""
    dry_run: bool = False


class Amend(Command, frozen=True, tag="amend"):
    seq: int
    die: int | None = None
    cost: Cost | None = None
    label: str | None = None
    who: str | None = None
    cascade: bool = False
    reason: str = ""
    value: int | None = None  # a track change's real VALUE (a change stays a change)
    dry_run: bool = False


# -- the party between fights and the sessions (projections/party): declared
# on the party's own log, whatever encounter the client is in

class PartyAdd(Command, frozen=True, tag="party-add"):
    """A character joins the party; `tracks`: NAME=VALUE[/MAX] words."""
    name: str
    id: str | None = None
    bonus: int = 0
    ap: int = 3
    grit: int = 0
    tracks: list[str] = []
    reason: str = ""


class PartySet(Command, frozen=True, tag="party-set"):
    id: str
    bonus: int | None = None
    ap: int | None = None
    grit: int | None = None
    tracks: list[str] = []
    reason: str = ""


class PartyRemove(Command, frozen=True, tag="party-remove"):
    id: str
    reason: str = ""


class PartyRest(Command, frozen=True, tag="party-rest"):
    full: bool = False
    reason: str = ""


class PartyCarry(Command, frozen=True, tag="party-carry"):
    """Carry what fight `encounter` left that the party does not hold yet."""
    encounter: str
    reason: str = ""


class PartyUndo(Command, frozen=True, tag="party-undo"):
    reason: str = ""


class PartyRedo(Command, frozen=True, tag="party-redo"):
    pass


class SessionStart(Command, frozen=True, tag="session-start"):
    title: str = ""


class SessionEnd(Command, frozen=True, tag="session-end"):
    pass


AnyCommand = Union[  # noqa: UP007 (as Event in eventlog/events.py)
    New, Add, Load, Group, Roll, Order, Round, Seize, Act, Interrupt,
    EndTurn, Leave, Rejoin, MaxAP, AdjustAP, Grit, SetInitiative, Note, End, Rename,
    Fork, Effect, EndEffect, Undo, Redo, Retract, Amend, Track, Hide, Reveal,
    PartyAdd, PartySet, PartyRemove, PartyRest, PartyCarry, PartyUndo, PartyRedo,
    SessionStart, SessionEnd,
]
COMMANDS: dict[str, type[Command]] = {
    cls.__struct_config__.tag: cls for cls in get_args(AnyCommand)}
# Commands that fix the record rather than declare at the table (R26-R28).
CORRECTING = (Undo, Redo, Retract, Amend)
# Commands declared on the party's log, not an encounter's.
PARTY = (PartyAdd, PartySet, PartyRemove, PartyRest, PartyCarry, PartyUndo, PartyRedo,
         SessionStart, SessionEnd)

_decoder: msgspec.json.Decoder | None = None  # built on first use: start-up stays light


def decode(raw: bytes | str) -> Command:
    """A command from its JSON form; msgspec.ValidationError names what is off."""
    global _decoder
    if _decoder is None:
        _decoder = msgspec.json.Decoder(AnyCommand)
    return _decoder.decode(raw)


def malformed(raw: bytes | str, exc: Exception) -> str:
    """Why `raw` is not a command, in one line: msgspec's reason, then the
    fields the command it names takes (or that it names none there is)."""
    why = " ".join(str(exc).splitlines())
    try:
        name = msgspec.json.decode(raw).get("command")
    except (msgspec.DecodeError, AttributeError, RecursionError):
        return why
    if not isinstance(name, str):
        return why
    cls = COMMANDS.get(name)
    if cls is None:
        return _("there is no command {name!r}").format(name=name[:40])
    fields = cls.__struct_encode_fields__  # (the JSON's names: a fork's "as")
    needed = len(fields) - len(cls.__struct_defaults__)
    required, optional = ", ".join(fields[:needed]), ", ".join(fields[needed:])
    if required and optional:
        said = _("{why}; {name} takes {required} required; {optional} optional")
    elif required:
        said = _("{why}; {name} takes {required} required")
    elif optional:
        said = _("{why}; {name} takes {optional} optional")
    else:
        said = _("{why}; {name} takes no fields")
    return said.format(why=why, name=name, required=required, optional=optional)


def from_builtins(obj) -> Command:
    return msgspec.convert(obj, AnyCommand)
