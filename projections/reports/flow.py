"""What a declaration did to the flow of the round, said at once: a turn
that ended by itself (R21), a new pass, a complete round (R23), the AP a new
round throws away (R15, R24), and who is up now. Also the tie hint, so that
it names a command that does what it says (R3b)."""
from __future__ import annotations

from collections.abc import Iterable

from eventlog.events import (
    APAdjusted,
    APSpent,
    CombatantLeft,
    EffectApplied,
    Payload,
    RoundStarted,
    TurnEnded,
)
from eventlog.language import _
from projections.domain.asks import order_context, untouched, untouched_after_auto_end
from projections.domain.narrate import lost_line, unspent
from projections.domain.state import TURN_LIMIT, State


def up_line(s: State) -> str:
    up = s.up()
    if s.ended or not s.round:
        return ""
    if s.round_complete:
        return _("round {n} is complete (R23): nobody is up; `round` starts the next").format(
            n=s.round)
    if not up:
        return _("nobody is up")
    if len(up) > 1:
        return _("up now: {names} ({slot}: whoever declares first, R8)").format(
            names=", ".join(up), slot=s.current)
    return _("up now: {name}").format(name=up[0])


def announce(before: State, after: State, payloads: Iterable[Payload],
             named: bool = False) -> list[str]:
    """The flow lines for a declaration (after it, on `after`), [] when the
    flow did not move. `named`: the command named whose turn it ends."""
    payloads = list(payloads)
    lines: list[str] = []
    ended_by_hand = {p.combatant for p in payloads if isinstance(p, TurnEnded)}
    new_round = any(isinstance(p, RoundStarted) for p in payloads)
    if new_round:
        lost = unspent(before)
        if lost:
            lines.append(lost_line(lost, before.round))
    for p in payloads:
        cid = getattr(p, "combatant", None)
        if isinstance(p, TurnEnded) and not named and untouched(before, p.combatant):
            if untouched_after_auto_end(before, p.combatant):
                lines.append(_("{id}'s turn ended before {id} declared anything ({other}'s "
                               "ended by itself): `undo` if that was a slip (R21)").format(
                    id=cid, other=before.auto_ended))
            else:
                lines.append(_("{id}'s turn ended with no AP spent in it: `undo` if that was "
                               "a slip (R21)").format(id=cid))
        if cid is None or cid in ended_by_hand:
            continue
        if isinstance(p, (APSpent, APAdjusted, EffectApplied)) and after.auto_ended == cid:
            c = after.combatants[cid]
            lines.append((_("{id}'s turn ended by itself: no AP left (R21)") if c.ap == 0 else
                          _("{id}'s turn ended by itself: {n} AP spent this turn (R21)"))
                         .format(id=cid, n=TURN_LIMIT))
        elif isinstance(p, CombatantLeft) and before.running and before.turn == cid:
            lines.append(_("{id} left: their turn is over (R22)").format(id=cid))
    if not new_round:
        lines += _pass_moved(before, after)
    moved = (after.current, after.turn, after.round_complete, after.round) != \
        (before.current, before.turn, before.round_complete, before.round)
    if lines or (moved and after.round and not new_round):
        line = up_line(after)
        if line and line not in lines:
            lines.append(line)
    return lines


def _pass_moved(before: State, after: State) -> list[str]:
    """A new pass, or (after a correction) the fight back in an earlier one."""
    was, now = (before.round, before.pass_), (after.round, after.pass_)
    if not after.running or now == was or not after.round:
        return []
    if now > was and after.round == before.round:
        return [_("pass {n} of round {round} begins (R23)").format(n=after.pass_,
                                                                    round=after.round)]
    if now < was:
        return [_("back in pass {n} of round {round} (it was pass {was} of round {was_round})")
                .format(n=after.pass_, round=after.round, was=before.pass_,
                        was_round=before.round)]
    return []


def tie_hint(s: State, run: list[str], command: str = "combat order") -> str:
    """The hint beside an unresolved tie: a command that does what it says."""
    said = f"`{command} {' '.join(run)}`"
    if order_context(s, run) == "seize":
        return _("all of them seized this round: {command} orders them as seizers (R12); "
                 "order the tie once this round is over (R3b)").format(command=said)
    return _("declare with {command}").format(command=said)
