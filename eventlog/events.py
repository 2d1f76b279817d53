"""The declarations (docs/formats.md, "Events"), one frozen msgspec Struct each.

Each struct is the `data` of one event type; the class name is the event's
`type` (the tag), never a Python import path, so renaming a module can never
break an old log. Schema evolution: add fields with defaults, never remove or
retype one (see README, "Event reference").
"""
from __future__ import annotations

from typing import Literal, Union, get_args

import msgspec

Side = Literal["pc", "npc"]
Category = Literal["minor", "major", "custom"]


class Payload(msgspec.Struct, frozen=True, tag=True, forbid_unknown_fields=True,
              gc=False):
    """Base of every event's data (never part of a reference cycle, so the
    garbage collector need not track the millions a fold decodes)."""


class ForkPoint(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """Where a fork's history came from (`combat fork`): its events up to
    `seq` are `encounter`'s, re-chained after the fork's own first event.
    `first` and `hash` are the source's chain hashes at seq 1 and at `seq`:
    rehashing the shared events from `first` must give `hash`, which proves
    them whether or not the source is still in the store."""
    encounter: str
    seq: int
    hash: str
    first: str
    at: str  # when the fork was taken (the fork's first event keeps the source's time)


class EncounterCreated(Payload, frozen=True):
    encounter: str
    title: str = ""
    fork: ForkPoint | None = None


class CombatantJoined(Payload, frozen=True):
    id: str
    name: str
    side: Side = "npc"
    bonus: int = 0
    max_ap: int = 3
    grit: int = 0
    group: str | None = None
    portrait: str | None = None  # the SHA-256 of an image the store keeps; None: initials
    party: bool = False  # a party character, brought in by `new --party`


class GroupBonusSet(Payload, frozen=True):
    group: str
    bonus: int


class InitiativeRolled(Payload, frozen=True):
    slot: str
    die: int
    bonus: int
    total: int
    manual: bool = False


class InitiativeOverridden(Payload, frozen=True):
    slot: str
    total: int
    reason: str


class OrderDeclared(Payload, frozen=True):
    slots: list[str]
    context: Literal["tie", "seize"] = "tie"


class RoundStarted(Payload, frozen=True):
    round: int


class MomentSeized(Payload, frozen=True):
    combatant: str


class APSpent(Payload, frozen=True):
    combatant: str
    cost: int
    category: Category
    label: str = ""


class FreeActionTaken(Payload, frozen=True):
    combatant: str
    label: str = ""


class InterruptTaken(Payload, frozen=True):
    combatant: str
    cost: int
    category: Category
    label: str = ""


class TurnEnded(Payload, frozen=True):
    combatant: str


class CombatantLeft(Payload, frozen=True):
    combatant: str
    reason: str = ""


class CombatantRejoined(Payload, frozen=True):
    combatant: str


class MaxAPChanged(Payload, frozen=True):
    combatant: str
    max_ap: int
    reason: str


class APAdjusted(Payload, frozen=True):
    combatant: str
    delta: int
    reason: str


class GritAdjusted(Payload, frozen=True):
    combatant: str
    delta: int
    reason: str = ""


class NoteAdded(Payload, frozen=True):
    text: str


class EncounterEnded(Payload, frozen=True):
    pass


class CombatantHidden(Payload, frozen=True):
    """The players do not see this combatant (docs/server.md, "What the players
    see") until it is revealed, or reveals itself (derived by the fold)."""
    combatant: str


class CombatantRevealed(Payload, frozen=True):
    combatant: str


class EncounterRenamed(Payload, frozen=True):
    """A new title for the encounter (`rename ID --title T`)."""
    title: str


class Undone(Payload, frozen=True):
    """`kept`: turns the retraction keeps ended where the table saw them end
    (R28a): before batch N, combatant C's turn is taken as ended (C == "":
    the next pass begins, as it did; C == ".": the pass just begun did not
    begin at the table, the round stays complete in the pass before)."""
    batches: list[int]
    kind: Literal["undo", "retract"] = "undo"
    reason: str = ""
    kept: list[tuple[int, str]] = []


class Redone(Payload, frozen=True):
    batch: int


class EffectApplied(Payload, frozen=True):
    """A timed effect on a combatant's maximum AP (R14: traits, cyberware,
    magic, effects), or with `max_ap` 0 a condition (prone, blinded, on
    fire). `rounds`: it covers the next N rounds' AP restores (a condition:
    from now to the end of round now + N); `until_round_end`: it applies to
    the current AP at once and ends with the round; `until_ended`: it lasts
    until `end-effect` ends it. A condition of a party character may outlast
    the fight: `until_rest` (until the party rests) or `fights` (this fight
    and the next ones, N in all); in the fight it lasts until ended, and the
    carry takes it into the party. Expiry is derived by the fold, never
    stored."""
    effect: str
    combatant: str
    name: str
    max_ap: int
    rounds: int | None = None
    until_round_end: bool = False
    until_ended: bool = False
    until_rest: bool = False
    fights: int | None = None


class EffectEnded(Payload, frozen=True):
    """The GM ends an effect before it runs out."""
    effect: str
    reason: str = ""


class TrackChanged(Payload, frozen=True):
    """A named counter of a combatant (hp, stun, ammo): set to `value`, or
    changed by `delta` (exactly one of them). `max`: its maximum from now on
    (None: as it was; a new track without one runs to the project's range);
    `by`: who caused the change (damage dealt, in the report); `public`:
    whether players see an NPC's value (None: as it was; a new track: no);
    `asked`: the change asked for, when the track stopped at 0 or at its
    maximum and took only `delta` of it (None: it took all it was asked)."""
    combatant: str
    track: str
    value: int | None = None
    delta: int | None = None
    max: int | None = None
    reason: str = ""
    by: str | None = None
    public: bool | None = None
    asked: int | None = None


class Amended(Payload, frozen=True):
    """A correction of an earlier batch: `events` replace it, in its place;
    `retracted`: the later batches it made illegal, retracted with it
    (`amend --cascade`, R28); `also`: later batches of the same turn that
    move with it (`amend --who`, R28b), each with what reads in its place;
    `kept`: as in Undone (R28a)."""
    batch: int
    events: list[Event]
    reason: str = ""
    retracted: list[int] = []
    also: list[tuple[int, list[Event]]] = []
    kept: list[tuple[int, str]] = []


# -- the party (one per store, its own stream; docs/formats.md, "The party") --

class PartyTrack(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A character's named counter between fights: `value`, and its maximum
    (None: it runs to the project's range)."""
    track: str
    value: int
    max: int | None = None


class PartyCondition(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A condition that outlasts a fight: until the party rests
    (`until_rest`), or for `fights` more fights (None: until ended)."""
    name: str
    until_rest: bool = False
    fights: int | None = None


class PartyCharacterAdded(Payload, frozen=True):
    """A character joins the party (`party add`, `party import`). `portrait`:
    the content digest of its picture in the store, or None."""
    id: str
    name: str
    bonus: int = 0
    max_ap: int = 3
    grit: int = 0
    tracks: list[PartyTrack] = []
    conditions: list[PartyCondition] = []
    portrait: str | None = None
    reason: str = ""


class PartyCharacterSet(Payload, frozen=True):
    """A change between fights (`party set`): each field given replaces the
    character's (None: as it was); `tracks` set the tracks named."""
    id: str
    bonus: int | None = None
    max_ap: int | None = None
    grit: int | None = None
    tracks: list[PartyTrack] = []
    portrait: str | None = None
    reason: str = ""


class PartyCharacterRemoved(Payload, frozen=True):
    id: str
    reason: str = ""


class PartyRested(Payload, frozen=True):
    """A rest (`party rest`): conditions until a rest end; a full rest also
    brings every track with a maximum back to it (docs/rules.md, "The party")."""
    full: bool = False
    reason: str = ""


class CarriedCharacter(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """What a fight left one character: its Grit, tracks and lasting
    conditions, as they now stand in the party."""
    id: str
    grit: int
    tracks: list[PartyTrack] = []
    conditions: list[PartyCondition] = []


class PartyCarried(Payload, frozen=True):
    """What fight `encounter` left its party characters, as of its `seq`
    (`end`, `party carry`); `missing`: characters of the fight no longer in
    the party, left out; `reason`: why it is carried later (`party carry`)."""
    encounter: str
    seq: int
    characters: list[CarriedCharacter] = []
    missing: list[str] = []
    reason: str = ""


class FightStarted(Payload, frozen=True):
    """Fight `encounter` started with these party characters (`new --party`):
    until it ends and is carried, they are changed only through it."""
    encounter: str
    seq: int  # the fight's seq once they had joined it: what a carry measures from
    characters: list[str] = []


class FightReleased(Payload, frozen=True):
    """Fight `encounter` no longer holds its characters (`end --no-carry`)."""
    encounter: str
    reason: str = ""


class SessionStarted(Payload, frozen=True):
    session: str
    title: str = ""


class SessionEnded(Payload, frozen=True):
    session: str


Event = Union[  # noqa: UP007 (one Union of the tagged structs, as msgspec's docs write it)
    EncounterCreated, CombatantJoined, GroupBonusSet, InitiativeRolled,
    InitiativeOverridden, OrderDeclared, RoundStarted, MomentSeized, APSpent,
    FreeActionTaken, InterruptTaken, TurnEnded, CombatantLeft,
    CombatantRejoined, MaxAPChanged, APAdjusted, GritAdjusted, NoteAdded,
    EncounterEnded, Undone, Redone, Amended, EffectApplied, EffectEnded, EncounterRenamed,
    TrackChanged,
    CombatantHidden, CombatantRevealed,
]

# The party stream's own declarations (with EncounterCreated first and the
# undo markers, as in any stream).
PartyEvent = Union[  # noqa: UP007
    PartyCharacterAdded, PartyCharacterSet, PartyCharacterRemoved, PartyRested,
    PartyCarried, FightStarted, FightReleased, SessionStarted, SessionEnded,
]
PARTY_TYPES: dict[str, type[Payload]] = {cls.__name__: cls for cls in get_args(PartyEvent)}
EVENT_TYPES: dict[str, type[Payload]] = {
    **{cls.__name__: cls for cls in get_args(Event)}, **PARTY_TYPES}
# Undo and redo markers: they act on other batches and are never undone.
MARKERS = ("Undone", "Redone")
# Events about earlier batches, which a fold reads before the rest.
CORRECTIONS = ("Undone", "Redone", "Amended")
# Payloads a GM declares over the dice or the rules: they carry a reason (R29).
OVERRIDES = ("InitiativeOverridden", "MaxAPChanged", "APAdjusted", "GritAdjusted")
