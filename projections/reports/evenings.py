"""The fights of a session or of the whole campaign as one table
(`export --session ID` / `--campaign`, csv or jsonl): every event of every
fight, session by session and fight by fight, each row saying which session
and which encounter it belongs to, so DuckDB or a spreadsheet reads the
campaign as one table (`GROUP BY session, encounter`)."""
from __future__ import annotations

import csv
from typing import TextIO

import msgspec

from eventlog.errors import Refusal
from eventlog.text import csv_cell, json_safe
from projections.ledger import Ledger
from projections.reports.exports import CSV_COLUMNS, csv_rows, jsonl_lines
from projections.reports.walk import Track, no_track

FORMATS = ("csv", "jsonl")  # one table of many fights; json, md and html are one fight's
CAMPAIGN_COLUMNS = ("session", "encounter", *CSV_COLUMNS)


def writer(fmt: str):
    """The campaign writer of format `fmt`, or a refusal naming those there are."""
    if fmt not in FORMATS:
        raise Refusal(f"--format {fmt} writes one encounter: a session or the campaign is "
                      f"exported as csv or jsonl (one table of every fight); its html is "
                      "`combat report --campaign`")
    return write_csv if fmt == "csv" else write_jsonl


def write_csv(ledger: Ledger, fights: list[tuple[str, str]], out: TextIO,
              track: Track = no_track) -> int:
    """CAMPAIGN_COLUMNS: the session and encounter, then an event's row as
    `export --format csv` writes it. Returns how many rows."""
    rows = csv.writer(out, lineterminator="\n")
    rows.writerow(CAMPAIGN_COLUMNS)
    n = 0
    for session, encounter in fights:
        where = [csv_cell(session), csv_cell(encounter)]
        for row in csv_rows(ledger, encounter, track):
            rows.writerow(where + row)
            n += 1
    return n


def write_jsonl(ledger: Ledger, fights: list[tuple[str, str]], out: TextIO,
                track: Track = no_track) -> int:
    """One event a line as `export --format jsonl` writes it, with its
    `session` and `encounter` first. Returns how many lines."""
    encode = msgspec.json.Encoder().encode
    n = 0
    for session, encounter in fights:
        for line in jsonl_lines(ledger, encounter, track):
            out.write(json_safe(encode({"session": session, "encounter": encounter,
                                        **line}).decode()) + "\n")
            n += 1
    return n
