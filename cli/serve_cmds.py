"""`combat serve`: the store on the table's network (docs/server.md, "Table
server"). The server's libraries are imported here only, when it starts."""
import typer

from cli.base import app


@app.command()
def serve(ctx: typer.Context,
          host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on; 0.0.0.0 opens it to the table's network (see docs/guide.md)."),
          port: int = typer.Option(8000, "--port", min=0, max=65535, help="The port (0: any free one)."),
          root_path: str = typer.Option("", "--root-path", metavar="PATH", help="Behind a reverse proxy that serves it under PATH (e.g. /combat) and strips PATH before passing a request on."),
          forwarded_allow_ips: str = typer.Option("", "--forwarded-allow-ips", metavar="IPS", help="Proxies (comma-separated addresses or networks, * any) whose X-Forwarded-For names the client; never read otherwise."),
          pool: int = typer.Option(10, "--pool", min=1, max=1000, metavar="N", help="PostgreSQL: at most N connections for requests (one more listens for other processes' appends).")) -> None:
    """Serve the store to browsers and scripts until interrupted: players
    follow the order and declare for their own combatants, by token.

    \b
    Example: combat serve        combat serve --host 0.0.0.0 --port 8000
    """
    from eventlog.errors import LedgerError
    from eventlog.stores import open_store
    from eventlog.text import neutral
    from cli.session import default_db
    if root_path and (not root_path.startswith("/") or root_path.endswith("/")):
        raise LedgerError(f"--root-path is a path such as /combat, not {root_path!r}")
    if not host.strip():
        raise LedgerError("--host is empty: give the address to listen on, e.g. "
                          "127.0.0.1 (this machine) or 0.0.0.0 (the table's network)")
    target = ctx.find_root().params.get("db") or str(default_db())
    store = open_store(target)  # (a store that cannot be opened: one line, now)
    try:
        from eventlog.stores.writable import read_only_why
        why = read_only_why(store)
    finally:
        store.close()
    if why:  # (issue 24, item 8: live updates would stop silently)
        from eventlog.stores import shown
        raise LedgerError(f"{neutral(shown(target))} is read-only here ({why}): combat serve "
                          "records declarations and tokens; make it writable, or serve a copy")
    from cli.server.run import serve as run
    try:
        run(lambda: open_store(target, pool=pool), host, port,
            lambda url: print(neutral(f"serving {target} at {url} (Ctrl-C stops)"), flush=True),
            root_path=root_path, forwarded_allow_ips=forwarded_allow_ips.strip() or None)
    except OSError as exc:
        raise LedgerError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
