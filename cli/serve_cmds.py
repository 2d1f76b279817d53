"""`combat serve`: the store on the table's network (docs/server.md, "Table
server"). The server's libraries are imported here only, when it starts."""

import typer

from cli.base import app
from eventlog.language import _


@app.command(help=_(
    "Serve the store to browsers and scripts until interrupted: players\n"
    "follow the order and declare for their own combatants, by token.\n\n"
    "\b\n"
    "Example: combat serve        combat serve --lan --encounter warehouse"))
def serve(ctx: typer.Context,
          host: str | None = typer.Option(None, "--host", help=_("The address to listen on (default 127.0.0.1; with --lan this machine's network address); 0.0.0.0 opens it to every network (see docs/guide.md).")),
          port: int = typer.Option(8000, "--port", min=0, max=65535, help=_("The port (0: any free one).")),
          root_path: str = typer.Option("", "--root-path", metavar="PATH", help=_("Behind a reverse proxy that serves it under PATH (e.g. /combat) and strips PATH before passing a request on.")),
          forwarded_allow_ips: str = typer.Option("", "--forwarded-allow-ips", metavar="IPS", help=_("Proxies (comma-separated addresses or networks, * any) whose X-Forwarded-For names the client; never read otherwise.")),
          pool: int = typer.Option(10, "--pool", min=1, max=1000, metavar="N", help=_("PostgreSQL: at most N connections for requests (one more listens for other processes' appends).")),
          lan: bool = typer.Option(False, "--lan", help=_("Listen on this machine's network address; print the join page's address with a QR code to scan, and the GM console's link (with a GM token made now: keep it to yourself).")),
          encounter: str | None = typer.Option(None, "--encounter", help=_("Put this encounter on the table: every page follows it (default: the one the GM chose last, else the current one).")),
          join_minutes: float = typer.Option(10.0, "--join-minutes", metavar="MINUTES", help=_("How long a phone's join request waits for the GM's answer before it expires."))) -> None:
    from eventlog.errors import LedgerError
    from eventlog.stores import open_store
    from eventlog.text import neutral
    from cli.session import default_db
    if root_path and (not root_path.startswith("/") or root_path.endswith("/")):
        raise LedgerError(_("--root-path is a path such as /combat, not {path!r}").format(path=root_path))
    from projections.joining import check_minutes
    check_minutes(join_minutes)
    if host is None:
        host = lan_address() if lan else "127.0.0.1"
    if not host.strip():
        raise LedgerError(_("--host is empty: give the address to listen on, e.g. "
                            "127.0.0.1 (this machine) or 0.0.0.0 (the table's network)"))
    target = ctx.find_root().params.get("db") or str(default_db())
    store = open_store(target)  # (a store that cannot be opened: one line, now)
    try:
        from eventlog.stores.writable import read_only_why
        why = read_only_why(store)
        if not why:
            from projections.joining import current_to_table, put_on_table
            if encounter is not None:
                put_on_table(store, encounter)
            else:  # (no choice yet: this terminal's current encounter, as other commands)
                from eventlog import userstate
                current_to_table(store, userstate.current(store.identity))
    finally:
        store.close()
    if why:  # (live updates would stop silently)
        from eventlog.stores import shown
        raise LedgerError(_("{store} is read-only here ({why}): combat serve records declarations "
                            "and tokens; make it writable, or serve a copy").format(
            store=neutral(shown(target)), why=why))
    from cli.server.run import serve as run

    def announce(url: str) -> None:
        print(neutral(_("serving {store} at {url} (Ctrl-C stops)").format(store=target, url=url)),
              flush=True)
        if lan:
            print(neutral(_("players join at {url}: scan it").format(url=f"{url}join")), flush=True)
            print(qr_text(f"{url}join"), flush=True)
            console, name = gm_console(target, url)
            print(_("GM console: {link}").format(link=console), flush=True)
            print(neutral(_("(the GM token {name}, made now and shown only here: keep it to "
                            "yourself; open it on this machine or scan it)").format(name=name)), flush=True)
            print(qr_text(console), flush=True)
    try:
        run(lambda: open_store(target, pool=pool), host, port, announce,
            root_path=root_path, forwarded_allow_ips=forwarded_allow_ips.strip() or None,
            join_minutes=join_minutes)
    except OSError as exc:
        from eventlog.language import reason
        raise LedgerError(_("cannot listen on {host}:{port}: {reason}").format(
            host=host, port=port, reason=reason(exc))) from None


def gm_console(target: str, url: str) -> tuple[str, str]:
    """The GM page's link with a GM token made now (projections/access.py,
    console_token): printed on the terminal of whoever started the server,
    never served to a page."""
    from eventlog.stores import open_store
    from projections.access import console_token
    store = open_store(target)
    try:
        secret, token = console_token(store)
    finally:
        store.close()
    return f"{url}?token={secret}", token.name


def lan_address() -> str:
    """This machine's address on its network, found without sending a packet
    (a UDP socket's connect only picks the route); 127.0.0.1 when it has none."""
    import socket
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, only routed
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def qr_text(url: str) -> str:
    """The QR code of `url` in text a terminal shows (half blocks, two rows a line)."""
    import io

    import segno
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue().rstrip("\n")
