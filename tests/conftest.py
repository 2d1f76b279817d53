"""The fixtures of every test: a ledger on a fresh store of each kind, `combat`
in this process on a fresh store (alone, or with a small encounter in it),
and a state folder of the tests' own.
Helpers that are not fixtures live in helpers.py (import them from there)."""
from __future__ import annotations

import os
from collections import Counter

import pytest

from helpers import STORES, cli_env, in_process, make_store
from projections.ledger import Ledger

IN_CI = os.environ.get("CI", "").lower() in ("true", "1", "yes")

# The files that take longest, longest first (their tests' seconds summed,
# measured with --durations=0): under `--dist loadfile` a worker takes a
# whole file at a time, in the order collected (--no-loadscope-reorder), so
# these start at once and the quick files fill in around them; last, they
# would leave one worker busy long after the other ran out of files.
SLOW_FIRST = (
    "test_untrusted.py", "test_examples.py", "test_postgres.py", "test_wheel.py",
    "test_fuzz.py", "test_actor_names.py", "test_cli.py", "test_server_pages.py",
    "test_crash.py", "test_store_doctored.py", "test_concurrency.py", "test_copy_backup.py",
    "test_players.py", "test_tokens.py", "test_report_browser.py", "test_transfer.py",
)


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: a worker more than the cores. Much of the suite waits on
    other processes (`combat` runs, servers, Chromium, PostgreSQL), so two
    workers left the two cores of the reference machine a fifth idle:
    272.7 s at -n 2, 243-252 s at -n 3, 255 s at -n 4 (one run each)."""
    return (os.cpu_count() or 1) + 1


def pytest_collection_modifyitems(config, items):
    """A test marked `sqlite` looks into the SQLite file itself: its runs on
    the other stores are not collected (rather than skipped). The slowest
    files go first (SLOW_FIRST), then the others, most tests first; a file's
    tests keep their order."""
    kept, dropped = [], []
    for item in items:
        store = getattr(item, "callspec", None) and item.callspec.params.get("ledger")
        if store not in (None, "sqlite") and item.get_closest_marker("sqlite"):
            dropped.append(item)
        else:
            kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    count = Counter(item.path for item in kept)
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    kept.sort(key=lambda item: (rank.get(item.path.name, len(rank)), -count[item.path],
                                str(item.path)))
    items[:] = kept


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (CI=true) nothing skips: .ci/run installs Chromium, tmux and
    PostgreSQL, so a test that would skip for want of one fails, saying why."""
    report = yield
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where nothing may skip: {reason}"
    return report


@pytest.fixture(autouse=True, scope="session")
def own_state_dir(tmp_path_factory):
    """The tests remember their current encounters in a folder of their own
    (XDG_STATE_HOME), never in the user's; each store has its own id."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("user-state")))
        yield


@pytest.fixture(autouse=True, scope="session")
def english_whatever_the_locale():
    """The tests read English whatever the machine's locale: every `combat`
    they start inherits a C locale and no COMBAT_LANG. A test that wants
    German names it (`--lang de`, COMBAT_LANG=de or LANG=de_DE.UTF-8 in its
    command's environment, `speaking("de")` in this process)."""
    with pytest.MonkeyPatch.context() as mp:
        for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE", "COMBAT_LANG"):
            mp.delenv(var, raising=False)
        mp.setenv("LANG", "C.UTF-8")
        yield


@pytest.fixture(autouse=True)
def read_in_english():
    """Each test starts in English, whatever a test before it in this
    process chose (`combat --lang de` run in process speaks German after)."""
    from eventlog.language import speaking
    with speaking("en"):
        yield


@pytest.fixture(autouse=True, scope="session")
def console_width_per_command():
    """cli.render's console keeps the COLUMNS of the moment it was made as its
    width for good (rich); without it, it reads each command's COLUMNS, so no
    test lays out at the width of whichever test first ran `combat` on this
    worker (the order differs under xdist)."""
    from cli.console import console
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(console, "_width", None)
        yield


@pytest.fixture(params=STORES)
def ledger(request, tmp_path) -> Ledger:
    """A ledger on a fresh store: each test runs on every store (SQLite,
    memory and PostgreSQL when a server is available), except tests marked
    `sqlite` that look into the file itself (see above)."""
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
