"""`combat --version`: the installed package's version, read cheaply."""
from __future__ import annotations


def version_text() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return f"combat-ledger {version('combat-ledger')}"
    except PackageNotFoundError:  # a checkout run without installing it
        from eventlog.language import _
        return _("combat-ledger (not installed)")
