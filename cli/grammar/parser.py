"""Words of a command line -> the core's command struct, by the specs of
cli/grammar/table.py. One line of wrong usage names the command's synopsis."""
from __future__ import annotations

from typing import Any, NamedTuple

import msgspec

from eventlog.language import N_, _
from projections.domain import commands as c

from cli.grammar.party import PARTY_SPECS
from cli.grammar.spec import NUMBER, Arg, BadLine, Opt, Reader, Spec
from cli.grammar.table import READS, SPECS

BY_NAME: dict[str, Spec] = {spec.name: spec for spec in SPECS}
# The party's declarations, named by two words (`party rest`, `session end`).
PARTY_BY_NAME: dict[str, Spec] = {spec.name: spec for spec in PARTY_SPECS}
READ_BY_NAME: dict[str, Spec] = {spec.name: spec for spec in READS}
# The terminal's own options: never part of a line another client sends.
GLOBAL_OPTIONS = ("--db", "--encounter", "--actor", "--install-completion",
                  "--show-completion", "--help", "--version")
# Why shlex cannot split a line (its own words, said in the reader's language).
SPLIT_REASONS = (N_("No closing quotation"), N_("No escaped character"))


class Line(NamedTuple):
    command: c.Command
    actor: str | None = None  # `--actor NAME` before the command (terminal clients)


def split(text: str) -> list[str]:
    """A line's words, split as a shell would."""
    import shlex  # here: a command typed in a shell arrives split already
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise BadLine(_("cannot read that line: {reason}").format(reason=_(str(exc)))) from None


def parse(words: list[str], *, local: bool = False, read: Reader | None = None,
          careful: bool = False) -> Line:
    """The command a line declares. `local`: a terminal client (play mode, the
    demo, a script), which may name `--actor` before the command; every other
    global option is the shell's alone. `read` reads a roster file (only a
    client on the machine that has the file gives one)."""
    if words[:1] == ["combat"]:
        words = words[1:]
    actor, words = _leading(words, local)
    if not words:
        raise BadLine(_("say what to declare, e.g. `act rook major shoots`"))
    spec = BY_NAME.get(words[0])
    if spec is None and " ".join(words[:2]) in PARTY_BY_NAME:
        spec, words = PARTY_BY_NAME[" ".join(words[:2])], [" ".join(words[:2]), *words[2:]]
    if spec is None and words[0] in ("party", "session"):
        kinds = "|".join(s.name.split()[1] for s in PARTY_SPECS if s.name.startswith(words[0]))
        raise BadLine(_("`{line}` declares nothing: `{command} {kinds}` are its declarations")
                      .format(line=" ".join(words[:2])[:60], command=words[0], kinds=kinds))
    if spec is None:
        raise BadLine(_("`{word}` declares nothing: only declarations can be sent here")
                      .format(word=words[0][:40]) if not words[0].startswith("-") else
                      _("no such option: {option}").format(option=words[0][:40]))
    command = spec.command(_values(spec, words[1:]), read)
    if careful and isinstance(command, c.EndTurn):
        command = msgspec.structs.replace(command, careful=True)
    return Line(command, actor)


def parse_read(words: list[str]) -> tuple[Spec, dict[str, Any]]:
    """A reading command's spec and the values of its options (`status --json
    --at 12`), read as a declaration's are; BadLine for wrong usage."""
    spec = READ_BY_NAME.get(words[0]) if words else None
    if spec is None:
        raise BadLine(_("`{word}` is not a reading command").format(word=(words or [""])[0][:40]))
    return spec, _values(spec, words[1:])


def parse_line(text: str, careful: bool = False) -> Line:
    """One line from a client that may only declare (the table server's box)."""
    return parse(split(text), careful=careful)


def _leading(words: list[str], local: bool) -> tuple[str | None, list[str]]:
    """`--actor NAME` before the command (terminal clients only)."""
    actor = None
    for word in words:
        if word.split("=", 1)[0] in GLOBAL_OPTIONS:
            name = word.split("=", 1)[0]
            if not (local and name == "--actor"):
                raise BadLine(_global(name))
    while local and words and words[0].split("=", 1)[0] == "--actor":
        if "=" in words[0]:
            actor, words = words[0].split("=", 1)[1], words[1:]
        elif len(words) > 1:
            actor, words = words[1], words[2:]
        else:
            raise BadLine(_("--actor needs a name"))
    return actor, words


def _global(name: str) -> str:
    if name == "--help":
        return _("help is on the page: this box only declares")
    if name in ("--db", "--encounter", "--actor"):
        return _("{option} is not for this box: the page's encounter and your token's "
                 "name are used").format(option=name)
    return _("{option} is the terminal's option, not a declaration").format(option=name)


def _values(spec: Spec, words: list[str]) -> dict[str, Any]:
    """The struct's fields from the words after the command's name."""
    values: dict[str, Any] = {o.field: o.default for o in spec.options.values()}
    given: list[str] = []
    rest = iter(words)
    for word in rest:
        if word == "--":
            given.extend(rest)
        elif word.startswith("--"):
            name, eq, inline = word.partition("=")
            option = spec.options.get(name)
            if option is None:
                raise _usage(spec, _("no such option: {option}").format(option=name[:40]))
            if not option.takes_value:
                if eq:
                    raise _usage(spec, _("{option} takes no value").format(option=name))
                values[option.field] = True
                continue
            value = inline if eq else next(rest, None)
            if value is None:
                raise _usage(spec, _("{option} needs a value").format(option=name))
            if option.kind is list:  # (repeated: `--track hp=20 --track stun=0`)
                values[option.field] = (*values[option.field], value)
            else:
                values[option.field] = _typed(spec, option, value)
        elif word.startswith("-") and len(word) > 1 and not NUMBER.fullmatch(word):
            raise _usage(spec, _("no such option: {option}").format(option=word[:40]))
        else:
            given.append(word)
    for option in spec.options.values():
        if option.required and values[option.field] is None:
            raise _usage(spec, _("missing option {option}").format(option=option.flag))
    values.update(_positional(spec, given))
    return values


def _positional(spec: Spec, given: list[str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for arg in spec.args:
        if arg.words:
            if arg.required and not given:
                raise _usage(spec, _("missing {argument}").format(argument=arg.metavar))
            taken = [_typed(spec, arg, w) for w in given]
            given = []
            values[arg.field] = " ".join(taken) if arg.words == "text" else taken
        elif given:
            values[arg.field] = _typed(spec, arg, given.pop(0))
        elif arg.required:
            raise _usage(spec, _("missing {argument}").format(argument=arg.metavar))
    if given:
        raise _usage(spec, _("unexpected extra word {word!r}").format(word=given[0][:40]))
    return values


def _typed(spec: Spec, param: Arg | Opt, word: str) -> Any:
    if param.kind is int:
        if not NUMBER.fullmatch(word.strip()):
            name = param.metavar if isinstance(param, Arg) else param.flag
            raise _usage(spec, _("{name} takes a whole number, not {word!r}").format(
                name=name, word=word[:40]))
        return int(word)
    return word


def _usage(spec: Spec, problem: str) -> BadLine:
    return BadLine(_("{problem} (usage: {synopsis})").format(problem=problem, synopsis=spec.synopsis))
