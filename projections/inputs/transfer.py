"""Export of an encounter's log, and import that verifies and re-judges it.

An import streams: the file is read a piece at a time and its events
decoded one by one (a json export's `events` list, or a jsonl export's
lines), each checked against the hash chain (R30) and the batches before it
as it comes and stored at once, all in one write transaction. Then the log
is read back and re-judged (undone batches are known only once the whole log
is read), and only a legal log is committed.
"""
from __future__ import annotations

import io
from collections.abc import Iterator
from itertools import chain

import msgspec

from eventlog.codec import Envelope, envelope_dict
from eventlog.errors import InvalidFile, Refusal
from eventlog.events import EVENT_TYPES, EncounterCreated
from eventlog.files import Bounded, open_bounded, too_large
from eventlog.jsonstream import JSONStream
from eventlog.language import N_, _
from projections.domain.ranges import check_numbers
from projections.domain.rules import check_slug
from projections.domain.state import State
from projections.inputs.header import FORMAT, VERSION, header
from projections.inputs.intake import store_log
from projections.ledger import Ledger

MAX_IMPORT_BYTES = 256 * 1024 * 1024
IMPORT_MOST = N_("the most an import reads")


class ExportedEvent(msgspec.Struct):
    seq: int
    batch: int
    type: str
    at: str
    actor: str
    data: dict
    prev_hash: str
    hash: str
    undone: bool = False


EVENT_KEYS = frozenset(ExportedEvent.__struct_fields__)
UNVERIFIABLE = N_("the hash chain cannot be verified without it (R30), so the log is not "
                  "imported")


def export_json(ledger: Ledger, encounter: str, track=None) -> dict:
    """The json export as one document (`export` streams it: jsonexport.py);
    `track(items, total, what)` may report progress."""
    track = track or _untracked
    doc = header(ledger, encounter)
    imported = ledger.store.imported(encounter)
    doc["events"] = [envelope_dict(env, undone, env.seq <= imported) for env, undone
                     in track(ledger.events(encounter), doc["encounter"]["events"], "exporting")]
    return doc


def _untracked(items, total: int, what: str):
    return items


# -- reading an export ----------------------------------------------------------

class Export:
    """An export file opened for import, its header read and checked; its
    events are read one at a time by `envelopes()`, once. A json export
    (`export --format json`) or a jsonl one (one event a line)."""

    def __init__(self, f: Bounded, name: str):
        self.f, self.name = f, name
        self.stream = JSONStream(f, name, _("a combat-ledger json or jsonl export"))
        self.header: dict = {}
        self.checked = False  # the header
        self.prescanned = False  # the header after the events, read first
        self.total = 0  # events, as the header announces them (for progress)
        self.jsonl = self.stream.first_key() in EVENT_KEYS
        if not self.jsonl:
            self._members = self._to_events()

    def __enter__(self) -> Export:
        return self

    def __exit__(self, *exc) -> None:
        self.f.close()

    def _to_events(self) -> Iterator[str]:
        """Read the header up to the events list; the members after it."""
        members = self.stream.members()
        for key in members:
            if key != "events":
                self._header_value(key)
                continue
            if {"format", "version"} <= set(self.header):
                self._check_header()
            elif self.f.seekable():
                members = self._header_first(members)
            # else (a pipe): the header is checked once the events are read
            return members
        self._check_header()
        raise InvalidFile(_("{name} holds no events").format(name=self.name))

    def _header_first(self, members: Iterator[str]) -> Iterator[str]:
        """The events come before the format and version (a hand-edited
        file): read past them to the rest of the header, check it, then read
        the file again from the start up to the events."""
        for _item in self.stream.items():
            pass
        for key in members:
            self._header_value(key)
        self.stream.end()
        self._check_header()
        self.prescanned = True
        self.f.seek(0)
        self.stream = JSONStream(self.f, self.name, self.stream.what)
        members = self.stream.members()
        for key in members:
            if key == "events":
                return members
            self.stream.value()
        raise InvalidFile(_("{name} changed while it was read").format(name=self.name))

    def _header_value(self, key: str) -> None:
        if key in self.header or key == "events":
            raise self.stream.error(_("{key} appears twice").format(key=repr(key)))
        self.header[key] = self.stream.value()

    def _check_header(self) -> None:
        h, name = self.header, self.name
        for key, kind, said in (("format", str, N_("text")), ("version", int, N_("a whole number")),
                                ("encounter", dict, N_("an object"))):
            if key not in h and key != "encounter":
                raise InvalidFile(_("{name} is not a combat-ledger export: it has no {key}")
                                  .format(name=name, key=repr(key)))
            if key in h and type(h[key]) is not kind:
                raise InvalidFile(_("{name} is not a combat-ledger export: its {key} is not "
                                    "{kind}").format(name=name, key=repr(key), kind=_(said)))
        if h["format"] != FORMAT:
            raise InvalidFile(_("{name} is not a combat-ledger export (format {format})").format(
                name=name, format=repr(h["format"])))
        if h["version"] != VERSION:
            raise InvalidFile(_("{name} is export version {version}; this combat-ledger reads "
                                "version {ours}").format(name=name, version=h["version"],
                                                         ours=VERSION))
        count = h.get("encounter", {}).get("events")
        self.total = count if type(count) is int else 0
        self.checked = True

    def _events(self) -> Iterator:
        if self.jsonl:
            yield from self.stream.values()
            return
        yield from self.stream.items()
        for key in self._members:
            if self.prescanned:
                self.stream.value()  # read, and checked, before the events
            else:
                self._header_value(key)
        self.stream.end()
        if not self.checked:  # events came first, from a pipe: the header is checked last
            self._check_header()

    def envelopes(self) -> Iterator[Envelope]:
        """The events in file order, each decoded and its numbers checked;
        then, where the header says where the log ends, that it ends there."""
        last = None
        for n, raw in enumerate(self._events(), 1):
            last = self._envelope(raw, n)
            yield last
        if last is not None:
            self._check_end(last)

    def _check_end(self, last: Envelope) -> None:
        """A json export names its last seq and hash (`encounter.events`,
        `head_hash`): a log cut short at a batch's end is still a valid
        chain, and only this tells (R30). jsonl has no header to tell."""
        said = self.header.get("encounter", {})
        seq, digest = said.get("events"), said.get("head_hash")
        if type(seq) is int and seq != last.seq:
            raise InvalidFile(_("{name} ends at seq {last}, but its header says the log ends "
                                "at seq {seq}: events are missing (R30)").format(
                name=self.name, last=last.seq, seq=seq))
        if type(digest) is str and digest != last.hash:
            raise InvalidFile(_("{name}: its last event (seq {last}) is not the one its header "
                                "names (head {head}…): the log was changed (R30)").format(
                name=self.name, last=last.seq, head=digest[:12]))

    def _envelope(self, raw, n: int) -> Envelope:
        if isinstance(raw, dict) and ("hash" not in raw or "prev_hash" not in raw):
            missing = "hash" if "hash" not in raw else "prev_hash"
            raise InvalidFile(_("{name}: event {n} has no {missing}: {why}").format(
                name=self.name, n=n, missing=missing, why=_(UNVERIFIABLE)))
        try:
            ev = msgspec.convert(raw, ExportedEvent)
        except msgspec.ValidationError as exc:
            raise self.stream.error(_("event {n} in the file: {problem}").format(
                n=n, problem=exc)) from None
        cls = EVENT_TYPES.get(ev.type)
        if cls is None:
            raise InvalidFile(_("event {seq}: unknown type {type}").format(
                seq=ev.seq, type=repr(ev.type)))
        try:
            payload = msgspec.convert(ev.data, cls)
            check_numbers(payload)
        except (msgspec.ValidationError, Refusal) as exc:
            raise InvalidFile(_("event {seq} ({type}): {problem}").format(
                seq=ev.seq, type=ev.type, problem=exc)) from None
        return Envelope(ev.seq, ev.batch, cls.__name__, ev.at, ev.actor, payload,
                        ev.prev_hash, ev.hash)  # (one type name kept, not one a row)


def read_export(raw: bytes, name: str) -> Export:
    """An export held in memory (tests, tools), opened for import."""
    refusal = too_large(name, MAX_IMPORT_BYTES, _(IMPORT_MOST))
    if len(raw) > MAX_IMPORT_BYTES:
        raise refusal
    return Export(Bounded(io.BytesIO(raw), name, MAX_IMPORT_BYTES, refusal), name)


def open_export(path) -> Export:
    """The export file at `path`, opened for import: refused before reading
    when it is larger than MAX_IMPORT_BYTES, and never read past that."""
    f = open_bounded(path, MAX_IMPORT_BYTES, _(IMPORT_MOST))
    try:
        return Export(f, str(path))
    except BaseException:
        f.close()
        raise


def _envelopes(doc: Export) -> list[Envelope]:
    """Every event of `doc`, decoded (for tools and tests: an import streams)."""
    return list(doc.envelopes())


# -- importing ----------------------------------------------------------------

def import_log(ledger: Ledger, doc: Export, as_id: str | None, track=None) -> State:
    """Verify, re-judge and store an export as a new encounter, all or
    nothing; `track(items, total, what)` may report progress."""
    track = track or _untracked
    events = doc.envelopes()
    first = next(events, None)
    if first is None:
        raise InvalidFile(_("{name} holds no events").format(name=doc.name))
    if not isinstance(first.data, EncounterCreated):
        raise InvalidFile(_("event {seq}: a log starts with {type}").format(
            seq=first.seq, type="EncounterCreated"))
    encounter = as_id or first.data.encounter
    check_slug(encounter, "encounter id")
    return store_log(ledger.store, encounter, first.data.title, chain([first], events),
                     track, doc.total)
