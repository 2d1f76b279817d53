"""Untrusted input: an import streams a large export and stores all
of it or nothing; files over a stated size are refused before they are
read (exports, rosters, replayed files); numbers out of every rule's range,
from the command line, a roster or an imported log, are refused in one line
citing the rule (R1, R13, R14, R16), and change nothing."""
from __future__ import annotations

import copy
import importlib.util
import json
import os
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path
from types import SimpleNamespace

import pytest

from eventlog import files, jsonstream
from eventlog.chain import verify_chain
from eventlog.errors import InvalidFile, Refusal
from eventlog.events import EVENT_TYPES
from eventlog.stores.sqlite import Store
from projections.domain import ranges
from projections.inputs import transfer
from projections.reports.exports import write_jsonl
from projections.ledger import Ledger
from projections.inputs.transfer import export_json, import_log, open_export, read_export
from projections.reports.views import status

from helpers import as_logged_at_the_source, cli_env, contents, in_process, rechain, unmarked

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
HUGE = 99999999999999999999999  # beyond 64 bits
BIG = 20_000  # events in the large export


def _load_generator():
    spec = importlib.util.spec_from_file_location(
        "bench_generate", ROOT / "tests" / "benchmarks" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """An encounter of 20,000 events built through the judge, with its json
    and jsonl exports and what status and log showed of it."""
    folder = tmp_path_factory.mktemp("big")
    store = Store(folder / "source.db")
    ledger = Ledger(store)
    _load_generator().build(store, "big", BIG)
    doc = export_json(ledger, "big")
    path = folder / "big.json"
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    jsonl = folder / "big.jsonl"
    with open(jsonl, "w", encoding="utf-8") as f:
        write_jsonl(ledger, "big", f)
    shown = SimpleNamespace(path=path, jsonl=jsonl, doc=doc, status=status(ledger.state("big")),
                            log=ledger.event_dicts("big"), head=store.head("big"))
    store.close()
    return shown


@pytest.fixture
def table(tmp_path):
    """A store holding one encounter, and `combat` run in this process."""
    combat = in_process(cli_env(tmp_path / "ledger.db"))
    for line in (["new", "before", "--title", "Already here"], ["note", "kept as it was"]):
        combat(*line)
    return combat


def refused(combat, *args, says: str) -> str:
    """`combat ARGS` refused in one `error:` line naming `says`; nothing changed."""
    before = contents(combat.db)
    result = combat(*args, code=1)
    assert result.stdout == ""
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert says in result.stderr, result.stderr
    assert "Traceback" not in result.output
    assert contents(combat.db) == before
    return result.stderr


# -- a streamed import --------------------------------------------------------------

def test_import_streams_a_large_export_and_reproduces_status_and_log(big, tmp_path, monkeypatch):
    monkeypatch.setattr(jsonstream, "CHUNK", 64 << 10)
    reads = []
    read = files.Bounded.read
    monkeypatch.setattr(files.Bounded, "read",
                        lambda self, n=-1: reads.append(n) or read(self, n))
    with open_export(GOLDEN / "v1-alley.json") as small:  # the import path's modules
        import_log(Ledger(Store(tmp_path / "warm.db")), small, None)  # loaded: not traced
    store = Store(tmp_path / "copy.db")
    ledger = Ledger(store)
    tracemalloc.start()
    try:
        with open_export(big.path) as doc:
            state = import_log(ledger, doc, None)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    size = big.path.stat().st_size
    assert len(reads) > size // (64 << 10) and max(reads) <= 64 << 10  # a piece at a time
    assert peak < size / 4, (peak, size)  # never the whole file, nor all its events
    assert state.seq == big.head[0] > BIG
    assert status(state) == status(ledger.state("big")) == big.status  # R31
    assert as_logged_at_the_source(ledger.event_dicts("big")) == unmarked(big.log)
    assert verify_chain(store.rows("big"), store.head("big")).ok
    assert store.head("big") == big.head
    store.close()


def test_import_of_a_large_export_through_the_command_line(big, table):
    table("import", big.path, "--as", "copy")
    assert json.loads(table("status", "--json").stdout) == {**big.status, "encounter": "copy"}
    assert json.loads(table("verify", "--json").stdout)["ok"] is True
    assert json.loads(table("--encounter", "before", "status", "--json").stdout)["title"] \
        == "Already here"


def _last(doc: dict, type_name: str) -> int:
    """The index of the last effective event of this type."""
    return max(i for i, e in enumerate(doc["events"])
               if e["type"] == type_name and not e["undone"])


def _spoiled(doc: dict, how: str) -> bytes:
    doc = copy.deepcopy(doc)
    events = doc["events"]
    if how == "illegal move":  # 99 AP in one turn, hashed again as a forger would
        i = _last(doc, "APSpent")
        events[i]["data"].update(cost=99, category="custom")
        rechain(doc, i)
    elif how == "edited":  # an event changed, the hashes left as they were
        events[_last(doc, "APSpent")]["data"]["label"] = "edited"
    elif how == "number out of range":
        i = _last(doc, "NoteAdded")
        events[i].update(type="GritAdjusted",
                         data={"combatant": "rook", "delta": HUGE, "reason": "forged"})
        rechain(doc, i)
    raw = json.dumps(doc, indent=2).encode()
    return raw[:-200] if how == "cut short" else raw


@pytest.mark.parametrize("how,says", [
    ("illegal move", "(R17)"), ("edited", "(R30)"), ("number out of range", "(R13)"),
    ("cut short", "cut short"),
])
def test_import_refused_late_in_a_large_export_stores_nothing(big, tmp_path, how, says):
    raw = _spoiled(big.doc, how)
    store = Store(tmp_path / "ledger.db")
    ledger = Ledger(store)
    ledger.new("before", "Already here", "gm")
    before = contents(tmp_path / "ledger.db")
    with pytest.raises(InvalidFile) as caught:
        import_log(ledger, read_export(raw, "big.json"), None)
    assert says in str(caught.value)
    if how != "cut short":  # refused late: at one of the last events
        assert int(re.search(r"(?:event|seq) (\d+)", str(caught.value))[1]) > big.head[0] - 300
    assert contents(tmp_path / "ledger.db") == before  # nothing of the 20,000 stored
    with open_export(big.path) as doc:  # and the store is still fit for the next import
        import_log(ledger, doc, "copy")
    assert ledger.store.head("copy") == big.head
    store.close()


def test_import_refused_late_through_the_command_line_is_one_line(big, table, tmp_path):
    spoiled = tmp_path / "spoiled.json"
    spoiled.write_bytes(_spoiled(big.doc, "illegal move"))
    refused(table, "import", spoiled, says="is illegal")


# -- files over the stated size ------------------------------------------------------

def _never_read(monkeypatch):
    def read(self, n=-1):
        raise AssertionError("read before being refused")
    monkeypatch.setattr(files.Bounded, "read", read)


def test_import_over_the_limit_is_refused_before_reading(table, tmp_path, monkeypatch):
    raw = (GOLDEN / "v1-alley.json").read_bytes()
    monkeypatch.setattr(transfer, "MAX_IMPORT_BYTES", len(raw) - 1)
    path = tmp_path / "alley.json"
    path.write_bytes(raw)
    _never_read(monkeypatch)
    says = f"error: {path} is larger than {len(raw) - 1} bytes, the most an import reads\n"
    assert refused(table, "import", path, says="") == says
    assert refused(table, "replay", "--file", path, says="") == says
    with pytest.raises(InvalidFile, match="the most an import reads"):
        read_export(raw, "alley.json")


def test_import_limit_holds_for_what_has_no_size(table, tmp_path, monkeypatch):
    """A pipe has no size to ask: it is read up to the limit, then refused."""
    raw = (GOLDEN / "v1-alley.json").read_bytes()
    monkeypatch.setattr(transfer, "MAX_IMPORT_BYTES", len(raw) - 1)
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"cat {GOLDEN / 'v1-alley.json'} > {fifo}"],
                              stderr=subprocess.DEVNULL)
    try:
        refused(table, "import", fifo, says="larger than")
    finally:
        writer.wait(timeout=10)


def test_replay_file_over_the_limit_is_refused_at_once(table, tmp_path):
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:  # sparse: a size on paper only
        f.truncate(transfer.MAX_IMPORT_BYTES + 1)
    assert refused(table, "replay", "--file", huge, says="") == \
        f"error: {huge} is larger than 256 MiB, the most an import reads\n"


def test_roster_over_1_mib_is_refused_before_reading(table, tmp_path, monkeypatch):
    roster = tmp_path / "crew.toml"
    with open(roster, "wb") as f:
        f.truncate((1 << 20) + 1)
    _never_read(monkeypatch)
    assert refused(table, "load", roster, says="") == \
        "error: crew.toml is larger than 1 MiB, the most a roster may hold\n"


def test_roster_from_an_endless_device_stops_at_the_limit(table, tmp_path):
    endless = tmp_path / "crew.yaml"
    endless.symlink_to("/dev/zero")
    refused(table, "load", endless, says="crew.yaml is larger than 1 MiB")


def test_replay_file_from_an_endless_device_is_refused(table):
    refused(table, "replay", "--file", "/dev/zero", says="/dev/zero is")


# -- jsonl, key order, the header ------------------------------------------------------

def test_jsonl_export_imports_like_the_json_one(big, table):
    table("import", big.jsonl, "--as", "copy")
    assert json.loads(table("status", "--json").stdout) == {**big.status, "encounter": "copy"}
    assert json.loads(table("verify", "--json").stdout)["ok"] is True


def test_jsonl_export_keeps_the_log(tmp_path):
    events = json.loads((GOLDEN / "v1-alley.json").read_bytes())["events"]
    raw = "".join(json.dumps(e) + "\n" for e in events).encode()
    store = Store(tmp_path / "l.db")
    ledger = Ledger(store)
    import_log(ledger, read_export(raw, "alley.jsonl"), None)
    assert as_logged_at_the_source(ledger.event_dicts("alley")) == events
    assert verify_chain(store.rows("alley"), store.head("alley")).ok
    store.close()


@pytest.mark.parametrize("key", ["hash", "prev_hash"])
def test_jsonl_without_the_hashes_is_refused_saying_why(table, tmp_path, key):
    events = json.loads((GOLDEN / "v1-alley.json").read_bytes())["events"]
    path = tmp_path / "alley.jsonl"
    path.write_text("".join(json.dumps({k: v for k, v in e.items() if k != key}) + "\n"
                            for e in events))
    message = refused(table, "import", path, says=f"event 1 has no {key}")
    assert "cannot be verified" in message and "(R30)" in message


def test_jsonl_with_an_edited_line_is_refused_naming_it(table, tmp_path):
    events = json.loads((GOLDEN / "v1-alley.json").read_bytes())["events"]
    events[20]["actor"] = "mallory"
    path = tmp_path / "alley.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    refused(table, "import", path, says="broken at seq 21")


def _reordered(**changes) -> bytes:
    doc = {**json.loads((GOLDEN / "v1-alley.json").read_bytes()), **changes}
    return json.dumps({k: doc[k] for k in ("events", "encounter", "version", "format")}).encode()


def test_export_with_the_events_before_its_header_imports(table, tmp_path):
    path = tmp_path / "edited.json"
    path.write_bytes(_reordered())
    table("import", path, "--as", "from-file")
    piped = subprocess.run([sys.executable, "-m", "cli", "--db", str(table.db), "import",
                            "/dev/stdin", "--as", "from-pipe"], input=_reordered(),
                           capture_output=True, cwd=ROOT, env=_plain_env())
    assert piped.returncode == 0, piped.stderr
    for eid in ("from-file", "from-pipe"):
        assert json.loads(table("--encounter", eid, "verify", "--json").stdout)["events"] == 37


def _plain_env() -> dict:
    return {**{k: v for k, v in os.environ.items() if not k.startswith("COMBAT_")},
            "NO_COLOR": "1"}


def test_a_wrong_version_after_the_events_is_named_and_stores_nothing(table, tmp_path):
    path = tmp_path / "edited.json"
    path.write_bytes(_reordered(version=2))
    says = "is export version 2; this combat-ledger reads version 1"
    refused(table, "import", path, says=says)
    before = contents(table.db)
    piped = subprocess.run([sys.executable, "-m", "cli", "--db", str(table.db), "import",
                            "/dev/stdin"], input=_reordered(version=2), capture_output=True,
                           cwd=ROOT, env=_plain_env(), text=False)
    assert piped.returncode == 1 and says in piped.stderr.decode()
    assert contents(table.db) == before


@pytest.mark.parametrize("raw,says", [
    (b'{"format": "combat-ledger", "version": 1, "events": [], "events": []}', "appears twice"),
    (b'{"format": "combat-ledger", "version": 1, "events": [' + b"[" * 50_000,
     "nested too deeply"),
    (b'{"format": "combat-ledger", "version": 1e999, "events": []}', "'version' is not a whole"),
    (b'{"format": "combat-ledger", "version": ' + b"1" * 5000 + b', "events": []}',
     "too many digits"),
    (b'{"format": "combat-ledger", "version": 1, "events": []} and more', "more follows"),
    (b'{"format": "combat-ledger", "version": 1, "events": [{"seq": 1', "cut short"),
    (b'\xff\xfe{"format"', "not UTF-8"),
])
def test_malformed_exports_are_refused_in_one_line(table, tmp_path, raw, says):
    path = tmp_path / "bad.json"
    path.write_bytes(raw)
    refused(table, "import", path, says=says)


@pytest.mark.parametrize("chunk", [1, 3, 17, 4096])
def test_import_reads_alike_whatever_the_pieces_the_file_comes_in(tmp_path, monkeypatch, chunk):
    doc = json.loads((GOLDEN / "v1-alley.json").read_bytes())
    doc["events"][0]["data"]["title"] = "Räuber — ドラゴン 🐉 \"quoted\" \\ back"
    raw = json.dumps(rechain(doc), indent=1, ensure_ascii=False).encode()
    monkeypatch.setattr(jsonstream, "CHUNK", chunk)
    store = Store(tmp_path / "l.db")
    ledger = Ledger(store)
    state = import_log(ledger, read_export(raw, "alley.json"), None)
    assert state.title == doc["events"][0]["data"]["title"]
    assert as_logged_at_the_source(ledger.event_dicts("alley")) == doc["events"]
    store.close()


# -- numbers beyond every range ---------------------------------------------------------

@pytest.fixture
def fight(table):
    """ash (pc) is acting in round 1; brute is an npc; late joined unrolled."""
    for line in (["new", "fight"], ["add", "Ash", "--pc", "--bonus", "2", "--grit", "1"],
                 ["add", "Brute"], ["add", "Ganger", "--count", "2", "--group", "gangers"],
                 ["roll", "ash", "--die", "7"], ["roll", "brute", "--die", "3"],
                 ["roll", "gangers", "--die", "2"], ["round"], ["act", "ash", "minor"],
                 ["add", "Late"]):
        table(*line)
    log = json.loads(table("log", "--json").stdout)
    table.roll = next(e["seq"] for e in log if e["type"] == "InitiativeRolled")
    table.act = next(e["seq"] for e in log if e["type"] == "APSpent")
    return table


@pytest.mark.parametrize("line,says", [
    (["add", "X", "--bonus", HUGE], "an initiative bonus of 99999999999999999999999 is out of "
                                    "range: -1,000,000,000 to 1,000,000,000"),
    (["add", "X", "--bonus", -2 ** 63], "an initiative bonus of -9223372036854775808"),
    (["add", "X", "--ap", HUGE], "(R14)"),
    (["add", "X", "--grit", 2 ** 64], "(R13)"),
    (["group", "gangers", "--bonus", HUGE], "initiative bonus"),
    (["roll", "late", "--die", HUGE], "a d10 shows 1 to 10, not 99999999999999999999999 (R1)"),
    (["set-initiative", "brute", HUGE, "--reason", "x"], "initiative total"),
    (["max-ap", "brute", HUGE, "--reason", "x"], "(R14)"),
    (["adjust-ap", "brute", -HUGE, "--reason", "x"], "(R14)"),
    (["grit", "ash", HUGE], "(R13)"),
    (["grit", "ash", -HUGE], "(R13)"),
    (["act", "ash", HUGE], "(R16)"),
    (["interrupt", "brute", HUGE], "(R16)"),
    (["effect", "brute", "Big", "--max-ap", HUGE, "--rounds", 1], "(R14)"),
    (["effect", "brute", "Long", "--max-ap", 1, "--rounds", HUGE], "1 round or more"),
    (["amend", "{roll}", "--die", HUGE], "(R1)"),
    (["amend", "{act}", "--cost", HUGE], "(R16)"),
    (["replay", "--delay", "1e308"], "--delay"),
    (["replay", "--delay", "nan"], "--delay"),
])
def test_numbers_out_of_range_on_the_command_line_are_refused_in_one_line(fight, line, says):
    args = [str(a).format(roll=fight.roll, act=fight.act) for a in line]
    refused(fight, *args, says=says)


def test_grit_never_grows_past_its_range(fight):
    fight("grit", "ash", ranges.MAX_NUMBER - 1)
    refused(fight, "grit", "ash", 1, says="Grit runs from 0 to 1,000,000,000 (R13)")


@pytest.mark.parametrize("name,text,says", [
    ("crew.toml", '[[combatant]]\nname = "Big"\nbonus = 99999999999999999999999\n',
     "crew.toml: combatant 1 (Big): an initiative bonus of 99999999999999999999999"),
    ("crew.yaml", "combatant:\n  - name: Big\n    ap: 99999999999999999999999\n",
     "combatant 1 (Big): maximum AP runs from 0 to 1,000,000,000"),
    ("crew.json", '{"combatant": [{"name": "Big", "grit": 99999999999999999999999}]}',
     "combatant 1 (Big): Grit runs from 0 to 1,000,000,000"),
    ("crew.toml", '[[combatant]]\nname = "G"\ngroup = "gg"\n[[group]]\nid = "gg"\n'
                  'bonus = -99999999999999999999999\n', "group 1 (gg): an initiative bonus"),
    ("crew.json", '{"combatant": [{"name": "Big", "bonus": ' + "9" * 5000 + "}]}",
     "crew.json is not valid JSON"),
])
def test_numbers_out_of_range_in_a_roster_are_refused_naming_the_entry(table, tmp_path,
                                                                        name, text, says):
    roster = tmp_path / name
    roster.write_text(text)
    message = refused(table, "load", roster, says=says)
    assert message.endswith("nothing of the roster was added\n")
    refused(table, "new", "crew", "--roster", roster, says=says)


def _alley() -> dict:
    return json.loads((GOLDEN / "v1-alley.json").read_bytes())


def _forged(change) -> bytes:
    doc = _alley()
    i = change(doc["events"])
    return json.dumps(rechain(doc, i)).encode()


def _bonus(events):
    i = next(i for i, e in enumerate(events) if e["type"] == "CombatantJoined")
    events[i]["data"]["bonus"] = HUGE
    return i


def _nested_cost(events):
    i = next(i for i, e in enumerate(events) if e["type"] == "Amended")
    events[i]["data"]["events"][0]["cost"] = HUGE  # an APSpent, as corrected
    return i


def _undone_batch(events):
    i = next(i for i, e in enumerate(events) if e["type"] == "Undone")
    events[i]["data"]["batches"] = [2 ** 70]
    return i


@pytest.mark.parametrize("change,says", [
    (_bonus, "(CombatantJoined): an initiative bonus of 99999999999999999999999 is out of range"),
    (_nested_cost, "(Amended): an action costs 0 to 1,000,000,000 AP, not 9999999999999999"),
    (_undone_batch, "(Undone): a seq of 1180591620717411303424 is out of range"),
])
def test_numbers_out_of_range_in_an_imported_log_are_refused(table, tmp_path, change, says):
    path = tmp_path / "forged.json"
    path.write_bytes(_forged(change))
    refused(table, "import", path, says=says)


def test_a_number_of_thousands_of_digits_in_an_import_is_refused(tmp_path):
    raw = (GOLDEN / "v1-alley.json").read_bytes().replace(
        b'"bonus": 3', b'"bonus": ' + b"7" * 5000, 1)
    store = Store(":memory:")
    with pytest.raises(InvalidFile, match="too many digits"):
        import_log(Ledger(store), read_export(raw, "alley.json"), None)
    assert store.encounters() == []


@pytest.mark.parametrize("name,cls", sorted(EVENT_TYPES.items()))
def test_every_number_of_every_event_has_a_range(name, cls):
    """A field added later is bounded too, by default to +-MAX_NUMBER: no
    number reaches the store that the store, msgspec or JavaScript cannot hold."""
    for field, kind, low, high, _ in ranges._specs(cls):
        if kind in ("events", "str", "strs", "digest"):  # (a digest: test_portrait_events)
            continue
        assert -ranges.MAX_NUMBER <= low <= high <= ranges.MAX_NUMBER <= 2 ** 53
        for value, ok in ((low, True), (high, True), (low - 1, False), (high + 1, False),
                          (HUGE, False), (-HUGE, False)):
            payload = _with(cls, field, [value] if kind == "list" else value)
            if ok:
                ranges.check_numbers(payload)
            else:
                with pytest.raises(Refusal):
                    ranges.check_numbers(payload)


@pytest.mark.parametrize("name, cls", sorted(EVENT_TYPES.items()), ids=str)
def test_every_text_of_every_event_has_a_length_limit(name, cls):
    """A text added later is bounded too (by default as an id), so
    no 3,000-character label floods every table and report."""
    import msgspec
    for field, kind, _, high, _ in ranges._specs(cls):
        if kind not in ("str", "strs"):
            continue
        assert 0 < high <= 2000
        for length, ok in ((high, True), (high + 1, False)):
            text = "x" * length
            payload = _with(cls, field, [text] if kind == "strs" else text)
            for other, other_kind, *_ in ranges._specs(cls):  # lists of seqs: seqs
                if other_kind == "list":
                    payload = msgspec.structs.replace(payload, **{other: [1]})
            if ok:
                ranges.check_numbers(payload)
            else:
                with pytest.raises(Refusal, match=f"at most {high:,} characters"):
                    ranges.check_numbers(payload)


def _with(cls, field: str, value):
    """An instance of `cls` with `field` set and every other field filled."""
    import msgspec
    from eventlog.events import NoteAdded
    filled = {}
    for f in msgspec.structs.fields(cls):
        if f.default is not msgspec.NODEFAULT or f.default_factory is not msgspec.NODEFAULT:
            continue
        filled[f.name] = {str: "x", int: 1}.get(f.type, [NoteAdded("x")])
    return cls(**{**filled, field: value})


# -- hostile text through every output ----------------------

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from eventlog.text import neutral  # noqa: E402

HOSTILE_CHARS = st.sampled_from(["\x1b", "\x1b[2J", "\x1b]0;t\x07", "\x9b", "\x85", "\x00",
                                 "\x7f", "\r", "\t", "\u202e", "\u2066", "\u200f", "=", "<",
                                 "&", "|", "*", "`", "a", "Zoë", " ", "\n"])
HOSTILE_TEXT = st.lists(HOSTILE_CHARS, min_size=1, max_size=8).map("".join)
TEXT_FIELDS = ("name", "label", "text", "title", "reason")
OUTPUT_LINES = [["status"], ["status", "--json"], ["log"], ["log", "--json"], ["log", "--audit"],
                ["list"], ["list", "--json"], ["stats"], ["stats", "--json"], ["replay"],
                ["verify"], ["head"], *(["export", "--format", f] for f in
                                       ("json", "jsonl", "csv", "md", "html"))]


@pytest.fixture(scope="module")
def hostile_template(tmp_path_factory):
    """A fight in which every kind of text is said: names, labels, notes,
    reasons, a title, an effect, an undo with its reason."""
    db = tmp_path_factory.mktemp("hostile") / "template.db"
    combat = in_process(cli_env(db))
    for line in (["new", "raid", "--title", "Raid"], ["add", "Big Rook", "--id", "rook", "--pc"],
                 ["add", "Vex", "--pc"], ["roll", "rook", "--die", "7"], ["roll", "vex", "--die", "2"],
                 ["round"], ["act", "rook", "minor", "shoots"], ["interrupt", "vex", "minor", "ducks"],
                 ["act", "rook", "free", "shouts"], ["note", "a note"],
                 ["max-ap", "vex", "4", "--reason", "wired"], ["grit", "vex", "1", "--reason", "luck"],
                 ["effect", "rook", "Haste", "--max-ap", "1", "--rounds", "1"],
                 ["set-initiative", "vex", "3", "--reason", "stunned"],
                 ["leave", "vex", "--reason", "fled"], ["undo", "--reason", "oops"]):
        combat(*line)
    import sqlite3
    con = sqlite3.connect(db)  # everything in the file itself, for copies of it
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return db


def forged(db: Path, text: str) -> None:
    """Every text field, every actor and the title made `text`, behind the
    program's back (a log from before the check, or an edited file)."""
    import sqlite3
    con = sqlite3.connect(db)
    for seq, data in con.execute("SELECT seq, data FROM events").fetchall():
        body = json.loads(data)
        body.update({k: text for k in TEXT_FIELDS if k in body})
        con.execute("UPDATE events SET data = ?, actor = ? WHERE seq = ?",
                    (json.dumps(body).encode(), text, seq))
    con.execute("UPDATE encounters SET title = ?", (text,))
    con.execute("DELETE FROM snapshots")
    con.commit()
    con.close()


def _raw_controls(text: str) -> set[str]:
    return {c for c in text if c != "\n" and neutral(c) != c}


@settings(max_examples=6, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=HOSTILE_TEXT)
def test_fuzz_hostile_text_in_every_field_through_every_output(text, hostile_template, tmp_path):
    db = tmp_path / f"h{abs(hash(text))}.db"
    db.write_bytes(hostile_template.read_bytes())
    forged(db, text)
    combat = in_process(cli_env(db))
    for line in OUTPUT_LINES:
        result = _any_code(combat, line)
        shown = result.stdout + result.stderr
        assert not _raw_controls(shown), (line, text, sorted(_raw_controls(shown)))
        assert "Traceback" not in shown and "unexpected failure" not in shown, (line, shown)


def _any_code(combat, line):
    """The result of `combat LINE` whatever its exit code (verify: 1, the
    forged log no longer verifies)."""
    from typer.testing import CliRunner

    from cli.app import app
    return CliRunner().invoke(app, line, env=cli_env(combat.db))


# -- foreign and poisoned stores, every command ------

def _variant(db: Path, kind: str) -> Path:
    import sqlite3
    if kind in ("dev-null", "folder"):
        return Path(os.devnull) if kind == "dev-null" else db.parent
    if kind == "foreign":
        db.unlink()
        con = sqlite3.connect(db)
        con.executescript("CREATE TABLE meta (k, v); CREATE TABLE events (x);"
                          "CREATE TABLE encounters (y); INSERT INTO meta VALUES (1, 2);")
        con.close()
        return db
    sql = {"newer": "UPDATE meta SET value = '999' WHERE key = 'schema_version'",
           "long-version": f"UPDATE meta SET value = '{'9' * 4000}' WHERE key = 'schema_version'",
           "no-index": "DROP INDEX events_by_type",
           "bad-data": "UPDATE events SET data = x'ff00' WHERE seq = 2",
           "bad-type": "UPDATE events SET type = 'Bogus' WHERE seq = 2",
           "text-seq": "UPDATE events SET seq = '9x' WHERE seq = 9",
           "deep-snapshot": "UPDATE snapshots SET state = x'" + "91" * 50_000 + "00'",
           "bad-snapshot": "UPDATE snapshots SET state = x'c1c1c1'"}[kind]
    con = sqlite3.connect(db)
    con.execute(sql)
    con.commit()
    con.close()
    return db


REFUSED_STORES = ("foreign", "newer", "long-version", "dev-null", "folder")
STORES = (*REFUSED_STORES, "no-index", "bad-data", "bad-type", "text-seq", "deep-snapshot",
          "bad-snapshot")


@pytest.mark.parametrize("kind", STORES)
def test_fuzz_every_command_on_a_foreign_or_poisoned_store_is_clean(kind, hostile_template,
                                                                    tmp_path, monkeypatch):
    from test_fuzz import LINES
    monkeypatch.chdir(tmp_path)  # `copy --to copy.db` writes where it runs, never the checkout
    counts = {"0": 0, "1": 0, "2": 0}
    for name, line in sorted(LINES.items()):
        folder = tmp_path / name
        folder.mkdir()
        db = folder / "ledger.db"
        db.write_bytes(hostile_template.read_bytes())
        db = _variant(db, kind)
        before = db.is_file() and db.read_bytes()
        result = CliRunnerResult.of(db, line)
        err = result.stderr
        assert result.exit_code in (0, 1, 2), (kind, line, result.exception)
        assert "Traceback" not in err and "unexpected failure" not in err, (kind, line, err)
        counts[str(result.exit_code)] += 1
        if kind in REFUSED_STORES and name not in ("schema", "play", "rules"):  # no store opened
            refused = ("not a combat-ledger database", "is a folder", "newer combat-ledger")
            assert result.exit_code == 1 and any(r in err for r in refused), (kind, line, err)
        if kind in REFUSED_STORES or result.exit_code == 1:
            assert (db.is_file() and db.read_bytes()) == before, (kind, line)
    print(f"\n{kind}: exit codes {counts}")


class CliRunnerResult:
    @staticmethod
    def of(db: Path, line: list[str]):
        from typer.testing import CliRunner

        from cli.app import app
        env = {**cli_env(db), "COMBAT_DB": None}
        return CliRunner().invoke(app, ["--db", str(db), *line], env=env)
