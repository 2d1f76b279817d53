"""`combat diff A B`: where two encounters part, and what each went on to.

Two logs share their history up to the last seq at which their events are
the same (seq, batch, time, actor and data: a fork's copies of its source's
events are verbatim, its first event aside). After that, each side is read
as `stats` reads it, less what it had at the parting seq: the rounds, each
combatant's turns, AP and Grit spent, its tracks at the end and whether it
is still standing."""
from __future__ import annotations

from itertools import zip_longest
from typing import Any

from eventlog.language import _
from projections.forking import point_of
from projections.ledger import Ledger
from projections.reports.stats import Stats, Tally
from projections.reports.walk import steps

COUNTED = ("turns", "ap_in_turns", "ap_on_interrupts", "grit_spent", "seizes")


def parting(ledger: Ledger, a: str, b: str) -> tuple[int, str | None]:
    """The last seq the two logs share (0: none), and how they are related
    (a sentence in the reader's language), if one is a fork of the other or
    both of a third."""
    store = ledger.store
    pa, pb = point_of(store, a), point_of(store, b)
    relation = None
    if pb is not None and pb.encounter == a:
        relation = _("{fork} is a fork of {source} at seq {seq}").format(fork=b, source=a,
                                                                        seq=pb.seq)
    elif pa is not None and pa.encounter == b:
        relation = _("{fork} is a fork of {source} at seq {seq}").format(fork=a, source=b,
                                                                        seq=pa.seq)
    elif pa is not None and pb is not None and pa.encounter == pb.encounter:
        relation = _("both are forks of {source}").format(source=pa.encounter)
    shared = 1
    for x, y in zip_longest(store.rows(a, after=1), store.rows(b, after=1)):
        if x is None or y is None or x[:6] != y[:6]:  # seq, batch, type, at, actor, data
            break
        shared = x.seq
    if shared == 1 and relation is None:
        return 0, None  # two beginnings of their own: nothing in common
    return shared, relation


def _went_on(ledger: Ledger, encounter: str, shared: int) -> dict[str, Any]:
    """One side after the parting seq: stats at its end less stats there."""
    tally, then = Stats(), None
    for step in steps(ledger, encounter):
        if then is None and step.entry.env.seq > shared:
            then = {cid: _numbers(t) for cid, t in tally.combatants.items()}
        tally.feed(step)
    then = then if then is not None else {cid: _numbers(t) for cid, t in tally.combatants.items()}
    state = ledger.state(encounter)
    before = ledger.state(encounter, shared) if shared else None
    combatants = []
    for cid, c in state.combatants.items():
        now = _numbers(tally.combatants.get(cid, Tally()))
        was = then.get(cid, dict.fromkeys(COUNTED, 0))
        done = {k: now[k] - was[k] for k in COUNTED}
        tracks = {name: {"value": t.value, "max": t.max}
                  for name, t in state.tracks.get(cid, {}).items()}
        combatants.append({"id": cid, "name": c.name, "side": c.side,
                           "turns": done["turns"],
                           "ap_spent": done["ap_in_turns"] + done["ap_on_interrupts"],
                           "grit_spent": done["grit_spent"], "seizes": done["seizes"],
                           "tracks": tracks, "standing": c.active,
                           "joined": before is None or cid not in before.combatants})
    return {"encounter": encounter, "title": state.title, "seq": state.seq,
            "events_after": state.seq - shared, "phase": state.phase,
            "round": state.round, "round_then": before.round if before else 0,
            "combatants": combatants}


def _numbers(t: Tally) -> dict[str, int]:
    return {k: getattr(t, k) for k in COUNTED}


def diff(ledger: Ledger, a: str, b: str) -> dict[str, Any]:
    """`diff A B --json`."""
    shared, relation = parting(ledger, a, b)
    return {"a": a, "b": b, "shared_until": shared, "relation": relation,
            "sides": [_went_on(ledger, a, shared), _went_on(ledger, b, shared)]}
