"""Starting the table server: uvicorn on a socket bound first, so the
address (port 0: a free one) is known and printed before it serves. The
access log is off: a page's address carries its token (`?token=`)."""
from __future__ import annotations

import socket
import threading
import time


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # (IPPROTO_TCP named, so asyncio sets TCP_NODELAY on each connection:
    # without it a reused connection waits 40 ms for a delayed ACK.)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def address(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def server_for(app, root_path: str = "", forwarded_allow_ips: str | None = None):
    """uvicorn serving the ASGI `app` as `combat serve` does. Behind a proxy:
    `root_path` the prefix the proxy strips; the client address is read from
    X-Forwarded-For only when the peer is one of `forwarded_allow_ips`
    (comma-separated addresses or networks, `*` any): never by default, so a
    client cannot pick the address its limits are counted by."""
    import uvicorn

    from cli.server.limits import guarded_protocol, raise_file_limit
    raise_file_limit()  # (before it accepts: a thousand idle sockets must not starve it)
    config = uvicorn.Config(app, access_log=False, log_level="warning",
                            timeout_graceful_shutdown=1, lifespan="on",
                            limit_concurrency=4096, backlog=2048, http=guarded_protocol(),
                            root_path=root_path, proxy_headers=bool(forwarded_allow_ips),
                            forwarded_allow_ips=forwarded_allow_ips or "")
    return uvicorn.Server(config)


def table_app(open_store, join_minutes: float | None = None):
    from cli.server.app import build
    return build(open_store, join_minutes)


def serve(open_store, host: str, port: int, announce, join_minutes: float | None = None,
          **proxy) -> None:
    """Serve until interrupted; `announce(url)` once it listens. `proxy`:
    root_path and forwarded_allow_ips (server_for); a join request waits
    `join_minutes` for the GM."""
    sock = bind(host, port)
    from cli.server.metrics import log_to_stderr
    log_to_stderr()
    server = server_for(table_app(open_store, join_minutes), **proxy)
    announce(address(sock))
    server.run(sockets=[sock])


class Running:
    """A server in a thread of this process (tests, benchmarks): the table
    server over `open_store`, or another ASGI `app` served the same way."""

    def __init__(self, open_store=None, host: str = "127.0.0.1", port: int = 0, app=None,
                 **proxy):
        self.sock = bind(host, port)
        self.url = address(self.sock).rstrip("/")
        self.server = server_for(app if app is not None else table_app(open_store), **proxy)
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> Running:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the table server did not start")
            time.sleep(0.01)
        return self

    @property
    def app(self):
        return self.server.config.loaded_app

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(15)
        self.sock.close()
