"""A full round through the one entry point, with no command line at all:
the library as a script (or a server) uses it.

    python examples/core_round.py [STORE.db]     (no argument: in memory)
"""
import sys
from itertools import cycle

from projections import Ledger, MemoryStore, open_store, status
from projections import commands as c


def play(store) -> dict:
    ledger, dice = Ledger(store), cycle([7, 4, 6]).__next__  # dice come in (R1)
    ledger.execute(None, c.New(id="alley", title="Alley fight"))

    def do(command, actor="gm"):
        return ledger.execute("alley", command, actor, dice=dice).state

    do(c.Add(name="Rook", pc=True, bonus=3, grit=1))
    do(c.Add(name="Vex", pc=True, bonus=2))
    do(c.Add(name="Ganger", count=2, group="gangers", bonus=1))
    do(c.Roll())                                     # rook 10, vex 6, gangers 7
    do(c.Round())
    do(c.Seize(id="rook"), "rook")
    do(c.Act(id="rook", cost="major", label="shoots"), "rook")
    do(c.Interrupt(id="vex", cost="minor", label="dives for cover"), "vex")
    do(c.EndTurn(), "rook")
    do(c.Act(id="ganger-2", cost="major", label="swings"))  # a group slot: any member
    do(c.EndTurn())
    do(c.EndTurn(id="ganger-1"))                      # ganger-1 passes (R8)
    do(c.Act(id="vex", cost="major", label="hacks the door"), "vex")
    state = do(c.Undo())                              # the GM takes the hack back
    return status(state)


if __name__ == "__main__":
    shown = play(open_store(sys.argv[1]) if len(sys.argv) > 1 else MemoryStore())
    print(shown["round"], shown["pass"], shown["acting"], shown["order"])
    for who in shown["combatants"]:
        print(f"  {who['id']:<9} AP {who['ap']}/{who['max_ap']}  Grit {who['grit']}")
