"""The table's records contract (tablerecords.py) as a test suite any store
of records can run: tokens, join requests, the table's choice, webhooks and
their marks. It reads and writes no log, so a back end for the records
alone passes it as well as a whole store:

    import pytest
    from eventlog.stores.contract_records import RecordsContract

    class TestMyRecords(RecordsContract):
        @pytest.fixture
        def store(self, tmp_path):
            made = MyRecords(tmp_path / "records")
            yield made
            made.close()

        def another_handle(self, store):
            return MyRecords(store.path)  # the same records, as another program reaches them

The event log's suite is contract_log.py; a whole store runs
contract_suite.py's `StoreContract`. It needs pytest (a dev dependency);
the program never imports this module.
"""
from __future__ import annotations

import pytest

from eventlog.errors import Refusal
from eventlog.stores.contract_seats import SeatsContract
from eventlog.stores.records import Hook, Token

E = "fight"  # (an encounter a record names: no log needs to hold it)


def _token(name="ash", role="player", owns=("ash",), encounter=None, digest=None):
    return Token(name, role, owns, encounter, digest or name.encode().hex().ljust(64, "0"),
                 "2026-12-03T12:00:00.000000Z")


class RecordsContract(SeatsContract):
    """Every promise of the TableRecords contract, one test each. A subclass
    gives the `store` fixture (fresh and empty, closed after the test) and,
    for records other programs reach at once, `another_handle`."""

    def another_handle(self, store):
        """The same records as another program would reach them; records
        only one process holds are their own handle."""
        return store

    def test_contract_tokens_are_kept_by_name_and_found_by_digest(self, store):
        gm, ash = _token("gm", "gm", ()), _token("ash", owns=("ash", "bo"), encounter="fight")
        store.add_token(gm)
        store.add_token(ash)
        assert store.tokens() == [ash, gm]
        assert store.token(ash.digest) == ash and store.token(ash.digest).owns == ("ash", "bo")
        assert store.token("0" * 64) is None

    def test_contract_a_taken_token_name_is_refused(self, store):
        store.add_token(_token("ash"))
        with pytest.raises(Refusal, match="named 'ash' exists already"):
            store.add_token(_token("ash", digest="f" * 64))
        assert [t.digest for t in store.tokens()] == [_token("ash").digest]

    def test_contract_a_revoked_token_is_gone_at_once(self, store):
        ash = _token("ash")
        store.add_token(ash)
        other = self.another_handle(store)
        assert other.revoke_token("ash") is True
        assert store.token(ash.digest) is None and store.tokens() == []
        assert store.revoke_token("ash") is False

    def test_contract_a_tokens_language_is_kept_changed_and_gone_with_it(self, store):
        ash, bo = _token("ash")._replace(language="de"), _token("bo")
        store.add_token(ash)
        store.add_token(bo)
        other = self.another_handle(store)
        assert other.token(ash.digest).language == "de" and other.token(bo.digest).language is None
        assert store.set_token_language("bo", "de") is True
        assert store.set_token_language("ash", None) is True
        assert [(t.name, t.language) for t in other.tokens()] == [("ash", None), ("bo", "de")]
        assert store.set_token_language("nobody", "de") is False
        assert store.revoke_token("bo") is True
        store.add_token(_token("bo", digest="e" * 64))  # (a new token of the name: its own choice)
        assert other.token("e" * 64).language is None

    def test_contract_hooks_are_kept_listed_and_removed_with_their_marks(self, store):
        hook = Hook("a1b2c3d4", "http://127.0.0.1:9/in", False, "s3cret", "2026-01-01T00:00:00Z")
        assert store.hooks() == []
        store.add_hook(hook)
        with pytest.raises(Refusal):
            store.add_hook(hook)
        assert store.hooks() == [hook]
        assert store.hook_marks(hook.id) == {}
        store.mark_hook(hook.id, E, 5)
        store.mark_hook(hook.id, E, 3)  # (a mark only moves forward)
        assert store.hook_marks(hook.id) == {E: 5}
        assert store.claim_hooks()
        assert store.remove_hook(hook.id) and not store.remove_hook(hook.id)
        assert store.hooks() == [] and store.hook_marks(hook.id) == {}

    def test_contract_a_hook_to_a_url_kept_already_is_refused_whatever_its_id(self, store):
        hook = Hook("a1b2c3d4", "http://127.0.0.1:9/in", False, "s", "2026-01-01T00:00:00Z")
        store.add_hook(hook)
        with pytest.raises(Refusal, match="a hook to that URL is there already"):
            store.add_hook(hook._replace(id="ffff0000"))
        assert store.hooks() == [hook]

    def test_contract_a_hook_keeps_whether_it_may_send_to_a_private_address(self, store):
        lan = Hook("e5f6a7b8", "http://192.168.1.20:8080/in", True, "s", "2026-01-01T00:00:00Z",
                   True)
        public = Hook("a1b2c3d4", "https://example.org/in", False, "s", "2026-01-01T00:00:00Z")
        store.add_hook(lan)
        store.add_hook(public)
        assert store.hooks() == [public, lan]
        assert [h.allow_private for h in store.hooks()] == [False, True]
        assert store.remove_hook(lan.id)
        store.add_hook(lan._replace(allow_private=False))  # (nothing of the old one is left)
        assert [h.allow_private for h in store.hooks()] == [False, False]
