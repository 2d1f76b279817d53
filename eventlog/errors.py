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


class Unconfirmed(Refusal):
    """A declaration the rules would take, held back until it is named: a
    careful client's bare end-turn of a turn with nothing declared in it
    (R21). `confirm` is the command that does it, named, for a client to
    offer (`{"command": "end-turn", "id": "rook"}`); `why`, the reason to
    ask, for a client's question (the message says what to type)."""

    def __init__(self, message: str, confirm: dict[str, str], why: str) -> None:
        super().__init__(message)
        self.confirm, self.why = confirm, why
