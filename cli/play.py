"""The console behind `combat play`: a prompt that takes the CLI's commands
(and short aliases) with the status table always shown above it.

Each line is split like a shell line and read by the very same click
commands as `combat ...` (cli/grammar/) into the core's command struct,
which runs through the one entry point with one Session: the same judge,
the same `error: ...` lines. Commands run quiet; the
console then prints what the log gained, so a declaration from another
terminal is reported the same way as one typed here.
"""
from __future__ import annotations

import asyncio
import os
import shlex
import textwrap
from functools import partial
from itertools import groupby
from pathlib import Path

import typer
from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app, run_in_terminal
from prompt_toolkit.formatted_text import ANSI, FormattedText, merge_formatted_text
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.output import ColorDepth

from cli.grammar.aliases import ALIASES, COST_ALIASES, expand
from cli.playwords import (
    FIXED_OPTIONS,
    GUIDE,
    HELP,
    KEYS,
    LAST,
    LAST_LINES,
    QUIT,
    SWITCHING,
    PlayCompleter,
    console_words,
    guide,
    screen,
)
from cli.console import console
from cli.render import escape, log_table
from cli.session import Session
from cli.terminal import expected, forked, leading, run_line, run_read
from eventlog.errors import LedgerError
from eventlog.language import _
from projections.domain.decide import acting
from projections.domain.state import State
from projections.history import envelope
from projections.reports.worded import worded
from projections.rulebook import as_text, looks_like_rule, rule


def history_for(db) -> History:
    """The typed lines, kept beside the store (for a PostgreSQL store, in the
    user's state folder, by the store's URL); in memory if that is not writable."""
    from eventlog.stores import is_url, shown
    if is_url(db):
        from hashlib import sha256

        from eventlog.userstate import state_dir
        path = state_dir() / f"history-{sha256(shown(db).encode()).hexdigest()[:16]}"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return InMemoryHistory()
    else:
        db = Path(db)  # (the session keeps its store as a string)
        path = db.with_name(db.name + ".history")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError:
        return InMemoryHistory()
    return FileHistory(str(path))


class Play:
    """The console: `run()` until the table leaves (q, Ctrl-D)."""

    def __init__(self, tree, session: Session, refresh: float = 1.0, input=None, output=None,
                 history: History | None = None):
        self.command = tree  # the shell's command tree: reads, help, completion
        self.session = Session(session.db, None, session.actor, quiet=True)
        self.session.careful = True  # `e` at the table never skips a turn
        self.session.tell_error = self._error  # a read's refusal in the console's words
        self.session.__dict__["ledger"] = session.ledger
        self.store = session.ledger.store
        self.eid = session.chosen or session.current()
        if self.eid:
            self.store.head(self.eid)  # an unknown --encounter is refused now
        self.session.chosen = self.eid
        self.refresh = refresh
        self.state: State | None = None
        self.seen = 0        # the last seq reported in the console
        self.pressed: tuple[str, str] | None = None  # (line, key) run after the prompt
        self._drawn: tuple = (None, None)  # the table as last rendered, and for what
        self.prompt: PromptSession[str] = PromptSession(
            history=history if history is not None else history_for(session.db),
            completer=PlayCompleter(self), complete_while_typing=False,
            key_bindings=self._keys(), erase_when_done=True,
            reserve_space_for_menu=0, input=input, output=output)
        self._load()
        self.seen = self.state.seq if self.state else 0

    # -- the loop ----------------------------------------------------------

    def run(self) -> None:
        if not self.eid:  # an empty store (or none chosen): say what to type first
            console.print(self._welcome())
        console.print(_(
            "[bold]combat play[/bold]: type commands without `combat`; "
            "[bold]?[/bold] for aliases and keys, [bold]q[/bold] or Ctrl-D to leave. "
            "Ctrl-Z undo, Ctrl-Y redo, Ctrl-L the last log lines."))
        kept = ""
        while True:
            self.pressed = None
            try:
                typed = self.prompt.prompt(self._message, default=kept,
                                           pre_run=self._start_watching)
            except KeyboardInterrupt:  # Ctrl-C clears the line, as in a shell
                kept = ""
                continue
            except EOFError:
                break
            kept, key = "", None
            if self.pressed is not None:
                kept, typed, key = typed, *self.pressed
            if not self.handle(typed, key):
                break
        self._report()

    def _welcome(self) -> str:
        if not self.store.encounters():
            return _("[bold]welcome[/bold] to the table: type [bold]`new ID`[/bold] to start an "
                     "encounter (`new docks`), or `demo` to watch a short one first")
        return _("[bold]welcome[/bold] back: type [bold]`use ID`[/bold] to pick an encounter "
                 "(`list` shows them), or `new ID` to start one")

    def handle(self, typed: str, key: str | None = None) -> bool:
        """Run one typed line (or a key's); False when it asks to leave."""
        try:
            words = shlex.split(typed)
        except ValueError as exc:
            self._echo(typed)
            self._error(_("cannot read that line: {reason}").format(reason=exc))
            return True
        if not words:
            self._report(elsewhere=True)
            return True
        self._echo(typed, key)
        head = words[0]
        if head in QUIT:
            return False
        try:
            if head in HELP:
                self.show_help(words[1:], commands=head == "help")
            elif head in LAST:
                self.show_last(words[1:])
            else:
                self._dispatch(words)
        except LedgerError as exc:
            self._error(str(exc))
        except Exception as exc:  # a bug: still one line, and the console goes on
            if os.environ.get("COMBAT_DEBUG"):
                raise
            self._error(_("unexpected failure ({kind}: {reason}); set COMBAT_DEBUG=1 for "
                          "details").format(kind=type(exc).__name__, reason=exc))
        self._report()
        return True

    def _dispatch(self, words: list[str]) -> None:
        options, rest = leading(words)
        if rest[:1] == ["combat"]:  # `combat status`, as typed in a shell
            more, rest = leading(rest[1:])
            options += more
        fixed = [o for o in options if o.split("=", 1)[0] in FIXED_OPTIONS]
        if fixed:
            raise LedgerError(_("{option} is fixed when play mode starts: `use ID` switches "
                                "the encounter").format(option=fixed[0].split("=", 1)[0]))
        if not rest:
            raise LedgerError(_("say what to declare: `help` lists the commands"))
        if rest[0] == "play":
            raise LedgerError(_("this is play mode already"))
        if rest[0] in COST_ALIASES:
            self._load()
        args = options + expand(rest, self.state)
        if args != words:
            console.print(f"[dim]  = {escape(shlex.join(args))}[/dim]")
        if self.eid:  # (an undo or redo: of the log this console has shown)
            args += expected(self.session.ledger, self.eid, self.seen, args[len(options):])
        self._report(elsewhere=True)  # what other terminals declared meanwhile
        self._invoke(args)
        if args[len(options)] in SWITCHING:  # a new one is told from its first event
            self._follow(self.session.current(), told=args[len(options)] != "new")
            if args[len(options)] == "fork" and self.eid:  # its first event: the rest is its source's
                console.print(f"✓ {escape(forked(self.store, self.eid))}")

    def _invoke(self, args: list[str]) -> None:
        """Read a command line as `combat` does, then run it through the core."""
        try:
            run_line(self.command, self.session, args)
        except (typer.Abort, KeyboardInterrupt):
            self._error(_("interrupted"))
        except SystemExit as exc:  # a command that ended the process its own way
            if exc.code not in (0, None):
                self._error(_("the command stopped with exit code {code}").format(code=exc.code))

    # -- what the console shows ---------------------------------------------

    def show_help(self, words: list[str], commands: bool = True) -> None:
        if words and looks_like_rule(words[0]):  # `help R17`: the rule itself
            console.print(escape(as_text(rule(words[0]))), highlight=False)
            return
        if words:
            name = "act" if words[0] in COST_ALIASES else ALIASES.get(words[0], words[0])
            run_read(self.command, self.session, [name, "--help"])
            return
        console.print(_("[bold]aliases[/bold] (the rest is typed as with `combat`)"))
        for alias, meaning in GUIDE:
            console.print(f"  {escape(f'{alias:<18}')} {guide(meaning)}")
        console.print(_("[bold]keys[/bold]"))
        for key, meaning in KEYS:
            console.print(f"  {_(key):<18} {_(meaning)}")
        if not commands:  # `?` fits a 24-line terminal
            console.print(_("[bold]help[/bold] lists every command; `help COMMAND` shows one"))
            return
        console.print(_("[bold]commands[/bold] (`help COMMAND` for one)"))
        for name, cmd in self.command.commands.items():
            if name == "play":
                continue
            console.print(f"  {name:<18} {escape(cmd.get_short_help_str(limit=60))}")

    def show_last(self, words: list[str]) -> None:
        if len(words) > 1 or (words and not words[0].isdigit()):
            raise LedgerError(_("say how many lines: `l` or `l 20`"))
        n = int(words[0]) if words else LAST_LINES
        from projections.reports.timeline import timeline
        entries = list(timeline(self.session.ledger, self.session.encounter))
        console.print(log_table(self.session.encounter, entries[-n:] if n else [],
                                width=console.width))

    def _echo(self, typed: str, key: str | None = None) -> None:
        pressed = f" [dim]({key})[/dim]" if key else ""
        console.print(f"[bold]{escape(self._where())}›[/bold] {escape(typed)}{pressed}")

    def _error(self, message: str) -> None:
        """One error, in the console's words, wrapped between words to the
        terminal's width (a terminal wraps inside them)."""
        try:
            columns = self.prompt.output.get_size().columns
        except Exception:  # (no terminal size to be had: a generous line)
            columns = 100
        said = console_words(message).splitlines() or [""]  # (a correction's casualties)
        typer.echo("\n".join(
            textwrap.fill(line, max(columns, 40), subsequent_indent="  ",
                          break_long_words=False, break_on_hyphens=False)
            for line in [_("error: {reason}").format(reason=said[0]), *said[1:]]), err=True)

    def _where(self) -> str:
        """The prompt: the encounter, and who declares when it is not the GM."""
        if self.session.actor == "gm":
            return self.eid or "play"
        return _("{encounter} as {actor}").format(encounter=self.eid or "play",
                                                   actor=self.session.actor)

    def _message(self):
        """The prompt: the status table, then the line being typed."""
        output = get_app().output
        columns = output.get_size().columns
        color = output.get_default_color_depth() != ColorDepth.DEPTH_1_BIT
        # Redrawn at each key: render the table only when the log or the width changed.
        key = (self.eid, self.state.seq if self.state else 0, columns, color)
        if self._drawn[0] != key:
            self._drawn = (key, ANSI(screen(self.state, columns, color)))
        return merge_formatted_text([
            self._drawn[1], FormattedText([("bold", f"{self._where()}› ")])])

    # -- keeping up with the log --------------------------------------------

    def _load(self) -> bool:
        """Re-read the state when the log has grown; True if it changed."""
        if not self.eid:
            self.state = None
            return False
        head, _moved = self.store.head(self.eid)
        if self.state is not None and self.state.seq == head:
            return False
        self.state = self.session.ledger.state(self.eid)
        return True

    def _follow(self, eid: str | None, told: bool = True) -> None:
        """Switch to `eid`; unless `told`, what its log holds is reported next
        (`new ID --roster`: the encounter, the joins, the carried Grit)."""
        if eid and eid != self.eid:
            self.eid = self.session.chosen = eid
            self.state = None
            if told:
                self._load()
            self.seen = self.state.seq if told and self.state else 0

    def _report(self, elsewhere: bool = False) -> None:
        """Print what the log gained since the last report, then reload."""
        if not self.eid:
            return
        try:
            before = self.state
            self._load()
            said = []
            batch_of = partial(self.session.ledger.batch, self.eid)
            envs = [envelope(row) for row in self.store.rows(self.eid, after=self.seen)]
            # (a batch at a time: a declaration about several targets is one line)
            for _batch, group in groupby(envs, key=lambda e: e.batch):
                batch = list(group)
                for x in worded(batch, batch_of):
                    env = next((e for e in batch if e.data is x.payload), batch[0])
                    span = f"-{env.seq + len(x.also)}" if x.also else ""
                    tags = [f"seq {env.seq}{span}"] if x.declared else []
                    if elsewhere:
                        tags.append(escape(_("{actor}, from another terminal").format(
                            actor=env.actor)))
                    tail = f" [dim]({' · '.join(tags)})[/dim]" if tags else ""
                    console.print(f"{escape(x.text)}{tail}")
                    if x.declared:
                        said += [x.payload, *x.also]
                self.seen = batch[-1].seq
            if said and before is not None and self.state is not None \
                    and before.encounter == self.state.encounter:
                from projections.reports.flow import announce  # a turn that ended by itself...
                # careful: an untouched turn ended here was named (`e troll`)
                for line in announce(before, self.state, said, self.session.careful):
                    console.print(f"[bold yellow]↪ {escape(console_words(line))}[/bold yellow]")
        except LedgerError as exc:
            self._error(str(exc))

    def _start_watching(self) -> None:
        get_app().create_background_task(self._watch())

    async def _watch(self) -> None:
        """While the prompt waits: show what other terminals declare."""
        while True:
            await asyncio.sleep(self.refresh)
            if self._quietly(self._load):
                get_app().invalidate()
                await run_in_terminal(lambda: self._quietly(self._report, True))

    @staticmethod
    def _quietly(work, *args):
        """Work done on a timer: a failure (a busy store) waits for the next tick."""
        try:
            return work(*args)
        except Exception:
            if os.environ.get("COMBAT_DEBUG"):
                raise
            return False

    # -- keys --------------------------------------------------------------

    def _keys(self) -> KeyBindings:
        keys = KeyBindings()

        def press(line: str, key: str):
            def handler(event) -> None:  # the half-typed line comes back after
                self.pressed = (line, key)
                event.app.exit(result=event.current_buffer.text)
            return handler

        keys.add("c-z")(press("undo", "Ctrl-Z"))
        keys.add("c-y")(press("redo", "Ctrl-Y"))
        keys.add("c-l")(press("l", "Ctrl-L"))
        return keys


__all__ = ["Play", "acting", "expand", "screen"]
