"""The portraits' part of the event log's contract (contract_log.py): bytes
kept under their SHA-256, found by it, listed, kept once, and copied with
the store. A mixin of LogContract."""
from __future__ import annotations

from hashlib import sha256

from eventlog.stores.copying import copy_store
from eventlog.stores.memory import MemoryStore

PNG = b"\x89PNG\r\n\x1a\n" + b"not checked by the store: projections/portraits.py checks"
JPEG = b"\xff\xd8\xff\xe0" + b"another image"


class PortraitsContract:
    def test_contract_a_portrait_is_kept_and_found_by_its_sha256(self, store):
        digest = store.add_portrait("image/png", PNG)
        assert digest == sha256(PNG).hexdigest()
        kept = store.portrait(digest)
        assert kept is not None and (kept.digest, kept.media, kept.data) == (
            digest, "image/png", PNG)
        assert type(kept.data) is bytes

    def test_contract_an_unknown_portrait_is_none(self, store):
        assert store.portrait("0" * 64) is None
        assert store.portrait("not a digest") is None
        assert store.portraits() == []

    def test_contract_the_same_bytes_are_kept_once(self, store):
        first = store.add_portrait("image/png", PNG)
        again = store.add_portrait("image/png", PNG)
        other = store.add_portrait("image/jpeg", JPEG)
        assert first == again != other
        assert store.portraits() == sorted([first, other])

    def test_contract_a_portrait_is_seen_by_another_handle(self, store):
        digest = store.add_portrait("image/jpeg", JPEG)
        other = self.another_handle(store)
        try:
            assert other.portrait(digest).data == JPEG
        finally:
            if other is not store:
                other.close()

    def test_contract_a_copy_carries_the_portraits(self, store):
        digest = store.add_portrait("image/png", PNG)
        target = MemoryStore("copy")
        list(copy_store(store, target, "the copy"))
        assert target.portrait(digest) == store.portrait(digest)
        list(copy_store(store, target, "the copy"))  # (again: nothing twice)
        assert target.portraits() == [digest]
