"""The fixtures of every test: a ledger on a fresh store of each kind, `combat`
in this process on a fresh store (alone, or with a small encounter in it),
and a state folder of the tests' own.
Helpers that are not fixtures live in helpers.py (import them from there)."""
from __future__ import annotations

import pytest

from helpers import STORES, cli_env, in_process, make_store
from projections.ledger import Ledger


@pytest.fixture(autouse=True, scope="session")
def own_state_dir(tmp_path_factory):
    """The tests remember their current encounters in a folder of their own
    (XDG_STATE_HOME), never in the user's; each store has its own id."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("user-state")))
        yield


@pytest.fixture(params=STORES)
def ledger(request, tmp_path) -> Ledger:
    """A ledger on a fresh store: each test runs on every store (SQLite,
    memory and PostgreSQL when a server is available), except tests marked
    `sqlite` that look into the file itself."""
    if request.param != "sqlite" and request.node.get_closest_marker("sqlite"):
        pytest.skip("looks into the SQLite file itself")
    store = make_store(request.param, tmp_path)
    yield Ledger(store)
    store.close()


@pytest.fixture
def combat(tmp_path):
    """`combat` in this process on a fresh store, plain text 120 wide."""
    return in_process(cli_env(tmp_path / "ledger.db"))


@pytest.fixture
def alley(combat):
    """`combat` on encounter alley, round 1 under way: Rook (pc, +3) rolled 7."""
    combat("new", "alley")
    combat("add", "Rook", "--pc", "--bonus", "3")
    combat("roll", "rook", "--die", "7")
    combat("round")
    return combat


@pytest.fixture
def noted(combat):
    """`combat` on encounter alley before any roll: Rook (pc) and two notes (seq 1-4)."""
    combat("new", "alley")
    combat("add", "Rook", "--pc")
    combat("note", "one")
    combat("note", "two")
    return combat
