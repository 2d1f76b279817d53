"""The party's and the sessions' declarations as a line takes them (`party
rest --full`, `session start "Night two"`): two words name each, read by the
same parser as the table's commands, so the shell, play mode and the GM's
command box read them alike. `party` and `session` alone are reads."""
from __future__ import annotations

from typing import Any

from eventlog.language import N_
from projections.domain import commands as c

from cli.grammar.spec import Arg, Opt, Reader, Spec

WHY = Opt("reason", "--reason", N_("Why, for the record."), default="")
TRACK = Opt("tracks", "--track", N_("A track, NAME=VALUE or NAME=VALUE/MAX (hp=12/20); repeat "
            "for more."), list, (), metavar="NAME=VALUE[/MAX]")


def _tracked(struct: type[c.Command]):
    def build(values: dict[str, Any], read: Reader | None) -> c.Command:
        return struct(**{**values, "tracks": list(values["tracks"])})
    return build


PARTY_SPECS: tuple[Spec, ...] = (
    Spec("party add", c.PartyAdd, N_("A character joins the party."),
         "combat party add Rook --bonus 5 --grit 1 --track hp=20/20",
         (Arg("name", "NAME", N_("The character's name.")),
          Opt("id", "--id", N_("Its id (default: made from the name).")),
          Opt("bonus", "--bonus", N_("Initiative bonus."), int, 0),
          Opt("ap", "--ap", N_("Maximum AP."), int, 3),
          Opt("grit", "--grit", N_("Grit now."), int, 0), TRACK, WHY),
         build=_tracked(c.PartyAdd)),
    Spec("party set", c.PartySet, N_("A change to a character between fights."),
         N_('combat party set rook --track hp=20 --reason "healed in town"'),
         (Arg("id", "ID", N_("The character's id.")),
          Opt("bonus", "--bonus", N_("Initiative bonus."), int),
          Opt("ap", "--ap", N_("Maximum AP."), int),
          Opt("grit", "--grit", N_("Grit."), int), TRACK, WHY),
         build=_tracked(c.PartySet)),
    Spec("party remove", c.PartyRemove, N_("A character leaves the party (its history "
         "stays in the log)."), N_("combat party remove vex --reason retired"),
         (Arg("id", "ID", N_("The character's id.")), WHY)),
    Spec("party rest", c.PartyRest, N_("A rest: conditions that last until a rest end; --full "
         "also restores every track with a maximum to it."), "combat party rest --full",
         (Opt("full", "--full", N_("A full rest: every track back to its maximum too."), bool,
              False), WHY)),
    Spec("party carry", c.PartyCarry, N_("Carry into the party what a fight left its "
         "characters and the party does not hold yet (after a correction to the fight, "
         "or `end --no-carry`)."),
         N_('combat party carry bridge --reason "the hit was retracted"'),
         (Arg("encounter", "ENCOUNTER", N_("The fight (started with --party)."),
              complete="encounters"), WHY)),
    Spec("party undo", c.PartyUndo, N_("Take back the party's latest declaration (a carry "
         "included)."), "combat party undo", (WHY,)),
    Spec("party redo", c.PartyRedo, N_("Declare again the party's most recently undone "
         "declaration."), "combat party redo"),
    Spec("session start", c.SessionStart, N_("Open a session: the fights started from now "
         "on belong to it."), N_('combat session start "Night one"'),
         (Arg("title", "TITLE", N_("The evening's title."), required=False, words="text"),)),
    Spec("session end", c.SessionEnd, N_("Close the open session."), "combat session end"),
)
