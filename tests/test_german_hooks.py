"""A Discord hook's words are the server's language (the one `serve` was
started in): its worker threads speak what the server's context speaks."""
from __future__ import annotations

import threading

from eventlog import language
from eventlog.language import speaking


def test_discord_words_in_german():
    from cli.server.hooks import _words
    status = {"combatants": [{"id": "ash", "name": "Ash"}, {"id": "bo", "name": "Bo"}],
              "up": ["ash", "bo"]}
    with speaking("de"):
        assert _words(status, (2, 1, "ash", "running")) == "Runde 2: Ash ist dran"
        assert _words(status, (2, 1, None, "running")) == "Runde 2: Ash, Bo dürfen handeln"
        assert _words(status, (2, 1, None, "ended")) == "der Kampf ist vorbei"
    assert _words(status, (2, 1, "ash", "running")) == "round 2: Ash is up"


def test_a_hooks_worker_speaks_the_language_it_was_started_in():
    from cli.server.hooks import Worker
    heard, done = [], threading.Event()

    class Handles:
        def ledger(self):
            heard.append(language.current())
            done.set()
            raise RuntimeError("(no store: the worker tries again later)")

    class Hook:
        id = "h1"

    with speaking("de"):
        worker = Worker(Handles(), Hook(), threading.Event())
    try:
        assert done.wait(10)
        assert heard[0] == "de" and language.current() == "en"
    finally:
        worker.stopping.set()
        worker.thread.join(5)
