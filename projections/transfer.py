"""Export of an encounter's log, and import that verifies and re-judges it."""
from __future__ import annotations

import os
from itertools import groupby

import msgspec

from eventlog.chain import verify_chain
from eventlog.codec import Envelope, envelope_dict
from eventlog.errors import InvalidFile, Refusal
from eventlog.events import (
    CORRECTIONS, EVENT_TYPES, MARKERS, Amended, EncounterCreated, Redone, Undone,
)
from eventlog.undo import Corrections, UndoBook

from .ledger import Ledger
from .rules import check_slug, judge
from .state import State

FORMAT, VERSION = "combat-ledger", 1
MAX_IMPORT_BYTES = 256 * 1024 * 1024


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


class ExportFile(msgspec.Struct):
    format: str
    version: int
    events: list[ExportedEvent]
    encounter: dict = {}


def export_json(ledger: Ledger, encounter: str, track=None) -> dict:
    """The json export; `track(items, total, what)` may report progress."""
    track = track or _untracked
    title = ""
    for eid, etitle, created, _ in ledger.store.encounters():
        if eid == encounter:
            title = etitle
    head, digest = ledger.store.head(encounter)
    return {"format": FORMAT, "version": VERSION,
            "encounter": {"id": encounter, "title": title, "events": head,
                          "head_hash": digest},
            "events": [envelope_dict(env, undone) for env, undone
                       in track(ledger.events(encounter), head, "exporting")]}


def _untracked(items, total: int, what: str):
    return items


def _too_large(name: str) -> InvalidFile:
    limit = MAX_IMPORT_BYTES
    shown = f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit} bytes"
    return InvalidFile(f"{name} is larger than {shown}, the most an import reads")


def read_file(path) -> bytes:
    """The bytes of an export file, refused before reading when it is over
    MAX_IMPORT_BYTES (and never more than that read from a pipe or device)."""
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size > MAX_IMPORT_BYTES:
            raise _too_large(str(path))
        raw = f.read(MAX_IMPORT_BYTES + 1)
    if len(raw) > MAX_IMPORT_BYTES:
        raise _too_large(str(path))
    return raw


def read_export(raw: bytes, name: str) -> ExportFile:
    if len(raw) > MAX_IMPORT_BYTES:
        raise _too_large(name)
    try:
        doc = msgspec.json.decode(raw, type=ExportFile)
    except msgspec.DecodeError as exc:
        raise InvalidFile(f"{name} is not a combat-ledger json export: {exc}") from None
    if doc.format != FORMAT:
        raise InvalidFile(f"{name} is not a combat-ledger export (format {doc.format!r})")
    if doc.version != VERSION:
        raise InvalidFile(f"{name} is export version {doc.version}; this "
                          f"combat-ledger reads version {VERSION}")
    if not doc.events:
        raise InvalidFile(f"{name} holds no events")
    return doc


def _envelopes(doc: ExportFile) -> list[Envelope]:
    out = []
    for ev in doc.events:
        cls = EVENT_TYPES.get(ev.type)
        if cls is None:
            raise InvalidFile(f"event {ev.seq}: unknown type {ev.type!r}")
        try:
            payload = msgspec.convert(ev.data, cls)
        except msgspec.ValidationError as exc:
            raise InvalidFile(f"event {ev.seq} ({ev.type}): {exc}") from None
        out.append(Envelope(ev.seq, ev.batch, ev.type, ev.at, ev.actor, payload,
                            ev.prev_hash, ev.hash))
    return out


def rejudge(envs: list[Envelope], encounter: str, track=None) -> State:
    """Check batches and markers, then fold the effective history through the
    judge, so a log can never hold an illegal move."""
    if envs[0].type != "EncounterCreated" or envs[0].batch != 1:
        raise InvalidFile("event 1: a log starts with EncounterCreated")
    book, heads, last = UndoBook(), [], None
    for env in envs:
        alone = env.type in CORRECTIONS
        if env.batch != env.seq and (last is None or env.batch != last.batch or alone):
            raise InvalidFile(f"event {env.seq}: batch {env.batch} is not the "
                              "batch of the event before it")
        if env.seq > 1 and env.type == "EncounterCreated":
            raise InvalidFile(f"event {env.seq}: a second EncounterCreated")
        if env.batch == env.seq:
            _check_correction(env, book, heads)
            book.record(env.batch, env.type, env.data if alone else None)
            heads.insert(0, (env.batch, env.type))
        last = env
    corrections = Corrections((e.batch, e.data) for e in envs if e.type in CORRECTIONS)
    state = State(encounter)
    for batch, group in groupby((track or _untracked)(envs, len(envs), "judging"),
                                key=lambda e: e.batch):
        batch_envs = list(group)
        state.seq = batch_envs[-1].seq
        if batch in corrections.undone or batch_envs[0].type in CORRECTIONS:
            continue
        for payload in corrections.replaced.get(batch) or [e.data for e in batch_envs]:
            try:
                judge(state, payload)
            except Refusal as exc:
                raise InvalidFile(f"event {batch} ({type(payload).__name__}) is "
                                  f"illegal: {exc}") from None
            state.evolve(payload)
    return state


def _check_correction(env: Envelope, book: UndoBook, heads: list) -> None:
    p = env.data
    if env.type not in CORRECTIONS:
        return  # (and the set below is built only for the rare corrections)
    effective = {b for b, t in heads if t not in MARKERS and t != "EncounterCreated"
                 and b not in book.undone}
    if isinstance(p, Undone):
        if p.kind == "undo" and p.batches != [book.undo_target(heads)]:
            raise InvalidFile(f"event {env.seq}: Undone does not name the latest "
                              "effective declaration (R26)")
        if not p.batches or not set(p.batches) <= effective:
            raise InvalidFile(f"event {env.seq}: Undone names a batch that is not "
                              "an effective declaration (R26, R28)")
    elif isinstance(p, Redone) and p.batch != book.redo_target():
        raise InvalidFile(f"event {env.seq}: Redone does not name the most recently "
                          "undone declaration (R27)")
    elif isinstance(p, Amended):
        kinds = dict(heads)
        if p.batch not in effective or kinds.get(p.batch) == "Amended" or not p.events \
                or any(type(e).__name__ in CORRECTIONS + ("EncounterCreated",) for e in p.events):
            raise InvalidFile(f"event {env.seq}: Amended does not correct an "
                              "effective declaration (R28)")


def import_log(ledger: Ledger, doc: ExportFile, as_id: str | None, track=None) -> State:
    """Verify, re-judge and store an export; `track(items, total, what)` may
    report progress."""
    track = track or _untracked
    envs = _envelopes(doc)
    verdict = verify_chain(track([(e.seq, e.batch, e.type, e.at, e.actor, e.data,
                                   e.prev_hash, e.hash) for e in envs], len(envs), "verifying"))
    if not verdict.ok:
        raise InvalidFile(f"the hash chain is broken at seq {verdict.first_bad_seq}: "
                          f"{verdict.problem} (R30)")
    first = envs[0].data
    encounter = as_id or (first.encounter if isinstance(first, EncounterCreated) else "")
    check_slug(encounter, "encounter id")
    state = rejudge(envs, encounter, track)
    ledger.store.import_log(encounter, state.title, envs)
    return state
