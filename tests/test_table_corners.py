"""The rules corners issue 23 found wrong at the table: reorders during a pass
(R23b), later order declarations (R3a), seizer orders (R3b, R12), the
maximum AP in force (R14) and a round with nobody in it (R24)."""
from __future__ import annotations

from eventlog.events import (
    CombatantLeft, CombatantRejoined, InitiativeOverridden, MaxAPChanged, MomentSeized,
    OrderDeclared, RoundStarted,
)
from projections.reports.views import status

from helpers import acting, end, given, npc, order, pc, refused, rolled, spend, up, when


def tie(*slots: str) -> OrderDeclared:
    return OrderDeclared(slots=list(slots), context="tie")


def seize_order(*slots: str) -> OrderDeclared:
    return OrderDeclared(slots=list(slots), context="seize")


# -- R23b --------------------------------------------------------------------------

def test_r23b_a_group_entering_the_order_above_the_turn_waits_for_the_next_pass():
    s = given(npc("gob", group="g"), pc("hero"), npc("crow"),
              rolled("g", 9), rolled("hero", 7), rolled("crow", 3),
              CombatantLeft(combatant="gob", reason=""), RoundStarted(round=1),
              npc("gob-two", group="g"))
    assert acting(s) == "hero" and up(s) == ["hero"]
    s = when(s, spend("hero", 1), end("hero"))
    assert acting(s) == "crow"  # g first comes up in pass 2
    s = when(s, end("crow"))
    assert status(s)["pass"] == 2 and up(s) == ["gob-two"]


def test_r23b_one_member_leaving_and_rejoining_does_not_cost_the_group_its_turn():
    s = given(pc("hero"), npc("gob-1", group="g"), npc("gob-2", group="g"), npc("crow"),
              rolled("hero", 10), rolled("g", 5), rolled("crow", 3), RoundStarted(round=1),
              spend("hero", 1),
              InitiativeOverridden(slot="g", total=12, reason="haste"),
              CombatantLeft(combatant="gob-1", reason=""),
              CombatantRejoined(combatant="gob-1"), end("hero"))
    assert acting(s) is None and up(s) == ["gob-1", "gob-2"]


def test_r23b_a_lone_combatant_rejoining_above_the_turn_still_waits():
    s = given(pc("hero"), npc("crow"), npc("rat"), rolled("crow", 9), rolled("hero", 7),
              rolled("rat", 3), CombatantLeft(combatant="crow", reason=""),
              RoundStarted(round=1), CombatantRejoined(combatant="crow"))
    assert acting(s) == "hero"


# -- R3a ---------------------------------------------------------------------------

def three(*orders: OrderDeclared):
    return given(npc("a"), npc("b"), npc("c"), rolled("a", 5), rolled("b", 5), rolled("c", 5),
                 *orders)


def test_r3a_the_latest_of_three_declarations_wins():
    s = three(tie("a", "b"), tie("b", "c"), tie("c", "a"))
    assert order(s) == ["b", "c", "a"] and s.ties() == []


def test_r3a_the_latest_of_many_declarations_wins_however_many_there_are():
    s = three(tie("a", "b"), tie("b", "c"), tie("c", "a"), tie("a", "c"), tie("c", "b"))
    # newest first: c<b, a<c; then c<a contradicts a<c, b<c contradicts c<b,
    # a<b agrees with a<c<b
    assert order(s) == ["a", "c", "b"]


def test_r3a_a_tie_is_resolved_through_a_slot_that_has_left_it():
    s = given(npc("a"), npc("b"), npc("c"), rolled("a", 5), rolled("b", 5), rolled("c", 5),
              tie("b", "c"), tie("c", "a"),
              InitiativeOverridden(slot="c", total=9, reason="haste"))
    assert order(s) == ["c", "b", "a"] and s.ties() == []  # b before a, through c


# -- R3b and R12 ---------------------------------------------------------------------

def test_r3b_an_order_of_seizers_only_is_a_seizer_order_while_others_of_the_tie_did_not_seize():
    from projections.domain.asks import declared_order
    s = given(pc("kai", grit=1), pc("lin", grit=1), pc("mo"), rolled("kai", 5),
              rolled("lin", 5), rolled("mo", 5), RoundStarted(round=1),
              MomentSeized(combatant="kai"), MomentSeized(combatant="lin"))
    p = declared_order(s, ["lin", "kai"], "players")
    assert p.context == "seize"
    assert order(when(s, p))[:2] == ["lin", "kai"]


def test_r12_seizers_may_be_reordered_in_a_complete_round():
    s = given(pc("kai", grit=1), pc("lin", grit=1), rolled("kai", 5), rolled("lin", 3),
              RoundStarted(round=1), MomentSeized(combatant="kai"),
              MomentSeized(combatant="lin"),
              spend("kai", 3), spend("lin", 3))
    assert status(s)["round_complete"]
    s = when(s, seize_order("lin", "kai"))
    assert order(s)[:2] == ["lin", "kai"]


# -- R14: the maximum in force and the one pending ------------------------------------

def test_r14_status_shows_the_pending_maximum_beside_the_one_in_force():
    s = given(pc("ash"), rolled("ash", 5), RoundStarted(round=1),
              MaxAPChanged(combatant="ash", max_ap=5, reason="cyberware"))
    ash = status(s)["combatants"][0]
    assert (ash["max_ap_in_force"], ash["max_ap"]) == (3, 5)  # 5 is pending
    s = when(s, RoundStarted(round=2))
    ash = status(s)["combatants"][0]
    assert (ash["max_ap_in_force"], ash["max_ap"], ash["ap"]) == (5, 5, 5)


def test_r14_the_terminal_shows_the_pending_maximum_beside_the_pips(combat):
    for args in (["new", "x"], ["add", "Ash", "--pc"], ["roll", "ash", "--die", "5"],
                 ["round"], ["max-ap", "ash", "5", "--reason", "cyberware"]):
        combat(*args)
    assert "●●● → 5" in combat("status").stdout


# -- R24 ---------------------------------------------------------------------------------

def test_r24_no_round_when_everyone_has_left_names_rejoin_and_end():
    s = given(pc("ash"), rolled("ash", 5), RoundStarted(round=1),
              CombatantLeft(combatant="ash", reason="fled"))
    message = refused(s, RoundStarted(round=2), "R24")
    assert "rejoin" in message and "end" in message
    assert "nobody is in the encounter yet" not in message


# -- ids as a GM types them (INTERFACE.md, Commands) ---------------------------------------

def test_ids_a_unique_prefix_or_an_exact_name_stands_for_the_id(combat):
    for args in (["new", "x"], ["add", "Okafor Dibe", "--pc"], ["add", "Brute"],
                 ["roll", "oka", "--die", "9"], ["roll", "BRUTE", "--die", "3"], ["round"],
                 ["act", "okafor", "major"], ["act", "Okafor Dibe", "minor"],
                 ["act", "br", "minor"]):
        combat(*args)
    import json
    s = json.loads(combat("status", "--json").stdout)
    assert [c["ap"] for c in s["combatants"]] == [0, 2]


def test_ids_an_ambiguous_prefix_is_refused_naming_the_candidates(combat):
    for args in (["new", "x"], ["add", "Gob", "--count", "2"]):
        combat(*args)
    err = combat("roll", "gob", code=1).stderr
    assert err.startswith("error: 'gob' could be gob-1, gob-2") and len(err.splitlines()) == 1


def test_ids_a_second_goblin_joins_as_goblin_2_and_an_explicit_taken_id_is_refused(combat):
    combat("new", "x")
    combat("add", "Goblin")
    out = combat("add", "Goblin").stdout
    assert "goblin-2" in out
    assert "goblin-3" in combat("add", "Goblin").stdout
    assert "already taken" in combat("add", "Goblin", "--id", "goblin", code=1).stderr


def test_ids_amend_who_takes_a_prefix(combat):
    for args in (["new", "x"], ["add", "Ash", "--pc"], ["add", "Hound", "--count", "2",
                                                         "--group", "h"],
                 ["roll", "ash", "--die", "9"], ["roll", "h", "--die", "3"], ["round"],
                 ["end-turn"], ["act", "hound-1", "minor"]):
        combat(*args)
    combat("amend", "9", "--who", "hound-2")
    combat("amend", "9", "--who", "hound-1", "--reason", "no, the first")


# -- notes and reasons may span lines (INTERFACE.md) ---------------------------------------

def test_notes_and_reasons_span_lines_names_stay_on_one(combat, tmp_path):
    import json
    combat("new", "x")
    combat("add", "Ash", "--pc")
    combat("note", "first line\nsecond\tline")
    combat("leave", "ash", "--reason", "fled\nby the back door")
    err = combat("add", "Bad\nName", code=1).stderr
    assert "control character (\\x0a" in err and "on one line" in err
    log = json.loads(combat("log", "--json").stdout)
    assert log[2]["data"]["text"] == "first line\nsecond\tline"
    assert log[3]["data"]["reason"] == "fled\nby the back door"
    md = combat("export", "--format", "md").stdout
    assert "first line\nsecond" not in md and "\t" not in md  # one table row each
    html = combat("export", "--format", "html").stdout
    assert "\t" not in html and "<script>" not in html.split("</head>")[-1][:0]
    csv_rows = combat("export", "--format", "csv").stdout.splitlines()
    assert any("first line\\x0asecond\\x09line" in row for row in csv_rows)
    assert "first line\\x0asecond" in combat("log").stdout  # shown, never a forged line
    dump = tmp_path / "x.json"
    combat("export", "--format", "json", "-o", dump)
    combat("import", dump, "--as", "y")
    assert json.loads(combat("--encounter", "y", "log", "--json").stdout)[2]["data"]["text"] \
        == "first line\nsecond\tline"


# -- log --who, an empty filter, local time ---------------------------------------------

def test_log_who_lists_an_amended_action_under_whom_it_now_names(combat):
    for args in (["new", "x"], ["add", "Ann", "--pc"], ["add", "Bob", "--pc"],
                 ["add", "Cid"], ["roll", "ann", "--die", "9"], ["roll", "bob", "--die", "3"],
                 ["roll", "cid", "--die", "2"], ["round"], ["interrupt", "cid", "1", "parries"]):
        combat(*args)
    combat("amend", "9", "--who", "bob")
    assert "parries" in combat("log", "--who", "bob").stdout
    assert "parries" not in combat("log", "--who", "cid").stdout
    assert "parries" in combat("log", "--who", "Bo").stdout  # a prefix, as everywhere


def test_log_with_a_filter_that_matches_nothing_says_so_in_one_line(combat):
    combat("new", "x")
    combat("add", "Ann", "--pc")
    out = combat("log", "--round", "7").stdout
    assert out.strip() == "nothing in the log of x matches"


def test_log_shows_local_time_and_utc_on_asking(combat, monkeypatch):
    import time
    monkeypatch.setenv("TZ", "Asia/Kolkata")  # +05:30: never the same clock as UTC
    time.tzset()
    try:
        combat("new", "x")
        entry = __import__("json").loads(combat("log", "--json").stdout)[0]
        local = combat("log").stdout
        utc = combat("log", "--utc").stdout
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    from datetime import datetime, timedelta
    stored = datetime.fromisoformat(entry["at"].replace("Z", "+00:00"))
    assert stored.strftime("%H:%M:%S") in utc and "UTC" in utc
    assert (stored + timedelta(hours=5, minutes=30)).strftime("%H:%M:%S") in local
    assert "time" in local


# -- archive, rename, delete (INTERFACE.md) ------------------------------------------------

def test_archive_hides_an_encounter_from_list_until_unarchived(combat):
    import json
    for eid in ("demo-1", "real"):
        combat("new", eid)
    combat("archive", "demo-1")
    assert [r["id"] for r in json.loads(combat("list", "--json").stdout)] == ["real"]
    every = json.loads(combat("list", "--all", "--json").stdout)
    assert [(r["id"], r.get("archived", False)) for r in every] == [("demo-1", True),
                                                                    ("real", False)]
    assert "Encounter demo-1 created" in combat("--encounter", "demo-1", "log").stdout
    combat("unarchive", "demo-1")
    assert len(json.loads(combat("list", "--json").stdout)) == 2


def test_rename_is_an_event_and_the_list_shows_the_new_title(combat):
    import json
    combat("new", "x", "--title", "Old")
    combat("end")
    combat("rename", "x", "--title", "Warehouse, part 1")  # the record's own: after the end too
    log = json.loads(combat("log", "--json").stdout)
    assert log[-1]["type"] == "EncounterRenamed" and log[-1]["data"] == {
        "title": "Warehouse, part 1"}
    assert json.loads(combat("list", "--json").stdout)[0]["title"] == "Warehouse, part 1"
    assert json.loads(combat("status", "--json").stdout)["title"] == "Warehouse, part 1"
    assert combat("rename", "x", "--title", "two\nlines", code=1).stderr.startswith("error: ")


def test_delete_needs_the_id_twice_and_removes_the_whole_encounter(combat):
    import json
    combat("new", "scratch")
    combat("new", "keep")
    err = combat("delete", "scratch", code=1).stderr
    assert err.strip() == ("error: delete removes the whole log of scratch from the store: "
                           "confirm with --confirm scratch")
    combat("delete", "scratch", "--confirm", "scratch")
    assert [r["id"] for r in json.loads(combat("list", "--all", "--json").stdout)] == ["keep"]
    combat("--encounter", "scratch", "status", code=1)
