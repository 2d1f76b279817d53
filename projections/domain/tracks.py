"""Tracks: named counters of a combatant (hp, stun, ammo), declared as
TrackChanged events. A value never goes below 0 nor above the track's
maximum: a change by more stops there (`stopped`: the event records what
the track took and what was asked), a value set past a bound is refused,
naming it. The judge's
check (`check`, called by rules.py once the combatant is known) and the
fold's step (`step`, in evolve.py's table) live here, beside the bounds."""
from __future__ import annotations

import re

from eventlog.errors import Refusal
from eventlog.language import N_, _, whole
from eventlog.events import TrackChanged

from projections.domain.ranges import MAX_NUMBER
from projections.domain.state import State, Track

MAX_TRACKS = 20  # per combatant: a sheet, not a spreadsheet
MAX_NAME = 32
NAME = re.compile(rf"[a-z][a-z0-9-]{{0,{MAX_NAME - 1}}}\Z")


def check_name(name: str) -> None:
    """A track's name: a short lowercase word (hp, stun, ammo, fate-points)."""
    if not isinstance(name, str) or not NAME.match(name):
        shown = name[:MAX_NAME] + ("…" if len(name) > MAX_NAME else "")
        raise Refusal(_("{name!r} is not a valid track name: use lowercase letters, digits and "
                        "dashes, starting with a letter, at most {most} characters").format(
                            name=shown, most=MAX_NAME))


# a value past the top: (the track is there already, it has a maximum)
_ABOVE = {
    (True, True): N_("{id}'s {track} is {value}: a track never goes above its maximum {most} "
                     "({after} would)"),
    (True, False): N_("{id}'s {track} is {value}: a track never goes above the project's "
                      "range ({range}) ({after} would)"),
    (False, True): N_("{id}'s {track} is new: a track never goes above its maximum {most} "
                      "({after} would)"),
    (False, False): N_("{id}'s {track} is new: a track never goes above the project's range "
                       "({range}) ({after} would)")}


def check(s: State, e: TrackChanged) -> None:
    """Accept the change of one track, or raise Refusal (the combatant is known)."""
    check_name(e.track)
    if (e.value is None) == (e.delta is None):
        raise Refusal(_("a track change gives either a value (10) or a change (+2, -3)"))
    own = s.tracks.get(e.combatant, {})
    track = own.get(e.track)
    if track is None and len(own) >= MAX_TRACKS:
        raise Refusal(_("{id} has {n} tracks, the most a combatant may have ({most}); change "
                        "one of them ({tracks})").format(
                            id=e.combatant, n=len(own), most=MAX_TRACKS, tracks=", ".join(own)))
    if track is None and e.delta is not None:
        raise Refusal(_("{id} has no track {track!r}: give it a value first (track {id} "
                        "{track} N)").format(id=e.combatant, track=e.track))
    value, most = after(track, e)
    if e.asked is not None and (e.delta is None or e.asked * e.delta < 0
                                or abs(e.asked) <= abs(e.delta)):
        raise Refusal(_("a track change stopped at a bound takes less than was asked, in the "
                        "same direction (asked {asked}, took {took})").format(
                            asked=f"{e.asked:+}", took=e.delta))
    if value < 0 and track is not None:  # (a delta on no track was refused above)
        raise Refusal(_("{id}'s {track} is {value}: a track never goes below 0 (by {delta} it "
                        "would be {after})").format(id=e.combatant, track=e.track,
                                                    value=track.value, delta=f"{e.delta:+}",
                                                    after=value))
    if value > (MAX_NUMBER if most is None else most):
        raise Refusal(_(_ABOVE[track is not None, most is not None]).format(
            id=e.combatant, track=e.track, value=track.value if track else None, most=most,
            range=whole(MAX_NUMBER), after=value))
    if track is not None and (value, most) == (track.value, track.max) and (
            e.public is None or e.public == track.public):
        raise Refusal(_("{id}'s {track} is {value} already: the change changes nothing")
                      .format(id=e.combatant, track=e.track, value=track.value))


def stopped(track: Track | None, delta: int, most: int | None) -> int:
    """What a track takes of a change by `delta`: all of it, or as much as
    leaves it at 0 or at its maximum `most` (a track without a maximum runs
    to the project's range, where the judge refuses the change)."""
    if track is None:
        return delta
    if delta < 0:
        return max(delta, -track.value)
    return delta if most is None else min(delta, max(0, most - track.value))


def after(track: Track | None, e: TrackChanged) -> tuple[int, int | None]:
    """The value and maximum `e` leaves the track with."""
    most = e.max if e.max is not None else (track.max if track is not None else None)
    if e.delta is not None:
        return (track.value if track is not None else 0) + e.delta, most
    assert e.value is not None  # (exactly one of value and delta)
    return e.value, most


def step(s: State, e: TrackChanged) -> None:
    own = s.tracks.setdefault(e.combatant, {})
    track = own.get(e.track)
    value, most = after(track, e)
    public = e.public if e.public is not None else (track.public if track else False)
    own[e.track] = Track(value, most, public)


def shown(track: Track) -> str:
    """`7/10`, or `3` for a track without a maximum."""
    return f"{track.value}/{track.max}" if track.max is not None else str(track.value)
