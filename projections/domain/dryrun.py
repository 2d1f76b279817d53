"""What a command given with `--dry-run` would change, in the table's words
(the docs): who gets AP back or loses it, whose turn moves, what AP a new
round throws away, which later declarations would fall. Nothing is
appended; the core judged the command exactly as it would have executed it.
"""
from __future__ import annotations

from eventlog.codec import Envelope
from eventlog.events import Amended, Payload, Redone, Undone
from eventlog.language import N_, _
from projections.domain.state import KEPT_COMPLETE, State
from projections.domain.narrate import describe, describe_together, lost_line, unspent


def would_round(before: State, after: State) -> list[str]:
    """`round --dry-run`: the restore, and the AP it throws away (R15, R24)."""
    lost = unspent(before)
    lines = [_("round {round} would start: AP restored (R15)").format(round=after.round)]
    lines.append(lost_line(lost, before.round) if lost else _("no unspent AP would be lost"))
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
        lines += _said(by_batch.get(first, []), "undone" if marker.kind == "undo" else "retracted")
        for b in rest:
            lines += _said(by_batch.get(b, []), "falls")
    elif isinstance(marker, Redone):
        lines += _said(by_batch.get(marker.batch, []), "back")
    elif isinstance(marker, Amended):
        lines += [_("seq {seq} would read: {what}").format(seq=marker.batch, what=describe(p))
                  for p in marker.events]
        for b, events in marker.also:
            lines += [_("seq {seq} would read: {what} (the turn moves with it, R28b)").format(
                seq=b, what=describe(p)) for p in events]
        for b in marker.retracted:
            lines += _said(by_batch.get(b, []), "falls")
    kept = sorted({cid for _batch, cid in getattr(marker, "kept", ())
                   if cid and cid != KEPT_COMPLETE})
    if kept:
        lines.append(_("{ids}: turns that ended by themselves stay ended there, the AP kept in "
                       "reserve (R28a)").format(ids=", ".join(kept)))
    return lines + _ap(before, after) + _flow(before, after)


# what a correction would do to a batch: (one seq, a range of seqs)
_DONE = {
    "undone": (N_("seq {seq} would be undone: {what}"),
               N_("seq {first}-{last} would be undone: {what}")),
    "retracted": (N_("seq {seq} would be retracted: {what}"),
                  N_("seq {first}-{last} would be retracted: {what}")),
    "falls": (N_("seq {seq} would fall with it (--cascade): {what}"),
              N_("seq {first}-{last} would fall with it (--cascade): {what}")),
    "back": (N_("seq {seq} would come back: {what}"),
             N_("seq {first}-{last} would come back: {what}"))}


def _said(envs: list[Envelope], done: str) -> list[str]:
    one, several = _DONE[done]
    together = describe_together([e.data for e in envs]) if len(envs) > 1 else None
    if together is not None:  # one declaration about several targets: one line
        return [_(several).format(first=envs[0].seq, last=envs[-1].seq, what=together)]
    return [_(one).format(seq=e.seq, what=describe(e.data)) for e in envs]


def _ap(before: State, after: State) -> list[str]:
    lines = []
    for cid, c in after.combatants.items():
        was = before.combatants.get(cid)
        if was is None or was.ap == c.ap:
            continue
        if c.ap > was.ap:
            lines.append(_("{id} would get {n} AP back ({was} → {now})").format(
                id=cid, n=c.ap - was.ap, was=was.ap, now=c.ap))
        else:
            lines.append(_("{id} would lose {n} AP ({was} → {now})").format(
                id=cid, n=was.ap - c.ap, was=was.ap, now=c.ap))
    return lines


def _flow(before: State, after: State) -> list[str]:
    if _where(before) == _where(after):
        return [_("whose turn it is would not change")]
    return [_("then {after} (now {before})").format(after=_where(after), before=_where(before))]


def _where(s: State) -> str:
    """Where the fight stands: round, pass and who is up."""
    if not s.round:
        return _("before the first round")
    if s.ended:
        return _("the encounter has ended")
    if s.round_complete:
        return _("round {round} complete, nobody up").format(round=s.round)
    up = s.up()
    if not up:
        said = _("round {round}, pass {pass_}: nobody up")
    elif len(up) == 1:
        said = _("round {round}, pass {pass_}: {up} up")
    else:
        said = _("round {round}, pass {pass_}: {up} up, whoever declares first")
    return said.format(round=s.round, pass_=s.pass_, up=", ".join(up))
