"""`export --format json`: the portable log that `import` reads, written
event by event, to a file or stdout alike.

The bytes are those of the whole document formatted by msgspec with an
indent of two (what `json.dumps(indent=2, ensure_ascii=False)` writes): the
header is formatted on its own, then each event on its own, indented to its
depth in the `events` list. JSON text holds no raw line break (a string's
are escaped), so indenting the lines of a formatted event is exact. Memory
holds one chunk of events, never the document.
"""
from __future__ import annotations

from typing import TextIO

import msgspec

from eventlog.codec import envelope_dict
from eventlog.text import json_safe
from projections.inputs.header import header
from projections.ledger import Ledger
from projections.reports.walk import Track, no_track

CHUNK = 512  # events formatted and written at a time
_DEPTH = "\n    "  # an event's lines, inside "events": [...]


def write_json(ledger: Ledger, encounter: str, out: TextIO, track: Track = no_track) -> int:
    """Write the json export of `encounter` to `out`; returns how many events."""
    encode, fmt = msgspec.json.Encoder().encode, msgspec.json.format
    with ledger.store.reading():  # the header and the events of one snapshot
        top = header(ledger, encounter)
        head = top["encounter"]["events"]
        text = fmt(encode(top), indent=2).decode()
        out.write(json_safe(text[:-2]) + ',\n  "events": [')  # (its closing "\n}" follows the events)
        n, chunk, sep = 0, [], ""
        imported = ledger.store.imported(encounter)
        for env, undone in track(ledger.events(encounter), head, "exporting"):
            event = fmt(encode(envelope_dict(env, undone, env.seq <= imported)),
                        indent=2).decode()
            chunk.append(_DEPTH + event.replace("\n", _DEPTH))
            n += 1
            if len(chunk) == CHUNK:
                out.write(sep + json_safe(",".join(chunk)))
                chunk, sep = [], ","
        if chunk:
            out.write(sep + json_safe(",".join(chunk)))
    out.write("\n  ]\n}\n" if n else "]\n}\n")
    return n
