"""`export --format jsonl|csv|md|html`: writers that stream an encounter's
log to a text file (the json export is `transfer.export_json`).

- jsonl: one event per line, INTERFACE.md's shape (the json export's events).
- csv: one row per stored event, with the round, pass and turn it was
  declared in, for spreadsheets, pandas or DuckDB.
- md: the encounter told round by round and pass by pass, then the stats.
- html: the same as one self-contained page with charts (`report.py`).
"""
from __future__ import annotations

import csv
import re
from typing import TextIO

import msgspec

from eventlog.codec import envelope_dict
from eventlog.events import APSpent, FreeActionTaken, InterruptTaken
from eventlog.text import csv_cell, json_safe, neutral

from projections.ledger import Ledger
from projections.reports.narrate import describe
from projections.reports.stats import CATEGORIES, Stats
from projections.reports.story import Chapter, Story
from projections.reports.walk import Track, no_track, steps, where

CSV_COLUMNS = ("seq", "at", "actor", "round", "pass", "turn", "type", "combatant",
               "cost", "category", "label", "undone", "batch", "undone_by",
               "amended_by", "text")


def write_jsonl(ledger: Ledger, encounter: str, out: TextIO, track: Track = no_track) -> int:
    """One event per line; returns how many were written."""
    head, _ = ledger.store.head(encounter)
    encode = msgspec.json.Encoder().encode
    n = 0
    for env, undone in track(ledger.events(encounter), head, "exporting"):
        out.write(json_safe(encode(envelope_dict(env, undone)).decode()) + "\n")
        n += 1
    return n


def write_csv(ledger: Ledger, encounter: str, out: TextIO, track: Track = no_track) -> int:
    """One row per stored event (CSV_COLUMNS); returns how many were written."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)  # every cell through csv_cell: no formula, no control
    n = 0
    for step in steps(ledger, encounter, track, "exporting"):
        if step.amended:
            continue  # the amended reading: the row of the original says so
        entry, env = step.entry, step.entry.env
        data = env.data
        round_, pass_, turn = where(step)
        cost = category = ""
        if isinstance(data, (APSpent, InterruptTaken)):
            cost, category = data.cost, data.category
        elif isinstance(data, FreeActionTaken):
            cost, category = 0, "free"
        writer.writerow([csv_cell(cell) for cell in (
            env.seq, env.at, env.actor, round_, pass_, turn or "", env.type,
            entry.who or "", cost, category, getattr(data, "label", ""),
            "true" if entry.undone_by else "false", env.batch,
            entry.undone_by[0] if entry.undone_by else "", entry.amended_by or "",
            describe(data),
        )])
        n += 1
    return n


def review(ledger: Ledger, encounter: str, track: Track = no_track) -> tuple[dict, list[Chapter]]:
    """The stats and the story of an encounter, from one fold."""
    tally, teller = Stats(), Story()
    state = None
    for step in steps(ledger, encounter, track, "exporting"):
        tally.feed(step)
        teller.feed(step)
        state = step.state
    return tally.result(state), teller.chapters


# -- markdown -----------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~#])")


def md_escape(text: str) -> str:
    """Text said at the table, safe inside a markdown line or table cell."""
    return _MD_SPECIAL.sub(r"\\\1", neutral(text.replace("\n", " ")))


def write_md(ledger: Ledger, encounter: str, out: TextIO, track: Track = no_track) -> int:
    numbers, chapters = review(ledger, encounter, track)
    out.write(neutral("\n".join(markdown(numbers, chapters)), keep="\n") + "\n")
    return numbers["totals"]["events"]


def _headline(numbers: dict) -> str:
    t = numbers["totals"]
    rounds = f"{t['rounds']} round{'s' if t['rounds'] != 1 else ''}"
    phase = {"ended": "ended", "combat": "in progress", "setup": "not started"}[numbers["phase"]]
    undone = f" ({t['undone']} undone)" if t["undone"] else ""
    when = f" · {md_escape(t['first_at'][:16].replace('T', ' '))} UTC" if t["first_at"] else ""
    return (f"Encounter `{numbers['encounter']}` · {t['events']} events{undone} · "
            f"{rounds} · {phase}{when}")


def markdown(numbers: dict, chapters: list[Chapter]) -> list[str]:
    title = numbers["title"] or numbers["encounter"]
    lines = [f"# {md_escape(title)}", "", _headline(numbers), ""]
    for chapter in chapters:
        lines += [f"## {chapter.title}", ""]
        if chapter.order:
            placed = [f"{i}. {md_escape(p.label)}"
                      + (f" ({p.total})" if p.total is not None else "")
                      + (" — seized the moment" if p.seized else "")
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
                text = md_escape(line.text)
                text = f"~~{text}~~" if line.struck else text
                note = f", {md_escape(line.note)}" if line.note else ""
                lines.append(f"- {text} _(#{line.seq}{note})_")
            lines.append("")
    lines += stats_markdown(numbers)
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
         "interrupts", "AP unspent", "seizes", "Grit spent"],
        [[c["name"], c["turns"], c["ap_in_turns"], c["ap_on_interrupts"],
          *(c["actions"][k] for k in CATEGORIES), c["interrupts"], c["ap_unspent"],
          c["seizes"], c["grit_spent"]] for c in numbers["combatants"]])
    if numbers["rounds"]:
        lines += ["### Rounds", ""]
        lines += _table(
            ["round", "passes", "turns per pass", "AP spent", "interrupts", "seizes",
             "AP unspent"],
            [[r["round"], r["passes"], " / ".join(map(str, r["turns_per_pass"])),
              r["ap_spent"], r["interrupts"], ", ".join(r["seizes"]) or "-",
              "-" if r["ap_unspent"] is None else r["ap_unspent"]]
             for r in numbers["rounds"]])
    t = numbers["totals"]
    lines += ["### Encounter", ""]
    lines += _table(["", "total"], [[label, t[key]] for key, label in TOTALS])
    return lines


TOTALS = (("rounds", "rounds"), ("passes", "passes"), ("turns", "turns"),
          ("ap_spent", "AP spent"), ("ap_in_turns", "AP in turns"),
          ("ap_on_interrupts", "AP on interrupts"), ("interrupts", "interrupts"),
          ("ap_unspent", "AP left unspent"), ("seizes", "seizes"),
          ("grit_spent", "Grit spent"), ("events", "events in the log"),
          ("undone", "events undone or retracted"), ("amended", "declarations amended"))
