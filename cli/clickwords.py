"""click's and typer's own words (`Usage:`, `Options`, `No such option`,
`Missing argument`, `Try 'combat --help' for help.` ...) in the reader's
language.

click and typer mark their messages for the standard gettext
(`from gettext import gettext as _`, bound in each of their modules) and
ship no catalogue of their own. Their messages a person can meet are
marked here, so that they are in our catalogue beside ours, and
`speak_click()` puts our lookup where their modules call gettext. The
terminal does that only for a reader who is not read to in English, before
the app is built (cli/main.py): English costs nothing and reads click's
own words as they are."""
from __future__ import annotations

import gettext
import re
import sys

from eventlog.language import N_, _, n_

# Messages click and typer say themselves (those a person can meet; their
# own programming errors are left as they are). The plural ones are in
# `plurals` below.
WORDS = (
    N_("Usage:"), N_("Options"), N_("Commands"), N_("Arguments"), N_("Positional arguments"),
    N_("Show this message and exit."), N_("Show the version and exit."),
    N_("Error: {message}"), N_("Try '{command} {option}' for help."),
    N_("Invalid value: {message}"), N_("Invalid value for {param_hint}: {message}"),
    N_("Missing argument"), N_("Missing option"), N_("Missing parameter"),
    N_("Missing {param_type}"), N_("Missing parameter: {param_name}"),
    N_("No such option {name!r}."), N_("No such command {name!r}."), N_("Missing command."),
    N_("Option {name!r} does not take a value."), N_("Argument {name!r} takes {nargs} values."),
    N_("Invalid start character for option ({option})"),
    N_("{value!r} is not a valid {number_type}."), N_("{value} is not in the range {range}."),
    N_("{value!r} is not a valid boolean. Recognized values: {states}"),
    N_("{value!r} is not a valid UUID."), N_("Choice({choices})"),
    N_("file"), N_("directory"), N_("path"),
    N_("{name} {filename!r} does not exist."), N_("{name} {filename!r} is a file."),
    N_("{name} {filename!r} is a directory."), N_("{name} {filename!r} is not readable."),
    N_("{name} {filename!r} is not writable."), N_("{name} {filename!r} is not executable."),
    N_("Could not open file {filename!r}: {message}"), N_("unknown error"),
    N_("Aborted!"), N_("Error: invalid input"), N_("Repeat for confirmation"),
    N_("Error: The two entered values do not match."), N_("Do you want to continue?"),
    N_("Confirm the action without prompting."), N_("Press any key to continue..."),
    N_("env var: {var}"), N_("default: {default}"), N_("required"), N_("(dynamic)"),
    N_("deprecated"), N_("Value must be an iterable."),
    N_("Shell completion is not supported for Bash versions older than 4.4."),
    N_("Couldn't detect Bash version, shell completion is not supported."),
)

# typer's help of its completion options, which it does not mark for gettext
# (cli/base.py says it through `_`).
COMPLETION_HELP = {
    "install_completion": N_("Install completion for the current shell."),
    "show_completion": N_("Show completion for the current shell, to copy it or customize "
                          "the installation."),
}


def plurals(n: int) -> list[str]:
    """click's messages a number decides, in the reader's form for `n` (click
    says them through the ngettext `speak_click` gives it)."""
    return [
        n_("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", n),
        n_("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)", n),
        n_("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments.",
           n),
        n_("{value!r} is not {choice}.", "{value!r} is not one of {choices}.", n),
        n_("Takes {nargs} values but 1 was given.", "Takes {nargs} values but {len} were given.", n),
        n_("{len_type} values are required, but {len_value} was given.",
           "{len_type} values are required, but {len_value} were given.", n),
    ]


# click's and typer's modules that say their messages through gettext.
MODULES = ("click.core", "click.exceptions", "click.formatting", "click.parser", "click.types",
           "click.decorators", "click.termui", "click.utils", "click.shell_completion",
           "typer.core")


def speak_click() -> None:
    """click and typer say their messages through our lookup from now on:
    in the reader's language, English where it is English."""
    import importlib
    for name in MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # (a typer that carries its own click: below)
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] not in ("click", "typer") or module is None:
            continue
        if getattr(module, "_", None) is gettext.gettext:
            module._ = _  # type: ignore[attr-defined]
        if getattr(module, "ngettext", None) is gettext.ngettext:
            module.ngettext = n_  # type: ignore[attr-defined]
    _speak_typers_click()


# The click that typer carries (typer._click) writes its words in f-strings,
# not through gettext: its usage line, its help option and its errors are
# said here instead, from what the error knows; a message it made in words
# (a value that is not a number...) is read back by its form.
VENDORED = (
    (re.compile(r"(?P<message>.*)\. Did you mean (?P<suggestions>.*)\?", re.S),
     N_("{message}. Did you mean {suggestions}?")),
    (re.compile(r"Got unexpected extra argument(?:\(s\)|s)? \((?P<args>.*)\)", re.S),
     N_("Got unexpected extra argument(s) ({args})")),
    (re.compile(r"No such option: (?P<option>.*)", re.S), N_("No such option: {option}")),
    (re.compile(r"(?P<value>.*) is not a valid int(?:eger)?\.", re.S),
     N_("{value} is not a valid integer.")),
    (re.compile(r"(?P<value>.*) is not a valid float\.", re.S), N_("{value} is not a valid float.")),
    (re.compile(r"(?P<value>.*) is not a valid boolean\. Recognized values: (?P<states>.*)", re.S),
     N_("{value} is not a valid boolean. Recognized values: {states}")),
    (re.compile(r"(?P<value>.*) is not in the range (?P<range>.*)\.", re.S),
     N_("{value} is not in the range {range}.")),
    (re.compile(r"(?P<value>.*) is not one of (?P<choices>.*)\.", re.S),
     N_("{value} is not one of {choices}.")),
)
USAGE_METAVARS = (N_("[OPTIONS]"), N_("COMMAND [ARGS]..."))
MISSING = {"argument": N_("Missing argument{name}."), "option": N_("Missing option{name}."),
           "parameter": N_("Missing parameter{name}.")}


def said(message: str) -> str:
    """One of click's messages made in words, in the reader's language."""
    for form, english in VENDORED:
        if m := form.fullmatch(message):
            parts = m.groupdict()
            if "message" in parts:  # (typer's suggestion after a message of its own)
                parts["message"] = said(parts["message"])
            return _(english).format(**parts)
    return message


def _speak_typers_click() -> None:
    try:
        from typer._click import core, exceptions, formatting
    except ImportError:
        return
    from typer._click.utils import echo

    def hint(error) -> str:
        ctx = error.ctx
        if ctx is None or ctx.command.get_help_option(ctx) is None:
            return ""
        return _("Try '{command} {option}' for help.").format(
            command=ctx.command_path, option=ctx.help_option_names[0]) + "\n"

    def show(error, file=None) -> None:
        from typer._click._compat import get_text_stderr
        file = file or get_text_stderr()
        ctx = getattr(error, "ctx", None)
        if ctx is not None:
            echo(f"{ctx.get_usage()}\n{hint(error)}", file=file, color=ctx.color)
        echo(_("Error: {message}").format(message=error.format_message()), file=file,
             color=ctx.color if ctx is not None else error.show_color)

    def bad_parameter(error) -> str:
        if error.param_hint is not None:
            param_hint = error.param_hint
        elif error.param is not None:
            param_hint = error.param.get_error_hint(error.ctx)
        else:
            return _("Invalid value: {message}").format(message=said(error.message))
        return _("Invalid value for {param_hint}: {message}").format(
            param_hint=exceptions._join_param_hints(param_hint), message=said(error.message))

    def missing(error) -> str:
        param_hint = error.param_hint if error.param_hint is not None else (
            error.param.get_error_hint(error.ctx) if error.param is not None else None)
        param_hint = exceptions._join_param_hints(param_hint)
        kind = error.param_type or (error.param.param_type_name if error.param else "parameter")
        text = _(MISSING.get(kind, MISSING["parameter"])).format(
            name=f" {param_hint}" if param_hint else "")
        return f"{text} {said(error.message)}" if error.message else text

    def no_such_option(error) -> str:
        text = _("No such option: {option}").format(
            option=exceptions._escape_control_characters(error.option_name))
        if error.possibilities:
            text += " " + _("(Possible options: {options})").format(
                options=", ".join(sorted(error.possibilities)))
        return text

    usage = formatting.HelpFormatter.write_usage

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        for english in USAGE_METAVARS:  # (the placeholders click writes itself)
            if english in args:
                args = args.replace(english, _(english), 1)
        usage(self, prog, args, _("Usage:") + " " if prefix is None else prefix)

    helped = core.Command.get_help_option

    def get_help_option(self, ctx):
        option = helped(self, ctx)
        if option is not None:
            option.help = _("Show this message and exit.")
        return option

    def show_plain(error, file=None) -> None:
        echo(_("Error: {message}").format(message=said(error.format_message())), file=file,
             color=error.show_color)

    for cls, name, said_so in (
            (exceptions.ClickException, "show", show_plain), (exceptions.UsageError, "show", show),
            (exceptions.UsageError, "format_message", lambda error: said(error.message)),
            (exceptions.BadParameter, "format_message", bad_parameter),
            (exceptions.MissingParameter, "format_message", missing),
            (exceptions.NoSuchOption, "format_message", no_such_option),
            (formatting.HelpFormatter, "write_usage", write_usage),
            (core.Command, "get_help_option", get_help_option)):
        setattr(cls, name, said_so)
