"""The language a reader is spoken to in, and the lookup of a message in it.

A message is written once, in English, where it is said, and marked for the
catalogue: `_("the name {name!r} is taken").format(name=...)`, or
`n_("{n} moment seized", "{n} moments seized", n).format(n=n)` where a
number decides the form. Babel extracts the marked messages into
eventlog/locale/combat.pot; each language has its catalogue beside it
(eventlog/locale/de/LC_MESSAGES/combat.po, compiled to .mo), and
tests/test_catalogue.py fails when one is stale, incomplete, or has other
placeholders than its English message.

The log itself has no language (events are data): each reader words it in
their own. So the language is not the process's but the reader's: a
context variable, set once for the terminal (`--lang`, else the
environment's locale) and for each request of the table server (its
token's language, else the browser's Accept-Language), so a German player
and an English GM read the same fight at the same table.

A catalogue is read on the first message said in its language: a command
that says nothing in German never opens one.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache

SOURCE = "en"  # the language the messages are written in: it needs no catalogue
LANGUAGES = ("en", "de")  # each but SOURCE has eventlog/locale/LANG/LC_MESSAGES/combat.mo
DOMAIN = "combat"
# (os.path, not pathlib: a declaration typed in a shell loads no pathlib, and
# importing it would cost the command ~3 ms of its ~40)
LOCALE = os.path.join(os.path.dirname(os.path.realpath(__file__)), "locale")

_speaking: ContextVar[str] = ContextVar("combat_language", default=SOURCE)


def current() -> str:
    """The language of whoever is read to now."""
    return _speaking.get()


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Say everything inside in `language` (one of LANGUAGES)."""
    if language not in LANGUAGES:
        raise ValueError(f"no catalogue for {language!r}")
    token = _speaking.set(language)
    try:
        yield
    finally:
        _speaking.reset(token)


def speak(language: str) -> None:
    """Say everything from now on, in this context, in `language` (the
    terminal's choice, made once when a command starts)."""
    if language not in LANGUAGES:
        raise ValueError(f"no catalogue for {language!r}")
    _speaking.set(language)


@cache
def _catalogue(language: str):
    """The language's compiled catalogue (gettext's, imported only here)."""
    import gettext
    with open(os.path.join(LOCALE, language, "LC_MESSAGES", f"{DOMAIN}.mo"), "rb") as mo:
        return gettext.GNUTranslations(mo)


def _(message: str) -> str:
    """`message` in the reader's language (English where it has none)."""
    language = _speaking.get()
    return message if language == SOURCE else _catalogue(language).gettext(message)


def n_(singular: str, plural: str, n: int) -> str:
    """The form of a message a number `n` calls for, in the reader's language
    (its own plural rule: German has two forms, others more)."""
    language = _speaking.get()
    if language == SOURCE:
        return singular if n == 1 else plural
    return _catalogue(language).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` as it reads in `context` (a narrow column, an action in the
    log) in the reader's language: the catalogue may word it otherwise
    there. (gettext keeps a message of a context under `context EOT message`.)"""
    language = _speaking.get()
    if language == SOURCE:
        return message
    return _catalogue(language).pgettext(context, message)


def N_(message: str) -> str:
    """Marks a message for the catalogue where it is written (a constant) and
    leaves it English: it is looked up with `_` where it is said."""
    return message


# -- which language --------------------------------------------------------

_TAG = r"([A-Za-z]{1,8})(?:[-_][A-Za-z0-9]{1,8})*"  # (compiled on first use, by re's cache)


def _primary(tag: str) -> str | None:
    """`de_DE.UTF-8`, `de-AT`, `DE` → `de`, if we speak it."""
    tag = tag.split(".")[0].split("@")[0].strip()
    m = re.fullmatch(_TAG, tag)
    language = m.group(1).lower() if m else None
    return language if language in LANGUAGES else None


def from_environment(environ: Mapping[str, str]) -> str:
    """The terminal's language as POSIX decides it: LC_ALL, else LC_MESSAGES,
    else LANG; LANGUAGE's list of preferences first unless the locale is
    C/POSIX. A language we have no catalogue for reads English."""
    locale = next((environ[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(k)), "")
    if locale in ("", "C", "POSIX") or locale.startswith("C."):
        return SOURCE
    for wanted in environ.get("LANGUAGE", "").split(":"):
        if wanted and (found := _primary(wanted)):
            return found
    return _primary(locale) or SOURCE


def chosen(flag: str | None) -> str | None:
    """A language named by the person (`--lang de`, a token's language, a
    page's switch): the one of LANGUAGES it is, or None."""
    return _primary(flag) if flag else None


def negotiate(accept_language: str | None) -> str:
    """The browser's preference (an Accept-Language header) that we speak:
    the highest weight wins, the earlier on a tie; none we speak: English."""
    best, weight = SOURCE, 0.0
    for part in (accept_language or "")[:1000].split(","):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        m = re.fullmatch(r"\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*", params) if params else None
        if params and not m:
            continue
        if m:
            q = float(m.group(1))
        language = _primary(tag)
        if language is not None and q > weight:
            best, weight = language, q
    return best


# -- numbers, dates and times in the reader's form ------------------------
# English keeps the forms the product always printed (no import); another
# language's come from Babel's CLDR data, imported on its first number.

def decimal(value: float, digits: int = 1) -> str:
    """`value` with `digits` decimals and grouped thousands: 1,234.5 in
    English, 1.234,5 in German."""
    language = _speaking.get()
    if language == SOURCE:
        return f"{value:,.{digits}f}"
    from babel.numbers import format_decimal
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=language)


def whole(value: int) -> str:
    """An integer with grouped thousands: 12,345 / 12.345."""
    return decimal(value, 0)


def clock(moment) -> str:
    """A time of day (a datetime, already in the zone to show): 21:07:45."""
    language = _speaking.get()
    if language == SOURCE:
        return moment.strftime("%H:%M:%S")
    from babel.dates import format_time
    return format_time(moment, format="medium", locale=language)


def day(moment) -> str:
    """A date (a date or datetime): 2026-12-05 in English, 05.12.2026 in German."""
    language = _speaking.get()
    if language == SOURCE:
        return moment.strftime("%Y-%m-%d")
    from babel.dates import format_date
    return format_date(moment, format="medium", locale=language)


# -- the operating system's reasons ---------------------------------------
# strerror speaks the C locale's English: the reasons a person meets most,
# in the reader's language; any other in the system's own words.
_REASONS = {"ENOENT": N_("No such file or directory"), "EACCES": N_("Permission denied"),
            "EPERM": N_("Operation not permitted"), "EISDIR": N_("Is a directory"),
            "ENOTDIR": N_("Not a directory"), "ENOSPC": N_("No space left on device"),
            "EROFS": N_("Read-only file system"), "EEXIST": N_("File exists"),
            "EADDRINUSE": N_("Address already in use"),
            "EADDRNOTAVAIL": N_("Cannot assign requested address"),
            "ENAMETOOLONG": N_("File name too long"), "ELOOP": N_("Too many levels of symbolic links"),
            "EDQUOT": N_("Disk quota exceeded"), "EIO": N_("Input/output error"),
            "ECONNREFUSED": N_("Connection refused"), "ETIMEDOUT": N_("Connection timed out"),
            # a name the resolver could not resolve (socket.gaierror's own numbers)
            "EAI_NONAME": N_("Name or service not known"),
            "EAI_AGAIN": N_("Temporary failure in name resolution")}


def reason(exc: BaseException) -> str:
    """Why an operating system call failed, in the reader's language."""
    import errno
    code = getattr(exc, "errno", None)
    name = errno.errorcode.get(code) if isinstance(code, int) else None
    if type(exc).__name__ == "gaierror":
        import socket
        name = next((n for n in ("EAI_NONAME", "EAI_AGAIN") if getattr(socket, n, None) == code),
                    None)
    if name in _REASONS:
        return _(_REASONS[name])
    return getattr(exc, "strerror", None) or str(exc)
