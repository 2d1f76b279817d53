"""Where a webhook may send: checked when `combat hook add` takes a URL and
again before every delivery (a name may resolve elsewhere by then).

A hook sends only to public addresses: never to this machine (loopback,
unspecified), the local network (private, link-local, shared, unique
local), multicast or reserved space, in IPv4 or IPv6, the IPv6 forms that
carry an IPv4 address (mapped, 6to4, Teredo, NAT64) included. Otherwise a
table's server could be made to POST into the network it stands in. The
GM opens that for one hook with `hook add URL --allow-private` (a bot on
the table's own network).

A URL may carry credentials (`https://user:pass@host/...`) and secrets in
its path or query (a Discord webhook's token): `shown` is the only form
that is ever printed, logged or answered.
"""
from __future__ import annotations

import ipaddress
import socket
from typing import NamedTuple
from urllib.parse import SplitResult, unquote, urlsplit

from eventlog.errors import LedgerError
from eventlog.text import neutral
from eventlog.language import _

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
NAT64 = ipaddress.ip_network("64:ff9b::/96")


class Destination(NamedTuple):
    """A hook's URL taken apart: where to connect, and what to send there."""
    scheme: str
    host: str
    port: int
    target: str                # the path and query, as the request line carries them
    credentials: tuple[str, str] | None  # user and password written into the URL


def shown(url: str) -> str:
    """A hook's URL as it may be shown: scheme, host, port and the path's
    start; the credentials, the path's last part (a Discord webhook's token)
    and the query left out."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "(a URL that cannot be read)"
    host = f"[{host}]" if ":" in host else host
    path = parts.path.rsplit("/", 1)[0] + "/…" if parts.path.count("/") > 1 else parts.path
    hidden = "?…" if parts.query else ""
    return neutral(f"{parts.scheme}://{host}{port}{path}{hidden}")


def read(url: str) -> Destination:
    """The destination a URL names, or one line saying what is wrong with it
    (naming only its shown form)."""
    try:
        parts: SplitResult = urlsplit(url)
        port = parts.port
        host = parts.hostname
    except ValueError:
        raise LedgerError(_("a hook's URL must be http://HOST[:PORT]/PATH or https://...; "
                            "that one cannot be read (a bad port or host)")) from None
    if parts.scheme not in ("http", "https"):
        if parts.scheme:
            raise LedgerError(_("a hook's URL starts with http:// or https://, not {scheme}")
                              .format(scheme=neutral(parts.scheme)[:20] + "://"))
        raise LedgerError(_("a hook's URL starts with http:// or https://, not that"))
    if not host:
        raise LedgerError(_("a hook's URL names a host after http:// or https://"))
    if any(ord(ch) < 33 or ord(ch) == 127 for ch in url):
        raise LedgerError(_("a hook's URL holds a space or control character: {url}")
                          .format(url=shown(url)))
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    credentials = None
    if parts.username is not None or parts.password is not None:
        credentials = (unquote(parts.username or ""), unquote(parts.password or ""))
    return Destination(parts.scheme, host, port or (443 if parts.scheme == "https" else 80),
                       target, credentials)


def kind(address: Address) -> str | None:
    """What makes `address` not public ("loopback", "private", ...), or None."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is None and address.teredo is not None:
            embedded = address.teredo[1]
        if embedded is None and address in NAT64:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if embedded is not None:
            return kind(embedded)
    for name in ("loopback", "unspecified", "link_local", "multicast", "private",
                 "reserved", "site_local"):
        if getattr(address, f"is_{name}", False):
            return name.replace("_", "-")
    if not address.is_global:
        return "non-public"
    return None


def resolve(host: str, port: int) -> list[Address]:
    """The addresses `host` stands for now (a literal is its own: no lookup)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise LedgerError(_("{host} does not resolve now").format(host=neutral(host)[:80])) from None
    out: list[Address] = []
    for *_info, sockaddr in found:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in out:
            out.append(address)
    return out


def checked(url: str, allow_private: bool) -> tuple[Destination, list[Address]]:
    """The destination and the addresses a delivery may connect to now, or
    one line saying why none: every address a name resolves to must be
    public (one private answer is enough to refuse: DNS may pick it)."""
    where = read(url)
    addresses = resolve(where.host, where.port)
    if not allow_private:
        for address in addresses:
            why = kind(address)
            if why is not None:
                if where.host == str(address):
                    raise LedgerError(_(
                        "{url}: {address} is a {kind} address; a hook sends only to public "
                        "addresses (add it with --allow-private for a bot on your own network)")
                        .format(url=shown(url), address=address, kind=why))
                raise LedgerError(_(
                    "{url}: {host} is {address}, a {kind} address; a hook sends only to public "
                    "addresses (add it with --allow-private for a bot on your own network)")
                    .format(url=shown(url), host=neutral(where.host)[:80], address=address,
                            kind=why))
    return where, addresses
