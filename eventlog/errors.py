"""One error hierarchy: the CLI catches LedgerError in one place."""


class LedgerError(Exception):
    """Anything refused or broken, said in table language."""


class Refusal(LedgerError):
    """A declaration the rules forbid; the message cites the rule (R17)."""


class UnknownEncounter(LedgerError):
    """No encounter by that id in the store."""


class Conflict(LedgerError):
    """Another writer appended first; the caller re-reads and re-judges."""


class StoreError(LedgerError):
    """The database cannot be used (locked, not a ledger, newer schema...)."""


class BrokenChain(LedgerError):
    """The hash chain does not verify (R30)."""


class InvalidFile(LedgerError):
    """An input file (an export, a roster) is malformed."""
