"""A webhook receiver on 127.0.0.1 for the tests of cli/server/hooks.py."""
from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cli.server import hooks


class Receiver:
    """An HTTP receiver on 127.0.0.1: answers by `modes` in turn (then "ok"):
    "fail" (500), "stall" (answers after the sender gave up), "ok" (204,
    and the request is kept)."""

    def __init__(self, modes=(), port: int = 0):
        self.modes, self.got, self.tries = list(modes), [], 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                outer.tries += 1
                mode = outer.modes.pop(0) if outer.modes else "ok"
                if mode == "stall":
                    time.sleep(hooks.TIMEOUT_S * 3)
                if mode == "ok":
                    outer.got.append((dict(self.headers), body))
                self.send_response(204 if mode == "ok" else 500)
                self.end_headers()

            def log_message(self, *args):
                pass
        ThreadingHTTPServer.allow_reuse_address = True
        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/in/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def wait(self, count: int, limit: float = 30) -> None:
        deadline = time.monotonic() + limit
        while len(self.got) < count and time.monotonic() < deadline:
            time.sleep(0.02)
