"""`combat status` at the roster bound (1,000 combatants)
took 1.9 s in rich's table layout; the status table is now laid out by
cli/quicktable.py, in rich's look to the byte, colours included, and fast
at the bound. Where a cell must wrap (a narrow terminal), rich lays it out
itself."""
from __future__ import annotations

import io

import msgspec
import pytest
from rich.console import Console
from rich.style import Style

from eventlog.events import CombatantHidden, EffectApplied, RoundStarted, TrackChanged
from eventlog.stores.memory import MemoryStore
from eventlog.stores.sqlite import Store
from projections.ledger import Ledger
from projections.inputs.roster import MAX_COMBATANTS
import cli.render as render
from cli.console import console
from cli.quicktable import Quick

from helpers import npc, pc, rolled, street_fight

def _drawn(renderable, width: int) -> tuple[str, list]:
    """What a colour terminal `width` columns wide shows: its text, and its
    runs of one style each (what a person sees; rich's own segments split
    a run in other places)."""
    out = Console(file=io.StringIO(), width=width, force_terminal=True,
                  color_system="truecolor", highlight=False, emoji=False)
    runs: list = []
    for segment in out.render(renderable, out.options):
        style = str(segment.style or Style.null())
        if runs and runs[-1][1] == style:
            runs[-1][0] += segment.text
        else:
            runs.append([segment.text, style])
    return "".join(text for text, _ in runs), runs


def _both(state, width: int) -> tuple[str, str]:
    quick = render.status_table(state)
    assert isinstance(quick, Quick)
    return _drawn(quick, width), _drawn(quick.table, width)


def _army() -> Ledger:
    """MAX_COMBATANTS combatants in groups of 100 and a few of their own,
    rolled, one hidden, one with an effect and a track, a round running."""
    ledger = Ledger(MemoryStore())
    ledger.new("horde", "The horde", "gm")
    joins = [pc("rook", bonus=2), pc("vex", grit=2)]
    groups = (MAX_COMBATANTS - 2) // 100
    joins += [npc(f"g{g}-{i}", group=f"g{g}") for g in range(groups) for i in range(1, 101)]
    joins += [npc(f"lone-{i}") for i in range(MAX_COMBATANTS - len(joins))]
    ledger.declare("horde", lambda s: joins, "gm")
    rolls = [rolled("rook", 9, 2), rolled("vex", 4)] + [
        rolled(f"g{g}", 1 + g % 10) for g in range(groups)] + [
        rolled(j.id, 1 + n % 10) for n, j in enumerate(joins) if j.id.startswith("lone-")]
    ledger.declare("horde", lambda s: rolls, "gm")
    ledger.declare("horde", lambda s: [
        CombatantHidden(combatant="g0-7"),
        EffectApplied(effect="e1", combatant="rook", name="stunned", max_ap=2, rounds=2),
        TrackChanged(combatant="vex", track="hp", value=7, max=10)], "gm")
    ledger.declare("horde", lambda s: [RoundStarted(round=1)], "gm")
    return ledger


def test_status_at_the_roster_bound_is_drawn_without_richs_table_layout(monkeypatch):
    """(How fast: tests/benchmarks/bench_status_table.py, beside rich's own
    layout of the same table.)"""
    from rich.table import Table

    def refused(*_):
        raise AssertionError("rich laid the status table out itself")
    state = _army().state("horde")
    assert len(state.combatants) == MAX_COMBATANTS
    monkeypatch.setattr(Table, "__rich_console__", refused)
    shown, _ = _drawn(render.status_table(state), 160)
    assert shown.count("\n") > MAX_COMBATANTS  # (a row each, and the header)


def test_status_at_the_bound_looks_exactly_as_rich_lays_it_out():
    quick, rich = _both(_army().state("horde"), 160)
    assert quick == rich


@pytest.mark.parametrize("width", [120, 50])
def test_status_of_every_moment_of_a_fight_looks_exactly_as_before(tmp_path, width):
    env = street_fight(tmp_path)
    ledger = Ledger(Store(env["COMBAT_DB"]))
    head = ledger.store.head("demo-1")[0]
    for seq in range(2, head + 1):
        state = ledger.state("demo-1", seq)
        saved = console.width
        console.width = width  # (the table's columns follow the terminal's)
        try:
            quick, rich = _both(state, width)
        finally:
            console.width = saved
        assert quick == rich, seq


def test_names_wider_than_one_column_each_are_laid_out_as_rich_does():
    ledger = Ledger(MemoryStore())
    ledger.new("wide", "Wide", "gm")
    joins = [pc("rook"), msgspec.structs.replace(npc("ryu"), name="龍 the 🐉")]
    ledger.declare("wide", lambda s: joins, "gm")
    ledger.declare("wide", lambda s: [rolled("rook", 3), rolled("ryu", 8)], "gm")
    for width in (120, 40):
        quick, rich = _both(ledger.state("wide"), width)
        assert quick == rich


def test_the_quick_table_measures_as_rich_does_inside_a_panel():
    from rich.panel import Panel
    small = Ledger(MemoryStore())
    small.new("duel", "Duel", "gm")
    small.declare("duel", lambda s: [pc("ash"), npc("brute")], "gm")
    table = render.status_table(small.state("duel"))
    assert _drawn(Panel.fit(table), 100) == _drawn(Panel.fit(table.table), 100)
