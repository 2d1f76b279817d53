"""`combat token add|list|revoke` and `combat serve` from the shell; the
SQLite store's tokens table reached by a forward migration; the server's
libraries loaded by `serve` alone."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.sqlite
GOLDEN = Path(__file__).parent / "golden"


def made(db: Path) -> Path:
    """An empty store at `db` (the command line makes one only with `new`,
    `import` or `demo`)."""
    from eventlog.stores import open_store
    open_store(db).close()
    return db


def run(db, *args):
    done = subprocess.run([sys.executable, "-m", "cli", "--db", str(db), *args],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "XDG_STATE_HOME": str(Path(db).parent / "state")})
    return done.returncode, done.stdout, done.stderr


def test_token_add_prints_the_token_once_and_keeps_only_its_sha256(tmp_path):
    db = tmp_path / "t.db"
    for args in (["new", "alley"], ["add", "Rook", "--pc"], ["add", "Vex", "--pc"]):
        assert run(db, *args)[0] == 0
    code, out, err = run(db, "token", "add", "ana", "--player", "--owns", "rook,vex")
    assert (code, err) == (0, "")
    secret = re.search(r"shown once: (\S+)", out).group(1)
    assert len(secret) >= 43  # 256 bits, url-safe base64
    # (bound to the current encounter: docs/server.md)
    assert f"link: http://127.0.0.1:8000/?token={secret}&encounter=alley\n" in out
    raw = sqlite3.connect(db).execute("SELECT name, role, owns, digest FROM tokens").fetchall()
    assert raw == [("ana", "player", "rook,vex", hashlib.sha256(secret.encode()).hexdigest())]
    assert secret.encode() not in db.read_bytes()


def test_token_add_warns_of_an_owned_id_or_an_encounter_nobody_has_yet(tmp_path):
    """A typo in --owns would make a link that can declare for nobody: the
    token is made (the combatant may join later) and a warning says so."""
    db = tmp_path / "t.db"
    for args in (["new", "alley"], ["add", "Rook", "--pc"]):
        assert run(db, *args)[0] == 0
    code, out, err = run(db, "token", "add", "ana", "--player", "--owns", "rook,rok")
    assert code == 0 and "shown once: " in out
    assert err == ("warning: no combatant 'rok' in alley yet: ana declares "  # (the current one)
                   "for it once it joins (is it spelled as in `combat status`?)\n")
    code, out, err = run(db, "token", "add", "ben", "--player", "--owns", "rook",
                         "--encounter", "aley")
    assert code == 0 and "shown once: " in out
    assert err == (f"warning: no encounter 'aley' in {db} yet: ben reaches nothing until it "
                   "is made (`combat list` shows them)\n")
    assert (run(db, "token", "add", "cy", "--player", "--owns", "rook", "--encounter",
                "alley")[::2]) == (0, "")
    assert [line.split("\t")[0] for line in run(db, "token", "list")[1].splitlines()] == [
        "ana", "ben", "cy"]


def test_token_list_shows_names_roles_and_owns_never_tokens(tmp_path):
    db = made(tmp_path / "t.db")
    secrets = [re.search(r"shown once: (\S+)", run(db, "token", "add", *args)[1]).group(1)
               for args in (["gm", "--gm"], ["ana", "--player", "--owns", "rook", "--encounter", "alley"],
                            ["tv", "--view", "--encounter", "alley"])]
    code, out, _ = run(db, "token", "list")
    assert code == 0
    assert run(db, "token", "add", "tv2", "--view", "--encounter", "alley")[1].endswith(
        "&encounter=alley\n")
    code, out, _ = run(db, "token", "list")
    lines = [line.split("\t")[:4] for line in out.splitlines() if not line.startswith("tv2")]
    assert lines == [["ana", "player", "owns rook", "encounter alley"],
                     ["gm", "gm", "owns -", "encounter *"],
                     ["tv", "view", "owns -", "encounter alley"]]
    assert not any(s in out for s in secrets)


@pytest.mark.parametrize("args, says", [
    (["ana", "--player"], "error: a player token declares for its own combatants: name them with --owns ID[,ID...]"),
    (["ana", "--gm", "--view"], "error: a token has one role: give exactly one of --gm, --player, --view"),
    (["ana"], "error: a token has one role: give exactly one of --gm, --player, --view"),
    (["tv", "--view", "--owns", "rook"], "error: --owns is for a player token; a view token owns no combatants"),
    (["gm", "--player", "--owns", "rook"], "error: the name gm is the GM's (R3c, R29): name a player's or a view's token after who holds it"),
    (["ana", "--player", "--owns", "Rook!"], "error: 'Rook!' is not a valid combatant id"),
    ([" ana", "--gm"], "error: ' ana' is not a valid actor"),
    (["ana", "--gm", "--encounter", "Bad Id"], "error: 'Bad Id' is not a valid encounter id"),
])
def test_token_add_refuses_bad_input_with_one_line(tmp_path, args, says):
    db = made(tmp_path / "t.db")
    code, out, err = run(db, "token", "add", *args)
    assert code == 1 and err.startswith(says) and err.count("\n") == 1, err
    assert run(db, "token", "list")[1].startswith("no tokens")


def test_a_taken_token_name_is_refused_with_one_line(tmp_path):
    db = made(tmp_path / "t.db")
    assert run(db, "token", "add", "ana", "--gm")[0] == 0
    code, _, err = run(db, "token", "add", "ana", "--view", "--encounter", "alley")
    assert (code, err) == (1, "error: a token named 'ana' exists already: revoke it first "
                              "or choose another name\n")


def test_token_revoke_forgets_it_and_an_unknown_name_is_one_line(tmp_path):
    db = made(tmp_path / "t.db")
    run(db, "token", "add", "ana", "--gm")
    assert run(db, "token", "revoke", "ana")[:2] == (0, "revoked ana\n")
    assert run(db, "token", "revoke", "ana") == (
        1, "", "error: no token named 'ana': `combat token list` shows them\n")


def test_a_v1_store_gains_the_tokens_table_and_keeps_its_log(tmp_path):
    db = tmp_path / "v1.db"
    shutil.copyfile(GOLDEN / "v1.db", db)
    before = run(db, "--encounter", "alley", "log", "--json")[1]
    assert run(db, "token", "add", "ana", "--gm")[0] == 0
    con = sqlite3.connect(db)
    from eventlog.stores.sqlite.schema import SCHEMA_VERSION  # (and every step after it)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (
        str(SCHEMA_VERSION),)
    assert con.execute("SELECT name FROM tokens").fetchall() == [("ana",)]
    assert run(db, "--encounter", "alley", "log", "--json")[1] == before


def test_a_read_only_v1_store_is_read_without_a_migration(tmp_path):
    db = tmp_path / "v1.db"
    shutil.copyfile(GOLDEN / "v1.db", db)
    sha = hashlib.sha256(db.read_bytes()).hexdigest()
    from eventlog.stores.sqlite import Store
    from eventlog.stores.sqlite import store as module
    real = module.read_only
    module.read_only = lambda path: True  # (root writes any file: say it may not)
    try:
        store = Store(db)
        assert store.tokens() == [] and store.encounters()
        store.close()
    finally:
        module.read_only = real
    assert hashlib.sha256(db.read_bytes()).hexdigest() == sha


def test_only_serve_imports_the_server_libraries(tmp_path):
    code = ("import sys; from cli.main import main; sys.argv = ['combat', '--db', sys.argv[1], *sys.argv[2:]]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('starlette', 'uvicorn', 'sse_starlette', 'httpx')), file=sys.stderr)")
    db = tmp_path / "t.db"
    for args in (["new", "e"], ["status"], ["token", "add", "ana", "--gm"], ["token", "list"]):
        done = subprocess.run([sys.executable, "-c", code, str(db), *args], capture_output=True,
                              text=True, timeout=60,
                              env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")})
        assert done.stderr.strip().splitlines()[-1] == "[]", (args, done.stderr)


def test_serve_prints_the_address_it_listens_on_and_serves(tmp_path):
    import httpx
    db = tmp_path / "t.db"
    run(db, "new", "alley")
    secret = re.search(r"shown once: (\S+)", run(db, "token", "add", "tv", "--view")[1]).group(1)
    server = subprocess.Popen([sys.executable, "-m", "cli", "--db", str(db), "serve", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")})
    try:
        line = server.stdout.readline()
        url = re.fullmatch(rf"serving {re.escape(str(db))} at (http://127\.0\.0\.1:\d+/) "
                           r"\(Ctrl-C stops\)\n", line).group(1)
        answer = httpx.get(f"{url}api/encounters", params={"token": secret}, timeout=10)
        assert [e["id"] for e in answer.json()] == ["alley"]
    finally:
        server.terminate()
        _, err = server.communicate(timeout=20)
    assert secret not in err and "token=" not in err  # no access log with the token


def test_serve_on_a_taken_port_is_one_line(tmp_path):
    import socket
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        code, _, err = run(tmp_path / "t.db", "serve", "--port", str(taken.getsockname()[1]))
    finally:
        taken.close()
    assert code == 1 and err.startswith("error: cannot listen on 127.0.0.1:") and err.count("\n") == 1


def test_serve_with_an_empty_host_is_one_line(tmp_path):
    code, _, err = run(tmp_path / "t.db", "serve", "--host", "")
    assert (code, err) == (1, "error: --host is empty: give the address to listen on, e.g. "
                              "127.0.0.1 (this machine) or 0.0.0.0 (the table's network)\n")
