"""The event log's contract (log.py) as a test suite any store can run, in
the style of the eventsourcing library's recorder test cases. A log of
your own passes it when a test module of yours says:

    import pytest
    from eventlog.stores.contract_log import LogContract

    class TestMyLog(LogContract):
        @pytest.fixture
        def store(self, tmp_path):
            made = MyLog(tmp_path / "ledger")
            yield made
            made.close()

        def another_handle(self, store):
            return MyLog(store.path)  # the same store, as another program reaches it

The table's records have a suite of their own (contract_records.py), and
a store that keeps both runs contract_suite.py's `StoreContract`.
combat-ledger's own stores run them in tests/test_store_contract.py. They
need pytest (a dev dependency); the program never imports these modules.
"""
from __future__ import annotations

import threading

import pytest

from eventlog.chain import verify_chain
from eventlog.codec import GENESIS, Envelope, decode_data, encode_data
from eventlog.errors import Conflict, Refusal, UnknownEncounter
from eventlog.events import Amended, EncounterCreated, NoteAdded, Redone, Undone
from eventlog.stores.contract_portraits import PortraitsContract
from eventlog.stores.memory import MemoryStore

E = "fight"


def _created(store, encounter=E):
    return store.create(encounter, EncounterCreated(encounter=encounter, title="Fight"), "gm")


def _notes(*texts):
    return [NoteAdded(text=t) for t in texts]


def _envelope(row) -> Envelope:
    seq, batch, type_name, at, actor, data, prev_hash, digest = row
    return Envelope(seq, batch, type_name, at, actor, decode_data(type_name, data),
                    prev_hash, digest)


class LogContract(PortraitsContract):
    """Every promise of the EventLog contract, one test each. A subclass
    gives the `store` fixture (a fresh, empty store, closed after the test)
    and, for a store other programs reach at once, `another_handle` (the
    same store through a connection of its own)."""

    def another_handle(self, store):
        """The same store as another program would reach it; a store only
        one process holds is its own handle."""
        return store

    def test_contract_a_batch_is_stored_whole_with_gap_free_seq(self, store):
        _created(store)
        envs = store.append(E, 1, _notes("a", "b", "c"), "gm")
        assert [e.seq for e in envs] == [2, 3, 4] and {e.batch for e in envs} == {2}
        rows = list(store.rows(E))
        assert [r.seq for r in rows] == [1, 2, 3, 4]
        assert [r.batch for r in rows] == [1, 2, 2, 2]
        assert rows[1].data == encode_data(NoteAdded(text="a"))
        assert store.head(E) == (4, rows[-1].hash)
        assert verify_chain(store.rows(E), store.head(E)).ok

    def test_contract_a_stale_expected_seq_is_a_conflict_and_stores_nothing(self, store):
        _created(store)
        store.append(E, 1, _notes("first"), "gm")
        with pytest.raises(Conflict):
            store.append(E, 1, _notes("late"), "gm")
        assert [r.seq for r in store.rows(E)] == [1, 2]

    def test_contract_the_first_event_chains_from_genesis(self, store):
        env = _created(store)
        assert env.prev_hash == GENESIS and store.head(E) == (1, env.hash)

    def test_contract_an_unknown_encounter_is_named(self, store):
        with pytest.raises(UnknownEncounter):
            store.head("nowhere")
        with pytest.raises(UnknownEncounter):
            store.append("nowhere", 0, _notes("x"), "gm")

    def test_contract_an_actor_that_is_no_name_is_refused_and_nothing_is_stored(self, store):
        """R29: who declares is a name of printable characters, checked by
        the store itself before anything is written."""
        with pytest.raises(Refusal, match="not a valid actor"):
            store.create(E, EncounterCreated(encounter=E, title="Fight"), "g\x1bm")
        assert store.encounters() == [] and store.life(E) is None
        _created(store)
        with pytest.raises(Refusal, match="not a valid actor"):
            store.append(E, 1, _notes("fine", "also fine"), " gm")
        assert [r.seq for r in store.rows(E)] == [1]

    def test_contract_an_encounter_is_created_once(self, store):
        _created(store)
        with pytest.raises(Refusal):
            _created(store)

    def test_contract_many_encounters_keep_their_own_logs(self, store):
        _created(store, "a")
        _created(store, "b")
        store.append("a", 1, _notes("in a"), "gm")
        assert [e.id for e in store.encounters()] == ["a", "b"]
        assert [e.events for e in store.encounters()] == [2, 1]
        assert [r.seq for r in store.rows("b")] == [1]

    def test_contract_reads_filter_by_position_and_type(self, store):
        _created(store)
        store.append(E, 1, _notes("a", "b"), "gm")
        store.append(E, 3, [Undone([2], "undo", "")], "gm")
        assert [r.seq for r in store.rows(E, after=1, upto=2)] == [2]
        assert [row[0] for row in store.fold_rows(E, skip=("NoteAdded",))] == [1, 4]
        assert [(row[0], row[1], row[2]) for row in store.fold_rows(E, after=2)] == [
            (3, 2, "NoteAdded"), (4, 4, "Undone")]
        assert list(store.fold_data(E, after=1, skip=("Undone",))) == [
            ("NoteAdded", encode_data(NoteAdded(text="a"))),
            ("NoteAdded", encode_data(NoteAdded(text="b")))]
        assert [row[:2] for row in store.fold_batched(E, after=1, upto=3)] == [
            (2, "NoteAdded"), (2, "NoteAdded")]
        assert [row[:2] for row in store.fold_batched(E, skip=("NoteAdded",))] == [
            (1, "EncounterCreated"), (4, "Undone")]
        assert store.types_at(E, [4, 2, 9]) == {2: "NoteAdded", 4: "Undone"}
        assert store.types_at(E, []) == {}
        assert [r.seq for r in store.markers(E)] == [4]
        assert store.markers(E, upto=3) == []
        assert store.fold_markers(E) == [(4, "Undone", encode_data(Undone([2], "undo", "")))]
        assert store.fold_markers(E, upto=3) == [] and store.fold_markers(E, after=4) == []
        assert store.batch_heads(E) == [(1, "EncounterCreated"), (2, "NoteAdded"), (4, "Undone")]
        assert store.batch_end(E, 2) == 3 and store.batch_end(E, 4) == 4

    def test_contract_markers_include_amendments(self, store):
        _created(store)
        store.append(E, 1, _notes("typo"), "gm")
        store.append(E, 2, [Amended(2, [NoteAdded(text="fixed")], "")], "gm")
        assert [r.type for r in store.markers(E)] == ["Amended"]

    def test_contract_markers_after_a_seq_are_only_the_later_ones(self, store):
        _created(store)
        store.append(E, 1, _notes("a"), "gm")
        store.append(E, 2, [Undone([2], "undo", "")], "gm")
        store.append(E, 3, [Redone(2)], "gm")
        store.append(E, 4, [Undone([2], "undo", "")], "gm")
        assert [r.seq for r in store.markers(E, after=3)] == [4, 5]
        assert [r.seq for r in store.markers(E, after=3, upto=4)] == [4]
        assert store.markers(E, after=5) == []

    def test_contract_a_snapshot_holds_until_its_event_changes(self, store):
        _created(store)
        store.append(E, 1, _notes("a"), "gm", ("v1", lambda seq, digest: f"{seq}:{digest}".encode()))
        snap = store.snapshot(E, "v1")
        assert snap.seq == 2 and snap.state == f"2:{snap.hash}".encode()
        assert store.snapshot(E, "v2") is None  # another fold version's is never used
        store.save_snapshot(E, 1, "v1", lambda seq, digest: b"older")
        assert store.snapshot(E, "v1").state == b"older"
        store.drop_snapshot(E)
        assert store.snapshot(E, "v1") is None

    def test_contract_a_reading_sees_one_snapshot(self, store):
        _created(store)
        with store.reading():
            before = store.head(E)
            other = threading.Thread(target=lambda: self.another_handle(store).append(
                E, 1, _notes("meanwhile"), "gm"))
            other.start()
            other.join()
            assert store.head(E) == before
            assert [r.seq for r in store.rows(E)] == [1]
        assert store.head(E)[0] == 2

    def test_contract_concurrent_writers_never_interleave_or_drop(self, store):
        _created(store)
        stored: list[int] = []

        def writer(n: int) -> None:
            mine = self.another_handle(store)
            for i in range(20):
                while True:
                    try:
                        seq = mine.head(E)[0]
                        stored.extend(e.seq for e in mine.append(E, seq, _notes(f"{n}.{i}", "+"), "gm"))
                        break
                    except Conflict:
                        continue
        threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        rows = list(store.rows(E))
        assert [r.seq for r in rows] == list(range(1, 162))
        assert sorted(stored) == list(range(2, 162))
        assert all(rows[i].batch == rows[i - 1].batch for i in range(2, 161, 2))
        assert verify_chain(store.rows(E), store.head(E)).ok

    def test_contract_an_import_is_all_or_nothing(self, store):
        source = MemoryStore()
        _created(source, "src")
        source.append("src", 1, _notes("a", "b"), "gm")
        envs = [_envelope(r) for r in source.rows("src")]

        def refuse(rows):
            list(rows)
            raise Refusal("judged illegal")
        with pytest.raises(Refusal):
            store.import_log("copy", "Copy", iter(envs), refuse)
        assert [e.id for e in store.encounters()] == []
        seen = store.import_log("copy", "Copy", iter(envs), lambda rows: [r[0] for r in rows])
        assert seen == [1, 2, 3]
        assert store.head("copy") == source.head("src")

    def test_contract_a_log_is_extended_verbatim_after_its_head_or_not_at_all(self, store):
        source = MemoryStore()
        _created(source, E)
        store.import_log(E, "Fight", iter([_envelope(r) for r in source.rows(E)]), list)
        head = tuple(store.head(E))
        source.append(E, 1, _notes("a", "b"), "gm")
        more = [_envelope(r) for r in source.rows(E, after=1)]

        def broken():
            yield more[0]
            raise Refusal("the chain broke midway")
        with pytest.raises(Conflict):
            store.extend_log(E, (head[0], "0" * 64), iter(more))
        with pytest.raises(Refusal):
            store.extend_log(E, head, broken())
        assert [r.seq for r in store.rows(E)] == [1]
        store.extend_log(E, head, iter(more))
        assert tuple(store.head(E)) == tuple(source.head(E))
        assert verify_chain(store.rows(E), store.head(E)).ok

    def test_contract_wait_changes_wakes_on_another_writer(self, store):
        import time
        _created(store)
        store.wait_changes(0)  # (what this handle has seen so far)
        start = time.monotonic()
        store.wait_changes(0.05)
        assert time.monotonic() - start >= 0.04  # nothing changed: the timeout
        woke = []

        def waiter():
            begun = time.monotonic()
            store.wait_changes(10)
            woke.append(time.monotonic() - begun)
        thread = threading.Thread(target=waiter)
        thread.start()
        time.sleep(0.1)
        self.another_handle(store).append(E, 1, _notes("from another program"), "gm")
        thread.join(10)
        assert woke and woke[0] < 5

    def test_contract_wait_changes_returns_at_once_for_a_change_made_meanwhile(self, store):
        import time
        _created(store)
        store.wait_changes(0)
        self.another_handle(store).append(E, 1, _notes("while nobody waited"), "gm")
        start = time.monotonic()
        store.wait_changes(10)
        assert time.monotonic() - start < 5

    def test_contract_an_archived_encounter_keeps_its_log_and_comes_back(self, store):
        _created(store, "a")
        _created(store, "b")
        assert store.archived() == set()
        store.set_archived("a", True)
        store.set_archived("a", True)  # twice is once
        assert store.archived() == {"a"}
        assert store.is_archived("a") and not store.is_archived("b")
        assert not store.is_archived("nowhere")
        assert [e.id for e in store.encounters()] == ["a", "b"]  # the store still holds it
        assert [r.seq for r in store.rows("a")] == [1]
        store.set_archived("a", False)
        assert store.archived() == set() and not store.is_archived("a")
        with pytest.raises(UnknownEncounter):
            store.set_archived("nowhere", True)

    def test_contract_a_retitled_encounter_lists_its_new_title(self, store):
        _created(store)
        store.retitle(E, "Fight, part 2")
        assert [e.title for e in store.encounters()] == ["Fight, part 2"]

    def test_contract_a_deleted_encounter_is_gone_whole_and_the_rest_stays(self, store):
        _created(store, "a")
        _created(store, "b")
        store.append("a", 1, _notes("in a"), "gm")
        store.set_archived("a", True)
        store.delete("a")
        assert [e.id for e in store.encounters()] == ["b"] and store.archived() == set()
        assert not store.is_archived("a")
        with pytest.raises(UnknownEncounter):
            store.head("a")
        assert [r.seq for r in store.rows("b")] == [1]
        _created(store, "a")  # the id is free again, its log starts anew
        assert [r.seq for r in store.rows("a")] == [1]
        with pytest.raises(UnknownEncounter):
            store.delete("nowhere")

    def test_contract_each_creation_of_an_id_is_another_life(self, store):
        assert store.life("a") is None
        _created(store, "a")
        first = store.life("a")
        assert first == store.head("a")[1]  # (the hash of its first event)
        store.delete("a")
        assert store.life("a") is None
        _created(store, "a")
        assert store.life("a") not in (None, first)
