"""What is remembered on the user's machine rather than in the store: the
current encounter of each store (docs/operations.md, "Where the data lives": another
terminal or a server creating an encounter never switches yours)."""
from __future__ import annotations

import os

import msgspec

_codec = msgspec.json.Decoder(dict[str, str])


def state_folder() -> str:
    """Where this user's state lives (a string: every command reads it, and
    pathlib costs a command ~4 ms of start-up)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "combat-ledger")


def state_dir():
    """The same folder as a Path."""
    from pathlib import Path
    return Path(state_folder())


def _file() -> str:
    return os.path.join(state_folder(), "current.json")


def _read() -> dict[str, str]:
    try:
        with open(_file(), "rb") as f:
            return _codec.decode(f.read())
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return {}  # nothing remembered yet, or a damaged file: start afresh


def current(store_id: str) -> str | None:
    """The encounter this user last chose in the store `store_id`."""
    return _read().get(store_id)


def set_current(store_id: str, encounter: str) -> None:
    """Remember `encounter` as this user's current one in `store_id`; a home
    that cannot be written is no reason to refuse a declaration."""
    import tempfile  # here: reading commands never pay for it
    chosen = _read()
    chosen[store_id] = encounter
    path = _file()
    try:
        os.makedirs(state_folder(), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=state_folder(), prefix=".current-")
        with os.fdopen(fd, "wb") as f:
            f.write(msgspec.json.encode(chosen))
        os.replace(tmp, path)  # atomic: two terminals never leave half a file
    except OSError:
        pass
