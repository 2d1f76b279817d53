"""What one client may hold of the server (issue 24, item 1: slowloris
without a token). uvicorn never times out a connection whose request
headers never finish, so idle sockets used up every file the process
could open and every legitimate request timed out. Here:

- a deadline for a request's headers (from the connection's start, or the
  end of the answer before on a kept-alive one) and for its body;
- a cap of open connections per client address (the excess is closed as it
  is accepted);
- the process's file limit raised to its hard limit when the server starts.
"""
from __future__ import annotations

import resource

HEADERS_S = 10.0  # a browser sends its headers in one packet
BODY_S = 30.0  # a command is a few hundred bytes; a roster a few KiB
PER_CLIENT = 256  # open connections of one address (a browser opens 6 to 10; a NAT, many)


def raise_file_limit() -> int:
    """The soft limit of open files raised to the hard one; the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 16)
    if soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            return hard
        except (ValueError, OSError):
            return soft
    return soft


def guarded_protocol():
    """uvicorn's h11 protocol with the header deadline and the cap per
    client address (the counts are kept on each server's config)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Guarded(H11Protocol):
        _deadline = None
        _host = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._host = self.client[0] if self.client else ""
            counts = self.config.__dict__.setdefault("open_per_client", {})
            counts[self._host] = counts.get(self._host, 0) + 1
            if counts[self._host] > PER_CLIENT:
                transport.abort()  # (connection_lost follows, and counts it out)
                return
            self._arm()

        def connection_lost(self, exc) -> None:
            self._disarm()
            counts = self.config.__dict__.setdefault("open_per_client", {})
            if self._host is not None:
                left = counts.get(self._host, 1) - 1
                if left > 0:
                    counts[self._host] = left
                else:
                    counts.pop(self._host, None)
                self._host = None
            super().connection_lost(exc)

        def handle_events(self) -> None:
            before = self.cycle
            super().handle_events()
            if self.cycle is not before:  # a request's headers are in
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # (the next request's headers, on a kept-alive connection)

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(HEADERS_S, self._too_slow, self.cycle)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self, cycle) -> None:
            self._deadline = None
            if self.cycle is cycle and not self.transport.is_closing():
                self.transport.close()

    return Guarded
