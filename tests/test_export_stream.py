"""Exports stream: every format is written event by event by the
writer its registry names, to a file or stdout alike, with the bytes the
whole document would have; a new format is one module and one line."""
from __future__ import annotations

import io
import json

import msgspec

from projections.inputs.transfer import export_json
from projections.reports import exports, formats
from projections.reports.jsonexport import write_json
from projections.reports.story import Story
from projections.reports.walk import steps

from helpers import in_process, street_fight


def test_every_export_format_is_one_registry_line_with_a_writer():
    assert list(formats.FORMATS) == ["json", "jsonl", "csv", "md", "html"]
    for name in formats.FORMATS:
        assert callable(formats.writer(name)), name


def test_a_new_format_is_one_module_and_one_line(tmp_path, monkeypatch):
    module = tmp_path / "shoutfmt.py"
    module.write_text("def write(ledger, encounter, out, track):\n"
                      "    out.write(encounter.upper() + '\\n')\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(formats.FORMATS, "shout", formats.Format("shoutfmt", "write", "shouts"))
    out = io.StringIO()
    assert formats.writer("shout")(None, "raid", out, None) == 1
    assert out.getvalue() == "RAID\n"
    assert "shout: shouts." in formats.described()


def test_export_offers_every_registered_format(tmp_path):
    combat = in_process(street_fight(tmp_path))
    shown = combat("export", "--help").stdout
    assert "|".join(formats.FORMATS) in shown


def test_json_export_streams_the_bytes_of_the_whole_document(tmp_path):
    env = street_fight(tmp_path)
    combat = in_process(env)
    shown = combat("export", "--format", "json").stdout
    combat("export", "--format", "json", "-o", tmp_path / "out.json")
    written = (tmp_path / "out.json").read_text(encoding="utf-8")
    from eventlog.stores.sqlite import Store
    from projections.ledger import Ledger
    ledger = Ledger(Store(env["COMBAT_DB"]))
    whole = json.dumps(export_json(ledger, "demo-1"), indent=2, ensure_ascii=False) + "\n"
    assert shown == written == whole
    formatted = msgspec.json.format(msgspec.json.encode(export_json(ledger, "demo-1")),
                                    indent=2).decode() + "\n"
    assert written == formatted


def test_json_export_of_a_chunk_boundary_is_valid(tmp_path, monkeypatch):
    env = street_fight(tmp_path)
    from eventlog.stores.sqlite import Store
    from projections.ledger import Ledger
    ledger = Ledger(Store(env["COMBAT_DB"]))
    head = ledger.store.head("demo-1")[0]
    for chunk in (1, 2, head, head + 1):
        monkeypatch.setattr("projections.reports.jsonexport.CHUNK", chunk)
        out = io.StringIO()
        assert write_json(ledger, "demo-1", out) == head
        assert json.loads(out.getvalue()) == export_json(ledger, "demo-1")


def test_md_told_chapter_by_chapter_equals_the_whole_story(tmp_path):
    env = street_fight(tmp_path)
    from eventlog.stores.sqlite import Store
    from projections.ledger import Ledger
    ledger = Ledger(Store(env["COMBAT_DB"]))
    whole, told = Story(), []
    reasons = {r.seq: msgspec.json.decode(r.data)["reason"]
               for r in ledger.store.markers("demo-1") if r.type == "Amended"}
    streamed = Story(told.append, reasons)
    for step in steps(ledger, "demo-1"):
        whole.feed(step)
        streamed.feed(step)
    streamed.close()
    assert [exports.chapter_markdown(c) for c in told] == \
        [exports.chapter_markdown(c) for c in whole.chapters]
