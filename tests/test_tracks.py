"""Tracks and conditions (`track` and `effect`, docs/commands.md):
named counters of a combatant that never leave 0..maximum, and conditions
with a duration; both declared as events, so undo, retraction, amendment
and time travel treat them like every other declaration."""
from __future__ import annotations

import json

import pytest
from hypothesis import given as hypo, settings, strategies as st

from eventlog.errors import Refusal
from eventlog.events import EffectApplied, EffectEnded, RoundStarted, TrackChanged
from eventlog.stores.memory import MemoryStore
from projections.domain import commands as c
from projections.domain.ranges import MAX_NUMBER
from projections.domain.state import State
from projections.domain.tracks import MAX_TRACKS
from projections.ledger import Ledger, apply
from projections.domain.narrate import describe
from projections.reports.views import status

from helpers import given, npc, pc, rolled, when, who

E = "fight"


def hp(cid="juno", value=None, delta=None, most=None, **kw) -> TrackChanged:
    return TrackChanged(combatant=cid, track=kw.pop("track", "hp"), value=value,
                        delta=delta, max=most, **kw)


def party() -> State:
    return given(pc("juno"), npc("ganger"), rolled("juno", 8), rolled("ganger", 4))


def tracks(s: State, cid="juno") -> dict:
    return who(s, cid)["tracks"]


def test_track_set_then_changed_within_its_bounds():
    s = when(party(), hp(value=10, most=10), hp(delta=-3), hp(delta=+1))
    assert tracks(s) == {"hp": {"value": 8, "max": 10, "public": False}}
    s = when(s, hp(value=0))
    assert tracks(s)["hp"]["value"] == 0


def test_track_never_goes_below_zero_and_says_so():
    s = when(party(), hp(value=4, most=10))
    with pytest.raises(Refusal, match="never goes below 0"):
        when(s, hp(delta=-5))


def test_track_never_goes_above_its_maximum_and_names_it():
    s = when(party(), hp(value=9, most=10))
    with pytest.raises(Refusal, match="above its maximum 10"):
        when(s, hp(delta=+2))
    with pytest.raises(Refusal, match="above its maximum 6"):
        when(s, hp(value=9, most=6))  # a lower maximum the value would exceed


def test_track_without_a_maximum_is_bounded_by_the_project_range():
    s = when(party(), hp(value=3, track="ammo"))
    assert tracks(s)["ammo"] == {"value": 3, "max": None, "public": False}
    with pytest.raises(Refusal, match="1,000,000,000"):
        when(s, hp(value=MAX_NUMBER + 1, track="ammo"))


@pytest.mark.parametrize("bad, words", [
    (hp(delta=-1), "give it a value first"),
    (hp(value=1, delta=1), "either a value"),
    (hp(value=1, track="Hit Points"), "not a valid track name"),
    (hp(value=1, track="a\x1bb"), "not a valid track name"),
    (hp(value=1, track="x" * 10_000), "at most 32"),
    (hp(value=10**30), "not"),
    (hp(value=-1), "0 to"),
    (hp(cid="nobody", value=1), "nobody"),
    (hp(value=1, by="nobody"), "nobody"),
])
def test_hostile_track_changes_are_refused(bad, words):
    with pytest.raises(Refusal, match=words):
        when(party(), bad)


def test_at_most_twenty_tracks_per_combatant():
    s = when(party(), *(hp(value=1, track=f"t{i}") for i in range(MAX_TRACKS)))
    with pytest.raises(Refusal, match=f"most a combatant may have \\({MAX_TRACKS}\\)"):
        when(s, hp(value=1, track="one-more"))
    when(s, hp(value=2, track="t0"))  # an existing one still changes


def test_a_change_that_changes_nothing_is_refused():
    s = when(party(), hp(value=5, most=10))
    with pytest.raises(Refusal, match="changes nothing"):
        when(s, hp(value=5))
    when(s, hp(value=5, public=True))  # showing it to the players is a change


def test_track_is_worded_in_the_log():
    assert describe(hp(delta=-3, reason="shot", by="ganger")) == \
        "juno's hp -3 (shot, by ganger)"
    assert describe(hp(value=10, most=10)) == "juno's hp set to 10, maximum 10"


# -- conditions -----------------------------------------------------------------

def condition(cid, name, **span) -> EffectApplied:
    return EffectApplied(effect=name, combatant=cid, name=name, max_ap=0, **span)


def names(s: State, cid="juno") -> list[str]:
    return [e["name"] for e in who(s, cid)["effects"]]


def test_condition_for_rounds_is_on_at_once_and_runs_out_by_itself():
    s = when(party(), RoundStarted(round=1), condition("juno", "prone", rounds=1))
    assert names(s) == ["prone"] and who(s, "juno")["effects"][0]["active"]
    assert who(s, "juno")["effects"][0]["condition"] is True
    s = when(s, RoundStarted(round=2))
    assert names(s) == ["prone"]  # to the end of round 1 + 1
    s = when(s, RoundStarted(round=3))
    assert names(s) == []
    assert who(s, "juno")["ap"] == 3  # a condition changes no AP


def test_condition_until_round_end_and_until_ended():
    s = when(party(), RoundStarted(round=1), condition("juno", "blinded", until_round_end=True),
             condition("juno", "on-fire", until_ended=True))
    assert names(s) == ["blinded", "on-fire"]
    s = when(s, RoundStarted(round=2))
    assert names(s) == ["on-fire"]
    assert who(s, "juno")["effects"][0]["to_round"] is None
    s = when(s, *(RoundStarted(round=n) for n in range(3, 9)))
    assert names(s) == ["on-fire"]
    s = when(s, EffectEnded(effect="on-fire", reason="rolled in the mud"))
    assert names(s) == []


def test_condition_needs_exactly_one_duration():
    with pytest.raises(Refusal, match="until ended"):
        when(party(), condition("juno", "prone"))
    with pytest.raises(Refusal, match="until ended"):
        when(party(), condition("juno", "prone", rounds=2, until_ended=True))


def test_condition_is_worded_in_the_log():
    assert describe(condition("juno", "prone", until_ended=True)) == \
        "juno is prone until ended"
    # (the id is said where it is not the name: `end-effect` takes it)
    assert describe(EffectApplied(effect="juno-prone-2", combatant="juno", name="prone",
                                  max_ap=0, until_ended=True)) == "juno is prone (juno-prone-2) until ended"


def test_effect_with_max_ap_still_changes_the_maximum():
    s = when(party(), EffectApplied(effect="wired", combatant="juno", name="Wired",
                                    max_ap=1, until_ended=True), RoundStarted(round=1))
    assert who(s, "juno")["ap"] == 4


# -- undo, retract, amend, time travel ------------------------------------------

def ledger_with(*commands: c.Command) -> tuple[Ledger, list[int]]:
    ledger = Ledger(MemoryStore())
    ledger.execute(None, c.New(id=E))
    seqs = []
    for command in (c.Add(name="Juno", pc=True), c.Add(name="Ganger"), *commands):
        seqs.append(ledger.execute(E, command).events[0].seq)
    return ledger, seqs


def hp_of(ledger: Ledger, at: int | None = None) -> int:
    return status(ledger.state(E, at))["combatants"][0]["tracks"]["hp"]["value"]


def test_undo_and_redo_of_a_track_change():
    ledger, _ = ledger_with(c.Track(id="juno", name="hp", value=10, max=10),
                            c.Track(id="juno", name="hp", delta=-3))
    assert hp_of(ledger) == 7
    ledger.execute(E, c.Undo())
    assert hp_of(ledger) == 10
    ledger.execute(E, c.Redo())
    assert hp_of(ledger) == 7


def test_retract_of_a_track_change_re_judges_the_later_ones():
    ledger, seqs = ledger_with(c.Track(id="juno", name="hp", value=10, max=10),
                               c.Track(id="juno", name="hp", delta=+0 - 2),
                               c.Track(id="juno", name="hp", delta=-3))
    ledger.execute(E, c.Retract(seq=seqs[3]))
    assert hp_of(ledger) == 7
    # the set it all hangs on: the later changes would fall below 0 without it
    ledger2, seqs2 = ledger_with(c.Track(id="juno", name="hp", value=3, max=10),
                                 c.Track(id="juno", name="hp", delta=+5),
                                 c.Track(id="juno", name="hp", delta=-6))
    with pytest.raises(Refusal, match="below 0"):
        ledger2.execute(E, c.Retract(seq=seqs2[3]))
    assert hp_of(ledger2) == 2


def test_amend_of_a_track_change_keeps_a_change_a_change():
    ledger, seqs = ledger_with(c.Track(id="juno", name="hp", value=10, max=10),
                               c.Track(id="juno", name="hp", delta=-3, reason="shot"))
    ledger.execute(E, c.Amend(seq=seqs[3], value=-5, reason="it was a burst"))
    assert hp_of(ledger) == 5
    ledger.execute(E, c.Amend(seq=seqs[2], value=8))
    assert hp_of(ledger) == 3
    with pytest.raises(Refusal, match="below 0"):
        ledger.execute(E, c.Amend(seq=seqs[3], value=-9))
    with pytest.raises(Refusal, match="--value corrects a track change"):
        ledger.execute(E, c.Amend(seq=seqs[0], value=3))


def test_status_at_an_earlier_seq_shows_the_track_as_it_stood():
    ledger, seqs = ledger_with(c.Track(id="juno", name="hp", value=10, max=10),
                               c.Track(id="juno", name="hp", delta=-3))
    assert hp_of(ledger, seqs[2]) == 10 and hp_of(ledger) == 7


def test_roster_tracks_join_with_the_combatant():
    ledger = Ledger(MemoryStore())
    ledger.execute(None, c.New(id=E))
    roster = c.Load(combatant=[c.RosterCombatant(name="Juno", side="pc",
                                              tracks={"hp": 10, "stun": c.RosterTrack(value=0, max=6)})])
    ledger.execute(E, roster)
    seen = status(ledger.state(E))["combatants"][0]["tracks"]
    assert seen == {"hp": {"value": 10, "max": 10, "public": False},
                    "stun": {"value": 0, "max": 6, "public": False}}


# -- every sequence keeps the bounds ----------------------------------------------

changes = st.lists(st.tuples(st.sampled_from(["hp", "stun"]),
                             st.one_of(st.integers(-15, 15).map(lambda d: ("delta", d)),
                                       st.integers(-3, 15).map(lambda v: ("value", v))),
                             st.one_of(st.none(), st.integers(-2, 12))),
                   max_size=30)


@settings(max_examples=150, deadline=None)
@hypo(changes)
def test_every_sequence_of_track_changes_keeps_the_bounds(seq):
    """Whatever is declared, accepted or refused, every track stays within
    0..maximum, and a refused change leaves the state as it was."""
    s = party()
    for track, (kind, n), most in seq:
        p = TrackChanged(combatant="juno", track=track, max=most, **{kind: n})
        try:
            s = apply(s, [p])
        except Refusal:
            continue
        for t in s.tracks["juno"].values():
            assert 0 <= t.value <= (MAX_NUMBER if t.max is None else t.max)


# -- the pages: what a player's or view's token reads ---------------------------

@pytest.fixture
def tracked_server(tmp_path):
    from serverkit import served_table
    with served_table(tmp_path / "table.db") as running:
        yield running


def test_players_see_pc_tracks_and_public_npc_tracks_only(tracked_server):
    from serverkit import E, client, post
    with client(tracked_server, tracked_server.secrets["gm"]) as gm:
        for command in ({"command": "track", "id": "ash", "name": "hp", "value": 10, "max": 10},
                        {"command": "track", "id": "boss", "name": "hp", "value": 30, "max": 30},
                        {"command": "track", "id": "boss", "name": "morale", "value": 5,
                         "public": True},
                        {"command": "track", "id": "boss", "name": "hp", "delta": -4},
                        {"command": "effect", "id": "boss", "name": "prone",
                         "until_ended": True}):
            assert post(gm, command).status_code == 200, command
        full = gm.get(f"/api/encounters/{E}/status").json()
        assert len(gm.get(f"/api/encounters/{E}/log").json()) == 11
    boss = next(c for c in full["combatants"] if c["id"] == "boss")
    assert boss["tracks"]["hp"]["value"] == 26  # the GM sees everything
    for who in ("ash", "tv"):
        with client(tracked_server, tracked_server.secrets[who]) as http:
            seen = http.get(f"/api/encounters/{E}/status").json()
            log = http.get(f"/api/encounters/{E}/log").json()
            lines = http.get(f"/api/encounters/{E}/lines?last=50").json()
        people = {c["id"]: c for c in seen["combatants"]}
        assert people["boss"]["tracks"] == {"morale": {"value": 5, "max": None, "public": True}}
        assert [e["name"] for e in people["boss"]["effects"]] == ["prone"]
        assert people["ash"]["tracks"]["hp"]["value"] == 10
        hp_changes = [e for e in log if e["type"] == "TrackChanged"
                      and e["data"]["combatant"] == "boss" and e["data"]["track"] == "hp"]
        assert hp_changes == [] and len(log) == 9
        assert not any("boss's hp" in line["text"] for line in lines)


def test_the_stream_gives_players_the_tracks_they_see(tracked_server):
    import json

    import httpx
    from httpx_sse import connect_sse

    from serverkit import E, client, messages, post
    with client(tracked_server, tracked_server.secrets["gm"]) as gm:
        assert post(gm, {"command": "track", "id": "boss", "name": "hp", "value": 30}
                    ).status_code == 200
    for who, shown in (("gm", {"hp"}), ("tv", set())):
        with client(tracked_server, tracked_server.secrets[who]) as http:
            with connect_sse(http, "GET", f"/api/encounters/{E}/stream",
                             timeout=httpx.Timeout(15)) as source:
                first = json.loads(next(messages(source)).data)
        boss = next(c for c in first["combatants"] if c["id"] == "boss")
        assert set(boss["tracks"]) == shown, who


# -- a fight from the terminal: exported, reported, imported ------------------------

def terminal_fight(combat) -> None:
    for args in (["new", "yard"], ["add", "Juno", "--pc"], ["add", "Ganger"],
                 ["track", "juno", "hp", "10", "--max", "10"],
                 ["track", "ganger", "hp", "8", "--max", "8", "--public"],
                 ["roll", "juno", "--die", "9"], ["roll", "ganger", "--die", "3"], ["round"],
                 ["act", "juno", "major", "shoots"], ["track", "ganger", "hp", "-5"],
                 ["effect", "ganger", "prone", "--rounds", "1"], ["end-turn"],
                 ["act", "ganger", "major", "stabs"],
                 ["track", "juno", "hp", "-3", "--reason", "stabbed", "--by", "ganger"],
                 ["end-turn"], ["round"], ["track", "juno", "hp", "+2", "--reason", "medkit"]):
        combat(*args)


def test_a_fight_with_tracks_and_conditions_exports_and_reports_them(combat, tmp_path):
    terminal_fight(combat)
    table = combat("status").stdout
    assert "hp 9/10" in table and "hp 3/8" in table and "prone" in table
    rows = combat("export", "--format", "csv").stdout.splitlines()
    header = rows[0].split(",")
    assert header[-6:] == ["track", "track_value", "track_change", "track_max", "by", "effect"]
    stabbed = next(r for r in rows if "stabbed" in r).split(",")
    assert stabbed[-6:] == ["hp", "7", "-3", "10", "ganger", ""]
    jsonl = [json.loads(line) for line in combat("export", "--format", "jsonl").stdout.splitlines()]
    assert jsonl[-1]["track"] == {"name": "hp", "value": 9, "max": 10}
    md = combat("export", "--format", "md").stdout
    assert "Juno's hp -3 (stabbed, by Ganger) (hp 10 → 7)" in md
    assert "| Juno | 3 | 5 | 2 | 9 |" in md  # taken, dealt (in her turn), healed, at the end
    html = combat("report", "-o", str(tmp_path / "r.html")) and (tmp_path / "r.html").read_text()
    assert 'id="chart-hp-per-round"' in html and 'id="stats-conditions"' in html
    numbers = json.loads(combat("stats", "--json").stdout)
    assert numbers["hp"]["rounds"] == [{"round": 1, "taken": {"ganger": 5, "juno": 3},
                                        "dealt": {"juno": 5, "ganger": 3}}]
    assert "hp: Juno took 3, dealt 5, healed 2" in combat("stats").stdout


def test_import_of_an_export_reproduces_tracks_and_conditions(combat, tmp_path):
    terminal_fight(combat)
    combat("amend", "17", "--value", "+1")  # the medkit gave 1
    dump = tmp_path / "yard.json"
    combat("export", "--format", "json", "-o", str(dump))
    combat("import", str(dump), "--as", "yard-2")
    for what in (["status", "--json"], ["log", "--json"], ["stats", "--json"]):
        here = json.loads(combat("--encounter", "yard", *what).stdout)
        there = json.loads(combat("--encounter", "yard-2", *what).stdout)
        if isinstance(here, dict):
            here.pop("encounter"), there.pop("encounter")
        if what[0] == "log":
            here = [(e["type"], e["data"]) for e in here][1:]
            there = [(e["type"], e["data"]) for e in there][1:]
        assert here == there, what
    juno = json.loads(combat("--encounter", "yard-2", "status", "--json").stdout)["combatants"][0]
    assert juno["tracks"]["hp"]["value"] == 8


def test_hostile_tracks_from_the_command_line_append_nothing(combat, tmp_path):
    combat("new", "x")
    combat("add", "Juno", "--pc")
    for args, code in ((["track", "juno", "hp", "9" * 25], 1), (["track", "juno", "hp", "9" * 40], 2),
                       (["track", "juno", "h\x1bp", "3"], 1),
                       (["track", "juno", "hp", "ten"], 2),
                       (["track", "juno", "x" * 5000, "1"], 1)):
        out = combat(*args, code=code)
        assert code == 2 or out.stderr.startswith("error: ") and out.stderr.count("\n") == 1
    assert len(json.loads(combat("log", "--json").stdout)) == 2
    roster = tmp_path / "many.json"
    roster.write_text(json.dumps({"combatant": [
        {"name": "Hydra", "tracks": {f"head-{i}": 1 for i in range(10_000)}}]}))
    out = combat("load", str(roster), code=1)
    assert "at most 20" in out.stderr and out.stderr.count("\n") == 1
    assert len(json.loads(combat("log", "--json").stdout)) == 2


def test_a_track_is_the_gms_a_player_is_refused_with_403(tracked_server):
    from serverkit import E, client, post
    with client(tracked_server, tracked_server.secrets["ash"]) as ash:
        answer = post(ash, {"command": "track", "id": "ash", "name": "hp", "value": 99})
        assert answer.status_code == 403
        assert not any(e["type"] == "TrackChanged"
                       for e in ash.get(f"/api/encounters/{E}/log").json())


def test_the_players_recap_tells_no_hidden_track(combat, tmp_path):
    terminal_fight(combat)
    combat("track", "ganger", "morale", "4")  # not public: the GM's
    combat("track", "ganger", "morale", "-1", "--reason", "shaken")
    combat("report", "--for", "players", "-o", str(tmp_path / "p.html"))
    combat("report", "-o", str(tmp_path / "gm.html"))
    players, gm = (tmp_path / "p.html").read_text(), (tmp_path / "gm.html").read_text()
    assert "shaken" in gm and "shaken" not in players  # (the recap tells no round by round)
    assert "chart-hp" in gm and "chart-hp" not in players


def test_roster_public_flag_shows_an_npc_track_to_players_only_when_public(combat, tmp_path):
    """A roster's `public = true` on an NPC's track is the `--public`
    of `track`: players read that track, and none of the NPC's others."""
    from projections.visible import for_players
    roster = tmp_path / "foes.toml"
    roster.write_text('[[combatant]]\nname = "Boss"\n'
                      'tracks = {hp = 30, morale = {value = 5, max = 10, public = true}}\n'
                      '[[combatant]]\nname = "Ash"\nside = "pc"\ntracks = {hp = 12}\n')
    combat("new", "lair", "--roster", str(roster))
    seen = json.loads(combat("status", "--json").stdout)
    people = {c["id"]: c for c in for_players(seen)["combatants"]}
    assert people["boss"]["tracks"] == {"morale": {"value": 5, "max": 10, "public": True}}
    assert people["ash"]["tracks"] == {"hp": {"value": 12, "max": 12, "public": False}}
    gm = {c["id"]: c for c in seen["combatants"]}
    assert set(gm["boss"]["tracks"]) == {"hp", "morale"}  # the GM sees both


# -- a change past a bound stops there ------------------------------------------

def test_damage_past_zero_stops_at_zero_and_the_event_says_what_was_asked():
    ledger, _ = ledger_with(c.Track(id="juno", name="hp", value=7, max=10))
    out = ledger.execute(E, c.Track(id="juno", name="hp", delta=-8))
    assert out.events[0].data == hp(delta=-7, asked=-8)
    assert hp_of(ledger) == 0
    assert describe(out.events[0].data) == "juno's hp -7 (-8 asked: stopped at 0)"


def test_healing_past_the_maximum_stops_at_the_maximum():
    ledger, _ = ledger_with(c.Track(id="juno", name="hp", value=7, max=10))
    out = ledger.execute(E, c.Track(id="juno", name="hp", delta=+5))
    assert out.events[0].data == hp(delta=+3, asked=+5)
    assert hp_of(ledger) == 10
    assert describe(out.events[0].data) == "juno's hp +3 (+5 asked: stopped at its maximum)"
    with pytest.raises(Refusal, match="is 10 already: the change changes nothing"):
        ledger.execute(E, c.Track(id="juno", name="hp", delta=+1))


def test_a_change_within_the_bounds_records_no_asked_and_hashes_as_before():
    ledger, _ = ledger_with(c.Track(id="juno", name="hp", value=7, max=10))
    out = ledger.execute(E, c.Track(id="juno", name="hp", delta=-7))
    assert out.events[0].data.asked is None
    from eventlog.codec import data_of
    assert "asked" not in data_of(out.events[0].data)  # an old log's event, byte for byte


def test_a_value_set_past_a_bound_is_still_refused():
    ledger, _ = ledger_with(c.Track(id="juno", name="hp", value=7, max=10))
    with pytest.raises(Refusal, match="above its maximum 10"):
        ledger.execute(E, c.Track(id="juno", name="hp", value=12))
    ammo, _ = ledger_with(c.Track(id="juno", name="ammo", value=3))
    with pytest.raises(Refusal, match="1,000,000,000"):  # no maximum: the project's range
        ammo.execute(E, c.Track(id="juno", name="ammo", delta=MAX_NUMBER))


@pytest.mark.parametrize("bad", [hp(delta=-3, asked=-2), hp(delta=-3, asked=+5),
                                 hp(delta=-3, asked=-3), hp(value=3, asked=-5)])
def test_an_asked_change_that_is_not_more_than_the_change_taken_is_refused(bad):
    s = when(party(), hp(value=4, most=10))
    with pytest.raises(Refusal, match="takes less than was asked"):
        when(s, bad)


def test_the_cli_says_where_the_track_stopped(combat):
    combat("new", "fight")
    combat("add", "Juno", "--pc")
    combat("track", "juno", "hp", "7", "--max", "10")
    out = combat("track", "juno", "hp", "-8").stdout
    assert "✓ juno's hp -7 (-8 asked: stopped at 0)" in out.splitlines()
    logged = json.loads(combat("log", "--json").stdout)[-1]["data"]
    assert (logged["delta"], logged["asked"]) == (-7, -8)
