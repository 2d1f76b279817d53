"""The range of every number (and the length of every text) a declaration carries: one place bounds them,
for declarations, roster entries and imported logs alike (the judge calls
check_numbers before any rule). Where the rules reference (docs/rules.md) states a range, the refusal
cites its rule."""
from __future__ import annotations

import re
from types import UnionType
from typing import Union, get_args, get_origin

import msgspec

from eventlog.errors import Refusal
from eventlog.language import N_, _, whole
from eventlog.events import Payload

# Where the rules reference (docs/rules.md) states a range, its rule's; elsewhere +-MAX_NUMBER, beyond any
# table and far inside what the store, the exports and their readers hold
# (sums of them included). By field name, or by "Type.field".
MAX_NUMBER = 1_000_000_000
RANGES: dict[str, tuple[int, int, str]] = {
    "die": (1, 10, N_("a d10 shows {lo} to {hi}, not {v} (R1)")),
    "max_ap": (0, MAX_NUMBER, N_("maximum AP runs from {lo} to {hi}, not {v} (R14)")),
    "grit": (0, MAX_NUMBER, N_("Grit runs from {lo} to {hi}, not {v} (R13)")),
    "cost": (0, MAX_NUMBER, N_("an action costs {lo} to {hi} AP, not {v} (R16)")),
    "rounds": (1, MAX_NUMBER, N_("an effect lasts 1 round or more, at most {hi}, not {v}")),
    "EffectApplied.fights": (1, MAX_NUMBER, N_("a condition lasts 1 fight or more, at most "
                             "{hi}, not {v}")),
    "EffectApplied.max_ap": (-MAX_NUMBER, MAX_NUMBER,
                             N_("an effect changes maximum AP by {lo} to {hi}, not {v} (R14)")),
    "APAdjusted.delta": (-MAX_NUMBER, MAX_NUMBER, N_("an AP adjustment runs from {lo} to {hi}, "
                         "not {v} (R14)")),
    "GritAdjusted.delta": (-MAX_NUMBER, MAX_NUMBER, N_("a Grit change runs from {lo} to {hi}, "
                           "not {v} (R13)")),
    "TrackChanged.value": (0, MAX_NUMBER, N_("a track runs from {lo} to {hi}, not {v}")),
    "TrackChanged.max": (0, MAX_NUMBER, N_("a track's maximum runs from {lo} to {hi}, not {v}")),
    "TrackChanged.delta": (-MAX_NUMBER, MAX_NUMBER, N_("a track changes by {lo} to {hi}, "
                           "not {v}")),
}
# The length of every text a declaration carries: a 3,000-character label
# would flood every table and report. By field name; any other text: MAX_ID.
MAX_ID = 64
TEXTS: dict[str, tuple[int, str]] = {
    "name": (64, N_("a name holds at most {hi} characters, not {v}")),
    "title": (120, N_("a title holds at most {hi} characters, not {v}")),
    "label": (200, N_("a label holds at most {hi} characters, not {v}")),
    "reason": (200, N_("a reason holds at most {hi} characters, not {v}")),
    "text": (2000, N_("a note holds at most {hi} characters, not {v}")),
    "track": (32, N_("a track's name holds at most {hi} characters, not {v}")),
    "portrait": (80, N_("a portrait's digest holds at most {hi} characters, not {v}")),
}
AN_ID = N_("an id holds at most {hi} characters, not {v}")
_NAMES = {"bonus": N_("an initiative bonus of {v} is out of range: {lo} to {hi}"),
          "total": N_("an initiative total of {v} is out of range: {lo} to {hi}"),
          "round": N_("a round number of {v} is out of range: {lo} to {hi}"),
          "batch": N_("a seq of {v} is out of range: {lo} to {hi}"),
          "batches": N_("a seq of {v} is out of range: {lo} to {hi}")}
OUT_OF_RANGE = N_("{field} of {v} is out of range: {lo} to {hi}")  # (a field's own name)
_SPECS: dict[type, tuple] = {}  # per payload type, built on first use
# A portrait is named by the SHA-256 of its image (the store keeps it under it).
DIGEST = re.compile(r"[0-9a-f]{64}\Z")
DIGEST_WORDS = N_("a portrait is named by the SHA-256 of its image (64 lowercase hex digits)")


def check_numbers(e: Payload) -> None:
    """Refuse a declaration holding a number out of its range (events nested
    in an Amended included). The one place numbers are bounded: declarations,
    roster entries and imported logs all pass through it."""
    specs = _SPECS.get(type(e))
    if specs is None:
        specs = _SPECS[type(e)] = _specs(type(e))
    for name, kind, low, high, message in specs:
        value = getattr(e, name)
        if kind == "events":
            for nested in value:
                check_numbers(nested)
            continue
        if kind == "digest":
            if value is not None and not (isinstance(value, str) and DIGEST.match(value)):
                raise Refusal(_(message))
            continue
        if kind in ("str", "strs"):
            for v in (value if kind == "strs" else (value,)):
                if v is not None and len(v) > high:
                    raise Refusal(_(message).format(v=whole(len(v)), hi=whole(high)))
            continue
        for v in (value if kind == "list" else (value,)):
            if v is not None and not low <= v <= high:
                raise Refusal(_(message).format(v=_shown(v), lo=whole(low), hi=whole(high),
                                                field=name))


def _specs(cls: type) -> tuple:
    """(field, kind, lowest, highest, message) for each number field of `cls`
    (int, int | None, list[int]) and each list of nested events."""
    out = []
    for f in msgspec.structs.fields(cls):
        args = get_args(f.type)
        if f.name == "portrait":
            out.append((f.name, "digest", 0, 0, DIGEST_WORDS))
            continue
        if f.type is str or f.type == (str | None) or (
                get_origin(f.type) is list and args == (str,)):
            high, said = TEXTS.get(f.name) or (MAX_ID, AN_ID)
            out.append((f.name, "strs" if get_origin(f.type) is list else "str", 0, high, said))
            continue
        if f.type is int or (get_origin(f.type) in (Union, UnionType) and int in args):
            kind = "int"
        elif get_origin(f.type) is list and args == (int,):
            kind = "list"
        elif get_origin(f.type) is list and get_args(args[0]) and all(
                isinstance(a, type) and issubclass(a, Payload) for a in get_args(args[0])):
            out.append((f.name, "events", 0, 0, ""))
            continue
        else:
            continue
        low, high, message = RANGES.get(f"{cls.__name__}.{f.name}") or RANGES.get(f.name) or (
            -MAX_NUMBER, MAX_NUMBER,
            _NAMES.get(f.name, OUT_OF_RANGE))
        out.append((f.name, kind, low, high, message))
    return tuple(out)


def _shown(v: int) -> str:
    """A number as a message can hold it (not 4,000 digits)."""
    if v.bit_length() <= 128:
        return str(v)
    digits = int((v.bit_length() - 1) * 0.30103) + 1  # those of 2**(bits - 1)
    if v < 0:
        return _("a negative number of {digits} digits or more").format(digits=digits)
    return _("a number of {digits} digits or more").format(digits=digits)
