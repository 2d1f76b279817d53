"""`export --format jsonl|csv|md`, `schema`, and the progress reported on
exports and imports of many events. Each format is parsed back against the
example encounter (examples/street-fight.combat); html has tests/test_report_html.py."""
from __future__ import annotations

import csv
import io
import json
import re
import sqlite3

import pytest

from eventlog.events import (
    APSpent, CombatantJoined, InitiativeRolled, RoundStarted, TurnEnded,
)
from eventlog.stores.sqlite import Store
from eventlog.text import csv_cell
from projections.domain.commands import Amend
from projections.reports.exports import (
    CSV_COLUMNS, md_escape, write_csv, write_jsonl, write_md,
)
from projections.ledger import Ledger
from projections.domain.phrases import correction
from projections.domain.rules import judge
from projections.reports.schema import event_schema, export_schema
from projections.inputs.transfer import export_json, import_log, read_export
from projections.domain.evolve import evolve

from helpers import in_process, npc, pc, rolled, said_at_the_table, street_fight, tied_round


@pytest.fixture
def demo(tmp_path):
    """examples/street-fight.combat played into a fresh store, by `combat demo`."""
    env = street_fight(tmp_path)
    combat = in_process(env)
    store = Store(env["COMBAT_DB"])
    yield Ledger(store), "demo-1", combat
    store.close()


INTERFACE_KEYS = ("seq", "batch", "type", "at", "actor", "data", "undone", "prev_hash", "hash",
                  "imported")


def _text(write, ledger, eid) -> str:
    out = io.StringIO()
    write(ledger, eid, out)
    return out.getvalue()


# -- jsonl --------------------------------------------------------------------

def test_jsonl_is_one_event_per_line_in_the_log_json_shape(demo):
    ledger, eid, combat = demo
    text = _text(write_jsonl, ledger, eid)
    lines = text.splitlines()
    assert text.endswith("\n") and len(lines) == 48
    lines = [json.loads(line) for line in lines]
    events = [{k: v for k, v in e.items() if k in INTERFACE_KEYS} for e in lines]
    assert events == ledger.event_dicts(eid)
    swing = lines[21]  # where it was declared and whom it is about, on every line
    assert {k: swing[k] for k in ("round", "pass", "turn", "combatant", "name", "side",
                                  "group")} == {"round": 1, "pass": 1, "turn": "ganger-2",
                                                "combatant": "ganger-2", "name": "Ganger 2",
                                                "side": "npc", "group": "gangers"}
    assert events == json.loads(combat("log", "--json").stdout)
    assert [e["undone"] for e in events if e["undone"]] == [True]
    assert events == export_json(ledger, eid)["events"]


# -- csv ----------------------------------------------------------------------

def _csv_rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_csv_has_a_row_per_event_with_its_round_pass_and_turn(demo):
    ledger, eid, _ = demo
    text = _text(write_csv, ledger, eid)
    assert text.splitlines()[0] == ",".join(CSV_COLUMNS)
    rows = _csv_rows(text)
    assert [int(r["seq"]) for r in rows] == list(range(1, 49))
    by_seq = {int(r["seq"]): r for r in rows}
    seized = by_seq[13]
    assert (seized["type"], seized["combatant"], seized["round"], seized["pass"]) == \
        ("MomentSeized", "rook", "1", "1")
    swing = by_seq[22]  # the first action in the gangers' slot starts ganger-2's turn
    assert (swing["turn"], swing["cost"], swing["category"], swing["label"]) == \
        ("ganger-2", "2", "major", "swings a pipe")
    assert (by_seq[31]["type"], by_seq[31]["round"], by_seq[31]["pass"]) == ("RoundStarted", "2", "1")
    assert (by_seq[18]["cost"], by_seq[18]["category"]) == ("0", "free")
    assert (by_seq[47]["round"], by_seq[47]["pass"], by_seq[47]["turn"]) == ("2", "2", "drone")
    shot = by_seq[37]
    assert (shot["undone"], shot["undone_by"], shot["label"]) == ("true", "38", "shoots at the drone")
    assert {r["undone"] for r in rows} == {"true", "false"}
    assert by_seq[11]["actor"] == "players"
    assert all(r["text"] for r in rows)


def test_csv_loads_cleanly_into_a_database_and_adds_up(demo):
    """Every column holds one type (integers, or empty where not applicable),
    so a database or a data frame loads it as is; the sums match `stats`."""
    ledger, eid, _ = demo
    rows = _csv_rows(_text(write_csv, ledger, eid))
    for row in rows:
        for column in ("seq", "round", "pass", "batch"):
            assert re.fullmatch(r"\d+", row[column]), (column, row)
        for column in ("cost", "undone_by", "amended_by"):
            assert re.fullmatch(r"\d*", row[column]), (column, row)
    db = sqlite3.connect(":memory:")
    db.execute(f"CREATE TABLE log ({', '.join(f'{c!r}' for c in CSV_COLUMNS)})")
    db.executemany(f"INSERT INTO log VALUES ({', '.join('?' * len(CSV_COLUMNS))})",
                   [[r[c] for c in CSV_COLUMNS] for r in rows])
    spent = dict(db.execute(
        "SELECT type, SUM(CAST(cost AS INTEGER)) FROM log WHERE undone = 'false' "
        "AND type IN ('APSpent', 'InterruptTaken') GROUP BY type"))
    assert spent == {"APSpent": 20, "InterruptTaken": 1}
    per_round = dict(db.execute(
        "SELECT round, SUM(CAST(cost AS INTEGER)) FROM log WHERE undone = 'false' "
        "AND cost != '' GROUP BY round"))
    assert per_round == {"1": 13, "2": 8}


def test_csv_keeps_amended_events_in_their_place(ledger):
    ledger.new("raid", "", "gm")
    ledger.declare("raid", lambda s: [pc("rook", bonus=2)], "gm")
    ledger.declare("raid", lambda s: [rolled("rook", 3, 2)], "gm")
    ledger.execute("raid", Amend(seq=3, die=9, reason="misread"))
    rows = _csv_rows(_text(write_csv, ledger, "raid"))
    assert [r["type"] for r in rows] == ["EncounterCreated", "CombatantJoined",
                                         "InitiativeRolled", "Amended"]
    assert (rows[2]["amended_by"], rows[2]["undone"]) == ("4", "false")
    assert "rolled 9 at the table, +2 = 11" in rows[3]["text"]


def test_csv_cells_starting_with_a_formula_character_are_neutralised(alley):
    for label in ("=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1)"):
        alley("act", "rook", "0", label)
    rows = list(csv.DictReader(io.StringIO(alley("export", "--format", "csv").stdout)))
    labels = [r["label"] for r in rows if r["type"] == "APSpent"]
    assert labels == ["'=cmd|' /C calc'!A0", "'+1+1", "'-2+3", "'@SUM(A1)"]
    assert all(not r["text"].startswith(("=", "+", "-", "@")) for r in rows)
    assert [csv_cell(v) for v in ("\tx", "\rx", 5, "ok")] == ["'\\x09x", "'\\x0dx", 5, "ok"]


def test_csv_multi_line_note_is_one_cell_with_its_line_breaks(alley):
    alley("note", "first line\nsecond\tline")
    alley("leave", "rook", "--reason", "fled\nby the back door")
    alley("note", "=1+2\n=cmd|' /C calc'!A0")
    text = alley("export", "--format", "csv").stdout
    rows = list(csv.DictReader(io.StringIO(text)))
    notes = [r["text"] for r in rows if r["type"] in ("NoteAdded", "CombatantLeft")]
    assert notes == ["Note: first line\nsecond\tline",
                     "rook leaves the encounter (fled\nby the back door)",
                     "Note: =1+2\n=cmd|' /C calc'!A0"]  # one cell, two lines a spreadsheet shows
    assert "\\x0a" not in text and "\\x09" not in text
    assert len(rows) == len(text.splitlines()) - 1 - 3  # three cells span two lines each


def test_csv_keeps_neutralising_other_controls_in_a_multi_line_note(alley):
    import sqlite3
    alley("note", "two\nlines")
    con = sqlite3.connect(alley.db)  # a log forged behind the program's back
    con.execute("UPDATE events SET data = ? WHERE type = 'NoteAdded'",
                (json.dumps({"text": "\t=x\r\n\x1b[2Jy\u202e"}).encode(),))
    con.commit()
    con.close()
    row = [r for r in csv.DictReader(io.StringIO(alley("export", "--format", "csv").stdout))
           if r["type"] == "NoteAdded"][0]
    assert row["text"] == "Note: \t=x\\x0d\n\\x1b[2Jy\\u202e"


# -- md -----------------------------------------------------------------------

def test_md_tells_the_encounter_round_by_round_and_pass_by_pass(demo):
    ledger, eid, _ = demo
    text = _text(write_md, ledger, eid)
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert headings == [
        "# A street crew jumps two runners", "## Setup",
        "## Round 1", "### Pass 1", "### Pass 2", "### Pass 3",
        "## Round 2", "### Pass 1", "### Pass 2",
        "## Stats", "### Combatants", "### Rounds", "### Slowest turns", "### Encounter"]
    round_1 = text[text.index("## Round 1"):text.index("## Round 2")]
    assert "- Rook seizes the moment (Grit 1 → 0) _(#13)_" in round_1
    assert "Boss interrupts with 1 AP (minor): ducks behind a crate (4 → 3 AP)" in round_1
    assert "Rook spends 1 AP (minor): reloads (1 → 0 AP); their turn is over: no AP left" in round_1
    assert "Initiative order: 1. Rook (10) — seized the moment · 2. Vex (10) · 3. Boss (10)" in round_1
    pass_3 = round_1[round_1.index("### Pass 3"):]
    assert "Nobody acts in this pass." in pass_3
    round_2 = text[text.index("## Round 2"):text.index("## Stats")]
    assert ("- ~~Rook spends 2 AP (major): shoots at the drone~~ "
            "_(#37, undone at seq 38: Rook is out of ammo)_") in round_2
    assert "Joined the order during the round: Drone (11)" in round_2
    assert "Order of tied slots declared: vex, rook _(#11, declared by players)_" in text


def test_md_ends_with_the_stats_tables(demo):
    ledger, eid, _ = demo
    text = _text(write_md, ledger, eid)
    stats = text[text.index("## Stats"):]
    assert "| Rook | 3 | 4 | 0 | 0 | 2 | 1 | 0 | 0 | 2 | 1 | 1 |" in stats
    assert "| 1 | 3 | 5 / 5 / 0 | 13 | 1 | rook | 3 |" in stats
    assert "| AP spent | 21 |" in stats and "| events in the log | 48 |" in stats
    for table in re.findall(r"(?:^\|.*\|\n)+", stats, flags=re.M):
        widths = {line.count("|") - line.count("\\|") for line in table.splitlines()}
        assert len(widths) == 1, table  # every row has as many cells as the header


def test_md_escapes_what_was_said_at_the_table(ledger):
    said_at_the_table(ledger, "*The* [heist]", "<b>_crit_</b> | `x`")
    out = io.StringIO()
    write_md(ledger, "raid", out)
    text = out.getvalue()
    assert text.startswith("# \\*The\\* \\[heist\\]\n")
    assert "\\<b\\>\\_crit\\_\\</b\\> \\| \\`x\\`" in text
    assert md_escape("a|b") == "a\\|b"


def test_md_keeps_a_multi_line_note_whole_in_its_list_item(alley):
    alley("note", "first line\n- not a list\n=== nor a heading\tbut a tab")
    md = alley("export", "--format", "md").stdout
    item = md[md.index("- Note: first line"):].split("\n\n")[0]
    assert item == ("- Note: first line\\\n  \\- not a list\\\n  \\=== nor a heading\tbut a tab"
                    " _(#5)_")  # one item: hard line breaks, no block starts inside it
    assert "\\x0a" not in md and "\\x09" not in md


def test_md_says_who_left_in_the_order_and_the_stats(ledger):
    """As the html report does: a combatant who left is tagged in its
    round's order and in the stats table (R22)."""
    from projections.domain import commands as c
    ledger.execute(None, c.New(id="r"))
    for name, die in (("Kai", 9), ("Lin", 5)):
        ledger.execute("r", c.Add(name=name, pc=True))
        ledger.execute("r", c.Roll(slots=[name.lower()], die=die))
    ledger.execute("r", c.Round())
    ledger.execute("r", c.Act(id="kai", cost="major", label="shoots"))
    ledger.execute("r", c.Leave(id="lin", reason="runs"))
    text = _text(write_md, ledger, "r")
    assert "Initiative order: 1. Kai (9) · 2. Lin (5) — left" in text
    rows = [x for x in text.splitlines() if x.startswith("| Lin")]
    assert rows and all(x.startswith("| Lin (left) |") for x in rows), rows
    assert any(x.startswith("| Kai |") for x in text.splitlines())


def test_json_export_says_who_left(ledger):
    from projections.domain import commands as c
    ledger.execute(None, c.New(id="r"))
    for name in ("Kai", "Lin", "Bo"):
        ledger.execute("r", c.Add(name=name, pc=True))
    ledger.execute("r", c.Leave(id="lin", reason="runs"))
    ledger.execute("r", c.Leave(id="bo"))
    ledger.execute("r", c.Rejoin(id="bo"))
    from projections.reports.jsonexport import write_json
    doc = json.loads(_text(write_json, ledger, "r"))
    assert doc["encounter"]["left"] == ["lin"]
    assert export_json(ledger, "r")["encounter"]["left"] == ["lin"]


def test_md_shows_an_amendment_in_place(ledger):
    ledger.new("raid", "", "gm")
    ledger.declare("raid", lambda s: [pc("rook", bonus=2)], "gm")
    ledger.declare("raid", lambda s: [rolled("rook", 3, 2)], "gm")
    ledger.execute("raid", Amend(seq=3, die=9, reason="misread"))
    out = io.StringIO()
    write_md(ledger, "raid", out)
    text = out.getvalue()
    assert "- ~~Rook rolled 3 at the table, +2 = 5 for initiative~~ _(#3, amended at seq 4: misread)_" in text
    assert "- Rook rolled 9 at the table, +2 = 11 for initiative _(#3, amended at seq 4: misread)_" in text


def test_order_per_round_is_the_order_slots_were_visited_md(ledger):
    tied_round(ledger)
    out = io.StringIO()
    write_md(ledger, "r", out)
    line = next(x for x in out.getvalue().splitlines() if x.startswith("Initiative order"))
    assert line == "Initiative order: 1. Guards (9) · 2. Lin (5) · 3. Kai (5)"


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


# -- the export command ---------------------------------------------------------

@pytest.mark.parametrize("fmt", ["json", "jsonl", "csv", "md", "html"])
def test_export_command_writes_each_format_to_a_file(demo, tmp_path, fmt):
    _, _, combat = demo
    target = tmp_path / f"demo.{fmt}"
    result = combat("export", "--format", fmt, "-o", target)
    assert result.stdout.strip() == f"exported 48 events of demo-1 to {target} ({fmt})"
    text = target.read_text(encoding="utf-8")
    assert text == combat("export", "--format", fmt).stdout
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".demo")]  # no temp left


def test_export_to_a_folder_that_does_not_exist_is_one_error_line(demo, tmp_path):
    _, _, combat = demo
    result = combat("export", "--format", "csv", "-o", tmp_path / "nowhere" / "x.csv", code=1)
    assert result.output.startswith("error: cannot write ")
    assert result.output.count("\n") == 1


def test_export_unknown_format_is_a_usage_error(demo):
    _, _, combat = demo
    combat("export", "--format", "xml", code=2)


# -- schema -------------------------------------------------------------------

def _check(value, schema: dict, root: dict, path: str = "$") -> list[str]:
    """The JSON Schema keywords `schema` uses, enough to check our events."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        return _check(value, root["$defs"][name], root, path)
    errors = []
    kinds = {"object": dict, "array": list, "string": str, "boolean": bool,
             "null": type(None), "integer": int, "number": (int, float)}
    if "type" in schema:
        wanted = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(isinstance(value, kinds[k]) and not (k in ("integer", "number") and
                                                         isinstance(value, bool))
                   for k in wanted):
            return [f"{path}: {value!r} is not {wanted}"]
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} not in {schema['enum']}")
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: {value!r} != {schema['const']!r}")
    if "minimum" in schema and isinstance(value, int) and value < schema["minimum"]:
        errors.append(f"{path}: {value} < {schema['minimum']}")
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        errors.append(f"{path}: {value!r} does not match {schema['pattern']}")
    if "anyOf" in schema and all(_check(value, s, root, path) for s in schema["anyOf"]):
        errors.append(f"{path}: matches none of anyOf")
    for sub in schema.get("allOf", []):
        errors += _check(value, sub, root, path)
    if "if" in schema and not _check(value, schema["if"], root, path):
        errors += _check(value, schema.get("then", {}), root, path)
    if isinstance(value, dict):
        props = schema.get("properties", {})
        errors += [f"{path}: {k} is missing" for k in schema.get("required", []) if k not in value]
        if schema.get("additionalProperties") is False:
            errors += [f"{path}: {k} is not allowed" for k in value if k not in props]
        for k, v in value.items():
            if k in props:
                errors += _check(v, props[k], root, f"{path}.{k}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            errors.append(f"{path}: fewer than {schema['minItems']} items")
        if "items" in schema:
            for i, v in enumerate(value):
                errors += _check(v, schema["items"], root, f"{path}[{i}]")
    return errors


def test_schema_describes_every_event_of_the_example_and_its_export(demo):
    ledger, eid, combat = demo
    schema = json.loads(combat("schema").stdout)
    assert schema == event_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    events = ledger.event_dicts(eid)
    for event in events:
        assert _check(event, schema, schema) == [], event
    doc = export_json(ledger, eid)
    whole = json.loads(combat("schema", "--export").stdout)
    assert whole == export_schema()
    assert _check(doc, whole, whole) == []


def test_schema_refuses_events_that_do_not_fit(demo):
    ledger, eid, _ = demo
    schema = event_schema()
    good = ledger.event_dicts(eid)[13]  # APSpent
    assert good["type"] == "APSpent" and _check(good, schema, schema) == []
    bad = [
        {**good, "type": "Teleported"},
        {**good, "data": {**good["data"], "cost": "two"}},
        {**good, "data": {**good["data"], "category": "huge"}},
        {**good, "data": {k: v for k, v in good["data"].items() if k != "combatant"}},
        {**good, "data": {**good["data"], "type": "APSpent"}},  # data carries no tag
        {**good, "hash": "xyz"},
        {k: v for k, v in good.items() if k != "seq"},
    ]
    for event in bad:
        assert _check(event, schema, schema), event


def test_schema_documents_each_event_type_and_its_data_fields():
    from eventlog.events import EVENT_TYPES
    defs = event_schema()["$defs"]
    for name, cls in EVENT_TYPES.items():
        data = defs[f"{name}Data"]
        assert set(data["properties"]) == set(cls.__struct_fields__), name
        assert "type" not in data["properties"]
        assert defs[name]["properties"]["type"] == {"enum": [name]}  # nested, in Amended


# -- many events: progress ------------------------------------------------------

def long_fight(ledger, encounter: str, events: int) -> int:
    """An encounter of at least `events` events, appended fast (each batch
    judged, the store not waiting for the disk)."""
    ledger.new(encounter, "A long fight", "gm")
    store = ledger.store
    store.db.execute("PRAGMA synchronous = OFF")
    state = ledger.state(encounter)

    def say(*payloads):
        for p in payloads:
            judge(state, p)
            evolve(state, p)
        state.seq = store.append(encounter, state.seq, list(payloads), "gm")[-1].seq

    ids = ["rook", "vex", "boss", "drone"]
    say(*[CombatantJoined(id=c, name=c.title(), side="pc" if i < 2 else "npc", bonus=i)
          for i, c in enumerate(ids)])
    say(*[InitiativeRolled(slot=c, die=5 + i, bonus=i, total=5 + 2 * i, manual=True)
          for i, c in enumerate(ids)])
    n = 0
    while state.seq < events:
        n += 1
        say(RoundStarted(round=n))
        for cid in list(state.order()):
            say(APSpent(combatant=cid, cost=2, category="major", label="swings"))
            say(TurnEnded(combatant=cid))
        while state.up():
            say(APSpent(combatant=state.up()[0], cost=1, category="minor"))
    return state.seq


class Counting:
    def __init__(self):
        self.calls: list[tuple[int, str]] = []
        self.seen = 0

    def __call__(self, items, total, what):
        self.calls.append((total, what))
        for item in items:
            self.seen += 1
            yield item


@pytest.mark.sqlite
def test_every_export_and_import_reports_progress_over_all_events(ledger, tmp_path):
    from projections.reports.html import write_html
    head = long_fight(ledger, "long", 2100)
    assert head >= 2100
    for write in (write_jsonl, write_csv, write_md, write_html):
        track = Counting()
        write(ledger, "long", io.StringIO(), track)
        assert track.calls == [(head, "exporting")]
        assert track.seen == head, write
    track = Counting()
    doc = export_json(ledger, "long", track)
    assert (track.calls, track.seen) == ([(head, "exporting")], head)
    other = Store(tmp_path / "other.db")
    track = Counting()
    state = import_log(Ledger(other), read_export(json.dumps(doc).encode(), "long.json"),
                       None, track)
    assert track.calls == [(head, "verifying"), (head, "judging")]
    assert track.seen == 2 * head and state.seq == head
    other.close()


def test_the_progress_bar_shows_on_a_terminal_for_many_events_only():
    from rich.console import Console

    from cli.progress import PROGRESS_FROM, progress
    few = list(range(PROGRESS_FROM))
    many = list(range(PROGRESS_FROM + 1))
    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, width=80)
    assert progress(terminal)(few, len(few), "exporting") is few
    piped = Console(file=io.StringIO(), force_terminal=False)
    assert progress(piped)(many, len(many), "exporting") is many
    assert list(progress(terminal)(iter(many), len(many), "exporting")) == many
    assert f"exporting {len(many)} events" in screen.getvalue()
