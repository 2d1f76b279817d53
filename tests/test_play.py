"""Play mode driven as a person drives it: keys typed into the
console through prompt_toolkit's pipe input (and, where tmux is installed,
a real terminal), asserting on what the screen shows and on the log."""
from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output
from typer.testing import CliRunner

from cli.app import app
from cli.play import Play, acting, expand
from cli.main import play_by_default
from cli.session import Session
from eventlog.errors import Refusal
from eventlog.events import APSpent, MomentSeized, RoundStarted
from eventlog.stores.sqlite import Store
from projections.ledger import Ledger

from helpers import given, npc, pc, rolled

ROOT = Path(__file__).resolve().parent.parent
ESCAPES = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[@-Z\\-_])")
CTRL_Z, CTRL_Y, CTRL_L, CTRL_D, TAB = "\x1a", "\x19", "\x0c", "\x04", "\t"

SETUP = [
    "new alley --title 'Ambush in the alley'",
    "add Rook --pc --bonus 3 --grit 1",
    "add Vex --pc --bonus 2",
    "add Ganger --count 2 --group gangers --bonus 1",
    "roll rook --die 7",
    "roll vex --die 8",
    "roll gangers --die 5",
    "--actor players order vex rook",
    "round",
]
SETUP_SEQ = 10  # the events SETUP appends (`add --count 2` is two)


@dataclass
class Played:
    out: str     # what the console and the commands printed (the scrollback)
    err: str     # the `error: ...` lines
    screen: str  # what prompt_toolkit drew: the status table above the prompt
    play: Play


@pytest.fixture
def table(tmp_path, capsys):
    """Type keys into a console on a fresh database; returns what it showed."""
    db = tmp_path / "ledger.db"

    def play(*keys: str, meanwhile=None, refresh: float = 1.0) -> Played:
        """Send `keys` at once; `meanwhile(console, keyboard)` runs beside the
        console, as a second terminal or a person typing slowly."""
        screen = io.StringIO()
        output = Vt100_Output(screen, lambda: Size(rows=60, columns=110),
                              term="xterm", enable_cpr=False)
        with create_pipe_input() as keyboard:
            console = Play(_tree(), Session(db, None, "gm"), refresh=refresh, input=keyboard,
                           output=output, history=InMemoryHistory())
            keyboard.send_text("".join(keys))
            helper = None
            if meanwhile is not None:
                helper = threading.Thread(target=meanwhile, args=(console, keyboard))
                helper.start()
            console.run()
            if helper is not None:
                helper.join(timeout=30)
        captured = capsys.readouterr()
        return Played(captured.out, captured.err, ESCAPES.sub("", screen.getvalue()),
                      console)
    play.db = db
    return play


def lines(*typed: str) -> str:
    return "".join(f"{t}\r" for t in typed)


def wait(condition, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the console never got there"
        time.sleep(0.02)


def typist(*chunks: str, pause: float = 0.2):
    """Types `chunks` once the setup is in, pausing after each (a person
    waits for Tab's completion before typing on)."""
    def type_slowly(console: Play, keyboard) -> None:
        wait(lambda: console.seen >= SETUP_SEQ)
        for chunk in chunks:
            time.sleep(pause)
            keyboard.send_text(chunk)
    return type_slowly


def events(db: Path, encounter: str = "alley") -> list[dict]:
    store = Store(db)
    try:
        return Ledger(store).event_dicts(encounter)
    finally:
        store.close()


def declared(db: Path) -> list[tuple[str, str, bool]]:
    """(type, who, undone) of every event after the setup."""
    return [(e["type"], e["data"].get("combatant", ""), e["undone"])
            for e in events(db)[SETUP_SEQ:]]


def test_a_full_round_at_the_table_seize_group_interrupt_refusal_undo(table):
    played = table(lines(*SETUP),
                   lines("s rook"),                     # Seize the Moment (R10)
                   lines("m shoots"),                   # rook acts first (R11)
                   lines("n vex"),                      # out of turn: refused (R17, R19)
                   lines("e"),
                   lines("i rook minor dives for cover"),  # an interrupt (R19)
                   lines("m hacks the door"),           # vex is acting now
                   lines("e"),
                   lines("m"),                          # a group slot: who? (R8)
                   lines("m ganger-2 swings a pipe"),
                   CTRL_Z,                              # undo, by key
                   lines("l 3", "q"))
    out = played.out
    assert "✓ rook seizes the moment (1 Grit) (seq 11)" in out
    assert "= act rook major shoots" in out
    assert "✓ rook spends 2 AP (major): shoots (seq 12)" in out
    assert "✓ rook interrupts, spending 1 AP (minor): dives for cover (seq 14)" in out
    assert "✓ vex spends 2 AP (major): hacks the door (seq 15)" in out
    assert "↶ undone (seq 17): ganger-2 spends 2 AP (major): swings a pipe" in out
    assert "alley› undo (Ctrl-Z)" in out
    # The same refusal, word for word, as `combat act vex minor`.
    assert played.err.splitlines() == [
        "error: it is rook's turn, not vex's: out of turn, declare an interrupt (R17, R19)",
        "error: ganger-1, ganger-2 may all act now: name who acts, e.g. `m ganger-1` (R8)",
    ]
    assert "Traceback" not in out + played.err
    # `l 3`: the last three log lines, the undone one struck through.
    assert "Undo of seq 17" in out.split("alley› l 3")[1]
    # The table above the prompt followed the round to the group slot.
    last = played.screen.split("round 1, pass 1 · seq 18")[-1]
    assert re.search(r"▶3 │ gangers \(group\)", last)
    assert re.search(r"ganger-1 +│ npc +│ +│ ●●● .*│ up", last)
    assert re.search(r"rook +│ pc +│ 10 \(7\+3\) │ ○○○ .*done, seized", last)
    assert "up: ganger-1, ganger-2 · whoever declares first goes (R8)" in last
    # The log: what was typed is in it at once, judged like the CLI's.
    assert declared(table.db) == [
        ("MomentSeized", "rook", False),
        ("APSpent", "rook", False),
        ("TurnEnded", "rook", False),
        ("InterruptTaken", "rook", False),
        ("APSpent", "vex", False),
        ("TurnEnded", "vex", False),
        ("APSpent", "ganger-2", True),
        ("Undone", "", False),
    ]


def test_keys_redo_and_keep_the_half_typed_line(table):
    played = table(lines(*SETUP, "m vex shoots"), CTRL_Z, "note half",
                   CTRL_Y, " typed", CTRL_L, "\r", lines("q"))
    assert "↶ undone (seq 11): vex spends 2 AP (major): shoots" in played.out
    assert "↷ redone (seq 11): vex spends 2 AP (major): shoots" in played.out
    assert "alley› redo (Ctrl-Y)" in played.out and "alley› l (Ctrl-L)" in played.out
    # The line typed around the keys was kept and declared whole.
    assert "✓ Note: half typed" in played.out
    assert [e["type"] for e in events(table.db)][-4:] == ["APSpent", "Undone", "Redone",
                                                          "NoteAdded"]


def test_tab_completes_commands_ids_and_costs(table):
    played = table(lines(*SETUP), meanwhile=typist(
        "sei", TAB, " ro", TAB, "\r", "act ro", TAB, " maj", TAB, " aims\r", "q\r"))
    assert "alley› seize rook" in played.out
    assert "alley› act rook major aims" in played.out
    assert "✓ rook spends 2 AP (major): aims" in played.out


def test_bad_input_is_one_error_line_and_the_console_goes_on(table):
    played = table(lines(*SETUP),
                   lines("note 'unclosed", "bogus", "act rook", "act vex 9",
                         "--encounter other status", "play", "l many", "act ghost minor",
                         "help m", "?", "n vex"),
                   CTRL_D)
    assert played.err.splitlines() == [
        "error: cannot read that line: No closing quotation",
        "error: no such command 'bogus': `help` lists the commands",
        "error: missing COST (usage: act ID COST [LABEL...])",
        "error: vex has 3 AP left, cannot spend 9 (R17)",
        "error: --encounter is fixed when play mode starts: `use ID` switches the encounter",
        "error: this is play mode already",
        "error: say how many lines: `l` or `l 20`",
        "error: no combatant 'ghost' in this encounter",
    ]
    assert "Traceback" not in played.out + played.err
    assert "Usage: combat act" in played.out           # help m: act's help
    assert "m [ID] [LABEL]" in played.out and "Ctrl-Z" in played.out  # ?: the guide
    assert "✓ vex spends 1 AP (minor)" in played.out    # and play goes on
    assert [e["type"] for e in events(table.db)][SETUP_SEQ:] == ["APSpent"]


def test_declarations_from_another_terminal_appear_without_restarting(table):
    setup_seq = SETUP_SEQ

    def elsewhere(console: Play, keyboard) -> None:
        wait(lambda: console.seen >= setup_seq)
        store = Store(table.db)  # a second terminal: its own connection
        Ledger(store).declare("alley", lambda s: [
            APSpent(combatant="vex", cost=1, category="minor", label="reloads")], "players")
        store.close()
        wait(lambda: console.seen > setup_seq)  # reported while the prompt waited
        keyboard.send_text("q\r")

    played = table(lines(*SETUP), meanwhile=elsewhere, refresh=0.05)
    assert "✓ vex spends 1 AP (minor): reloads (seq 11 · players, from another terminal)" \
        in played.out
    # The table redrew with vex's spent AP while the prompt waited.
    assert re.search(r"vex +│ pc +│ 10 \(8\+2\) │ ●●○ │ +1 │", played.screen)


def test_new_encounter_in_play_becomes_the_console_encounter(table):
    played = table(lines("status", "new duel", "add Ash --pc", "use duel", "q"))
    assert "error: no current encounter" in played.err
    assert "✓ Ash (ash, pc) joins" in played.out
    assert played.play.eid == "duel"
    assert "duel — setting up" in played.screen and "duel›" in played.screen


def test_fork_in_play_moves_the_console_into_the_fork(table):
    played = table(lines("new duel", "add Ash --pc", "add Troll", "fork 2 again", "add Kai --pc", "q"))
    assert "Encounter again forked from duel at seq 2" in played.out
    assert played.play.eid == "again" and "again›" in played.screen
    ledger = Ledger(Store(table.db))
    assert sorted(ledger.state("again").combatants) == ["ash", "kai"]
    assert sorted(ledger.state("duel").combatants) == ["ash", "troll"]


# -- the alias rules, without a terminal ----------------------------------


def round_one():
    return given(pc("rook", bonus=3, grit=1), pc("vex"), npc("g-1", group="g"),
                 npc("g-2", group="g"), rolled("rook", 7, 3), rolled("vex", 2),
                 rolled("g", 5), RoundStarted(round=1))


def test_aliases_act_for_whoever_is_acting():
    s = round_one()
    assert expand(["m", "shoots", "twice"], s) == ["act", "rook", "major", "shoots", "twice"]
    assert expand(["n", "vex", "aims"], s) == ["act", "vex", "minor", "aims"]
    assert expand(["f", "Vex"], s) == ["act", "vex", "free"]
    assert expand(["e"], s) == ["end-turn"]
    assert expand(["u"], s) == ["undo"] and expand(["r"], s) == ["redo"]
    assert expand(["s", "rook"], s) == ["seize", "rook"]
    assert expand(["i", "vex", "minor"], s) == ["interrupt", "vex", "minor"]
    assert expand(["round"], s) == ["round"]


def test_alias_in_an_open_group_slot_needs_the_member_r8():
    from cli.play import screen
    from eventlog.events import TurnEnded
    from projections.ledger import apply
    s = apply(round_one(), [APSpent(combatant="rook", cost=2, category="major"),
                            TurnEnded(combatant="rook"), TurnEnded(combatant="g-1")])
    assert acting(s) == "g-2"  # the only member still up
    s = apply(round_one(), [MomentSeized(combatant="rook")])
    assert acting(s) == "rook"
    before = given(pc("rook"))
    with pytest.raises(Refusal, match="no round is in progress"):
        acting(before)
    assert "setting up" in screen(before, 80, color=False)


# -- starting play mode ----------------------------------------------------


def test_play_without_a_terminal_is_refused_in_one_line(tmp_path):
    result = CliRunner().invoke(app, ["play"], env={"COMBAT_DB": str(tmp_path / "x.db")})
    assert result.exit_code == 1
    assert result.stderr.startswith("error: play mode needs a terminal")
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("refresh", ["nan", "inf", "0", "61"])
def test_a_refresh_no_clock_can_keep_is_a_usage_error(tmp_path, refresh):
    result = CliRunner().invoke(app, ["play", "--refresh", refresh],
                                env={"COMBAT_DB": str(tmp_path / "x.db")})
    assert result.exit_code == 2 and "--refresh" in result.output


def test_combat_alone_plays_in_a_terminal_and_shows_help_elsewhere(monkeypatch):
    assert play_by_default([]) == []  # pytest: no terminal
    import cli.main
    monkeypatch.setattr(cli.main, "in_terminal", lambda: True)
    assert play_by_default([]) == ["play"]
    assert play_by_default(["--actor", "vex"]) == ["--actor", "vex", "play"]
    assert play_by_default(["--db=x.db"]) == ["--db=x.db", "play"]
    assert play_by_default(["status"]) == ["status"]
    assert play_by_default(["--help"]) == ["--help"]
    assert play_by_default(["--db"]) == ["--db"]


def test_combat_alone_without_a_terminal_prints_help(tmp_path):
    env = {**os.environ, "COMBAT_DB": str(tmp_path / "x.db")}
    done = subprocess.run([sys.executable, "-m", "cli"], env=env, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert "Usage: combat" in done.stdout + done.stderr
    assert "play" in done.stdout + done.stderr


def test_other_commands_never_import_prompt_toolkit():
    code = ("import sys, cli.app; from typer.testing import CliRunner; "
            "CliRunner().invoke(cli.app.app, ['--help']); "
            "print('prompt_toolkit' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.stdout.strip() == "False", done.stderr


# -- a real terminal -------------------------------------------------------


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_in_a_real_terminal_with_a_second_terminal(tmp_path):
    db = tmp_path / "ledger.db"
    env = {**os.environ, "COMBAT_DB": str(db), "COMBAT_ACTOR": "gm"}
    for k in ("COMBAT_ENCOUNTER", "COMBAT_DEBUG", "TMUX", "COLUMNS", "LINES"):
        env.pop(k, None)  # (a width set for another test must not reach the pane)

    def combat(*args: str) -> str:
        return subprocess.run([sys.executable, "-m", "cli", *args], env=env, check=True,
                              capture_output=True, text=True, timeout=60).stdout

    runner = CliRunner()
    for line in SETUP:
        assert runner.invoke(app, shlex.split(line), env={"COMBAT_DB": str(db)}).exit_code == 0
    name = f"combat-play-test-{os.getpid()}"
    sock = str(tmp_path / "tmux.sock")
    tmux = ["tmux", "-S", sock]
    command = f"cd {shlex.quote(str(ROOT))} && {shlex.quote(sys.executable)} -m cli"
    subprocess.run([*tmux, "new-session", "-d", "-s", name, "-x", "110", "-y", "32",
                    "-e", f"COMBAT_DB={db}", command], check=True, env=env, timeout=30)

    def screen() -> str:
        return subprocess.run([*tmux, "capture-pane", "-p", "-t", name], text=True,
                              capture_output=True, timeout=30).stdout

    def wait_for(text: str) -> str:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            shown = screen()
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared:\n{screen()}")

    def keys(*typed: str) -> None:
        subprocess.run([*tmux, "send-keys", "-t", name, "--", *typed], check=True,
                       timeout=30)

    try:
        wait_for("up: vex")          # `combat` alone, in a terminal, is play mode
        keys("s rook", "Enter")
        wait_for("✓ rook seizes the moment (1 Grit)")
        keys("m shoots", "Enter")
        wait_for("✓ rook spends 2 AP (major): shoots")
        combat("--actor", "players", "interrupt", "vex", "minor", "ducks")  # elsewhere
        wait_for("✓ vex interrupts, spending 1 AP (minor): ducks (seq 13 · players, "
                 "from another terminal)")
        keys("C-z")
        wait_for("↶ undone (seq 13)")
        shown = wait_for("round 1, pass 1 · seq 14")
        assert "Traceback" not in shown
        keys("q", "Enter")
        deadline = time.monotonic() + 20
        while "alley›" in screen().splitlines()[-1:] and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        subprocess.run([*tmux, "kill-server"], timeout=30, capture_output=True)
    log = json.loads(combat("log", "--json"))
    assert [(e["type"], e["undone"]) for e in log[SETUP_SEQ:]] == [
        ("MomentSeized", False), ("APSpent", False), ("InterruptTaken", True),
        ("Undone", False)]


# -- at the table ------------------------------------------------


def test_status_and_combat_status_typed_at_the_prompt_work(table):
    played = table(lines(*SETUP), lines("status", "combat status", "combat --actor players order vex rook", "q"))
    assert played.err == ""
    assert played.out.count("round 1, pass 1 · seize window open") >= 2
    assert declared(table.db)[-1] == ("OrderDeclared", "", False)


def test_status_json_typed_at_the_prompt_prints_the_status(table):
    played = table(lines(*SETUP), lines("status --json", "q"))
    assert played.err == ""
    assert '"combatants"' in played.out and '"round": 1' in played.out


def test_question_mark_fits_a_24_line_terminal_help_lists_every_command(table):
    played = table(lines("?", "q"))
    shown = played.out.split("play› ?")[1].split("play› q")[0].strip("\n").splitlines()
    assert len(shown) <= 22, shown  # with the prompt and the echoed line: 24
    assert "m [ID] [LABEL]" in shown[1] and "`help COMMAND`" in shown[-1]
    played = table(lines("help", "q"))
    assert "set-initiative" in played.out and "end-turn" in played.out


def test_an_automatic_turn_end_is_said_in_play_mode(table):
    played = table(lines(*SETUP), lines("n vex", "m vex", "e", "e rook", "q"))
    assert "↪ vex's turn ended by itself: no AP left (R21)" in played.out
    assert "↪ up now: rook" in played.out
    assert "error: vex's turn already ended by itself and rook has declared nothing yet" \
        in played.err
    assert declared(table.db)[-1] == ("TurnEnded", "rook", False)


def test_play_m_with_a_slip_for_an_id_is_refused_at_the_prompt(table):
    played = table(lines(*SETUP), lines("m vx shoots", "q"))
    assert "error: 'vx' is not an id here: did you mean vex?" in played.err
    assert declared(table.db) == []


def test_log_last_n_on_the_command_line(combat):
    combat("new", "l")
    combat("add", "Ash", "--pc")
    combat("note", "first")
    combat("note", "second")
    out = combat("log", "--last", "1").stdout
    assert "second" in out and "first" not in out and "Ash" not in out


def _tree():
    """The shell's command tree, as `combat play` hands it to the console."""
    import typer

    from cli.app import app
    return typer.main.get_command(app)


def test_help_r17_prints_that_rule_of_the_reference(table):
    played = table(lines("help R17", "help r28a", "q"))
    assert "R17 — At most 4 AP in a turn" in played.out
    assert "R28a — A correction keeps what the table lived through" in played.out


def test_tracks_and_conditions_typed_in_play_mode_are_exported(table):
    """`t ID NAME VALUE` is `track`; a refusal names the bound; the
    table shows the track and the condition; md and stats report them."""
    played = table(lines(*SETUP),
                   lines("track rook hp 10 --max 10", "t rook hp -3",
                         "effect rook prone --until-round-end", "t rook hp 20", "q"))
    assert "above its maximum 10" in played.err
    assert [e["type"] for e in events(table.db)[SETUP_SEQ:]] == [
        "TrackChanged", "TrackChanged", "EffectApplied"]
    assert "hp 7/10" in played.out + played.screen and "prone" in played.out + played.screen
    env = {"COMBAT_DB": str(table.db), "COMBAT_ENCOUNTER": "alley", "NO_COLOR": "1",
           "COLUMNS": "150", "XDG_STATE_HOME": str(table.db.parent / "state")}
    md = CliRunner().invoke(app, ["export", "--format", "md"], env=env).stdout
    assert "Rook's hp -3 (hp 10 → 7)" in md and "### Conditions" in md
    numbers = json.loads(CliRunner().invoke(app, ["stats", "--json"], env=env).stdout)
    assert numbers["hp"]["combatants"][0]["taken"] == 3
    assert numbers["conditions"] == [{"round": 1, "on": {"rook": ["prone"]}}]


# -- play mode says what the terminal says, in the console's words ----

def test_new_with_a_roster_in_play_prints_the_encounter_joins_and_carried_grit(table, tmp_path):
    party = tmp_path / "party.toml"
    party.write_text('[[combatant]]\nname = "Rook"\nside = "pc"\ngrit = 1\n'
                     '[[combatant]]\nname = "Vex"\nside = "pc"\n')
    played = table(lines("new first", "add Rook --pc --grit 3",
                         f"new docks --roster {party} --carry-grit first", "q"))
    out = played.out.split("docks --roster")[1]
    assert "✓ Encounter docks created" in out
    assert "✓ Rook (rook, pc) joins" in out and "✓ Vex (vex, pc) joins" in out
    assert "✓ rook's Grit +2 (carried over from first)" in out
    assert played.err == ""


AUTO_END = ["new pit", "add Ash --pc", "add Troll", "roll ash --die 9",
            "roll troll --die 2", "round", "m ash", "n ash"]  # ash spent all: ends by itself


def test_after_a_refused_e_the_footer_names_the_turn_to_end_in_console_words(table):
    played = table(lines(*AUTO_END, "e", "q"))
    said = " ".join(played.err.split())
    assert said.startswith("error: ash's turn already ended by itself")
    assert "`e troll` ends troll's turn" in said
    assert "`end-turn" not in played.err
    last = played.screen.split("pit›")[-2]
    assert "e ends the turn" not in last
    assert "up: troll" in last and "`e troll`" in last


def test_errors_in_the_console_use_the_consoles_words(table):
    played = table(lines("status", "--actor bob status", "q"))
    assert played.err.count("start one with `new ID`") == 2
    assert "`combat new" not in played.err


def test_long_error_lines_wrap_at_word_boundaries(table):
    played = table(lines(*AUTO_END, "e", "q"))
    error = played.err.split("error: ash's")[1]
    rows = ("error: ash's" + error).rstrip("\n").splitlines()
    assert len(rows) > 1 and all(len(r) <= 110 for r in rows)
    words = " ".join(r.strip() for r in rows).split()
    assert {"troll's", "turn", "(R21)"} <= set(words)
    assert " ".join(words).startswith("error: ash's turn already ended by itself and troll")


def test_an_empty_store_opens_with_a_welcome_that_says_what_to_type(table):
    played = table(lines("q"))
    first = played.out.splitlines()[0]
    assert "welcome" in first.lower() and "`new ID`" in first


def test_r21_a_bare_e_of_a_turn_with_nothing_spent_needs_its_id(table):
    # Vex is up with nothing spent: `e` would skip them (and start the next
    # turn), so it asks for the name; `e vex` ends it.
    played = table(lines(*SETUP, "e", "e vex", "q"))
    said = " ".join(played.err.split())
    assert said == "error: vex has spent no AP in this turn yet: `e vex` ends it (R21)"
    assert declared(table.db) == [("TurnEnded", "vex", False)]


def test_a_dry_run_typed_in_play_mode_says_what_it_would_change(table):
    # The console takes every command of the grammar: a --dry-run prints its
    # preview (as `combat` does) and appends nothing.
    played = table(lines(*SETUP, "n vex", "round --dry-run", "undo --dry-run", "q"))
    assert played.err == ""
    assert played.out.count("dry run, nothing appended:") == 2
    assert "unspent AP lost" in played.out
    assert "would be undone" in played.out or "would take back" in played.out
    assert declared(table.db) == [("APSpent", "vex", False)]


def test_play_mode_declares_the_party_and_sessions(table):
    """The party and the sessions at play mode's prompt, in the shell's words
    (docs/rules.md, "The party")."""
    from projections.party.book import PartyBook
    played = table(lines('party add Rook --track hp=20/20', 'session start "Night two"',
                         "new alley --party", "track rook hp -4",
                         "effect rook poisoned --until-rest", "end", "party", "party rest",
                         "session end", "session", "quit"))
    assert played.err == ""
    store = Store(table.db)
    try:
        party = PartyBook(store).state()
    finally:
        store.close()
    assert party.characters["rook"].tracks["hp"].value == 16
    assert party.characters["rook"].conditions == []
    assert [s.title for s in party.sessions] == ["Night two"]
    assert "now poisoned (until rest)" in played.out
    assert "rook: no longer poisoned (until rest)" in played.out
    assert "Night two" in played.out
