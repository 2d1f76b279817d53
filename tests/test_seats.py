"""The table's seats, on a real server over SQLite and PostgreSQL: a join
request claims nothing until the GM approves it, several phones may wait
for one PC and the approval of one ends the others ("given"), requests
expire and are bounded per address and in total, and approval is one
decision in the store that re-checks everything (the request still waiting,
the seat free, the encounter live and the same one); approve, deny and
revoke of one request are mutually exclusive (docs/server.md, "Joining")."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from urllib.parse import quote

import httpx
import pytest

from helpers import fresh_db
from serverkit import E, client, served, token
from test_players import with_three_pcs


@pytest.fixture(params=["sqlite", "postgres"])
def db(request, tmp_path):
    where = fresh_db(request.param, tmp_path)
    with_three_pcs(where)
    return where


def combat(db, tmp_path, *args: str) -> subprocess.CompletedProcess:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("COMBAT_")},
           "XDG_STATE_HOME": str(tmp_path / "state")}
    return subprocess.run([sys.executable, "-m", "cli", "--db", str(db), *args],
                          env=env, capture_output=True, text=True, timeout=60)


def from_address(running, last: int) -> httpx.Client:
    """A client without a token whose requests come from 127.0.0.`last` (a
    phone of its own on the table's network; each may ask 5 times a minute)."""
    transport = httpx.HTTPTransport(local_address=f"127.0.0.{last}")
    return httpx.Client(base_url=running.url, transport=transport, timeout=10)


def ask(http: httpx.Client, name: str, pc: str) -> str:
    answer = http.post("/api/join", json={"name": name, "pc": pc})
    assert answer.status_code == 200, answer.text
    return answer.json()["token"]


def answer(gm: httpx.Client, name: str, approve: bool) -> httpx.Response:
    return gm.post(f"/api/joins/{quote(name, safe='')}", json={"approve": approve})


def seat_of(running, pc: str) -> bool:
    seats = client(running, None).get("/api/join").json()["seats"]
    return next(s["claimed"] for s in seats if s["id"] == pc)


def test_a_waiting_request_claims_no_seat_and_others_may_wait_for_it(db):
    with served(db) as running:
        ask(from_address(running, 2), "Ben", "bo")
        assert not seat_of(running, "bo")  # (a stranger's request takes no seat)
        ask(from_address(running, 3), "Cat", "bo")  # another phone waits for Bo too
        gm = client(running, token(db, "gm", "gm"))
        assert [(j["name"], j["owns"]) for j in gm.get("/api/joins").json()] == [
            ("Ben", ["bo"]), ("Cat", ["bo"])]


def test_approving_one_request_gives_the_seat_and_ends_the_others_for_it(db):
    with served(db) as running:
        ben = ask(from_address(running, 2), "Ben", "bo")
        cat = ask(from_address(running, 3), "Cat", "bo")
        eve = ask(from_address(running, 4), "Eve", "cy")
        gm = client(running, token(db, "gm", "gm"))
        assert answer(gm, "Cat", True).status_code == 200
        assert seat_of(running, "bo")
        polled = client(running, ben).get("/api/me")
        assert polled.status_code == 401
        assert polled.json()["error"] == "Bo was given to Cat: pick another PC"
        late = answer(gm, "Ben", True)
        assert late.status_code == 409
        assert late.json()["error"] == "Bo was given to Cat: Ben's request has ended"
        assert client(running, ben).get("/api/me").status_code == 401  # never a second owner
        assert [j["name"] for j in gm.get("/api/joins").json()] == ["Eve"]
        assert client(running, cat).get("/api/me").json()["owns"] == ["bo"]
        assert client(running, eve).get("/api/me").status_code == 401  # (still waiting)


def test_a_request_expires_and_then_opens_nothing(db, tmp_path):
    from eventlog.stores import open_store
    from projections import joining
    with served(db) as running:
        ben = ask(from_address(running, 2), "Ben", "bo")
        store = open_store(db)
        try:  # (as if asked an hour ago: its minutes are over)
            old = next(j for j in store.joins() if j.name == "Ben")
            with store.deciding():
                store.drop_join("Ben")
                store.add_join(old._replace(expires_at="2020-01-01T00:00:00.000000Z"))
        finally:
            store.close()
        polled = client(running, ben).get("/api/me")
        assert polled.status_code == 401
        assert polled.json()["error"] == "Ben's request expired: ask again on the join page"
        gm = client(running, token(db, "gm", "gm"))
        assert gm.get("/api/joins").json() == []
        late = answer(gm, "Ben", True)
        assert late.status_code == 409 and "expired" in late.json()["error"]
        again = ask(from_address(running, 2), "Ben", "bo")  # the name is free once more
        assert answer(gm, "Ben", True).status_code == 200
        assert client(running, again).get("/api/me").json()["owns"] == ["bo"]
    assert joining.MINUTES == 10


def test_serve_takes_the_minutes_a_request_waits(tmp_path):
    db = tmp_path / "table.db"
    with_three_pcs(db)
    refused = combat(db, tmp_path, "serve", "--join-minutes", "0")
    assert refused.returncode == 1
    assert refused.stderr.startswith("error: --join-minutes")


def test_requests_are_bounded_per_address_and_a_few_addresses_cannot_fill_the_queue(db):
    from projections.joining import PER_ADDRESS, WAITING
    assert PER_ADDRESS * 3 < WAITING
    with served(db) as running:
        for last in (2, 3, 4):  # a stranger with three addresses
            stranger = from_address(running, last)
            for n in range(PER_ADDRESS):
                ask(stranger, f"x{last}-{n}", "bo")
            more = stranger.post("/api/join", json={"name": f"x{last}-more", "pc": "cy"})
            assert more.status_code == 429, more.text
            assert more.json()["error"] == (f"{PER_ADDRESS} requests from this device are "
                                            "waiting already: wait for the GM's answer")
        ben = ask(from_address(running, 9), "Ben", "bo")  # the player the GM expects
        gm = client(running, token(db, "gm", "gm"))
        assert answer(gm, "Ben", True).status_code == 200
        assert client(running, ben).get("/api/me").json()["owns"] == ["bo"]


def test_the_queue_is_bounded_in_total(tmp_path):
    from eventlog.stores import open_store
    from projections import joining
    from projections.ledger import Ledger
    db = tmp_path / "table.db"
    with_three_pcs(db)
    ledger = Ledger(open_store(db))
    try:
        state = ledger.state(E)
        for n in range(joining.WAITING):
            joining.request(ledger.store, state, f"p{n}", "bo", f"10.0.{n // 200}.{n % 200}")
        with pytest.raises(joining.TooMany, match="requests are waiting: the GM answers"):
            joining.request(ledger.store, state, "late", "bo", "10.9.9.9")
    finally:
        ledger.store.close()


def test_approval_rechecks_the_seat_and_the_encounter(db, tmp_path):
    with served(db) as running:
        ben = ask(from_address(running, 2), "Ben", "bo")
        ask(from_address(running, 3), "Cat", "cy")
        ask(from_address(running, 4), "Dee", "ash")
        gm = client(running, token(db, "gm", "gm"))
        made = combat(db, tmp_path, "token", "add", "bob", "--player", "--owns", "bo",
                      "--encounter", E)
        assert made.returncode == 0, made.stderr
        taken = answer(gm, "Ben", True)
        assert taken.status_code == 409
        assert taken.json()["error"] == "Bo is taken (bob's token): Ben's request has ended"
        assert client(running, ben).get("/api/me").status_code == 401
        assert combat(db, tmp_path, "archive", E).returncode == 0
        archived = answer(gm, "Cat", True)
        assert archived.status_code == 409
        assert archived.json()["error"] == (f"{E} is archived: `combat unarchive {E}` "
                                            "first, then approve Cat")


def test_a_request_of_an_encounter_deleted_and_made_again_is_no_seat_in_it(tmp_path):
    from eventlog.errors import LedgerError
    from eventlog.stores import open_store
    from projections import joining
    from projections.ledger import Ledger
    db = tmp_path / "table.db"
    with_three_pcs(db)
    ledger = Ledger(open_store(db))
    try:
        before = ledger.store.life(E)
        joining.request(ledger.store, ledger.state(E), "Ben", "bo", "10.0.0.2")
        stale = next(j for j in ledger.store.joins())
        ledger.store.delete(E)
        assert ledger.store.joins() == []  # (the delete takes it along)
        with_three_pcs(db)
        assert ledger.store.life(E) != before
        with ledger.store.deciding():  # (one that slipped in meanwhile)
            ledger.store.add_join(stale)
        with pytest.raises(LedgerError, match="Ben asked to play in another raid"):
            joining.approve(ledger.store, "Ben")
    finally:
        ledger.store.close()


RACES = 12


def revoked(db, name: str) -> httpx.Response:
    """`combat token revoke NAME` as the command line runs it (the core, on a
    store handle of its own), answered as the server would answer it."""
    from eventlog.errors import LedgerError
    from eventlog.stores import open_store
    from projections import joining
    store = open_store(db)
    try:
        joining.revoke(store, name)
        return httpx.Response(200, json={"name": name})
    except LedgerError as exc:
        return httpx.Response(409, json={"error": str(exc)})
    finally:
        store.close()


@pytest.mark.parametrize("rival", ["deny", "revoke", "approve-another"])
def test_approve_and_a_rival_answer_sent_at_once_one_wins(db, tmp_path, rival):
    """Many tries: exactly one of the two answers is 200, the other a 409
    saying what happened; a phone turned away never gets in."""
    from eventlog.stores import open_store
    with served(db) as running:
        gm_secret = token(db, "gm", "gm")
        for n in range(RACES):
            ben = ask(from_address(running, 20 + n), f"Ben{n}", "bo")
            cat = ask(from_address(running, 60 + n), f"Cat{n}", "bo") if rival == "approve-another" \
                else None
            barrier = threading.Barrier(2)
            answers: dict[str, httpx.Response] = {}

            def send(what: str) -> None:
                with client(running, gm_secret) as gm:
                    barrier.wait()
                    if what == "approve":
                        answers[what] = answer(gm, f"Ben{n}", True)
                    elif what == "deny":
                        answers[what] = answer(gm, f"Ben{n}", False)
                    elif what == "revoke":  # (`combat token revoke`, the CLI's core call)
                        answers[what] = revoked(db, f"Ben{n}")
                    else:
                        answers[what] = answer(gm, f"Cat{n}", True)
            threads = [threading.Thread(target=send, args=(w,)) for w in ("approve", rival)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            codes = {k: (v.status_code, v.text) for k, v in answers.items()}
            ben_in = client(running, ben).get("/api/me").status_code == 200
            cat_in = cat is not None and client(running, cat).get("/api/me").status_code == 200
            if rival == "revoke" and codes["approve"][0] == 200:
                # (decided one after the other: the approval first, then the
                # revoke ends the token it made; the phone is out either way)
                assert codes["revoke"][0] == 200 and not ben_in, codes
                continue
            assert sorted(c for c, _ in codes.values()) == [200, 409], codes
            loser = next(a for a in answers.values() if a.status_code == 409)
            assert loser.json()["error"]  # (one line saying what happened)
            assert ben_in == (answers["approve"].status_code == 200)
            assert ben_in + cat_in <= 1  # never two owners of Bo
            store = open_store(db)
            try:
                owners = [t.name for t in store.tokens() if t.role == "player" and "bo" in t.owns]
                assert len(owners) <= 1, owners
                for t in owners:
                    store.revoke_token(t)  # (Bo free for the next try)
            finally:
                store.close()


NAMES = ["a/b", "what?", "#1", "100%", "Ben Jr", "Zoë", "李"]


def test_any_join_name_is_approved_and_denied_by_its_address(db):
    with served(db) as running:
        gm = client(running, token(db, "gm", "gm"))
        for n, name in enumerate(NAMES):
            secret = ask(from_address(running, 10 + n), name, "bo" if n % 2 else "cy")
            done = answer(gm, name, approve=n % 2 == 0)
            assert done.status_code == 200, (name, done.text)
            assert done.json() == {"name": name, "approved": n % 2 == 0}
            if n % 2 == 0:
                assert client(running, secret).get("/api/me").json()["name"] == name
                revoked = gm.post(f"/api/players/{quote(name, safe='')}/revoke")
                assert revoked.json() == {"name": name, "revoked": True}, revoked.text
            assert client(running, secret).get("/api/me").status_code == 401


def test_join_names_are_one_name_in_any_case(db):
    with served(db) as running:
        ask(from_address(running, 2), "Rook", "bo")
        again = from_address(running, 3).post("/api/join", json={"name": "rook", "pc": "cy"})
        assert again.status_code == 409
        assert again.json()["error"] == "the name 'Rook' is taken: give another name"
        gm = client(running, token(db, "gm", "gm"))
        assert answer(gm, "ROOK", False).json() == {"name": "Rook", "approved": False}


@pytest.mark.parametrize("name", ["gm-console", "Gm-Console"])
def test_the_gms_names_are_no_join_names(db, name):
    """`serve --lan` makes its console token `gm-console` at every start: a
    phone waiting under it would be turned away then, so it cannot ask so."""
    with served(db) as running:
        asked = from_address(running, 2).post("/api/join", json={"name": name, "pc": "bo"})
        assert asked.status_code == 409, asked.text
        assert asked.json()["error"] == f"the name {name!r} is the GM's: give your own name"
        gm = client(running, token(db, "gm", "gm"))
        assert gm.get("/api/joins").json() == []


def test_the_gm_page_answers_any_name_it_shows_and_a_phone_hears_why(tmp_path):
    """In Chromium: the GM page approves `a/b` and denies `what? #1 100%`;
    a phone whose PC went to another hears so on the join page."""
    from browser import CHROMIUM, chromium
    if CHROMIUM is None:
        pytest.skip("no chromium installed (.ci/run installs it)")
    from playwright.sync_api import expect

    from test_gm_console import opened_gm
    from test_players import ask as ask_on_page
    from test_players import phone
    db = tmp_path / "table.db"
    with_three_pcs(db)
    secret = token(db, "gm", "gm")
    with served(db) as running, chromium() as browser:
        waiting = phone(browser, f"{running.url}/join")
        waiting.wait_for_selector("#seats input")
        ask_on_page(waiting, "Ben", "bo")
        ask(from_address(running, 2), "a/b", "bo")
        ask(from_address(running, 3), "what? #1 100%", "cy")
        gm = opened_gm(browser, f"{running.url}/?token={secret}")
        gm.locator('#joins [data-join="a/b"]').get_by_role("button", name="Approve a/b").click()
        expect(gm.locator("#joins")).not_to_contain_text("a/b")
        gm.locator('#joins [data-join="what? #1 100%"]').get_by_role("button", name="Deny").click()
        expect(gm.locator("#joins")).not_to_contain_text("what?")
        expect(gm.locator("#joined")).to_contain_text("a/b plays bo")
        expect(waiting.locator("#message")).to_have_text("Bo was given to a/b: pick another PC.")
        expect(waiting.locator('input[value="bo"]')).to_be_disabled()
        waiting.screenshot(path=str(tmp_path / "given-390.png"))


def test_the_command_line_lists_approves_and_revokes_requests(tmp_path):
    """`token list` shows a waiting request as role join (with when it
    expires), `token approve` lets one in and ends the others for that PC,
    `token revoke` denies a waiting one; each refuses one no longer waiting."""
    from eventlog.stores import open_store
    from helpers import cli_env, in_process
    from projections import joining
    from projections.ledger import Ledger
    db = tmp_path / "table.db"
    with_three_pcs(db)
    ledger = Ledger(open_store(db))
    try:
        for name, address in (("Ben", "10.0.0.2"), ("Cat", "10.0.0.3"), ("Dee", "10.0.0.4")):
            joining.request(ledger.store, ledger.state(E), name, "bo" if name != "Dee" else "cy",
                            address)
    finally:
        ledger.store.close()
    combat = in_process(cli_env(db))
    listed = combat("token", "list").stdout.splitlines()
    assert [line.split("\t")[:4] for line in listed] == [
        ["Ben", "join", "owns bo", f"encounter {E}"], ["Cat", "join", "owns bo", f"encounter {E}"],
        ["Dee", "join", "owns cy", f"encounter {E}"]]
    assert all(line.split("\t")[5].startswith("until ") for line in listed)
    assert combat("token", "approve", "ben").stdout == f"approved Ben: player, owns bo, encounter {E}\n"
    assert combat("token", "approve", "cat", code=1).stderr == (
        "error: Bo was given to Ben: Cat's request has ended\n")
    taken = combat("token", "add", "DEE", "--view", "--encounter", E, code=1)
    assert "reads as the token 'Dee'" in taken.stderr  # (a waiting request's name is taken)
    assert combat("token", "revoke", "DEE").stdout == "denied Dee's join request\n"
    assert combat("token", "approve", "dee", code=1).stderr == "error: Dee was turned away already\n"
    assert [line.split("\t")[:2] for line in combat("token", "list").stdout.splitlines()] == [
        ["Ben", "player"]]
