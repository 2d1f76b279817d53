"""What is remembered on the user's machine rather than in the store: the
current encounter of each store (docs/operations.md, "Where the data lives": another
terminal or a server creating an encounter never switches yours)."""
from __future__ import annotations

import os
from pathlib import Path

import msgspec

_codec = msgspec.json.Decoder(dict[str, str])


def state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "combat-ledger"


def _file() -> Path:
    return state_dir() / "current.json"


def _read() -> dict[str, str]:
    try:
        return _codec.decode(_file().read_bytes())
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
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".current-")
        with os.fdopen(fd, "wb") as f:
            f.write(msgspec.json.encode(chosen))
        os.replace(tmp, path)  # atomic: two terminals never leave half a file
    except OSError:
        pass
