"""What a command given with `--dry-run` would change, in the table's words
(the docs): who gets AP back or loses it, whose turn moves, what AP a new
round throws away, which later declarations would fall. Nothing is
appended; the core judged the command exactly as it would have executed it.
"""
from __future__ import annotations

from eventlog.codec import Envelope
from eventlog.events import Amended, Payload, Redone, Undone
from projections.domain.state import KEPT_COMPLETE, State
from projections.domain.narrate import describe, describe_together, lost_line, unspent


def would_round(before: State, after: State) -> list[str]:
    """`round --dry-run`: the restore, and the AP it throws away (R15, R24)."""
    lost = unspent(before)
    lines = [f"round {after.round} would start: AP restored (R15)"]
    lines.append(lost_line(lost, before.round) if lost else "no unspent AP would be lost")
    return lines + _flow(before, after)


def would_correct(marker: Payload, touched: list[Envelope], before: State,
                  after: State) -> list[str]:
    """`undo`, `redo`, `retract` or `amend` with --dry-run."""
    by_batch: dict[int, list[Envelope]] = {}
    for env in touched:
        by_batch.setdefault(env.batch, []).append(env)
    lines: list[str] = []
    if isinstance(marker, Undone):
        first, *rest = marker.batches
        verb = "undone" if marker.kind == "undo" else "retracted"
        lines += _said(by_batch.get(first, []), f"would be {verb}")
        for b in rest:
            lines += _said(by_batch.get(b, []), "would fall with it (--cascade)")
    elif isinstance(marker, Redone):
        lines += _said(by_batch.get(marker.batch, []), "would come back")
    elif isinstance(marker, Amended):
        lines += [f"seq {marker.batch} would read: {describe(p)}" for p in marker.events]
        for b, events in marker.also:
            lines += [f"seq {b} would read: {describe(p)} (the turn moves with it, R28b)"
                      for p in events]
        for b in marker.retracted:
            lines += _said(by_batch.get(b, []), "would fall with it (--cascade)")
    kept = sorted({cid for _, cid in getattr(marker, "kept", ()) if cid and cid != KEPT_COMPLETE})
    if kept:
        lines.append(f"{', '.join(kept)}: turns that ended by themselves stay ended there, "
                     "the AP kept in reserve (R28a)")
    return lines + _ap(before, after) + _flow(before, after)


def _said(envs: list[Envelope], what: str) -> list[str]:
    together = describe_together([e.data for e in envs]) if len(envs) > 1 else None
    if together is not None:  # one declaration about several targets: one line
        return [f"seq {envs[0].seq}-{envs[-1].seq} {what}: {together}"]
    return [f"seq {e.seq} {what}: {describe(e.data)}" for e in envs]


def _ap(before: State, after: State) -> list[str]:
    lines = []
    for cid, c in after.combatants.items():
        was = before.combatants.get(cid)
        if was is None or was.ap == c.ap:
            continue
        change = (f"would get {c.ap - was.ap} AP back" if c.ap > was.ap
                  else f"would lose {was.ap - c.ap} AP")
        lines.append(f"{cid} {change} ({was.ap} → {c.ap})")
    return lines


def _flow(before: State, after: State) -> list[str]:
    if _where(before) == _where(after):
        return ["whose turn it is would not change"]
    return [f"then {_where(after)} (now {_where(before)})"]


def _where(s: State) -> str:
    """Where the fight stands: round, pass and who is up."""
    if not s.round:
        return "before the first round"
    if s.ended:
        return "the encounter has ended"
    if s.round_complete:
        return f"round {s.round} complete, nobody up"
    up = s.up()
    who = ", ".join(up) + (" up" if len(up) == 1 else " up, whoever declares first")
    return f"round {s.round}, pass {s.pass_}: {who if up else 'nobody up'}"
