"""`export --format jsonl|csv|md|html`: writers that stream an encounter's
log to a text file (the json export is `transfer.export_json`).

- jsonl: one event per line, the shape of docs/formats.md (the json export's events)
  plus where it was declared, whom it is about and its amended reading.
- csv: one row per stored event with its values in force (an amended event
  as amended, the original in `original_*` columns), the round, pass and
  turn it was declared in, and the name, side and group of whom it is about,
  for spreadsheets, pandas or DuckDB.
- md: the encounter told round by round and pass by pass, then the stats.
- html: the same as one self-contained page with charts (`report.py`).
"""
from __future__ import annotations

import csv
import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TextIO, cast

import msgspec

from eventlog.codec import data_of, decode_data, envelope_dict
from eventlog.events import (
    Amended, APSpent, EffectApplied, EffectEnded, FreeActionTaken, InterruptTaken, Payload, TrackChanged,
)
from eventlog.language import N_
from eventlog.text import LINE_BREAKS, csv_cell, json_safe, neutral
from projections.ledger import Ledger
from projections.domain.narrate import in_english
from projections.reports.stats import CATEGORIES, Stats
from projections.reports.story import Chapter, Story
from projections.reports.timing import duration
from projections.reports.walk import Step, Track, no_track, steps, where

CSV_COLUMNS = ("seq", "recorded_at", "actor", "round", "pass", "turn", "type", "combatant",
               "name", "side", "group", "cost", "category", "label", "undone", "batch",
               "undone_by", "amended_by", "original_type", "original_combatant",
               "original_cost", "original_category", "original_label", "text",
               "track", "track_value", "track_change", "track_max", "by", "effect")


@dataclass
class Reading:
    """A stored event as an analyst reads it: `effective` is the declaration
    in force in its place (the amended reading of an amended event; the event
    itself otherwise, undone or not), `original` what was stored."""
    step: Step
    effective: Payload
    original: Payload | None  # set only when the event was amended


def readings(ledger: Ledger, encounter: str, track: Track = no_track) -> Iterator[Reading]:
    """One Reading per stored event, in seq order (an amendment that reads as
    more declarations than it replaced gives the extra ones the first seq)."""
    pending: dict[int, Step] = {}
    for step in steps(ledger, encounter, track, "exporting"):
        seq = step.entry.env.seq
        if step.amended:
            assert step.payload is not None  # (an amended reading is a declaration)
            first = pending.pop(seq, None)
            yield Reading(first or step, step.payload,
                          first.entry.env.data if first else None)
            continue
        for held in pending.values():
            yield Reading(held, held.entry.env.data, None)
        pending.clear()
        if step.payload is None and step.entry.amended_by is not None \
                and step.entry.undone_by is None:
            pending[seq] = step  # its amended reading follows
            continue
        yield Reading(step, step.entry.env.data, None)
    for held in pending.values():
        yield Reading(held, held.entry.env.data, None)


def _who(data) -> str | None:
    return getattr(data, "combatant", None) or getattr(data, "slot", None) \
        or getattr(data, "id", None)


def _person(state, cid: str | None) -> tuple[str, str, str]:
    """name, side and group of a combatant or slot ('' when unknown)."""
    if cid is None:
        return "", "", ""
    c = state.combatants.get(cid)
    if c is not None:
        return c.name, c.side, c.group or ""
    if cid in state.groups:
        return cid, state.side_of(cid) or "", cid
    return "", "", ""


def _cost(data) -> tuple:
    if isinstance(data, (APSpent, InterruptTaken)):
        return data.cost, data.category
    if isinstance(data, FreeActionTaken):
        return 0, "free"
    return "", ""


def write_jsonl(ledger: Ledger, encounter: str, out: TextIO, track: Track = no_track) -> int:
    """One event per line in the shape of `log --json`, plus where it was
    declared and whom it is about (round, pass, turn, combatant, name, side,
    group) and, for an amended event, its reading in force (`effective`)."""
    encode = msgspec.json.Encoder().encode
    n = 0
    for line in jsonl_lines(ledger, encounter, track):
        out.write(json_safe(encode(line).decode()) + "\n")
        n += 1
    return n


def jsonl_lines(ledger: Ledger, encounter: str, track: Track = no_track) -> Iterator[dict]:
    """The lines of `write_jsonl`, as dicts."""
    imported = ledger.store.imported(encounter)
    for r in readings(ledger, encounter, track):
        entry = r.step.entry
        env = entry.env
        who = _who(r.effective)
        name, side, group = _person(r.step.state, who)
        round_, pass_, turn = where(r.step)
        line = envelope_dict(env, entry.undone_by is not None, env.seq <= imported)
        line.update({"round": round_, "pass": pass_, "turn": turn, "combatant": who,
                     "name": name or None, "side": side or None, "group": group or None,
                     "amended_by": entry.amended_by})
        if r.original is not None:
            line["effective"] = {"type": type(r.effective).__name__,
                                 "data": data_of(r.effective)}
        if isinstance(r.effective, TrackChanged):  # the track as the change left it
            now = r.step.state.tracks.get(r.effective.combatant, {}).get(r.effective.track)
            line["track"] = {"name": r.effective.track, "value": now.value if now else None,
                             "max": now.max if now else None}
        yield line


def _track_cells(data, state) -> tuple:
    """track, its value after the change, the change, its maximum, by whom;
    the effect (condition) an EffectApplied or EffectEnded names."""
    if isinstance(data, TrackChanged):
        now = state.tracks.get(data.combatant, {}).get(data.track)
        return (data.track, now.value if now else "",
                "" if data.delta is None else data.delta,
                now.max if now and now.max is not None else "", data.by or "", "")
    if isinstance(data, (EffectApplied, EffectEnded)):
        return ("", "", "", "", "", data.effect)
    return ("",) * 6


def write_csv(ledger: Ledger, encounter: str, out: TextIO, track: Track = no_track) -> int:
    """One row per stored event (CSV_COLUMNS) with its values in force;
    returns how many were written."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)  # every cell through csv_cell: no formula, no control
    n = 0
    for row in csv_rows(ledger, encounter, track):
        writer.writerow(row)
        n += 1
    return n


def csv_rows(ledger: Ledger, encounter: str, track: Track = no_track) -> Iterator[list[str]]:
    """The rows of `write_csv` under its header, each cell neutralised."""
    for r in readings(ledger, encounter, track):
        entry = r.step.entry
        env, data = entry.env, r.effective
        round_, pass_, turn = where(r.step)
        who = _who(data)
        cost, category = _cost(data)
        original = ["", "", "", "", ""]
        if r.original is not None:
            o_cost, o_category = _cost(r.original)
            original = [type(r.original).__name__, _who(r.original) or "", o_cost,
                        o_category, getattr(r.original, "label", "")]
        yield ([csv_cell(cell) for cell in (
            env.seq, env.at, env.actor, round_, pass_, turn or "",
            type(data).__name__ if r.original is not None else env.type,
            who or "", *_person(r.step.state, who), cost, category,
            getattr(data, "label", ""),
            "true" if entry.undone_by else "false", env.batch,
            entry.undone_by[0] if entry.undone_by else "", entry.amended_by or "",
            *original)]
            # a note or a reason of several lines is one cell of several lines
            + [csv_cell(in_english(data), keep=LINE_BREAKS)]
            + [csv_cell(cell) for cell in _track_cells(data, r.step.state)])


def review(ledger: Ledger, encounter: str, track: Track = no_track) -> tuple[dict, list[Chapter]]:
    """The stats and the story of an encounter, from one fold."""
    tally, teller = Stats(), Story()
    state = None
    for step in steps(ledger, encounter, track, "exporting"):
        tally.feed(step)
        teller.feed(step)
        state = step.state
    assert state is not None  # (a log begins with EncounterCreated)
    return tally.result(state), teller.chapters


# -- markdown -----------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~#])")


# What would start a block inside a paragraph: a list item, a setext
# heading's underline, a thematic break (the rest is in _MD_SPECIAL).
_MD_BLOCK_START = re.compile(r"^([ \t]*)([-+=]|\d+(?=[.)]))")


def md_escape(text: str, lines: bool = False) -> str:
    """Text said at the table, safe inside a markdown line or table cell.
    With `lines` (a note or reason inside a list item), its line breaks and
    tabs are kept: each break is a hard one, the next line indented into
    the item, so a note of two lines reads as two lines of one item."""
    if not lines:
        return _MD_SPECIAL.sub(r"\\\1", neutral(text.replace("\n", " ")))
    first, *rest = (_MD_SPECIAL.sub(r"\\\1", line)
                    for line in neutral(text, keep=LINE_BREAKS).split("\n"))
    return "\\\n  ".join([first, *(_MD_BLOCK_START.sub(_block_escaped, line) for line in rest)])


def _block_escaped(m: re.Match) -> str:
    marker = m.group(2)
    return m.group(1) + (marker + "\\" if marker[0].isdigit() else "\\" + marker)


def write_md(ledger: Ledger, encounter: str, out: TextIO, track: Track = no_track) -> int:
    """The encounter told round by round, then the stats. The headline needs
    the whole walk, so the chapters wait in a temporary file as they are
    told (memory holds one chapter, never the story)."""
    with ledger.store.reading(), tempfile.TemporaryFile(
            "w+", encoding="utf-8", newline="") as told:  # (reasons and walk: one snapshot)
        head, _ = ledger.store.head(encounter)
        reasons = {seq: cast(Amended, decode_data(type_name, data)).reason
                   for seq, type_name, data in ledger.store.fold_markers(encounter, head)
                   if type_name == "Amended"}
        def tell(chapter: Chapter) -> None:
            told.write(_md_lines(chapter_markdown(chapter)))
        tally, teller, state = Stats(), Story(tell, reasons), None
        for step in steps(ledger, encounter, track, "exporting"):
            tally.feed(step)
            teller.feed(step)
            state = step.state
        teller.close()
        assert state is not None  # (a log begins with EncounterCreated)
        numbers = tally.result(state, turns=False)
        out.write(_md_lines(markdown_head(numbers)))
        told.seek(0)
        shutil.copyfileobj(told, out)
    out.write(_md_lines(stats_markdown(numbers)))
    return numbers["totals"]["events"]


def _md_lines(lines: list[str]) -> str:
    return "".join(neutral(line, keep=LINE_BREAKS) + "\n" for line in lines)


def _headline(numbers: dict) -> str:
    t = numbers["totals"]
    rounds = f"{t['rounds']} round{'s' if t['rounds'] != 1 else ''}"
    phase = {"ended": "ended", "combat": "in progress", "setup": "not started"}[numbers["phase"]]
    undone = f" ({t['undone']} undone)" if t["undone"] else ""
    when = f" · {md_escape(t['first_at'][:16].replace('T', ' '))} UTC" if t["first_at"] else ""
    return (f"Encounter `{numbers['encounter']}` · {t['events']} events{undone} · "
            f"{rounds} · {phase}{when}")


def markdown_head(numbers: dict) -> list[str]:
    title = numbers["title"] or numbers["encounter"]
    return [f"# {md_escape(title)}", "", _headline(numbers), ""]


def chapter_markdown(chapter: Chapter) -> list[str]:
    lines = [f"## {chapter.title}", ""]
    if chapter.order:
        placed = [f"{i}. {md_escape(p.label)}"
                  + (f" ({p.total})" if p.total is not None else "")
                  + (" — seized the moment" if p.seized else "")
                  + (" — left" if p.left else "")
                  for i, p in enumerate(chapter.order, 1)]
        lines += ["Initiative order: " + " · ".join(placed), ""]
    if chapter.joined:
        lines += ["Joined the order during the round: " + ", ".join(
            f"{md_escape(p.label)} ({p.total})" for p in chapter.joined), ""]
    for pass_ in chapter.passes:
        if pass_.number:
            lines += [f"### Pass {pass_.number}", ""]
        if not pass_.lines:
            lines += ["Nobody acts in this pass.", ""]
            continue
        for line in pass_.lines:
            text = md_escape(line.text, lines=True)
            text = f"~~{text}~~" if line.struck else text
            note = f", {md_escape(line.note, lines=True)}" if line.note else ""
            lines.append(f"- {text} _(#{line.seq}{note})_")
        lines.append("")
    return lines


def _table(header: list[str], rows: list[list]) -> list[str]:
    out = ["| " + " | ".join(header) + " |",
           "| " + " | ".join("---" if i == 0 else "---:" for i in range(len(header))) + " |"]
    out += ["| " + " | ".join(md_escape(str(v)) for v in row) + " |" for row in rows]
    return out + [""]


def stats_markdown(numbers: dict) -> list[str]:
    lines = ["## Stats", "", "### Combatants", ""]
    lines += _table(
        ["combatant", "turns", "AP in turns", "AP on interrupts", *CATEGORIES,
         "interrupts", "AP unspent", "seizes", "Grit spent", "Grit gained", "time in turns"],
        [[c["name"] + ("" if c["active"] else " (left)"), c["turns"], c["ap_in_turns"], c["ap_on_interrupts"],
          *(c["actions"][k] for k in CATEGORIES), c["interrupts"], c["ap_unspent"],
          c["seizes"], c["grit_spent"], c["grit_gained"], duration(c["turn_seconds"])]
         for c in numbers["combatants"]])
    if numbers["rounds"]:
        lines += ["### Rounds", ""]
        lines += _table(
            ["round", "passes", "turns per pass", "AP spent", "interrupts", "seizes",
             "AP unspent", "time"],
            [[r["round"], r["passes"], " / ".join(map(str, r["turns_per_pass"])),
              r["ap_spent"], r["interrupts"], ", ".join(r["seizes"]) or "-",
              "-" if r["ap_unspent"] is None else r["ap_unspent"], duration(r["seconds"])]
             for r in numbers["rounds"]])
    if numbers["slowest_turns"]:
        lines += ["### Slowest turns", ""]
        lines += _table(["combatant", "round", "pass", "AP spent", "time"],
                        [[t["name"], t["round"], t["pass"], t["ap_spent"],
                          duration(t["seconds"])] for t in numbers["slowest_turns"]])
    lines += harm_markdown(numbers)
    t = numbers["totals"]
    lines += ["### Encounter", ""]
    lines += _table(["", "total"], [[label, t[key]] for key, label in TOTALS]
                    + [["time from the first event to the last", duration(t["duration_seconds"])],
                       ["time in turns", duration(t["turn_seconds"])]])
    return lines


def harm_markdown(numbers: dict) -> list[str]:
    """hp taken, dealt and healed per combatant and round, and conditions per
    round; nothing when no track named hp and no condition was used."""
    lines: list[str] = []
    hp = numbers.get("hp") or {}
    if hp.get("used"):
        lines += ["### Damage (hp)", ""]
        lines += _table(["combatant", "taken", "dealt", "healed", "hp at the end"],
                        [[c["name"], c["taken"], c["dealt"], c["healed"],
                          "-" if c["hp"] is None else c["hp"]] for c in hp["combatants"]])
        names = {c["id"]: c["name"] for c in hp["combatants"]}
        lines += _table(["round", "taken", "dealt"], [
            [r["round"], _per(r["taken"], names), _per(r["dealt"], names)]
            for r in hp["rounds"]])
    if numbers.get("conditions"):
        names = {c["id"]: c["name"] for c in numbers["combatants"]}
        lines += ["### Conditions", ""]
        lines += _table(["round", "conditions"], [
            [r["round"], "; ".join(f"{names.get(cid, cid)}: {', '.join(on)}"
                                   for cid, on in r["on"].items())]
            for r in numbers["conditions"]])
    return lines


def _per(amounts: dict, names: dict) -> str:
    return ", ".join(f"{names.get(cid, cid)} {v}" for cid, v in amounts.items()) or "-"


TOTALS = (("rounds", N_("rounds")), ("passes", N_("passes")), ("turns", N_("turns")),
          ("ap_spent", N_("AP spent")), ("ap_in_turns", N_("AP in turns")),
          ("ap_on_interrupts", N_("AP on interrupts")), ("interrupts", N_("interrupts")),
          ("ap_unspent", N_("AP left unspent")), ("seizes", N_("seizes")),
          ("grit_spent", N_("Grit spent")), ("grit_gained", N_("Grit gained")),
          ("events", N_("events in the log")),
          ("undone", N_("events undone or retracted")), ("amended", N_("declarations amended")))
