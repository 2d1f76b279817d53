"""Declared orders among tied slots (R3).

Each `order` declaration says "these tied slots act in this order". Later
declarations win: an earlier constraint they contradict, even through a chain
(a before b, b before c, then c before a), is dropped. Tied slots are then
arranged by the constraints, falling back on the order they joined.
"""
from __future__ import annotations

Rule = tuple[str, str]  # (first, second): first acts before second


def declare(rules: list[Rule], slots: list[str]) -> list[Rule]:
    """The constraints after declaring `slots` in this order, kept oldest
    first so that the next declaration weighs them newest first (R3a)."""
    named = set(slots)
    new = [(a, b) for i, a in enumerate(slots) for b in slots[i + 1:]]
    older = [r for r in rules if not (r[0] in named and r[1] in named)]
    accepted: list[Rule] = []
    for rule in new + older[::-1]:  # newest first
        if not _reaches(accepted, rule[1], rule[0]):
            accepted.append(rule)
    return accepted[::-1]


def _reaches(rules: list[Rule], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        if node == goal:
            return True
        if node not in seen:
            seen.add(node)
            todo.extend(b for a, b in rules if a == node)
    return False


def arrange(run: list[str], rules: list[Rule]) -> tuple[list[str], bool]:
    """Tied slots (in join order) in their declared order, and whether the
    declarations settle the whole order (if not, the tie is unresolved)."""
    members = set(run)
    # Through others too (R3a): an order fixed through a slot that has left
    # the tie (an override, R4) keeps holding among those still tied.
    edges = [(a, b) for a in run for b in run if a != b and _reaches(rules, a, b)]
    waiting = {slot: sum(1 for _, b in edges if b == slot) for slot in run}
    arranged, resolved = [], True
    while waiting:
        free = [slot for slot in run if waiting.get(slot) == 0]
        if len(free) != 1:
            resolved = False
        slot = free[0] if free else next(s for s in run if s in waiting)
        arranged.append(slot)
        del waiting[slot]
        for a, b in edges:
            if a == slot and b in waiting:
                waiting[b] -= 1
    return arranged, resolved
