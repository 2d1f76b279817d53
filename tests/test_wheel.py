"""A user's install: the wheel built from the project, installed into a
fresh virtual environment (no dev extras, nothing of the checkout), plays
the demo, writes a report, prints a rule and serves the pages. Slow (most of
a minute: the dependencies come from pip's cache or the index), and run in
CI all the same: it is the only test of what a user installs."""
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run(args, capture_output=True, text=True, timeout=900, **kw)
    assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The `combat` of a fresh environment that has only the wheel and its
    dependencies. (This environment's pip installs into it, `--python`: a
    pip of its own, ensurepip's, takes longer to set up than the rest;
    `--no-compile`: a module is compiled when first imported, see user_env,
    not the thousands of numpy's and matplotlib's the commands never use.)"""
    where = tmp_path_factory.mktemp("wheel")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir",
        str(where / "dist"), str(ROOT))
    wheel, = (where / "dist").glob("combat_ledger-*.whl")
    run(sys.executable, "-m", "venv", "--without-pip", str(where / "venv"))
    run(sys.executable, "-m", "pip", "--python", str(where / "venv" / "bin" / "python"),
        "install", "--quiet", "--disable-pip-version-check", "--no-compile", str(wheel))
    return where / "venv" / "bin" / "combat"


def user_env(folder: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMBAT_")
           and k != "PYTHONDONTWRITEBYTECODE"}  # (a user's Python keeps what it compiles)
    env.update(COMBAT_DB=str(folder / "ledger.db"), XDG_STATE_HOME=str(folder / "state"),
               XDG_DATA_HOME=str(folder / "data"), NO_COLOR="1", PYTHONPATH="")
    return env


def test_the_installed_wheel_plays_the_demo_reports_and_prints_rules(installed, tmp_path):
    env = user_env(tmp_path)
    here = {"env": env, "cwd": tmp_path}  # away from the checkout: nothing read from it
    assert re.fullmatch(r"combat-ledger \d+\.\d+\.\d+\n", run(str(installed), "--version", **here).stdout)
    assert "demo-1" in run(str(installed), "demo", **here).stdout
    run(str(installed), "report", "-o", "r.html", **here)
    assert (tmp_path / "r.html").read_text().lstrip().lower().startswith("<!doctype html")
    rule = run(str(installed), "rules", "R28a", **here).stdout
    assert rule.startswith("R28a — A correction keeps what the table lived through\n")


def test_the_installed_wheel_serves_the_pages_and_static_files(installed, tmp_path):
    env = user_env(tmp_path)
    run(str(installed), "new", "table", env=env, cwd=tmp_path)
    server = subprocess.Popen([str(installed), "serve", "--host", "127.0.0.1", "--port", "0"],
                              env=env, cwd=tmp_path, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline()  # printed once it listens
        url = re.search(r"at (http://127\.0\.0\.1:\d+/)", first)
        assert url, (first, server.stderr.read() if server.poll() is not None else "")
        for path, kind in (("", "text/html"), ("static/app.js", "javascript"),
                           ("static/style.css", "text/css"), ("rules/R17", "text/html")):
            with urllib.request.urlopen(url.group(1) + path, timeout=30) as answer:
                assert answer.status == 200, path
                assert kind in answer.headers["content-type"], path
                assert answer.read(), path
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        server.stdout.close()
        server.stderr.close()


def test_the_installed_wheel_carries_its_message_catalogues(installed, tmp_path):
    """The compiled catalogues and each language's rules reference ship
    inside the wheel: a reader spoken to in German reads German."""
    python = installed.parent / "python"
    said = run(str(python), "-c",
               "from eventlog.language import speaking\n"
               "from projections.rulebook import rule\n"
               "with speaking('de'):\n"
               "    print(rule('R19').title)\n"
               "    try: rule('R99')\n"
               "    except Exception as refused: print(refused)\n",
               env=user_env(tmp_path), cwd=tmp_path).stdout.splitlines()
    assert said[0] == "R19 — Unterbrechungen"  # (the German reference ships too)
    assert said[1].startswith("Eine Regel R99 gibt es nicht: die Regeln sind R1 bis R")
