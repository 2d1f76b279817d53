"""What one client may hold of the server (slowloris
without a token). uvicorn never times out a connection whose request
headers never finish, so idle sockets used up every file the process
could open and every legitimate request timed out. Here:

- a deadline for a request's headers (from the connection's start, or the
  end of the answer before on a kept-alive one) and for its body;
- a cap of open connections per client address (the excess is closed as it
  is accepted); behind a proxy `--forwarded-allow-ips` names, of open
  requests per client it forwards (the excess is closed when its headers
  are in);
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


def _trusted(config):
    trusted = config.__dict__.get("trusted_proxies")
    if trusted is None:
        from uvicorn.middleware.proxy_headers import _TrustedHosts
        trusted = config.__dict__["trusted_proxies"] = _TrustedHosts(config.forwarded_allow_ips)
    return trusted


def _proxy(config, host: str) -> bool:
    """Whether `host` is a proxy `--forwarded-allow-ips` names: its
    connections carry many clients', each counted as the client it names."""
    if not config.proxy_headers or not host:
        return False
    return host in _trusted(config)


def forwarded_client(config, headers, proxy: str) -> str:
    """The client a named proxy's request comes from, read from its
    X-Forwarded-For as uvicorn reads it for the app (the nearest address
    that is not itself a named proxy); the proxy itself when it names none."""
    values = [v for k, v in headers if k == b"x-forwarded-for"]
    if not values:
        return proxy
    host, _ = _trusted(config).get_trusted_client_address(b", ".join(values).decode("latin1"))
    return host or proxy


def guarded_protocol():
    """uvicorn's h11 protocol with the header deadline and the cap per
    client address (the counts are kept on each server's config). A direct
    connection counts for its peer from the moment it is accepted; a named
    proxy's request counts for the client it forwards, from its headers to
    the end of its answer (a stream: while it is open)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Guarded(H11Protocol):
        _deadline = None
        _host = None  # the address this connection (or a proxy's request) counts for
        _via_proxy = False

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            peer = self.client[0] if self.client else ""
            self._via_proxy = _proxy(self.config, peer)
            if self._via_proxy or self._take(peer):
                self._arm()

        def connection_lost(self, exc) -> None:
            self._disarm()
            self._release()
            super().connection_lost(exc)

        def handle_events(self) -> None:
            before = self.cycle
            super().handle_events()
            if self.cycle is not before:  # a request's headers are in
                self._disarm()
                if self._via_proxy and self.cycle is not None:
                    self._release()  # (a kept-alive connection's request before)
                    peer = self.client[0] if self.client else ""
                    self._take(forwarded_client(self.config, self.scope["headers"], peer))

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self._via_proxy:
                self._release()
            if not self.transport.is_closing():
                self._arm()  # (the next request's headers, on a kept-alive connection)

        def _take(self, host: str) -> bool:
            """Count this connection for `host`; over the cap, drop it."""
            counts = self.config.__dict__.setdefault("open_per_client", {})
            counts[host] = counts.get(host, 0) + 1
            self._host = host
            if counts[host] > PER_CLIENT:
                self.transport.abort()  # (connection_lost follows, and counts it out)
                return False
            return True

        def _release(self) -> None:
            if self._host is None:
                return
            counts = self.config.__dict__.setdefault("open_per_client", {})
            left = counts.get(self._host, 1) - 1
            if left > 0:
                counts[self._host] = left
            else:
                counts.pop(self._host, None)
            self._host = None

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
