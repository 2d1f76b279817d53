"""A hidden combatant does not exist for the players (docs/server.md, "What
the players see"), as a property over random fights: a fight E with hidden
combatants (added hidden, or added and hidden at once; alone or a whole
group; rolled, adjusted, cursed, doing harm with `track --by`, their
declarations undone and redone) and its twin, the same fight in which they
never were, read the same to a player's and a view's token (status, log,
lines, the stream's messages fresh and resumed, the encounters list, the
players' report), timestamps aside, until one of them is revealed (by
`reveal`, or by itself when its turn comes). Played in process on the
functions the server answers with (tests/hiddenkit.py); test_hidden_reads
does the same on real servers for one fight."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from eventlog.errors import LedgerError
from hiddenkit import fresh, reads
from projections.domain import commands as c

E = "raid"
VISIBLE = ("ash", "bo", "boss", "ganger-1", "ganger-2")
SLOTS = ("ash", "bo", "boss", "gangers")
TABLE = (c.Add(name="Ash", pc=True, bonus=2, grit=1), c.Add(name="Bo", pc=True, bonus=1),
         c.Add(name="Boss"), c.Add(name="Ganger", group="gangers", count=2),
         c.Track(id="ash", name="hp", value=10))
# The hidden ones: (what joins them, their ids, their slot)
SECRET = {
    "lurker": ((c.Add(name="Lurker", hidden=True, bonus=1),), ("lurker-hidden",),
               "lurker-hidden"),
    "crew": ((c.Add(name="Thug", count=2, group="crew", hidden=True),),
             ("thug-hidden-1", "thug-hidden-2"), "crew"),
    "shade": ((c.Add(name="Shade", id="shade"), c.Hide(id="shade")), ("shade",), "shade"),
}

visible = st.sampled_from(VISIBLE)
turns = st.one_of(  # (the steps that move a fight on, drawn most)
    st.just(c.Round()),
    st.builds(lambda i, k: c.Act(id=i, cost=k, label="x"), visible,
              st.sampled_from(["minor", "major", "1", "free"])),
    st.builds(lambda i: c.EndTurn(id=i), st.none() | visible),
)
both_steps = st.one_of(
    turns, turns, turns,
    st.builds(lambda i: c.Interrupt(id=i, cost="minor"), visible),
    st.builds(lambda i: c.Seize(id=i), st.sampled_from(["ash", "bo"])),
    st.builds(lambda i, d: c.Track(id=i, name="hp", delta=d), visible, st.integers(-4, 3)),
    st.builds(lambda i: c.Effect(id=i, name="Prone", until_ended=True), visible),
    st.builds(lambda n: c.EndEffect(effect=n), st.sampled_from(["prone", "prone-2"])),
    st.builds(lambda i, d: c.AdjustAP(id=i, delta=d, reason="r"), visible, st.integers(-2, 1)),
    st.builds(lambda i: c.Leave(id=i), visible), st.builds(lambda i: c.Rejoin(id=i), visible),
    st.just(c.Note(text="n")), st.just(c.Undo()), st.just(c.Undo()), st.just(c.Redo()),
)
secret = st.sampled_from(sorted(SECRET))
hidden_steps = st.one_of(
    st.builds(lambda k, d: ("join", k, d), secret, st.integers(1, 10)),
    st.builds(lambda k: ("effect", k), secret),
    st.builds(lambda k: ("end-effect", k), secret),
    st.builds(lambda k, i, d: ("harm", k, i, d), secret, visible, st.integers(-3, -1)),
    st.builds(lambda k, d: ("adjust", k, d), secret, st.integers(-1, 1)),
    st.builds(lambda k: ("reveal", k), secret),
)
dice = st.lists(st.integers(1, 10), min_size=len(SLOTS), max_size=len(SLOTS))
joins = st.lists(st.builds(lambda k, d: ("join", k, d), secret, st.integers(1, 10)),
                min_size=1, max_size=3)
fights = st.tuples(dice, st.builds(lambda first, then: first + then, joins, st.lists(
    st.one_of(both_steps, both_steps, hidden_steps), min_size=8, max_size=30)))


class Fight:
    """E and its twin, played step by step; `done` once E revealed someone."""

    def __init__(self, rolled: list[int]):
        self.e, self.twin = fresh(E), fresh(E)
        for command in TABLE + tuple(c.Roll(slots=[slot], die=die)
                                     for slot, die in zip(SLOTS, rolled)):
            self.e.execute(E, command, "gm")
            self.twin.execute(E, command, "gm")
        self.joined: set[str] = set()
        self.since = 0  # the players' seq streams are resumed from, at least
        self.done = False
        self.stack: list[bool] = []  # per batch in force since: E's alone?
        self.undone: list[bool] = []

    def tried(self, ledger, command) -> bool:
        try:
            ledger.execute(E, command, "gm")
        except LedgerError:
            return False
        return True

    def alone(self, command) -> None:
        """A step of E's only: nothing the players read."""
        if self.tried(self.e, command):
            self.stack.append(True)
            self.undone.clear()

    def both(self, command) -> None:
        if isinstance(command, (c.Undo, c.Redo)):
            kept = self.stack if isinstance(command, c.Undo) else self.undone
            if kept and kept[-1]:  # (E's own batch: the twin has none)
                if self.tried(self.e, command):
                    (self.undone if isinstance(command, c.Undo) else self.stack).append(kept.pop())
                return
        # (refused in E for a hidden one's sake, an unrolled one say: a GM's
        # refusal, nothing appended; the GM would not go on in the twin)
        one = self.tried(self.e, command)
        two = one and self.tried(self.twin, command)
        assert one == two or self.revealed(), ("accepted in one fight only", command)
        if one and isinstance(command, (c.Undo, c.Redo)):
            kept = self.stack if isinstance(command, c.Undo) else self.undone
            if kept:
                (self.undone if isinstance(command, c.Undo) else self.stack).append(kept.pop())
        elif one:
            self.stack.append(False)
            self.undone.clear()

    def hidden(self, step: tuple) -> None:
        kind, key = step[0], step[1]
        commands, ids, slot = SECRET[key]
        if kind == "join":
            if key not in self.joined:
                for command in commands + (c.Roll(slots=[slot], die=step[2]),):
                    self.e.execute(E, command, "gm")
                self.stack += [True] * (len(commands) + 1)
                self.undone.clear()
                self.joined.add(key)
                if len(commands) > 1:  # (seen, then hidden: a resume from before is told now)
                    self.since = self.twin.state(E).seq + 1
            return
        if key not in self.joined:
            return
        if kind == "effect":
            self.alone(c.Effect(id=ids[0], name="Prone", until_ended=True))
        elif kind == "end-effect":
            self.alone(c.EndEffect(effect=f"prone-{ids[0]}"))
        elif kind == "adjust":
            self.alone(c.AdjustAP(id=ids[-1], delta=step[2], reason="r"))
        elif kind == "harm":  # (the twin: the same change, by nobody)
            command = c.Track(id=step[2], name="hp", delta=step[3], by=ids[0])
            one = self.tried(self.e, command)
            two = one and self.tried(self.twin, c.Track(id=step[2], name="hp", delta=step[3]))
            assert one == two
            if one:
                self.stack.append(False)
                self.undone.clear()
        elif kind == "reveal":
            self.e.execute(E, c.Reveal(id=ids[0]), "gm")

    def revealed(self) -> bool:
        return self.e.state(E).hidden != {i for key in self.joined for i in SECRET[key][1]}

    def step(self, step) -> None:
        if isinstance(step, tuple):
            self.hidden(step)
        else:
            self.both(step)
        self.done = self.revealed()


def played(drawn: tuple) -> tuple[Fight, int]:
    """The fight played up to the step that reveals someone (all of it if
    none does): (it, the number of steps played)."""
    rolled, steps = drawn
    fight = Fight(rolled)
    for n, step in enumerate(steps):
        fight.step(step)
        if fight.done:
            return played((rolled, steps[:n]))[0], n
    return fight, len(steps)


@settings(max_examples=30, deadline=None, database=None, print_blob=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(fights)
def test_players_read_a_fight_with_hidden_combatants_as_the_fight_without_them(drawn):
    # One instant for every event of both fights: what the report works out
    # from time (turns' lengths, shares of the time in turns) is then the same
    # in both, where the twin's fewer events would otherwise end sooner.
    from unittest import mock
    with mock.patch("eventlog.stores.memory.utc_now", lambda: "2026-12-05T20:00:00.000000Z"):
        fight, _ = played(drawn)
        assert reads(fight.e, E, ("ash",), True, fight.since) == \
            reads(fight.twin, E, ("ash",), True, fight.since)


# -- what the property found, each on its own --------------------------------

def test_a_hidden_groups_slot_coming_up_reveals_its_members():
    """A lone hidden combatant shows itself as its turn starts; a hidden
    group's slot, up as a whole (R8), shows its members as it comes up,
    rather than holding the round with nobody the players see up."""
    fight, _ = played(([1, 1, 1, 1], [("join", "crew", 8), c.Round()]))
    assert fight.e.state(E).hidden == {"thug-hidden-1", "thug-hidden-2"}  # (before the round)
    fight.e.execute(E, c.Round(), "gm")
    state = fight.e.state(E)
    assert state.hidden == set() and state.current == "crew"
    view = json.loads(reads(fight.e, E, ("ash",)))[1]
    assert view["up"] == ["thug-hidden-1", "thug-hidden-2"]


def test_who_is_on_deck_for_a_player_is_the_forecast_without_the_hidden():
    """Ash acts, the hidden crew comes next, then Bo: a player is told Bo,
    as in the fight without the crew, not a gap."""
    fight, _ = played(([1, 1, 1, 1], [("join", "crew", 3), c.Round()]))
    assert fight.e.state(E).turn == "ash" and fight.e.state(E).hidden
    from cli.server.views import status_for
    from hiddenkit import player
    said = [status_for(ledger.state(E), player(("ash",)), ledger)["on_deck"]
            for ledger in (fight.e, fight.twin)]
    assert said == [["bo"], ["bo"]]


def test_a_stream_resumed_from_before_a_seen_combatant_was_hidden_shows_none_of_it():
    """Shade joins seen, then is hidden: a stream resumed from before it
    joined is sent the current status alone (docs/server.md: a hide of a
    combatant the players saw), never the statuses that showed it."""
    from hiddenkit import VIEW, stream
    fight, _ = played(([5, 4, 3, 2], [c.Note(text="n"), ("join", "shade", 1)]))
    for last in range(0, fight.twin.state(E).seq + 1):
        got = stream(fight.e, E, VIEW, last)
        assert "shade" not in json.dumps(got).casefold(), last
