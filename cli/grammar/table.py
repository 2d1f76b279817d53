"""Every declaring command of the table, as a line takes it: arguments,
options, defaults and help, written once. The order is the one `--help`
lists them in."""
from __future__ import annotations

from typing import Any

from eventlog.language import N_, _
from projections.domain import commands as c

from cli.grammar.spec import NUMBER, Arg, BadLine, Opt, Reader, Spec

# (the core's words for a cost, projections/domain/phrases.py COST_WORDS, as a sentence)
COST_HELP = N_("free, minor (1 AP), major (2 AP) or a whole number of AP (R16).")
WHY = N_("Why, for the record.")
REASON = Opt("reason", "--reason", N_("Why: kept in the log for the audit (R29)."), required=True)
MAY_REASON = Opt("reason", "--reason", WHY, default="")
CASCADE = N_("Also retract the later declarations it would make illegal (R28).")
DRY_RUN = Opt("dry_run", "--dry-run", N_("Say what it would change; append nothing."), bool, False)
EXPECT = Opt("expect", "--expect", N_("Only if the batch it would take back (or bring back) "
             "is the one starting at SEQ, the one you saw; otherwise refused, naming "
             "what is latest now (R26, R27)."), int, metavar="SEQ")


def _reader(read: Reader | None, spec: str) -> Reader:
    if read is None:
        raise BadLine(_("`{command}` reads a file on the server: send the roster as the "
                        "JSON `load` command instead").format(command=spec))
    return read


def _new(values: dict[str, Any], read: Reader | None) -> c.Command:
    members, party = values.pop("members", None), values.pop("party", False)
    if members is not None and not party:
        raise BadLine(_("the characters follow --party: `new ID --party rook,vex`"))
    values["party"] = (members or "") if party else None
    roster, carry = values.pop("roster"), values.get("carry_grit")
    if roster is None and carry is not None:
        raise BadLine(_("--carry-grit carries Grit to a roster's combatants: give the "
                        "roster with --roster FILE"))
    load = _reader(read, "new --roster")(roster) if roster is not None else None
    return c.New(roster=load, **values)


def _fork(values: dict[str, Any], read: Reader | None) -> c.Command:
    new, named = values.pop("new", None), values.pop("id", None)
    if new and named and new != named:
        raise BadLine(_("name the fork once: `fork SEQ NEW` or `fork SEQ --as NEW`"))
    if not (new or named):
        raise BadLine(_("name the fork: `fork SEQ --as NEW` (e.g. fork 17 --as what-if)"))
    return c.Fork(id=new or named, **values)


def _load(values: dict[str, Any], read: Reader | None) -> c.Command:
    return _reader(read, "load")(values["file"])


def _track(values: dict[str, Any], read: Reader | None) -> c.Command:
    word, public, private = values.pop("value"), values.pop("public"), values.pop("private")
    if public and private:
        raise BadLine(_("a track is either --public or --private"))
    if not NUMBER.fullmatch(word.strip()):
        raise BadLine(_("VALUE is a number (10) or a change (+2, -3), not {word!r} "
                        "(usage: track ID NAME VALUE)").format(word=word[:40]))
    change: dict[str, Any] = {"delta" if word.strip()[0] in "+-" else "value": int(word)}
    shown = True if public else False if private else None
    return c.Track(**values, **change, public=shown)


SPECS: tuple[Spec, ...] = (
    Spec("new", c.New, N_("Create an encounter; it becomes the current one."),
         N_('combat new warehouse --title "Warehouse raid"\n'
         "combat new docks --roster examples/party.toml --carry-grit warehouse\n"
         "combat new alley --party rook,vex"),
         (Arg("id", "ID", N_("Its id, a slug like `warehouse`.")),
          Arg("members", "IDS", N_("With --party: only these characters (ids, commas between)."),
              required=False),
          Opt("party", "--party", N_("Start with the party's characters as PCs, as they are now "
              "(all, or the IDS listed)."), kind=bool, default=False),
          Opt("title", "--title", N_("A title for people."), default=""),
          Opt("roster", "--roster", N_("Start with this roster file in (see `load`)."),
              metavar="FILE"),
          Opt("carry_grit", "--carry-grit", N_("Copy each roster combatant's current Grit "
              "from encounter FROM, as an audited declaration."), metavar="FROM",
              complete="encounters")),
         reads_file="--roster", build=_new),
    Spec("add", c.Add, N_("Add a combatant (or --count of them); reinforcements roll on "
         "joining (R5)."), 'combat add "Big Ganger" --bonus 1 --count 3 --group gangers',
         (Arg("name", "NAME", N_('The combatant\'s name, e.g. "Big Ganger".')),
          Opt("id", "--id", N_("Id (default: the slug of NAME).")),
          Opt("pc", "--pc", N_("A player character (default: NPC)."), bool, False),
          Opt("bonus", "--bonus", N_("Initiative bonus."), int, 0),
          Opt("ap", "--ap", N_("Maximum AP (R14)."), int, 3),
          Opt("grit", "--grit", N_("Grit pool."), int, 0),
          Opt("group", "--group", N_("Join this group (R7)."), complete="groups"),
          Opt("count", "--count", N_("Add K of them: ID-1..ID-K."), int, 1, metavar="K"),
          Opt("hidden", "--hidden", N_("The players do not see it until it is revealed."),
              bool, False))),
    Spec("group", c.Group, N_("Set a group's initiative bonus (R7)."),
         "combat group gangers --bonus 1",
         (Arg("id", "G", N_("The group's id."), complete="groups"),
          Opt("bonus", "--bonus", N_("The group's initiative bonus."), int, required=True))),
    Spec("roll", c.Roll, N_("Roll initiative, 1d10 + bonus (R1); groups roll once (R7)."),
         N_("combat roll            (everyone who has not rolled)\ncombat roll rook --die 7"),
         (Arg("slots", "SLOT", N_("Slot ids (default: every active slot without initiative)."),
              required=False, words="list", complete="slots"),
          Opt("die", "--die", N_("A physical d10 rolled at the table (1-10), one slot only."),
              int))),
    Spec("order", c.Order, N_("Declare the order of tied slots (R3) or of seizers (R12)."),
         "combat --actor players order vex rook",
         (Arg("slots", "SLOT", N_("Tied slots (R3) or same-side seizers (R12), first to "
              "act first."), words="list", complete="slots"),)),
    Spec("load", c.Load, N_("Load a roster file: its combatants and groups join in one "
         "declaration."), "combat load examples/warehouse-raid.toml",
         (Arg("file", "FILE", N_("A roster: .toml, .yaml, .yml or .json (see the docs' "
              "rosters page).")),),
         details=N_("The whole file is refused if any entry is wrong, and one `undo` takes "
                 "it all back. In a running encounter they are reinforcements: they "
                 "roll initiative on joining (R5)."),
         reads_file="FILE", build=_load),
    Spec("round", c.Round, N_("Start the next round: AP restored, seize window open "
         "(R15, R24)."), "combat round        combat round --dry-run", (DRY_RUN,)),
    Spec("seize", c.Seize, N_("Spend 1 Grit to Seize the Moment: act first this round "
         "(R10-R13)."), "combat seize vex",
         (Arg("id", "ID", N_("Who seizes."), complete="combatants"),)),
    Spec("act", c.Act, N_("Spend AP in a combatant's own turn, at most 4 per turn "
         "(R16-R18, R20)."), N_("combat act rook major shoots the ganger"),
         (Arg("id", "ID", N_("Whose turn it is."), complete="combatants"),
          Arg("cost", "COST", COST_HELP),
          Arg("label", "LABEL", N_("What they do, e.g. shoots."), required=False, words="text"))),
    Spec("interrupt", c.Interrupt, N_("Spend AP out of turn: an Interrupt Action (R19)."),
         N_("combat interrupt vex minor dives for cover"),
         (Arg("id", "ID", N_("Who interrupts."), complete="combatants"),
          Arg("cost", "COST", COST_HELP),
          Arg("label", "LABEL", N_("What they do."), required=False, words="text"))),
    Spec("end-turn", c.EndTurn, N_("End the turn in progress; in an open group slot, ID "
         "passes (R8, R21)."), "combat end-turn        combat end-turn ganger-3",
         (Arg("id", "ID", N_("In a group slot with no turn in progress: the member who "
              "passes."), required=False, complete="combatants"),),
         details=N_("A bare end-turn of a turn with nothing spent in it yet is said "
                 "loudly; in play mode, on the GM's page (and with COMBAT_CAREFUL=1) it "
                 "is refused: name the turn to end.")),
    Spec("leave", c.Leave, N_("A combatant leaves the encounter: skipped until they rejoin "
         "(R22)."), N_('combat leave ganger-2 --reason "knocked out"'),
         (Arg("id", "ID", N_("Who leaves."), complete="combatants"),
          Opt("reason", "--reason", N_("Defeated, fled, removed..."), default=""))),
    Spec("rejoin", c.Rejoin, N_("A combatant comes back, at their old initiative and "
         "current AP (R22)."), "combat rejoin ganger-2",
         (Arg("id", "ID", N_("Who comes back."), complete="combatants"),)),
    Spec("max-ap", c.MaxAP, N_("Change a combatant's maximum AP; it applies at the next "
         "round (R14)."), N_('combat max-ap chrome 4 --reason "wired reflexes"'),
         (Arg("id", "ID", N_("Whose maximum."), complete="combatants"),
          Arg("n", "N", N_("The new maximum AP."), int), REASON)),
    Spec("adjust-ap", c.AdjustAP, N_("Adjust a combatant's current AP now, never below 0 "
         "(R14)."), N_("combat adjust-ap rook -1 --reason stunned"),
         (Arg("id", "ID", N_("Whose AP."), complete="combatants"),
          Arg("delta", "DELTA", N_("AP to add (negative to take)."), int), REASON)),
    Spec("grit", c.Grit, N_("Grit gained or lost; never below 0 (R13)."),
         N_('combat grit rook -1        combat grit cat 1 --reason "good roleplay"'),
         (Arg("id", "ID", N_("Whose Grit."), complete="combatants"),
          Arg("delta", "DELTA", N_("Grit gained (negative: lost)."), int), MAY_REASON)),
    Spec("set-initiative", c.SetInitiative, N_("Override a slot's initiative total; the die "
         "stays recorded (R4)."), N_('combat set-initiative boss 15 --reason "ambush"'),
         (Arg("slot", "SLOT", N_("The slot: a lone combatant or a group."), complete="slots"),
          Arg("total", "TOTAL", N_("The new initiative total."), int), REASON)),
    Spec("note", c.Note, N_("Add a note to the record (allowed even after the end, R25)."),
         N_("combat note the warehouse is on fire"),
         (Arg("text", "TEXT", N_("The note."), words="text"),)),
    Spec("end", c.End, N_("End the encounter: afterwards only notes, undo, redo, retract "
         "and amend (R25). A fight from the party carries what it left them back to it."),
         "combat end\ncombat end --no-carry",
         (Opt("no_carry", "--no-carry", N_("Leave the party as it is."), kind=bool,
              default=False),)),
    Spec("undo", c.Undo, N_("Undo the latest declaration (a whole command's batch); nothing "
         "is deleted (R26)."), "combat undo\ncombat undo --expect 40", (MAY_REASON, DRY_RUN, EXPECT)),
    Spec("redo", c.Redo, N_("Redo the most recently undone declaration, with the same dice "
         "(R27)."), "combat redo\ncombat redo --expect 40", (DRY_RUN, EXPECT)),
    Spec("retract", c.Retract, N_("Retract an earlier declaration (a mistake noticed later), "
         "re-judging the rest (R28)."), N_('combat retract 12 --reason "the reload cost 1 AP"'),
         (Arg("seq", "SEQ", N_("Any seq of the declaration to retract."), int),
          Opt("cascade", "--cascade", CASCADE, bool, False), MAY_REASON, DRY_RUN)),
    Spec("amend", c.Amend, N_("Correct an earlier declaration in place; everything after it "
         "is re-judged (R28)."),
         N_('combat amend 12 --die 8        combat amend 15 --cost minor --reason "a reload costs 1"'),
         (Arg("seq", "SEQ", N_("The seq of the declaration to correct."), int),
          Opt("die", "--die", N_("The die an initiative roll really showed."), int),
          Opt("cost", "--cost", N_("The action's real cost: free, minor, major or a number.")),
          Opt("label", "--label", N_("The action's real label.")),
          Opt("who", "--who", N_("Who really acted."), complete="combatants"),
          Opt("value", "--value", N_("A track change's real VALUE (a change stays a "
              "change: -5 for -3)."), int, metavar="N"),
          Opt("cascade", "--cascade", CASCADE, bool, False), MAY_REASON, DRY_RUN)),
    Spec("fork", c.Fork, N_("Start a new encounter from this one's history up to SEQ (its "
         "whole batch) and play it on another way; this one is left as it is. The fork "
         "becomes the current encounter."),
         N_('combat fork 17 --as what-if --title "What if Rook had not seized?"\n'
         "combat diff warehouse what-if"),
         (Arg("seq", "SEQ", N_("The last event the fork keeps (with the rest of its batch)."), int),
          Arg("new", "NEW", N_("The fork's id (or --as NEW)."), required=False),
          Opt("id", "--as", N_("The fork's id, a slug like `what-if`."), metavar="NEW"),
          Opt("title", "--title", N_("A title for people (default: this one's, with the seq)."),
              default="")),
         details=N_("Its status is this encounter's `status --at SEQ`, a turn in progress, "
                 "effects, tracks and hidden combatants included. `combat diff` compares "
                 "the two; `list` shows where a fork came from."),
         build=_fork),
    Spec("effect", c.Effect, N_("A condition on a combatant (prone, blinded) for a while; "
         "with --max-ap it changes the maximum AP (R14). It runs out by itself."),
         N_('combat effect vex prone --until-round-end        combat effect rook blinded --rounds 2\n'
         'combat effect goblin-1,goblin-2 stunned --rounds 1\n'
         'combat effect rook "Wired reflexes" --max-ap +1 --rounds 3'),
         (Arg("id", "ID", N_("Who is affected; several ids between commas "
              "(goblin-1,goblin-2) are one declaration, one undo."), complete="targets"),
          Arg("name", "NAME", N_('The condition or effect, e.g. prone, "Wired reflexes".')),
          Opt("max_ap", "--max-ap", N_("The change of maximum AP, e.g. +1 or -1 (none: a "
              "condition)."), int),
          Opt("rounds", "--rounds", N_("It lasts N rounds: a condition to the end of round "
              "now + N; a change of maximum AP covers the next N rounds' AP restores."), int),
          Opt("until_round_end", "--until-round-end", N_("It counts at once and ends with "
              "this round."), bool, False),
          Opt("until_ended", "--until-ended", N_("It lasts until `end-effect` ends it."),
              bool, False),
          Opt("until_rest", "--until-rest", N_("A party character's condition that outlasts "
              "the fight: `end` carries it into the party, where it lasts until the party "
              "rests."), bool, False),
          Opt("fights", "--fights", N_("A party character's condition for N fights, this one "
              "included: each carry counts one down."), int),
          Opt("effect", "--id", N_("The effect's id (default: the slug of NAME).")))),
    Spec("track", c.Track, N_("Set or change a named counter of a combatant (hp, stun, "
         "ammo); a change past 0 or its maximum stops there."),
         N_('combat track juno hp 10 --max 10        combat track juno hp -3 --reason shot '
         '--by ganger-1\ncombat track boss hp 40 --max 40 --public\n'
         'combat track goblin-1,goblin-2,boss hp -3'),
         (Arg("id", "ID", N_("Whose track; several ids between commas "
              "(goblin-1,goblin-2,boss) are one declaration, one undo."),
              complete="targets"),
          Arg("name", "NAME", N_("The track: hp, stun, ammo...")),
          Arg("value", "VALUE", N_("The new value (10), or a change (+2, -3).")),
          Opt("max", "--max", N_("Its maximum from now on."), int, metavar="N"),
          MAY_REASON,
          Opt("by", "--by", N_("Who caused it (damage dealt, in the report)."),
              metavar="ID", complete="combatants"),
          Opt("public", "--public", N_("Players see this NPC track's value."), bool, False),
          Opt("private", "--private", N_("Players no longer see it."), bool, False)),
         build=_track),
    Spec("hide", c.Hide, N_("Hide a combatant from the players' and the TV's pages until "
         "it is revealed."), "combat hide sniper",
         (Arg("id", "ID", N_("Who is hidden."), complete="combatants"),),
         details=N_("It plays by every rule; it reveals itself when its first turn starts "
                 "or it interrupts or seizes. The GM and the CLI always see it.")),
    Spec("reveal", c.Reveal, N_("Reveal a hidden combatant: the players see it and its "
         "whole past."), "combat reveal sniper",
         (Arg("id", "ID", N_("Who is revealed."), complete="combatants"),)),
    Spec("end-effect", c.EndEffect, N_("End an effect before it runs out (R14)."),
         N_('combat end-effect stunned --reason "a medkit"'),
         (Arg("effect", "EFFECT", N_("The effect's id (see status).")), MAY_REASON)),
)

# The reading commands the grammar reads too: the terminal answers
# `status --json` through it without building the typer app (cli/main.py),
# and the typer command takes its options' help from here.
READS: tuple[Spec, ...] = (
    Spec("status", None, N_("Show the order, who is up, AP, Grit, round and pass."),
         "combat status        combat status --json --at 12",
         (Opt("as_json", "--json", N_("JSON for scripts (docs/formats.md)."), bool, False),
          Opt("at", "--at", N_("The state as it stood at this seq (R31)."), int))),
)
