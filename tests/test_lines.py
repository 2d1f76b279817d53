"""A command line read into the core's command struct (cli/grammar/): the one
grammar of the shell, play mode, the demo and the table server's box."""
import msgspec
import pytest

from cli.grammar import DECLARING, GLOBAL_OPTIONS, BadLine, parse, parse_line
from projections.domain import commands as c

# One line for every declaring command, and the server's JSON for the same.
EXAMPLES = {
    "new": ("new docks --title 'The docks'", {"id": "docks", "title": "The docks"}),
    "add": ("add Ganger --count 3 --bonus 1", {"name": "Ganger", "bonus": 1, "count": 3}),
    "group": ("group gangers --bonus 2", {"id": "gangers", "bonus": 2}),
    "hide": ("hide sniper", {"id": "sniper"}),
    "reveal": ("reveal sniper", {"id": "sniper"}),
    "leave": ("leave rook", {"id": "rook"}),
    "rejoin": ("rejoin rook", {"id": "rook"}),
    "roll": ("roll rook --die 7", {"slots": ["rook"], "die": 7}),
    "set-initiative": ("set-initiative rook 12 --reason typo", {"slot": "rook", "total": 12, "reason": "typo"}),
    "order": ("order rook vex", {"slots": ["rook", "vex"]}),
    "round": ("round", {}),
    "seize": ("seize vex", {"id": "vex"}),
    "act": ("act rook major shoots the ganger", {"id": "rook", "cost": "major", "label": "shoots the ganger"}),
    "interrupt": ("interrupt vex 1 dives", {"id": "vex", "cost": "1", "label": "dives"}),
    "end-turn": ("end-turn ganger-2", {"id": "ganger-2"}),
    "grit": ("grit rook -1", {"id": "rook", "delta": -1}),
    "adjust-ap": ("adjust-ap rook 1 --reason stim", {"id": "rook", "delta": 1, "reason": "stim"}),
    "max-ap": ("max-ap rook 4 --reason chrome", {"id": "rook", "n": 4, "reason": "chrome"}),
    "effect": ("effect rook Stunned --max-ap -1 --rounds 2", {"id": "rook", "name": "Stunned", "max_ap": -1, "rounds": 2}),
    "track": ("track juno hp -3 --reason shot --by ganger-1", {"id": "juno", "name": "hp", "delta": -3, "reason": "shot", "by": "ganger-1"}),
    "end-effect": ("end-effect rook-stunned", {"effect": "rook-stunned"}),
    "note": ("note the roof gives way", {"text": "the roof gives way"}),
    "end": ("end", {}),
    "undo": ("undo --reason misclick", {"reason": "misclick"}),
    "redo": ("redo", {}),
    "retract": ("retract 7 --reason wrong", {"seq": 7, "reason": "wrong"}),
    "amend": ("amend 7 --cost minor", {"seq": 7, "cost": "minor"}),
    "fork": ("fork 12 what-if --title 'Another way'",
             {"seq": 12, "as": "what-if", "title": "Another way"}),
}


def test_every_declaring_command_has_an_example_line():
    assert set(EXAMPLES) | {"load"} == set(DECLARING)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_line_gives_the_struct_the_server_json_gives(name):
    text, fields = EXAMPLES[name]
    try:
        wire = c.from_builtins({"command": name, **fields})
    except msgspec.ValidationError as exc:  # the example must match the struct
        pytest.fail(f"{name}: {exc}")
    assert parse_line(text).command == wire


def test_line_may_start_with_combat_as_typed_in_a_shell():
    assert parse_line("combat seize vex").command == c.Seize(id="vex")


def test_read_is_refused_without_a_session():
    with pytest.raises(BadLine, match="declares nothing"):
        parse_line("status --json")


def test_roster_file_is_refused_from_a_remote_box():
    with pytest.raises(BadLine, match="reads a file on the server"):
        parse_line("new docks --roster /etc/passwd")
    with pytest.raises(BadLine, match="reads a file on the server"):
        parse_line("new docks --roster=/etc/passwd")
    with pytest.raises(BadLine, match="reads a file on the server"):
        parse_line("load party.toml")


@pytest.mark.parametrize("option", ["--actor mara", "--db other.db", "--encounter x", "--actor=mara"])
def test_fixed_options_are_refused_from_a_remote_box(option):
    with pytest.raises(BadLine, match="is not for this box"):
        parse_line(f"{option} act rook minor")


def test_wrong_usage_is_one_line_naming_the_help():
    with pytest.raises(BadLine) as caught:
        parse_line("act rook")
    assert str(caught.value) == "missing COST (usage: act ID COST [LABEL...])"


def test_unreadable_line_is_one_line():
    with pytest.raises(BadLine, match="cannot read that line"):
        parse_line("act rook major 'shoots")


def test_actor_on_a_local_line_is_kept_beside_the_command():
    line = parse(["--actor", "mara", "act", "rook", "minor"], local=True)
    assert line == (c.Act(id="rook", cost="minor", label=""), "mara")
    assert parse(["--actor=mara", "round"], local=True) == (c.Round(), "mara")


def test_careful_end_turn_from_the_caller():
    assert parse_line("end-turn", careful=True).command == c.EndTurn(careful=True)


@pytest.mark.parametrize("option", GLOBAL_OPTIONS)
@pytest.mark.parametrize("where", ["before", "after"])
def test_every_global_option_of_the_terminal_is_wrong_usage_in_a_line(option, where):
    """`--install-completion act rook minor` once ran the shell's own option
    on the server: a line names declarations only."""
    words = [option, "act", "rook", "minor"] if where == "before" else \
        ["act", "rook", "minor", option]
    with pytest.raises(BadLine):
        parse(words)
    with pytest.raises(BadLine):
        parse([f"{option}=x", "round"])


def test_a_local_line_takes_actor_but_no_other_global_option():
    with pytest.raises(BadLine, match="not for this box"):
        parse(["--db", "x.db", "round"], local=True)


@pytest.mark.parametrize("line, problem", [
    ("act rook major --loud", "no such option: --loud (usage: act ID COST [LABEL...])"),
    ("retract x", "SEQ takes a whole number, not 'x'"),
    ("retract ²", "SEQ takes a whole number, not '²'"),
    ("grit rook", "missing DELTA"),
    ("round now", "unexpected extra word 'now'"),
    ("undo --reason", "--reason needs a value"),
    ("retract 3 --cascade=yes", "--cascade takes no value"),
    ("group gangers", "missing option --bonus"),
    ("order", "missing SLOT"),
    ("new x --carry-grit y", "--carry-grit carries Grit to a roster's combatants"),
    ("zap rook", "`zap` declares nothing"),
    ("", "say what to declare"),
])
def test_wrong_usage_is_one_line_with_the_synopsis(line, problem):
    with pytest.raises(BadLine) as caught:
        parse_line(line)
    assert problem in str(caught.value) and "\n" not in str(caught.value)


def test_negative_numbers_and_double_dash_are_arguments():
    assert parse_line("adjust-ap rook -2 --reason stun").command == \
        c.AdjustAP(id="rook", delta=-2, reason="stun")
    assert parse_line("act rook major -- --loud shot").command == \
        c.Act(id="rook", cost="major", label="--loud shot")


def _click_struct(tree, words):
    """The struct the shell's typer command builds for `words`."""
    from cli.session import Session
    kept = []

    class Keep(Session):
        def run(self, command):
            kept.append(command)

    tree.main(args=words, obj=Keep(None, None, "gm"), standalone_mode=False,
              prog_name="combat")
    return kept[0]


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_shell_and_the_grammar_read_every_command_alike(name):
    """The typer app is generated from the grammar: the same words give the
    same struct both ways, for every declaring command."""
    import shlex

    import typer

    from cli.app import app
    tree = typer.main.get_command(app)
    words = shlex.split(EXAMPLES[name][0])
    assert _click_struct(tree, words) == parse(words).command


def test_the_shell_lists_every_declaring_command_with_the_grammar_help():
    import typer

    from cli.app import app
    from cli.grammar import BY_NAME
    tree = typer.main.get_command(app)
    for name, spec in BY_NAME.items():
        command = tree.commands[name]
        assert command.help.splitlines()[0] == spec.summary
        flags = {o for p in command.params for o in getattr(p, "opts", ()) if o.startswith("--")}
        assert flags - {"--help"} == set(spec.options)


def test_the_shell_and_the_grammar_read_status_alike():
    """`status [--json] [--at SEQ]` is read by the grammar without typer
    (cli/main.py): the typer command has the same options and help, and
    the grammar reads them as click does."""
    import typer

    from cli.app import app
    from cli.grammar import READ_BY_NAME, parse_read
    spec = READ_BY_NAME["status"]
    command = typer.main.get_command(app).commands["status"]
    helps = {o: p.help for p in command.params for o in getattr(p, "opts", ())}
    assert command.help.splitlines()[0] == spec.summary
    assert set(helps) - {"--help"} == set(spec.options)
    assert all(helps[flag] == option.help for flag, option in spec.options.items())
    assert parse_read(["status", "--at=12", "--json"])[1] == {"as_json": True, "at": 12}
    assert parse_read(["status"])[1] == {"as_json": False, "at": None}
    for wrong in (["status", "--json=1"], ["status", "--at", "x"], ["status", "extra"],
                  ["status", "--jso"], ["log"]):
        with pytest.raises(BadLine):
            parse_read(wrong)


def test_the_grammar_imports_no_ui_library():
    import subprocess
    import sys
    code = ("import sys, cli.grammar; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'typer', 'click', 'rich'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
