"""The words of play mode: its aliases (`m rook shoots` is `act rook major
shoots`), its guide, and Tab completion of commands, ids and costs."""
from __future__ import annotations

import re

from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.document import Document

from cli.grammar.aliases import ALIASES
from cli.terminal import leading
from eventlog.errors import LedgerError
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


GUIDE = [
    ("m [ID] [LABEL]", "act ID major LABEL: 2 AP; ID defaults to whoever is acting"),
    ("n [ID] [LABEL]", "act ID minor LABEL: 1 AP"),
    ("f [ID] [LABEL]", "act ID free LABEL: a free action"),
    ("i ID COST [LABEL]", "interrupt ID COST LABEL (R19)"),
    ("s ID", "seize ID (R10)"),
    ("e [ID]", "end-turn [ID]"),
    ("t ID[,ID...] NAME VALUE", "track ID NAME VALUE: hp -3, stun +1, ammo 6; "
     "gob-1,gob-2 hp -3 hits both, one undo"),
    ("u / r", "undo / redo"),
    ("l [N]", f"the last N log lines (default {LAST_LINES})"),
    ("help [COMMAND]", "this guide and every command, or one command's help"),
    ("help RULE", "one rule of the rules reference, e.g. help R17"),
    ("q", "leave play mode (also Ctrl-D)"),
]
KEYS = [("Ctrl-Z", "undo"), ("Ctrl-Y", "redo"), ("Ctrl-L", "the last log lines"),
        ("Tab", "complete a command, an id or a cost"), ("Up/Down, Ctrl-R", "history")]


class PlayCompleter(Completer):
    """Tab: command names and aliases, then ids of the encounter, cost words,
    and a command's options."""

    def __init__(self, play):
        self.play = play

    def get_completions(self, document: Document, complete_event):
        text = document.text_before_cursor
        words = text.split()
        current = "" if not text or text[-1].isspace() else words.pop()
        _, words = leading(words)
        for word, meta in self.candidates(words, current):
            if word.startswith(current):
                yield Completion(word, start_position=-len(current), display_meta=meta)

    def candidates(self, before: list[str], current: str) -> list[tuple[str, str]]:
        commands = self.play.command.commands
        if not before:
            named = [(name, cmd.get_short_help_str(limit=40))
                     for name, cmd in commands.items() if name != "play"]
            aliases = [(a.split()[0], m) for a, m in GUIDE if len(a.split()[0]) == 1]
            return named + aliases
        head = ALIASES.get(before[0], before[0])
        if current.startswith("-"):
            cmd = commands.get(head)
            if cmd is None:
                return []
            opts = [o for p in cmd.params for o in p.opts if o.startswith("--")]
            return [(o, "") for o in opts + ["--help"]]
        if before[-1] == "--group":
            return [(g, "group") for g in self._state_ids("groups")]
        if head in ("help", "?"):
            return [(name, "") for name in commands]
        if head == "use":
            return [(eid, title) for eid, title, _, _ in self.play.store.encounters()]
        if head in ("act", "interrupt") and len(before) == 2:
            return [("major", "2 AP"), ("minor", "1 AP"), ("free", "0 AP")]
        if head in NO_IDS:
            return []
        if head in ("track", "effect") and len(before) == 1 and "," in current:
            listed = current.split(",")  # the next of several targets
            return [(f"{','.join(listed[:-1])},{cid}", "combatant")
                    for cid in self._state_ids("combatants") if cid not in listed[:-1]]
        return [(cid, "combatant") for cid in self._state_ids("combatants")] + \
            [(gid, "group") for gid in self._state_ids("groups")]

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
        return f"`e {up}` ends {up}'s turn"
    return "e ends the turn"
