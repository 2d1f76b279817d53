"""A campaign: the stats of many encounters of one store, side by side and
summed (`stats --all`, `stats --encounters a,b`, `report --all`).

Combatants are matched across fights by their id (the same `rook` in every
encounter is one person); the name shown is the one of the latest fight.
"""
from __future__ import annotations

from collections.abc import Iterable

from projections.ledger import Ledger
from projections.reports.stats import stats
from projections.reports.walk import Track, no_track

SUMMED = ("turns", "ap_spent", "ap_in_turns", "ap_on_interrupts", "interrupts",
          "seizes", "grit_spent", "grit_gained", "ap_unspent")
TURN_COLUMNS = ("encounter", "turn", "round", "pass", "combatant", "name", "side",
                "group", "ap_spent", "seconds", "started_at", "ended_at",
                "start_seq", "end_seq")


def per_turn(numbers: dict) -> Iterable[list]:
    """The rows of the tidy turns table (TURN_COLUMNS) of one encounter."""
    people = {c["id"]: c for c in numbers["combatants"]}
    for t in numbers["turns"]:
        c = people[t["combatant"]]
        yield [numbers["encounter"], t["turn"], t["round"], t["pass"], t["combatant"],
               c["name"], c["side"], c["group"] or "", t["ap_spent"], t["seconds"],
               t["started_at"], t["ended_at"], t["start_seq"], t["end_seq"]]


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 3) if b else None


def campaign(ledger: Ledger, encounters: list[str], track: Track = no_track,
             sessions: dict[str, str] | None = None, audience: str = "gm") -> dict:
    """The campaign view of `encounters` (in the order given); `sessions`:
    the session each belongs to; for the players (`audience`), each fight as
    a player reads it, with no trace of a combatant still hidden."""
    fights = [stats(_as_read(ledger, eid, audience), eid, track) for eid in encounters]
    people: dict[str, dict] = {}
    sides: dict[str, dict] = {}
    for numbers in fights:
        _harm(people, numbers)
        turn_ap: dict[str, list[int]] = {}
        for t in numbers["turns"]:
            turn_ap.setdefault(t["combatant"], []).append(t["ap_spent"])
        for c in numbers["combatants"]:
            p = people.setdefault(c["id"], _person(c))
            p["name"] = c["name"]
            p["encounters"] += 1
            p["turn_seconds"] = round(p["turn_seconds"] + c["turn_seconds"], 3)
            for k in SUMMED:
                p[k] += c[k]
            s = sides.setdefault(c["side"], {"side": c["side"], "turns": 0,
                                             "ap_in_turns": 0, "interrupts": 0,
                                             "seizes": 0, "turn_seconds": 0.0})
            for k in ("turns", "ap_in_turns", "interrupts", "seizes"):
                s[k] += c[k]
            s["turn_seconds"] = round(s["turn_seconds"] + c["turn_seconds"], 3)
    for p in people.values():
        p["ap_per_turn"] = _ratio(p["ap_in_turns"], p["turns"])
        p["seconds_per_turn"] = _ratio(p["turn_seconds"], p["turns"])
    for s in sides.values():
        s["ap_per_turn"] = _ratio(s["ap_in_turns"], s["turns"])
        s["seconds_per_turn"] = _ratio(s["turn_seconds"], s["turns"])
    rows = [{"encounter": n["encounter"], "session": (sessions or {}).get(n["encounter"]),
             "title": n["title"], "phase": n["phase"],
             "first_at": n["totals"]["first_at"],
             "duration_seconds": n["totals"]["duration_seconds"],
             **{k: n["totals"][k] for k in ("rounds", "turns", "ap_spent", "interrupts",
                                            "seizes", "turn_seconds")}}
            for n in fights]
    totals = {k: sum(r[k] for r in rows) for k in ("rounds", "turns", "ap_spent",
                                                   "interrupts", "seizes")}
    totals["duration_seconds"] = round(sum(r["duration_seconds"] for r in rows), 3)
    totals["encounters"] = len(rows)
    return {"encounters": rows, "totals": totals,
            "combatants": sorted(people.values(), key=lambda p: (p["side"] != "pc", p["id"])),
            "sides": [sides[k] for k in sorted(sides)], "fights": fights,
            "harm": _taken_per_fight(fights), "audience": audience,
            "sessions": _per_session(fights, sessions) if sessions else []}


SESSION_KEYS = ("turns", "ap_in_turns", "turn_seconds", "grit_spent", "grit_gained")


def _per_session(fights: list[dict], sessions: dict[str, str]) -> list[dict]:
    """Each session's PCs, summed over its fights: their spotlight (turns,
    AP in turns, time in turns), Grit spent and gained, hp lost and dealt."""
    out: dict[str, dict] = {}
    for n in fights:
        evening = out.setdefault(sessions[n["encounter"]], {
            "session": sessions[n["encounter"]], "fights": [], "people": {}})
        evening["fights"].append(n["encounter"])
        harm = {h["id"]: h for h in n["hp"]["combatants"]}
        for c in n["combatants"]:
            if c["side"] != "pc":
                continue
            p = evening["people"].setdefault(c["id"], {
                "id": c["id"], "name": c["name"], "fights": 0, "hp_taken": 0, "hp_dealt": 0,
                **{k: 0 for k in SESSION_KEYS}})
            p["fights"] += 1
            for k in SESSION_KEYS:
                p[k] = round(p[k] + c[k], 3)
            p["hp_taken"] += harm.get(c["id"], {}).get("taken", 0)
            p["hp_dealt"] += harm.get(c["id"], {}).get("dealt", 0)
    return [{**x, "people": list(x["people"].values())} for x in out.values()]


def _as_read(ledger: Ledger, encounter: str, audience: str) -> Ledger:
    if audience != "players":
        return ledger
    from projections.players import players_ledger
    return players_ledger(ledger, encounter)


def _person(c: dict) -> dict:
    return {"id": c["id"], "side": c["side"], "encounters": 0, "turn_seconds": 0.0,
            "hp_taken": 0, "hp_dealt": 0, "hp_healed": 0, "conditions": [],
            **{k: 0 for k in SUMMED}}


def _harm(people: dict[str, dict], numbers: dict) -> None:
    """Damage taken, dealt and healed (tracks named hp) and the conditions
    suffered, added to each combatant of one fight."""
    for h in numbers["hp"]["combatants"]:
        c = next(x for x in numbers["combatants"] if x["id"] == h["id"])
        p = people.setdefault(h["id"], _person(c))
        p["hp_taken"] += h["taken"]
        p["hp_dealt"] += h["dealt"]
        p["hp_healed"] += h["healed"]
    for per_round in numbers["conditions"]:
        for cid, names in per_round["on"].items():
            c = next((x for x in numbers["combatants"] if x["id"] == cid), None)
            if c is None:
                continue
            p = people.setdefault(cid, _person(c))
            p["conditions"] += [x for x in names if x not in p["conditions"]]


def _taken_per_fight(fights: list[dict]) -> dict:
    """Each PC's damage taken in each fight, in order (0 where it took none
    or was not there): the campaign's line per character over time."""
    pcs: dict[str, str] = {}
    for n in fights:
        pcs.update({c["id"]: c["name"] for c in n["combatants"] if c["side"] == "pc"})
    taken = {cid: [next((h["taken"] for h in n["hp"]["combatants"] if h["id"] == cid), 0)
                   for n in fights] for cid in pcs}
    return {"used": any(n["hp"]["used"] for n in fights), "names": pcs, "taken": taken}
