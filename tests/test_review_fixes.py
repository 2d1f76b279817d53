"""Defects seen in the record (issue 14): an amendment of a seq inside a
batch names that seq, in the command's output and in the md export; the
order shown per round is the order in which the slots were visited."""
from __future__ import annotations

import io
import json
import re

from eventlog.events import InitiativeRolled, RoundStarted
from projections.domain.commands import Amend
from projections.reports.exports import write_md
from projections.reports.html import write_html

from conftest import end, npc, pc, rolled, spend


def tied_round(ledger):
    """Guards (9) act, then Kai is reached and `order lin kai` puts Lin first."""
    ledger.new("r", "", "gm")
    ledger.declare("r", lambda s: [npc("guards"), pc("kai"), pc("lin"), rolled("guards", 9),
                                   rolled("kai", 5), rolled("lin", 5)], "gm")
    ledger.declare("r", lambda s: [RoundStarted(round=1)], "gm")
    ledger.declare("r", lambda s: [spend("guards", 1)], "gm")
    ledger.declare("r", lambda s: [end("guards")], "gm")
    from projections.domain.asks import declared_order
    ledger.declare("r", lambda s: [declared_order(s, ["lin", "kai"], "gm")], "gm")
    for cid in ("lin", "kai"):
        ledger.declare("r", lambda s, cid=cid: [spend(cid, 1)], "gm")
        ledger.declare("r", lambda s, cid=cid: [end(cid)], "gm")


def test_order_per_round_is_the_order_slots_were_visited_md(ledger):
    tied_round(ledger)
    out = io.StringIO()
    write_md(ledger, "r", out)
    line = next(x for x in out.getvalue().splitlines() if x.startswith("Initiative order"))
    assert line == "Initiative order: 1. Guards (9) · 2. Lin (5) · 3. Kai (5)"


def test_order_per_round_is_the_order_slots_were_visited_html(ledger):
    tied_round(ledger)
    out = io.StringIO()
    write_html(ledger, "r", out)
    block = out.getvalue().split('data-round="1"')[1].split("</ol>")[0]
    assert re.findall(r'data-slot="([^"]+)"', block) == ["guards", "lin", "kai"]


def test_amend_of_a_seq_inside_a_batch_names_that_seq(combat):
    combat("new", "r")
    combat("add", "Ash", "--pc")
    combat("add", "Brute")
    combat("roll")  # one batch: seq 4 (ash) and seq 5 (brute)
    log = json.loads(combat("log", "--json").stdout)
    brute = log[4]
    assert (brute["seq"], brute["batch"], brute["data"]["slot"]) == (5, 4, "brute")
    die = 1 if brute["data"]["die"] != 1 else 2
    out = combat("amend", "5", "--die", die).stdout
    assert f"✎ seq 5 now reads: brute rolled {die} at the table, +0 = {die}" in out
    assert "seq 4 now reads" not in out


def test_md_tags_an_amended_event_inside_a_batch_with_its_seq(ledger):
    ledger.new("r", "", "gm")
    ledger.declare("r", lambda s: [pc("ash"), npc("brute")], "gm")
    ledger.declare("r", lambda s: [rolled("ash", 4), rolled("brute", 6)], "gm")  # 4, 5
    ledger.execute("r", Amend(seq=5, die=2))
    out = io.StringIO()
    write_md(ledger, "r", out)
    amended = [x for x in out.getvalue().splitlines() if "amended at seq" in x]
    assert any("Brute rolled 2 at the table" in x and "#5," in x for x in amended), amended
    assert not any("Brute" in x and "#4," in x for x in amended), amended
