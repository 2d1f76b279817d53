"""The encounter told round by round and pass by pass, for the md and html
exports: each declaration in table language with names and what it changed
(Grit 1 → 0, 3 → 1 AP), undone ones struck through where they were said, and
the initiative order each round was played in."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from collections.abc import Callable
from typing import cast

from eventlog.events import (
    CORRECTIONS, Amended, APAdjusted, APSpent, CombatantJoined, CombatantLeft, CombatantRejoined,
    GritAdjusted, InitiativeOverridden, InitiativeRolled, InterruptTaken,
    MomentSeized, OrderDeclared, Payload, Redone, RoundStarted, TrackChanged, TurnEnded,
    Undone,
)

from eventlog.language import _
from projections.domain.narrate import category_word, describe
from projections.domain.state import TURN_LIMIT, State
from projections.reports.walk import Before, Step, in_turn, where

# Declarations that can place a slot in the order mid-round (R5, R22, R23).
ORDER_CHANGES = (CombatantJoined, InitiativeRolled, InitiativeOverridden,
                 CombatantRejoined, OrderDeclared)

@dataclass
class Line:
    seq: int
    text: str
    kind: str            # the event type, for styling
    actor: str
    at: str
    struck: bool = False  # undone, retracted, or the first reading of an amended one
    note: str = ""


@dataclass
class Pass:
    number: int           # 0 outside a round (setup, after the end)
    lines: list[Line] = field(default_factory=list)


@dataclass
class Placed:
    """A slot in a round's initiative order."""
    slot: str
    label: str            # its name, or the group and its members
    total: int | None
    side: str
    seized: bool = False
    left: bool = False    # the slot left the fight during this round (R22)


@dataclass
class Chapter:
    title: str
    round: int | None     # None for the setup and what follows the end
    passes: list[Pass] = field(default_factory=list)
    order: list[Placed] = field(default_factory=list)
    joined: list[Placed] = field(default_factory=list)  # placed later in the round
    planned: list[Placed] = field(default_factory=list)  # the order as the round began

    def pass_(self, number: int) -> Pass:
        if not self.passes or self.passes[-1].number != number:
            self.passes.append(Pass(number))
        return self.passes[-1]


def _name(s: State, cid: str) -> str:
    c = s.combatants.get(cid)
    return c.name if c else cid


def _label(label: str) -> str:
    return f": {label}" if label else ""


def _because(reason: str) -> str:
    return f" ({reason})" if reason else ""


def _ap(was: int, now: int) -> str:
    return _(" ({was} → {now} AP)").format(was=was, now=now)


def sentence(p: Payload, before: Before | None, after: State) -> str:
    """A declaration in table language, with names, and with what it changed
    when the state before it is given (None: a declaration not in effect)."""
    def name(cid: str) -> str:
        return _name(after, cid)
    match p:
        case MomentSeized(combatant=cid):
            if before is None:
                return describe(p, name)
            grit = before.pools[cid].grit
            return _("{who} seizes the moment (Grit {was} → {now})").format(
                who=name(cid), was=grit, now=grit - 1)
        case APSpent(combatant=cid, cost=cost):
            text = describe(p, name)
            if before is None:
                return text
            ap = before.pools[cid].ap
            text += _ap(ap, ap - cost)
            if in_turn(after) != cid:
                text += (_("; their turn is over: no AP left") if ap == cost else
                         _("; their turn is over: {limit} AP spent this turn").format(
                             limit=TURN_LIMIT))
            return text
        case InterruptTaken(combatant=cid, cost=cost, category=cat, label=label):
            text = _("{who} interrupts with {cost} AP ({kind}){label}").format(
                who=name(cid), cost=cost, kind=category_word(cat), label=_label(label))
            if before is None:
                return text
            ap = before.pools[cid].ap
            return text + _ap(ap, ap - cost)
        case TurnEnded(combatant=cid):
            if before is None:
                return describe(p, name)
            spent = before.pools[cid].spent_this_turn if before.turn == cid else 0
            if spent:
                return _("{who} ends their turn after spending {n} AP").format(
                    who=name(cid), n=spent)
            return _("{who} ends their turn without spending AP").format(who=name(cid))
        case APAdjusted(combatant=cid, delta=delta):
            text = describe(p, name)
            if before is None:
                return text
            ap = before.pools[cid].ap
            return text + _ap(ap, ap + delta)
        case GritAdjusted(combatant=cid, delta=delta):
            text = describe(p, name)
            if before is None:
                return text
            grit = before.pools[cid].grit
            return text + _(" (Grit {was} → {now})").format(was=grit, now=grit + delta)
        case TrackChanged(combatant=cid, track=track, delta=int(delta)) if before is not None:
            now = after.tracks[cid][track].value  # (the state just after it)
            return f"{describe(p, name)} ({track} {now - delta} → {now})"
    return describe(p, name)  # the rest reads as in the log, with names


class Story:
    """Feed it every step of the fold; `chapters` is the encounter told.

    With `told`, each chapter is handed to it, finished, as soon as the next
    one begins (and the last by `close()`), and not kept: the fold's state
    only moves forward (corrections are known before the walk), so a
    chapter is never added to once another has begun. The amendments'
    reasons then come in up front (`reasons`: amendment seq -> its reason),
    as a line names its amendment before the walk reaches it."""

    def __init__(self, told: Callable[[Chapter], None] | None = None,
                 reasons: dict[int, str] | None = None) -> None:
        self._chapters: list[Chapter] = []
        self._placed: dict[int, set[str]] = {}
        self._passes: dict[int, int] = {}  # round -> the last pass it reached
        self._visited: dict[int, list[Placed]] = {}  # round -> slots as their turns came
        self._left: dict[int, set[str]] = {}  # round -> slots that left during it
        self._amended: list[tuple[Line, int]] = []  # lines that name an amendment
        self._reasons: dict[int, str] = dict(reasons or {})  # amendment seq -> its reason
        self._told = told

    @property
    def chapters(self) -> list[Chapter]:
        """The chapters told so far; a pass in which nobody acted is listed
        too, with no lines."""
        for line, marker in self._amended:  # the reason is known once the amendment is read
            self._give_reason(line, marker)
        for chapter in self._chapters:
            self._finish(chapter)
        return self._chapters

    def close(self) -> None:
        """Hand the last chapter to `told`."""
        if self._told is not None and self._chapters:
            self._told(self._finish(self._chapters.pop()))

    def _give_reason(self, line: Line, marker: int) -> None:
        reason = self._reasons.get(marker)
        said = _("amended at seq {seq}").format(seq=marker)
        if reason and said + ":" not in line.note:
            line.note = line.note.replace(said, _("amended at seq {seq}: {reason}").format(
                seq=marker, reason=reason), 1)

    def _finish(self, chapter: Chapter) -> Chapter:
        if chapter.round is not None:
            have = {p.number: p for p in chapter.passes}
            last = max([self._passes.get(chapter.round, 1), *have])
            chapter.passes = [have.get(n) or Pass(n) for n in range(1, last + 1)]
            chapter.order = self._played(chapter)
        return chapter

    def _played(self, chapter: Chapter) -> list[Placed]:
        """The order a round was played in: slots in the order their turns
        came (an order declared mid-round included), then those that never
        had one, as planned; slots placed during the round are listed apart."""
        later = {p.slot for p in chapter.joined}
        visited = [p for p in self._visited.get(chapter.round or 0, []) if p.slot not in later]
        seen = {p.slot for p in visited}
        gone = self._left.get(chapter.round or 0, set())
        return [replace(p, left=p.slot in gone)
                for p in visited + [p for p in chapter.order if p.slot not in seen]]

    def feed(self, step: Step) -> None:
        env, entry = step.entry.env, step.entry
        if env.type in CORRECTIONS:
            self._correction(step)
            return
        if step.payload is None:
            if entry.amended_by is None and entry.undone_by is None:
                return
            ended = step.state.ended
            text, note = sentence(env.data, None, step.state), entry.fate or ""
            line = Line(env.seq, text, env.type, env.actor, env.at, True, note)
        else:
            assert step.before is not None  # (a step in effect has its before)
            ended = step.before.ended
            if isinstance(step.payload, RoundStarted):
                self._open_round(step)
                return
            text = sentence(step.payload, step.before, step.state)
            note = _("amended at seq {seq}").format(seq=entry.amended_by) if step.amended else ""
            line = Line(env.seq, text, type(step.payload).__name__, env.actor, env.at,
                        False, note)
        if env.actor != "gm":
            line.note = "; ".join(filter(None, [_("declared by {actor}").format(actor=env.actor),
                                                line.note]))
        if step.payload is not None and step.state.round:
            r = step.state.round
            self._passes[r] = max(self._passes.get(r, 1), step.state.pass_)
        if entry.amended_by is not None:
            if self._told is None:
                self._amended.append((line, entry.amended_by))
            else:  # (its reason came in up front)
                self._give_reason(line, entry.amended_by)
        self._place(step, line, ended)
        if step.payload is not None:
            self._follow_order(step)
            if isinstance(step.payload, (APSpent, TurnEnded)):
                self._visit(step)

    def _place(self, step: Step, line: Line, ended: bool) -> None:
        round_, pass_, _turn = where(step)
        self._chapter(round_, ended).pass_(pass_ if round_ and not ended else 0).lines.append(line)

    def _correction(self, step: Step) -> None:
        """An amendment's reason goes beside the lines it corrected; an undo
        and a redo are told where they were said, so that a pair of them is
        on the record (a retraction and an amendment are told by the lines
        they struck)."""
        env = step.entry.env
        data = env.data
        if isinstance(data, Amended):
            self._reasons[env.seq] = data.reason
            return
        if isinstance(data, Undone) and data.kind != "undo":
            return
        if not isinstance(data, (Undone, Redone)):
            return
        text = describe(data)
        if isinstance(data, Redone):
            text = _("Redo of seq {seq}: it stands again").format(seq=data.batch)
        line = Line(env.seq, text, env.type, env.actor, env.at)
        if env.actor != "gm":
            line.note = _("declared by {actor}").format(actor=env.actor)
        self._place(step, line, step.state.ended)

    def _visit(self, step: Step) -> None:
        """A turn action: its slot's turn has come in this round."""
        s, cid = step.state, cast("APSpent | TurnEnded", step.payload).combatant
        if not s.round or s.ended or cid not in s.combatants:
            return
        key = s.slot_of(cid)
        visited = self._visited.setdefault(s.round, [])
        if all(p.slot != key for p in visited):
            visited += [p for p in self._order(s) if p.slot == key]

    def _chapter(self, round_: int, ended: bool) -> Chapter:
        if ended:
            title, key = _("After the encounter"), None
        elif round_ == 0:
            title, key = _("Setup"), None
        else:
            title, key = _("Round {n}").format(n=round_), round_
        if not self._chapters or self._chapters[-1].title != title:
            if self._told is not None and self._chapters:
                self._told(self._finish(self._chapters.pop()))
            self._chapters.append(Chapter(title, key))
        return self._chapters[-1]

    def _open_round(self, step: Step) -> None:
        n = cast(RoundStarted, step.payload).round
        chapter = self._chapter(n, False)
        chapter.pass_(1)
        chapter.order = chapter.planned = self._order(step.state)
        self._placed[n] = {p.slot for p in chapter.order}

    def _follow_order(self, step: Step) -> None:
        """The order is the one the round was played in: seizes (while the
        window is open) rearrange it; slots placed later are listed apart."""
        s = step.state
        if not s.running or not self._chapters or self._chapters[-1].round != s.round:
            return
        chapter = self._chapters[-1]
        if s.window or (step.before is not None and step.before.window):
            chapter.order = self._order(s)
            self._placed[s.round] = {p.slot for p in chapter.order}
            return
        if not isinstance(step.payload, ORDER_CHANGES):
            if isinstance(step.payload, CombatantLeft):  # a slot out of the order now (R22)
                self._left.setdefault(s.round, set()).update(
                    self._placed.get(s.round, set()) - set(s.order()))
            return
        self._left.get(s.round, set()).difference_update(s.order())  # back (a rejoin)
        placed = self._placed.setdefault(s.round, set())
        for p in self._order(s):
            if p.slot not in placed:
                placed.add(p.slot)
                chapter.joined.append(p)

    @staticmethod
    def _order(s: State) -> list[Placed]:
        out = []
        for key in s.order():
            group = s.groups.get(key)
            slot = s.slots.get(key) if group else s.initiative_of(key)
            total = slot.total if slot else None
            if group is None:
                c = s.combatants[key]
                out.append(Placed(key, c.name, total, c.side, key in s.seizers))
            else:
                names = ", ".join(c.name for c in s.members(key))
                out.append(Placed(key, f"{key} ({names})", total, s.side_of(key)))
        return out

