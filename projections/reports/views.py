"""Read models over the folded state: `status --json` exactly as docs/formats.md says."""
from __future__ import annotations

from projections.domain.state import State
from projections.visible import hides, unseen_tracks


def effect_view(s: State, e) -> dict:
    """An effect as status shows it: in force now, or from a later round;
    `condition`: it changes no maximum (prone, blinded); `to_round` is null
    for one that lasts until ended; `until_rest` and `fights`: a party
    character's condition that outlasts the fight."""
    return {"id": e.id, "name": e.name, "max_ap": e.delta,
            "active": e.covers(s.round), "from_round": e.first,
            "to_round": None if e.until_ended else e.last,
            "condition": not e.delta, "until_ended": e.until_ended,
            "until_rest": e.until_rest, "fights": e.fights}


def tracks_view(s: State, cid: str) -> dict:
    """A combatant's tracks by name: value, maximum (null: none) and whether
    players see an NPC's value."""
    return {name: {"value": t.value, "max": t.max, "public": t.public}
            for name, t in s.tracks.get(cid, {}).items()}


def status(s: State) -> dict:
    running = s.running
    order = s.order()
    combatants = []
    for c in s.combatants.values():
        slot = s.initiative_of(c.id)
        combatants.append({
            "id": c.id, "name": c.name, "side": c.side, "group": c.group,
            "active": c.active,
            "initiative": slot.total if slot else None,
            "die": slot.die if slot else None,
            # R14: `max_ap` is the maximum as set (what the next restore gives,
            # as it always read: stored logs show what they showed, R31);
            # `max_ap_in_force` the cap of the last restore, until the next
            "bonus": c.bonus, "ap": c.ap, "max_ap": s.max_ap_of(c.id),
            "max_ap_in_force": c.in_force,
            "spent_this_turn": c.spent_this_turn if running and s.turn == c.id else 0,
            "grit": c.grit, "seized": c.seized and s.round > 0,
            "effects": [effect_view(s, e) for e in s.effects_on(c.id)],
            "tracks": tracks_view(s, c.id),
            "hidden": c.id in s.hidden,  # (the GM's; players never see a hidden one)
        })
    groups = []
    for g in s.groups.values():
        slot = s.slots.get(g.id)
        groups.append({"id": g.id, "members": list(g.members),
                       "bonus": s.group_bonus(g.id) if g.members else g.bonus,
                       "initiative": slot.total if slot else None})
    return {
        "encounter": s.encounter, "title": s.title, "seq": s.seq,
        "phase": s.phase, "round": s.round, "pass": s.pass_,
        "seize_window": running and s.window,
        "round_complete": s.round > 0 and s.round_complete and not s.ended,
        "acting": s.turn if running else None,
        "up": s.up(),
        "order": order,
        "ties": s.ties(),
        "combatants": combatants,
        "groups": groups,
    }


# -- what a player's or view's token reads of the log (projections/visible.py
# says which tracks it does not see)

def log_for_players(events: list[dict], s: State) -> list[dict]:
    """`log --json` as a player's or view's token reads it: without the
    changes of tracks it does not see."""
    unseen = unseen_tracks(s)
    return [e for e in events if not hides(unseen, e["type"], e["data"])]
