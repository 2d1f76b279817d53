"""Every read a player's or a view's token has of an encounter, made in
process by the very functions the table server answers with (status,
log, lines, the encounters list, the stream's messages from its start and
resumed, the players' report), as one text with timestamps out: two
fights that read the same here read the same over HTTP (test_hidden_reads
checks that on a real server)."""
from __future__ import annotations

import json
import re

from eventlog.stores.contract import Token
from projections.domain import commands as c
from projections.ledger import Ledger

TIME = re.compile(r'"at":\s*"[^"]*"')
VIEW = Token("tv", "view", (), None, "v", "2026-01-01T00:00:00Z")


def player(owns: tuple[str, ...]) -> Token:
    return Token("ana", "player", owns, None, "p", "2026-01-01T00:00:00Z")


def fresh(encounter: str = "raid") -> Ledger:
    from eventlog.stores.memory import MemoryStore
    ledger = Ledger(MemoryStore())
    ledger.execute(None, c.New(id=encounter, title="Raid"), "gm")
    return ledger


def stream(ledger: Ledger, encounter: str, token: Token, last: int | None) -> list:
    """(id, data) of a stream's messages for `token`, resumed after players'
    seq `last` (None: a fresh stream), up to the head (cli/server/stream.py)."""
    from cli.server.catchup import CatchUp, next_page
    from cli.server.views import data_for, message
    from projections.numbering import resume_point
    if last is None:
        msg = message(ledger.state(encounter), frozenset(token.owns), ledger)
        return [(msg.players_seq, json.loads(data_for(msg, token)))]
    point = resume_point(ledger, encounter, ledger.state(encounter), last)
    if point is None:
        return stream(ledger, encounter, token, None)
    catching, told, out = CatchUp(encounter, point, frozenset(token.owns)), last, []
    while page := next_page(ledger, catching):
        for msg in page:
            if msg.players_seq != told:
                out.append((msg.players_seq, json.loads(data_for(msg, token))))
                told = msg.players_seq
    return out


def log(ledger: Ledger, encounter: str, after: int = 0) -> list[dict]:
    """`GET .../log?after=N` for a player or a view (cli/server/bounded.py)."""
    from cli.server.bounded import log_page, log_start
    from projections.numbering import Lens
    from projections.visible import Sieve
    head, undone, imported = log_start(ledger, encounter)
    lens = Lens(Sieve.of(ledger.state(encounter)))
    body, sent = b"", 0
    while sent < head:
        page, sent = log_page(ledger, encounter, sent, head, undone, imported, lens, after)
        body += page
    return json.loads(b"[" + body[1:] + b"]")


def lines(ledger: Ledger, encounter: str) -> list[dict]:
    """`GET .../lines` for a player or a view (cli/server/reads.py)."""
    from projections.numbering import Lens, entries_for_players
    from projections.reports.timeline import said, timeline
    from projections.visible import Sieve
    entries = entries_for_players(timeline(ledger, encounter),
                                  Lens(Sieve.of(ledger.state(encounter)), marks=True))
    return [said(e) for e in entries]


def report(ledger: Ledger, encounter: str) -> str:
    """`combat report --for players` of the encounter."""
    import io

    from projections.reports.html import write_html
    out = io.StringIO()
    write_html(ledger, encounter, out, audience="players")
    return re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+Z?|\b\d\d:\d\d(:\d\d)?\b", "T", out.getvalue())


def reads(ledger: Ledger, encounter: str, owns: tuple[str, ...] = (),
          with_report: bool = False, since: int = 0) -> str:
    """Every read of a view's and of a player's (owning `owns`) token; the
    streams resumed from players' seq `since` on (a resume from before a
    seen combatant was hidden is sent the current status alone)."""
    from cli.server.views import sees_all, status_for
    from projections.numbering import players_seq
    state = ledger.state(encounter)
    head = players_seq(ledger, encounter, state)
    parts: list = [{"encounters": [{"id": encounter, "phase": state.phase, "seq": head}]}]
    for token in (VIEW, player(owns)):
        assert not sees_all(token)
        parts.append(status_for(state, token, ledger))
        for last in sorted({None, 0, 1, 3, max(head - 2, 0), max(head - 1, 0), head}, key=str):
            if last is None or last >= since:
                parts.append(stream(ledger, encounter, token, last))
    parts += [log(ledger, encounter), log(ledger, encounter, max(head - 3, 0)),
              lines(ledger, encounter)]
    text = json.dumps(parts, indent=0, sort_keys=True)
    if with_report:
        text += "\n" + report(ledger, encounter)
    return TIME.sub('"at":""', text)
