"""How a player's or a view's reads number the log (docs/server.md, "What
the players see"): by its place among the events they may read. The
events of a hidden combatant leave no gap in `seq`, and `batch`, the
batches a correction names and `status.seq` are counted the same way, so
what a player reads of a fight is what it would read had the hidden never
been there. Hashes chain every event, the hidden ones too: a player's read
carries none (`prev_hash` and `hash` are null), as a gap in the chain would
tell what it skips. When a reveal shows a combatant's past, the numbering
grows to hold it; the stream's resume (cli/server) copes with that."""
from __future__ import annotations

import threading
from collections.abc import Iterable

from eventlog.codec import envelope_dict
from projections.history import envelope
from projections.visible import Sieve

CACHED = 4  # lenses kept per encounter (the live head, a stream catching up, ...)


class Lens:
    """Walks a log in order: which events a player reads, renumbered."""

    def __init__(self, sieve: Sieve, marks: bool = False):
        self.sieve = sieve
        self.count = 0  # the players' seq of the last event read
        self.upto = 0  # the last seq read (the store's numbering)
        self.seqs: dict[int, int] = {}  # store seq -> players' seq (with `marks`)
        self.batches: dict[int, int] = {}  # store batch -> players' batch
        self.marks = marks
        # (nothing kept from the players: the numbering is the store's, and
        # a walk of a long log holds nothing per event)
        self.same = not sieve.hidden and not sieve.unseen

    def read(self, said: dict) -> dict | None:
        """`said` (an event as `log --json` words it) as a player reads it,
        or None when a player reads nothing of it."""
        self.upto = said["seq"]
        if self.same:
            self.count = said["seq"]
            if self.marks:
                self.seqs[said["seq"]] = said["seq"]
            return {**said, "prev_hash": None, "hash": None}
        if not self.sieve.keeps(said["type"], said["batch"], said["data"]):
            return None
        self.count += 1
        if self.marks:
            self.seqs[said["seq"]] = self.count
        batch = self.batches.setdefault(said["batch"], self.count)
        return {**said, "seq": self.count, "batch": batch,
                "data": self.renumbered(self.sieve.worded(said["data"])),
                "prev_hash": None, "hash": None}

    def renumbered(self, data: dict) -> dict:
        """A correction's cited batches in the players' numbering (those
        they never saw left out: a marker they read cites one they saw)."""
        if isinstance(data.get("batch"), int) and data["batch"] in self.batches:
            data = {**data, "batch": self.batches[data["batch"]]}
        if isinstance(data.get("batches"), list):
            data = {**data, "batches": [self.batches[b] for b in data["batches"]
                                        if b in self.batches]}
        return data


def read_log(lens: Lens, rows: Iterable, undone=frozenset(), imported: int = 0) -> list[dict]:
    """The stored `rows`, in order, as a player reads them (those up to seq
    `imported` came from a file)."""
    from eventlog.events import MARKERS
    out = []
    for row in rows:
        env = envelope(row)
        shown = lens.read(envelope_dict(env, env.batch in undone and env.type not in MARKERS,
                                        env.seq <= imported))
        if shown is not None:
            out.append(shown)
    return out


class Lenses:
    """Lenses kept per encounter, each at the place it has read to, so the
    players' seq of a status is a count carried forward, not a walk of the
    whole log at each read. Keyed by what the players may not read: a
    reveal or a hide starts a new walk."""

    def __init__(self):
        self.kept: dict[tuple, list[tuple[tuple, Lens, str]]] = {}
        self.guard = threading.Lock()

    def at(self, ledger, encounter: str, seq: int, sieve: Sieve, collect: int | None = None):
        """(the players' seq at store seq `seq` read through `sieve`, the
        events after store seq `collect` as players read them, when asked)."""
        if not sieve.hidden and not sieve.unseen:  # (the store's numbering: no walk)
            return seq, ([] if collect is None else
                         read_log(Lens(sieve), ledger.store.rows(encounter, collect, seq),
                                  imported=ledger.store.imported(encounter)))
        key = (sieve.hidden, sieve.unseen)
        where = (id(ledger.store), encounter)
        start = seq if collect is None else collect
        with self.guard:
            kept = self.kept.setdefault(where, [])
            found = [k for k in kept if k[0] == key and k[1].upto <= start]
            entry = max(found, key=lambda k: k[1].upto) if found else (key, Lens(sieve.fresh()), "")
            if found:
                kept.remove(entry)
            walked = _walk(ledger, encounter, seq, entry, collect)
            if walked is None:  # (another log under the same id: from its start)
                kept.clear()
                entry = (key, Lens(sieve.fresh()), "")
                walked = _walk(ledger, encounter, seq, entry, collect)
                assert walked is not None  # (a walk from the start checks nothing)
            last, shown = walked
            kept.append((key, entry[1], last))
            del kept[:-CACHED]
            return entry[1].count, shown


def _walk(ledger, encounter: str, upto: int, entry: tuple, collect: int | None):
    """Read on from where the lens stands to `upto`: (the last hash read,
    the events after `collect` as players read them); None if the log
    there is not the one the lens read."""
    _, lens, last = entry
    shown: list[dict] = []
    imported = 0 if collect is None else ledger.store.imported(encounter)
    rows = ledger.store.rows(encounter, after=lens.upto, upto=upto)
    try:
        for row in rows:
            if lens.upto and row.prev_hash != last:
                return None
            said = read_log(lens, [row], imported=imported)
            last = row.hash
            if collect is not None and row.seq > collect:
                shown += said
    finally:
        close = getattr(rows, "close", None)
        if close is not None:
            close()
    return last, shown


LENSES = Lenses()


def players_seq(ledger, encounter: str, state) -> int:
    """`state.seq` as a player's or a view's reads number the log."""
    return LENSES.at(ledger, encounter, state.seq, Sieve.of(state))[0]


def players_events(ledger, encounter: str, seq: int, sieve: Sieve,
                   after: int) -> tuple[int, list[dict]]:
    """(the players' seq at store seq `seq`, the events after store seq
    `after` up to it as a player reads them through `sieve`, the one of the
    state at `seq`): a declaration's answer, a hook's batch."""
    return LENSES.at(ledger, encounter, seq, sieve, after)


def resume_point(ledger, encounter: str, state, seen: int) -> int | None:
    """The store seq a stream resumes after, for a player who last read
    players' seq `seen`: where that numbering reaches `seen`, if nothing
    was hidden or revealed since (a reveal renumbers the past); None when
    that cannot be told (the stream then sends the current status)."""
    sieve = Sieve.of(state)
    if not sieve.hidden and not sieve.unseen:  # (the store's numbering now)
        if seen > state.seq:
            return None
        return None if seen and _renumbered(ledger.state(encounter, at=seen), sieve) else seen
    lens = Lens(sieve.fresh())
    point = 0 if seen == 0 else None
    rows = ledger.store.rows(encounter, upto=state.seq)
    try:
        for row in rows:
            if read_log(lens, [row]) and lens.count > seen:
                break
            if lens.count == seen:
                point = row.seq
    finally:
        close = getattr(rows, "close", None)
        if close is not None:
            close()
    if point is None:
        return None
    if point and _renumbered(ledger.state(encounter, at=point), sieve):
        return None
    return None if _hidden_since(ledger, encounter, point, state.seq) else point


def _hidden_since(ledger, encounter: str, after: int, upto: int) -> bool:
    """Whether a combatant that joined seen after seq `after` was hidden
    since (`add`, then `hide`): the statuses in between show it, so a
    catch-up through them would show what the players' numbering now
    leaves out. (One that joins hidden, in the same batch, never shows.)"""
    import msgspec
    joined: dict[str, int] = {}  # combatant -> the batch it joined in
    rows = ledger.store.fold_rows(encounter, after=after, upto=upto)
    try:
        for _seq, batch, type_name, data in rows:
            if type_name == "CombatantJoined":
                joined[msgspec.json.decode(data)["id"]] = batch
            elif type_name == "CombatantHidden":
                who = msgspec.json.decode(data)["combatant"]
                if who in joined and joined[who] != batch:
                    return True
    finally:
        close = getattr(rows, "close", None)
        if close is not None:
            close()
    return False


def _renumbered(then, now: Sieve) -> bool:
    """Whether the players' numbering of the log up to `then` differs
    under `now`: something secret then was revealed since, or something
    they saw then is secret now (a combatant added hidden since is not)."""
    was = Sieve.of(then)
    existed = set(then.combatants) | set(then.groups)
    return bool(was.hidden - now.hidden or was.unseen - now.unseen
                or (now.hidden - was.hidden) & existed
                or any(track in then.tracks.get(cid, {}) for cid, track in now.unseen - was.unseen))


def entries_for_players(entries: Iterable, lens: Lens) -> list:
    """Timeline entries (projections/reports/timeline.py) a player may
    read, numbered as the players' log is (`combat log`'s lines)."""
    import dataclasses

    import msgspec
    kept = []
    for entry in entries:
        shown = lens.read(envelope_dict(entry.env, False))
        if shown is not None:
            kept.append((entry, shown))
    out = []
    for entry, shown in kept:  # (a mark names a later event: numbered once all are read)
        data = entry.env.data
        changed = {k: shown["data"][k] for k in ("by", "batch", "batches")
                   if hasattr(data, k) and shown["data"].get(k) != getattr(data, k)}
        if changed:
            data = msgspec.structs.replace(data, **changed)
        env = msgspec.structs.replace(entry.env, seq=shown["seq"], batch=shown["batch"],
                                      data=data, prev_hash="", hash="")
        mark = entry.undone_by
        if mark is not None:
            mark = (lens.seqs[mark[0]], *mark[1:]) if mark[0] in lens.seqs else None
        amended = lens.seqs.get(entry.amended_by) if entry.amended_by is not None else None
        out.append(dataclasses.replace(entry, env=env, undone_by=mark, amended_by=amended))
    return out
