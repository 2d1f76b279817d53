"""cli/ink.py writes the status as rich would, to the byte, without
importing rich: every moment of a fight, at several widths, on a
pipe and on colour terminals, beside rich's own output of the same page;
markup and wrapping for any line; the screen as rich's console finds it;
and what ink is unsure of goes to rich."""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cli.render as render
from cli.console import SafeConsole
from cli.ink import Page, Unfit, escape, runs, screen
from eventlog.stores.memory import MemoryStore
from eventlog.stores.sqlite import Store
from projections.ledger import Ledger

from helpers import npc, pc, rolled, street_fight

PIPE = {"COLUMNS": "120"}
SCREENS = [
    PIPE, {"COLUMNS": "50"}, {"COLUMNS": "30"}, {"COLUMNS": "0"},
    {"COLUMNS": "100", "FORCE_COLOR": "1"},
    {"COLUMNS": "100", "FORCE_COLOR": "1", "NO_COLOR": "1"},
    {"COLUMNS": "60", "TTY_COMPATIBLE": "1", "TERM": "xterm-256color"},
    {"COLUMNS": "90", "FORCE_COLOR": "1", "COLORTERM": "truecolor"},
    {"COLUMNS": "90", "FORCE_COLOR": "1", "TTY_COMPATIBLE": "0"},
]


class Out(io.StringIO):
    """A stdout that is not a terminal, in UTF-8."""
    encoding = "utf-8"  # type: ignore[assignment]


def richly(page: Page, environ: dict) -> str:
    """What rich's console writes of `page` on that screen, its tables laid
    out by rich's own Table."""
    from cli.quicktable import Quick
    out = io.StringIO()
    console = SafeConsole(file=out, highlight=False, emoji=False, _environ=environ)
    for block in page.blocks:
        console.print(block if isinstance(block, str) else Quick(block).table)
    return out.getvalue()


def inked(page: Page, environ: dict) -> str:
    return page.text(screen(environ, Out()))


SGR = re.compile(r"\x1b\[([0-9;]*)m")


def seen(written: str) -> list[tuple[str, str]]:
    """What a person sees of `written`: each character with the style it
    is shown in (rich may cut a run of one style into several)."""
    out, style, at = [], "", 0
    for match in SGR.finditer(written):
        out.extend((ch, style) for ch in written[at:match.start()])
        style = "" if match.group(1) in ("", "0") else match.group(1)
        at = match.end()
    out.extend((ch, style) for ch in written[at:])
    return out


def width(environ: dict) -> int:
    return screen(environ, Out()).width


@pytest.mark.parametrize("environ", SCREENS, ids=lambda e: " ".join(f"{k}={v}" for k, v in e.items()))
def test_every_moment_of_a_fight_is_written_as_rich_writes_it(tmp_path, environ):
    env = street_fight(tmp_path)
    ledger = Ledger(Store(env["COMBAT_DB"]))
    written = 0
    for seq in range(1, ledger.store.head("demo-1")[0] + 1):
        state = ledger.state("demo-1", seq)
        page = render.state_page(state, width(environ), lost=True)
        try:
            ours = inked(page, environ)
        except Unfit:
            continue  # (rich writes it: nothing of ours to compare)
        assert seen(ours) == seen(richly(page, environ)), seq
        written += 1
    assert written > (20 if width(environ) >= 40 else 0)  # (it compares something;
    # at 30 columns rich cuts the cells that may not wrap with an ellipsis)


def test_a_status_with_no_state_words_is_written_as_rich_writes_it(tmp_path):
    """A round complete: the state words' column is empty on every row."""
    from eventlog.events import RoundStarted
    ledger = Ledger(MemoryStore())
    ledger.new("done", "Done", "gm")
    ledger.declare("done", lambda s: [pc("ash"), npc("brute")], "gm")
    ledger.declare("done", lambda s: [rolled("ash", 9), rolled("brute", 3),
                                      RoundStarted(round=1)], "gm")
    from eventlog.events import TurnEnded
    ledger.declare("done", lambda s: [TurnEnded(combatant="ash"), TurnEnded(combatant="brute")],
                   "gm")
    state = ledger.state("done")
    assert state.round_complete
    for environ in (PIPE, {"COLUMNS": "100", "FORCE_COLOR": "1"}):
        page = render.state_page(state, width(environ), lost=True)
        assert seen(inked(page, environ)) == seen(richly(page, environ))


def test_a_declarations_lines_and_the_flow_come_before_the_table():
    ledger = Ledger(MemoryStore())
    ledger.new("duel", "Duel [of] \\fate", "gm")
    ledger.declare("duel", lambda s: [pc("ash", bonus=2), npc("brute")], "gm")
    ledger.declare("duel", lambda s: [rolled("ash", 9, 2), rolled("brute", 9)], "gm")
    from eventlog.events import NoteAdded, RoundStarted
    ledger.declare("duel", lambda s: [RoundStarted(round=1)], "gm")
    from projections.reports.worded import Said
    state = ledger.state("duel")
    compared = 0
    for environ in SCREENS:
        said = [Said("✓", NoteAdded(text="ash swings [bold]hard[/bold] \\"), True)]
        page = render.done_page(state, said, ["brute's turn ends", "pass 2"], width(environ))
        try:
            ours = inked(page, environ)
        except Unfit:
            continue  # (too narrow for the table: rich wraps it)
        assert seen(ours) == seen(richly(page, environ))
        assert ours.index("hard") < ours.index("pass 2") < ours.index("Duel [of]")
        compared += 1
    assert compared >= 6


WORDS = st.text(st.sampled_from("ab [/]\\·—→●x"), min_size=1, max_size=12)
MARKUP = st.lists(st.one_of(
    WORDS.map(escape), st.sampled_from(["[bold]", "[/bold]", "[dim]", "[/dim]", "[/]",
                                         "[green]", "[bold yellow]", "[/bold yellow]",
                                         "[red]", "[strike]", "[/strike]", " ", "  "])),
    max_size=20).map("".join)


@settings(max_examples=300, deadline=None)
@given(MARKUP, st.integers(20, 50), st.sampled_from(SCREENS[4:7]))
def test_any_line_is_styled_and_wrapped_as_rich_does(markup, columns, environ):
    page = Page()
    page.line(markup)
    environ = {**environ, "COLUMNS": str(columns)}
    try:
        ours = inked(page, environ)
    except Unfit:
        return  # (rich writes it)
    assert ours == richly(page, environ)


@given(st.text(max_size=30))
def test_escaped_text_reads_back_as_itself(text):
    from rich.markup import escape as rich_escape, render as rich_render
    from eventlog.text import neutral
    assert escape(text) == rich_escape(neutral(text))
    assert "".join(r.text for r in runs(escape(text))) == rich_render(escape(text)).plain


@pytest.mark.parametrize("environ", SCREENS + [{}, {"COLUMNS": "7"}, {"NO_COLOR": ""}])
def test_the_screen_is_the_one_richs_console_finds(environ):
    console = SafeConsole(file=Out(), _environ=environ)
    found = screen(environ, Out())
    assert found.width == console.width
    assert found.styled == (console.is_terminal and console.color_system is not None)
    assert found.colour == (found.styled and not console.no_color)


def test_a_dumb_terminal_or_another_encoding_is_left_to_rich():
    with pytest.raises(Unfit):
        screen({"FORCE_COLOR": "1", "TERM": "dumb"}, Out())
    ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    with pytest.raises(Unfit):
        screen({}, ascii_out)


def test_a_name_rich_may_count_otherwise_is_laid_out_by_rich():
    ledger = Ledger(MemoryStore())
    ledger.new("wide", "Wide", "gm")
    ledger.declare("wide", lambda s: [pc("rook"), msgspec.structs.replace(
        npc("ryu"), name="龍 the 🐉")], "gm")
    page = render.state_page(ledger.state("wide"), 120)
    with pytest.raises(Unfit):
        inked(page, PIPE)
    assert "龍 the 🐉" in richly(page, PIPE)


def _shell(env: dict, *args: str) -> subprocess.CompletedProcess:
    code = ("import sys; from cli.main import main; sys.argv = ['combat', *sys.argv[1:]]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('rich' in sys.modules, file=sys.stderr)")
    run_env = {**os.environ, **{k: v for k, v in env.items() if v is not None}}
    run_env.pop("COMBAT_ENCOUNTER", None)
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                          text=True, env=run_env, timeout=60)


def test_a_declaration_and_status_do_not_import_rich(tmp_path):
    env = street_fight(tmp_path)
    for args in (["status"], ["note", "the lights go out"], ["status", "--json"]):
        done = _shell(env, *args)
        assert done.stderr.strip().splitlines()[-1] == "False", (args, done.stderr)
        assert done.stdout
    assert _shell(env, "new", "wide").returncode == 0
    wide = _shell(env, "add", "龍 the 🐉", "--id", "ryu")  # (rich lays this one out)
    assert wide.stderr.strip().splitlines()[-1] == "True"
    assert "龍 the 🐉" in wide.stdout


def test_the_command_line_writes_what_rich_would(tmp_path):
    """The whole output of `combat status` in a process, beside the same
    page written by rich."""
    env = {**street_fight(tmp_path), "COLUMNS": "100"}
    done = _shell(env, "status")
    state = Ledger(Store(env["COMBAT_DB"])).state("demo-1")
    assert done.stdout == richly(render.state_page(state, 100, lost=True), {"COLUMNS": "100"})


@pytest.mark.parametrize("columns", [160, 120, 100, 80, 64, 50, 40, 30, 24])
@pytest.mark.parametrize("colour", [False, True])
def test_the_log_is_laid_out_as_rich_lays_it_out(tmp_path, columns, colour):
    """Every line of a fight's log, its long declarations wrapped as rich
    wraps them in the columns rich gives them."""
    from projections.reports.timeline import timeline
    env = street_fight(tmp_path)
    ledger = Ledger(Store(env["COMBAT_DB"]))
    entries = list(timeline(ledger, "demo-1"))
    environ = {"COLUMNS": str(columns), **({"FORCE_COLOR": "1"} if colour else {})}
    for audit in (False, True):
        page = Page()
        page.grid(render.log_table("demo-1", entries, audit, utc=True, width=width(environ)))
        try:
            ours = inked(page, environ)
        except Unfit:
            assert columns < 40  # (a word wider than its column: rich cuts it)
            continue
        assert seen(ours) == seen(richly(page, environ))


CELL = st.lists(st.text(st.sampled_from("abc·—"), min_size=1, max_size=9), min_size=0,
                max_size=6).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(CELL, CELL, CELL), min_size=1, max_size=4),
       st.lists(st.booleans(), min_size=3, max_size=3), st.integers(12, 60),
       st.sampled_from(["left", "right"]), st.booleans(), st.sampled_from(["what", ""]))
def test_any_table_is_laid_out_as_rich_lays_it_out(rows, no_wrap, columns, justify, title,
                                                    last):
    """(`last`: a column whose header is empty, as the status table's state
    words, empty on every row when the round is complete.)"""
    from cli.inkgrid import Grid
    grid = Grid([("#", "right"), ("name", justify), (last, "left")], no_wrap,
                title="a title of some words" if title else None)
    for row in rows:
        grid.add_row(*row)
    page = Page()
    page.grid(grid)
    environ = {"COLUMNS": str(columns), "FORCE_COLOR": "1"}
    try:
        ours = inked(page, environ)
    except Unfit:
        return  # (rich writes it)
    assert seen(ours) == seen(richly(page, environ))
