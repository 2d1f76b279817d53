"""A private, throwaway PostgreSQL cluster for the tests, the conformance run
and the benchmarks: `initdb` into a temporary folder, `pg_ctl start`
listening only on a Unix socket in that folder (no TCP port, no clash).
As root, initdb and pg_ctl refuse to run: they run as the `postgres` user
(`runuser`), in a folder it owns. `COMBAT_TEST_PG_DSN` names an existing
server instead. Each store a test makes is a fresh schema of its own
(`fresh_url`), so one database serves a whole run.

    python tests/pgserver.py start FOLDER   # prints the server's URL
    python tests/pgserver.py stop FOLDER

Imported by tests/helpers.py (pg_server), never by conftest.
"""
from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import quote

DSN_VARIABLE = "COMBAT_TEST_PG_DSN"
DATABASE = "combat"


def bindir() -> Path | None:
    """The folder of initdb and pg_ctl, if PostgreSQL's server is installed."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    try:
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True,
                             check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        out = ""
    if out and (Path(out) / "initdb").exists():
        return Path(out)
    for candidate in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (candidate / "initdb").exists():
            return candidate
    return None


def _as_owner(args: list[str]) -> list[str]:
    """`args` run as the cluster's owner: `postgres` when we are root."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *args]
    return args


class Cluster:
    """A cluster in `folder` (data in folder/data, the socket in folder)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.data = self.folder / "data"
        self.bin = bindir()

    @property
    def url(self) -> str:
        return f"postgresql://postgres@/{DATABASE}?host={quote(str(self.folder), safe='/')}"

    def _run(self, name: str, *args: str) -> None:
        assert self.bin is not None
        # (the server pg_ctl starts writes to its -l log, never to these pipes)
        done = subprocess.run(_as_owner([str(self.bin / name), *args]), capture_output=True,
                              text=True, cwd=self.folder, stdin=subprocess.DEVNULL)
        if done.returncode:
            raise RuntimeError(f"{name} failed: {(done.stderr or done.stdout).strip()}")

    def start(self) -> str:
        self.folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        if not self.data.exists():
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                      "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-w",
                  "-o", f"-c listen_addresses='' -c unix_socket_directories={self.folder} "
                        "-c max_connections=200", "start")
        self.admin(f"CREATE DATABASE {DATABASE}", database="postgres", missing_ok=True)
        return self.url

    def restart(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-w",
                  "-m", "fast", "restart")

    def stop(self) -> None:
        if self.data.exists():
            self._run("pg_ctl", "-D", str(self.data), "-w", "-m", "immediate", "stop")

    def admin(self, sql: str, database: str = DATABASE, missing_ok: bool = False) -> None:
        import psycopg
        with psycopg.connect(f"postgresql://postgres@/{database}?host={self.folder}",
                             autocommit=True) as con:
            try:
                con.execute(sql)
            except psycopg.errors.DuplicateDatabase:
                if not missing_ok:
                    raise


class Server:
    """The server the tests use: an existing one ($COMBAT_TEST_PG_DSN), or a
    private cluster started in a temporary folder. `why` says why there is
    none (then `url` is None)."""

    def __init__(self) -> None:
        self.url: str | None = None
        self.cluster: Cluster | None = None
        self.why = ""
        self._schemas = itertools.count(1)
        self.made: list[str] = []  # the schemas to drop from an existing server
        dsn = os.environ.get(DSN_VARIABLE)
        if dsn:
            self.url = dsn
            return
        if bindir() is None:
            self.why = (f"no PostgreSQL server binaries (initdb) and no {DSN_VARIABLE}: "
                        "install Debian's postgresql")
            return
        try:
            import psycopg  # noqa: F401
        except ImportError:
            self.why = "psycopg is not installed (pip install -e '.[dev]')"
            return
        folder = Path(tempfile.mkdtemp(prefix="combat-pg-"))
        self.cluster = Cluster(folder)
        try:
            self.url = self.cluster.start()
        except (RuntimeError, OSError) as exc:
            self.why = f"cannot start a private PostgreSQL cluster: {exc}"
            self.url = None

    def fresh_url(self, name: str | None = None) -> str:
        """The URL of a fresh, empty schema of the server (a store of its own)."""
        import psycopg
        assert self.url is not None
        schema = name or f"t{os.getpid()}_{next(self._schemas)}"
        with psycopg.connect(self.url, autocommit=True) as con:
            con.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            con.execute(f'CREATE SCHEMA "{schema}"')
        self.made.append(schema)
        return with_schema(self.url, schema)

    def close(self) -> None:
        if self.cluster is None and self.url is not None and self.made:
            import psycopg
            try:  # an existing server is left as it was found
                with psycopg.connect(self.url, autocommit=True) as con:
                    for schema in self.made:
                        con.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            except psycopg.Error:
                pass
        if self.cluster is not None:
            try:
                self.cluster.stop()
            finally:
                shutil.rmtree(self.cluster.folder, ignore_errors=True)


def with_schema(url: str, schema: str) -> str:
    """`url` with its tables looked for and created in `schema`."""
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{schema}"


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("start", "stop"):
        print("usage: pgserver.py start|stop FOLDER", file=sys.stderr)
        return 2
    cluster = Cluster(Path(argv[1]))
    if cluster.bin is None:
        print("error: no PostgreSQL server binaries (initdb)", file=sys.stderr)
        return 1
    if argv[0] == "start":
        print(cluster.start())
    else:
        cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
