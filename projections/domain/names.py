"""Ids close to a mistyped one: `roll arai` asks "did you mean aria?"
(an edit of one or two letters, a swap counted as one, or a prefix)."""
from __future__ import annotations

from collections.abc import Iterable

MAX_SUGGESTIONS = 3


def distance(a: str, b: str) -> int:
    """Edits (insert, delete, change, swap of neighbours) from a to b."""
    prev2: list[int]
    prev2, prev = [], list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1]


def close_to(word: str, ids: Iterable[str]) -> list[str]:
    """The ids `word` is probably a slip for, closest first (at most three)."""
    word = word.lower()
    if not word:
        return []
    most = 1 if len(word) <= 4 else 2
    found = []
    for cid in ids:
        if cid == word:
            continue
        d = distance(word, cid)
        if d <= most or (len(word) >= 2 and cid.startswith(word)):
            found.append((d, cid))
    return [cid for _, cid in sorted(found)[:MAX_SUGGESTIONS]]
