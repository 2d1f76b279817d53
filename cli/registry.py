"""Which module of cli/ registers which command on the typer app: the shell
imports only the module of the command it runs (cli/main.py), and `--help`
lists them in the order of the table's evening (cli/base.py)."""

# Each module's commands, in the order `--help` lists them.
MODULES = {
    "setup_cmds": ("use", "list", "archive", "unarchive", "rename", "delete"),
    "declare_cmds": ("new", "add", "group", "roll", "order", "load", "round", "seize",
                     "act", "interrupt", "end-turn", "leave", "rejoin", "max-ap",
                     "adjust-ap", "grit", "set-initiative", "note", "end", "undo", "redo",
                     "retract", "amend", "fork", "effect", "end-effect", "track", "hide", "reveal"),
    "record_cmds": ("status", "log", "verify", "head", "export", "import", "demo"),
    "review_cmds": ("stats", "report", "replay", "schema"),
    "diff_cmds": ("diff",),
    "store_cmds": ("copy",),
    "play_cmds": ("play",),
    "token_cmds": ("token",),
    "hook_cmds": ("hook",),
    "serve_cmds": ("serve",),
    "rules_cmds": ("rules",),
    "party_cmds": ("party", "session"),
}
COMMANDS = {name: module for module, names in MODULES.items() for name in names}
# The order `--help` lists them in: the table's evening, from setting up to the review.
HELP_ORDER = ("new", *MODULES["setup_cmds"], *MODULES["declare_cmds"][1:],
              *(name for module, names in MODULES.items()
                if module not in ("setup_cmds", "declare_cmds") for name in names))
