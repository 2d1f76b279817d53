"""A progress bar on stderr for exports and imports of many events.

Library functions take a `track(items, total, what)` callable; this one
shows a rich progress bar when there are more than PROGRESS_FROM events and
stderr is a terminal, and passes the items through untouched otherwise (so
piped output and scripts never see it).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")
PROGRESS_FROM = 2000  # events: below this an export or import is instant


def progress(console=None):
    """A `track` for the library calls; `console` defaults to stderr."""
    def track(items: Iterable[T], total: int, what: str) -> Iterable[T]:
        if total <= PROGRESS_FROM:
            return items
        from rich.console import Console
        from rich.progress import track as rich_track
        shown = console or Console(stderr=True)
        if not shown.is_terminal:
            return items
        from eventlog.language import _
        return rich_track(items, total=total, description=_("{what} {total} events").format(
                              what=what, total=total),
                          console=shown, transient=True)
    return track
