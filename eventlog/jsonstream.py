"""JSON read one value at a time from a file of any size.

`json.JSONDecoder.raw_decode` runs over a buffer that is refilled as it runs
out, so memory holds the value being read (one event of an export), never
the whole file. The caller walks the structure: `members()` of an object,
`items()` of an array, `value()` for anything it wants whole.
"""
from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from typing import cast

from eventlog.errors import InvalidFile
from eventlog.language import N_, _

CHUNK = 1 << 20  # bytes read at a time
MAX_VALUE = 16 << 20  # characters: the largest value read whole (one event)
_WHITESPACE = re.compile(r"[ \t\n\r]*")
# A value cut by the end of the buffer fails within a token's length of it
# (`tru`, `1e`, a \u escape), or as a string that never ends.
_CUT = 8


def _no_constant(name: str):
    raise ValueError(_("{name} is not a JSON number").format(name=name))


class JSONStream:
    """The JSON text of `f` (a binary file), read a piece at a time; errors
    are InvalidFile saying "{name} is not {what}: ..." with the line."""

    def __init__(self, f, name: str, what: str):
        self.f, self.name, self.what = f, name, what
        self.text = codecs.getincrementaldecoder("utf-8-sig")()
        self.decode = json.JSONDecoder(parse_constant=_no_constant).raw_decode
        self.buf, self.pos, self.eof = "", 0, False
        self.line, self.column = 0, 0  # where the buffer starts in the file
        self.keep = False  # what was read stays in the buffer (a look ahead)

    # -- the buffer --------------------------------------------------------

    def _more(self) -> bool:
        """Read on; False at the end of the file."""
        if self.eof:
            return False
        if self.pos > CHUNK and not self.keep:
            self._drop()
        pending = len(self.buf) - self.pos
        if pending > MAX_VALUE:
            raise self.error(_("a value runs on for more than {n} MiB").format(n=MAX_VALUE >> 20))
        raw = self.f.read(max(CHUNK, pending))
        try:
            self.buf += self.text.decode(raw, final=not raw)
        except UnicodeDecodeError:
            raise self.error(_("it is not UTF-8 text")) from None
        self.eof = not raw
        return True

    def _drop(self) -> None:
        """Forget what has been read, keeping count of lines for messages."""
        gone = self.buf[:self.pos]
        lines = gone.count("\n")
        self.column = len(gone) - gone.rfind("\n") - 1 if lines else self.column + len(gone)
        self.line += lines
        self.buf, self.pos = self.buf[self.pos:], 0

    def _where(self, pos: int) -> str:
        newline = self.buf.rfind("\n", 0, pos)
        line = self.line + self.buf.count("\n", 0, pos) + 1
        column = pos - newline if newline >= 0 else self.column + pos + 1
        return _("line {line} column {column}").format(line=line, column=column)

    def error(self, detail: str, pos: int | None = None) -> InvalidFile:
        where = self._where(self.pos if pos is None else pos)
        return InvalidFile(_("{name} is not {what}: {detail} ({where})").format(
            name=self.name, what=self.what, detail=detail, where=where))

    # -- reading -----------------------------------------------------------

    def peek(self) -> str:
        """The next character that is not whitespace ("" at the end)."""
        while True:
            self.pos = cast(re.Match[str], _WHITESPACE.match(self.buf, self.pos)).end()  # (matches "")
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self._more():
                return ""

    def take(self, chars: str, expected: str, **marks: str) -> str:
        """The next character, one of `chars`; else an error saying `expected`
        (N_-marked, its {placeholders} filled with `marks`)."""
        found = self.peek()
        if not found or found not in chars:
            if found:
                raise self.error(_("expected {expected}, found {found!r}").format(
                    expected=_(expected).format(**marks), found=found))
            raise self.error(_("expected {expected}, found the end of the file (was it cut "
                               "short?)").format(expected=_(expected).format(**marks)))
        self.pos += 1
        return found

    def value(self):
        """The next value, whole."""
        self.peek()
        while True:
            try:
                value, end = self.decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                unended = exc.msg.startswith("Unterminated")
                if (unended or exc.pos >= len(self.buf) - _CUT) and self._more():
                    continue
                detail = _("the file ends in the middle of a value (was it cut short?)") \
                    if unended or exc.pos >= len(self.buf) else exc.msg[0].lower() + exc.msg[1:]
                raise self.error(detail, exc.pos) from None
            except RecursionError:
                raise self.error(_("it is nested too deeply")) from None
            except ValueError as exc:  # NaN, Infinity; a number of over 4300 digits
                detail = _("a number has too many digits") if "digits" in str(exc) else str(exc)
                raise self.error(detail) from None
            if end == len(self.buf) and self._more():
                continue  # a number may go on in the next piece
            self.pos = end
            return value

    def first_key(self) -> str | None:
        """The first key of the object that comes next, read ahead: nothing
        is consumed (None when no object with a key comes next)."""
        if self.peek() != "{":
            return None
        start, self.keep = self.pos, True
        try:
            self.pos += 1
            return self.value() if self.peek() == '"' else None
        except InvalidFile:
            return None
        finally:
            self.pos, self.keep = start, False

    def members(self) -> Iterator[str]:
        """The keys of the object that comes next; read each key's value
        (value() or items()) before asking for the next key."""
        self.take("{", N_("an object"))
        if self.peek() == "}":
            self.pos += 1
            return
        while True:
            if self.peek() != '"':
                raise self.error(_("expected a key in double quotes"))
            key = self.value()
            self.take(":", N_("{colon} after a key"), colon="':'")
            yield key
            if self.take(",}", N_("{comma} or {end}"), comma="','", end="'}'") == "}":
                return

    def items(self) -> Iterator:
        """The values of the array that comes next, one at a time."""
        self.take("[", N_("a list"))
        if self.peek() == "]":
            self.pos += 1
            return
        while True:
            yield self.value()
            if self.take(",]", N_("{comma} or {end}"), comma="','", end="']'") == "]":
                return

    def values(self) -> Iterator:
        """Values one after the other up to the end of the file (JSON lines)."""
        while self.peek():
            yield self.value()

    def end(self) -> None:
        if self.peek():
            raise self.error(_("more follows the end of the document"))
