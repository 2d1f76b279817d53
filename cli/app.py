"""The whole command line: every command registered on the app, in the order
`--help` lists them. The `combat` program starts in cli/main.py, which imports
only the module of the command it runs."""
from cli.base import CLICK_ERROR, app  # noqa: F401
from cli import (  # noqa: E402,F401,I001
    setup_cmds, declare_cmds, record_cmds, review_cmds, diff_cmds, store_cmds, play_cmds, token_cmds,
    hook_cmds, serve_cmds, rules_cmds, party_cmds)
from cli.main import main  # noqa: F401

if __name__ == "__main__":
    main()
