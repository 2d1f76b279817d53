"""The words of play mode: its aliases (`m rook shoots` is `act rook major
shoots`), its guide, and Tab completion of commands, ids and costs."""
from __future__ import annotations

import io
import re

from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.document import Document

from cli.console import SafeConsole
from cli.grammar.aliases import ALIASES
from cli.render import headline, status_table
from cli.terminal import leading
from eventlog.errors import LedgerError
from eventlog.language import N_, _
from projections.domain.state import State

QUIT = {"q", "quit", "exit"}
LAST = {"l", "last"}
HELP = {"?", "help"}  # `?`: the aliases and keys (24 lines); `help`: every command too
LAST_LINES = 10
# Options fixed when the console starts; `--actor` may still change per line.
FIXED_OPTIONS = ("--db", "--encounter")
# Commands after which the console follows the store's current encounter.
SWITCHING = {"new", "use", "import", "demo", "fork"}
NO_IDS = {"new", "add", "note", "list", "round", "undo", "redo", "status", "log",
          "verify", "export", "import", "demo", "end", "retract", "amend", "play",
          "u", "r", "l", "last", "q", "quit", "exit"}

# The core's messages name commands as the terminal types them; in the
# console `combat` is left out and a turn is ended with `e`.
CONSOLE_WORDS = ((re.compile(r"`combat "), "`"), (re.compile(r"`end-turn\b"), "`e"))


def console_words(text: str) -> str:
    """A message in the console's words: `new ID`, `e troll`."""
    for said, typed in CONSOLE_WORDS:
        text = said.sub(typed, text)
    return text


# (said with `_` where they are shown; `{n}` is LAST_LINES)
GUIDE = [
    ("m [ID] [LABEL]", N_("act ID major LABEL: 2 AP; ID defaults to whoever is acting")),
    ("n [ID] [LABEL]", N_("act ID minor LABEL: 1 AP")),
    ("f [ID] [LABEL]", N_("act ID free LABEL: a free action")),
    ("i ID COST [LABEL]", N_("interrupt ID COST LABEL (R19)")),
    ("s ID", N_("seize ID (R10)")),
    ("e [ID]", N_("end-turn [ID]")),
    ("t ID[,ID...] NAME VALUE", N_("track ID NAME VALUE: hp -3, stun +1, ammo 6; "
                                   "gob-1,gob-2 hp -3 hits both, one undo")),
    ("u / r", N_("undo / redo")),
    ("l [N]", N_("the last N log lines (default {n})")),
    ("help [COMMAND]", N_("this guide and every command, or one command's help")),
    ("help RULE", N_("one rule of the rules reference, e.g. help R17")),
    ("q", N_("leave play mode (also Ctrl-D)")),
]
KEYS = [(N_("Ctrl-Z"), N_("undo")), (N_("Ctrl-Y"), N_("redo")),
        (N_("Ctrl-L"), N_("the last log lines")),
        (N_("Tab"), N_("complete a command, an id or a cost")),
        (N_("Up/Down, Ctrl-R"), N_("history"))]


def guide(meaning: str) -> str:
    """A line of GUIDE's, in the reader's words."""
    return _(meaning).format(n=LAST_LINES)


class PlayCompleter(Completer):
    """Tab: command names and aliases, then ids of the encounter, cost words,
    and a command's options."""

    def __init__(self, play):
        self.play = play

    def get_completions(self, document: Document, complete_event):
        text = document.text_before_cursor
        words = text.split()
        current = "" if not text or text[-1].isspace() else words.pop()
        _options, words = leading(words)
        for word, meta in self.candidates(words, current):
            if word.startswith(current):
                yield Completion(word, start_position=-len(current), display_meta=meta)

    def candidates(self, before: list[str], current: str) -> list[tuple[str, str]]:
        commands = self.play.command.commands
        if not before:
            named = [(name, cmd.get_short_help_str(limit=40))
                     for name, cmd in commands.items() if name != "play"]
            aliases = [(a.split()[0], guide(m)) for a, m in GUIDE if len(a.split()[0]) == 1]
            return named + aliases
        head = ALIASES.get(before[0], before[0])
        if current.startswith("-"):
            cmd = commands.get(head)
            if cmd is None:
                return []
            opts = [o for p in cmd.params for o in p.opts if o.startswith("--")]
            return [(o, "") for o in opts + ["--help"]]
        if before[-1] == "--group":
            return [(g, _("group")) for g in self._state_ids("groups")]
        if head in ("help", "?"):
            return [(name, "") for name in commands]
        if head == "use":
            return [(row[0], row[1]) for row in self.play.store.encounters()]
        if head in ("act", "interrupt") and len(before) == 2:
            return [("major", "2 AP"), ("minor", "1 AP"), ("free", "0 AP")]
        if head in NO_IDS:
            return []
        if head in ("track", "effect") and len(before) == 1 and "," in current:
            listed = current.split(",")  # the next of several targets
            return [(f"{','.join(listed[:-1])},{cid}", _("combatant"))
                    for cid in self._state_ids("combatants") if cid not in listed[:-1]]
        return [(cid, _("combatant")) for cid in self._state_ids("combatants")] + \
            [(gid, _("group")) for gid in self._state_ids("groups")]

    def _state_ids(self, kind: str) -> list[str]:
        state = self.play.state
        return list(getattr(state, kind)) if state is not None else []


def turn_end_hint(state: State, up: str) -> str:
    """How the turn is ended from here, as the core would take it: a bare `e`,
    or (right after a turn ended by itself, R21) `e ID` only."""
    from projections.domain.asks import turn_to_end
    try:
        turn_to_end(state, None, careful=True)
    except LedgerError:
        return _("`e {id}` ends {id}'s turn").format(id=up)
    return _("e ends the turn")


def screen(state: State | None, columns: int, color: bool) -> str:
    """The status table as the prompt shows it: headline, table, who is up
    (cli/play.py's prompt)."""
    out = SafeConsole(file=(buf := io.StringIO()), width=max(columns, 40), force_terminal=color,
                  color_system="standard" if color else None, highlight=False,
                  legacy_windows=False, emoji=False)
    if state is None:
        out.print(_("no encounter yet: `new ID` starts one, `use ID` picks one, "
                    "`list` shows them"))
        return buf.getvalue()
    out.print(headline(state).replace("`combat ", "`"))
    if state.combatants:
        out.print(status_table(state))
    else:
        out.print(_("nobody yet: add combatants with `add NAME`"))
    if state.running and state.up():
        who = state.up()
        hint = _("m/n/f act for them, {end}").format(end=turn_end_hint(state, who[0])) \
            if len(who) == 1 else _("whoever declares first goes (R8)")
        out.print(_("up: [bold]{up}[/bold] [dim]· {hint}[/dim]").format(up=", ".join(who),
                                                                       hint=hint))
    from projections.reports.flow import tie_hint
    for run in state.ties():
        out.print("[yellow]" + _("unresolved tie") + "[/yellow]: " + _("{tie} ({hint})").format(
            tie=" = ".join(run), hint=tie_hint(state, run, "order")))
    return buf.getvalue()
