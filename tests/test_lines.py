"""A command line read into the core's command struct (cli/lines.py): the one
grammar of the shell, play mode, the demo and the table server's box."""
import msgspec
import pytest

from cli.lines import DECLARING, BadLine, parse, parse_line
from projections.domain import commands as c

# One line for every declaring command, and the server's JSON for the same.
EXAMPLES = {
    "new": ("new docks --title 'The docks'", {"id": "docks", "title": "The docks"}),
    "add": ("add Ganger --count 3 --bonus 1", {"name": "Ganger", "bonus": 1, "count": 3}),
    "group": ("group gangers --bonus 2", {"id": "gangers", "bonus": 2}),
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
    "end-effect": ("end-effect rook-stunned", {"effect": "rook-stunned"}),
    "note": ("note the roof gives way", {"text": "the roof gives way"}),
    "end": ("end", {}),
    "undo": ("undo --reason misclick", {"reason": "misclick"}),
    "redo": ("redo", {}),
    "retract": ("retract 7 --reason wrong", {"seq": 7, "reason": "wrong"}),
    "amend": ("amend 7 --cost minor", {"seq": 7, "cost": "minor"}),
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
        parse_line("load party.toml")


@pytest.mark.parametrize("option", ["--actor mara", "--db other.db", "--encounter x", "--actor=mara"])
def test_fixed_options_are_refused_from_a_remote_box(option):
    with pytest.raises(BadLine, match="is not for this box"):
        parse_line(f"{option} act rook minor")


def test_wrong_usage_is_one_line_naming_the_help():
    with pytest.raises(BadLine) as caught:
        parse_line("act rook")
    assert str(caught.value) == "missing argument 'cost': see `help act`"


def test_unreadable_line_is_one_line():
    with pytest.raises(BadLine, match="cannot read that line"):
        parse_line("act rook major 'shoots")


def test_actor_on_a_local_line_is_kept_beside_the_command(tmp_path):
    from cli.session import Session
    line = parse(["--actor", "mara", "act", "rook", "minor"], Session(tmp_path / "x.db", None, "gm"))
    assert line == (c.Act(id="rook", cost="minor", label=""), "mara", 0)


def test_careful_end_turn_from_the_caller():
    assert parse_line("end-turn", careful=True).command == c.EndTurn(careful=True)
