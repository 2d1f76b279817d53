#!/usr/bin/env bash
# The warehouse raid: three rounds played with plain `combat` commands, using
# every rule of ../shared/RULES.md on the way (rule ids in the comments).
#
#   examples/warehouse-raid.sh                  # a fresh temporary store
#   COMBAT_DB=my.db examples/warehouse-raid.sh  # into this store
#   examples/warehouse-raid.sh raid-2           # under another encounter id
#
# `combat` must be on the PATH (`.venv/bin`). Every die is typed in (--die),
# so the fight plays the same every time.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ -z "${COMBAT_DB:-}" ]]; then
    COMBAT_DB="$(mktemp -d)/ledger.db"
fi
export COMBAT_DB
export COMBAT_ENCOUNTER="${1:-warehouse}"  # every command acts on this encounter
unset COMBAT_ACTOR

say() { printf '\n# %s\n' "$*"; }
combat() {  # each command is shown before what it prints
    local line='$ combat' word
    for word in "$@"; do
        [[ $word == *[[:space:]]* ]] && word="\"$word\""
        line+=" $word"
    done
    printf '%s\n' "$line"
    command combat "$@"
}
# The seq of the latest declaration, for `amend` and `retract`.
last_seq() { command combat status --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["seq"])'; }

say "The party, the boss, three gangers and a drone swarm, from one roster"
combat new "$COMBAT_ENCOUNTER" --title "Warehouse raid" --roster "$HERE/warehouse-raid.toml"

say "Initiative (R1): physical dice typed in; each group rolls once (R7)"
combat roll rook --die 7          # 7+3 = 10
combat roll vex --die 8           # 8+2 = 10: a tie with Rook
combat roll boss --die 6          # 6+4 = 10: PCs act before NPCs on a tie (R3)
combat roll gangers --die 5       # 5+1 = 6, the group's bonus
combat roll mara --die 4          # 4+1 = 5
combat roll drones --die 3        # 3+2 = 5: below Mara, PCs first (R3)
say "Oops: the drones' die showed 1, not 3. Amend the roll in place"
combat amend "$(last_seq)" --die 1 --reason "misread the die"
say "The players settle their tie (R3)"
combat --actor players order vex rook

say "Round 1 (R15): AP restored, the seize window is open"
combat round
combat seize rook                 # 1 Grit: Rook acts first this round (R10-R11)
combat act rook major shoots the boss
combat interrupt boss minor ducks behind a crate   # out of turn, from the pool (R19)
combat end-turn                   # Rook keeps 1 AP for a later pass (R6, R18)
combat act vex major hacks the door
combat act vex free shouts a warning               # free: no AP, no turn (R20)
combat end-turn
combat act boss major returns fire
combat end-turn

say "The gangers' slot: whoever declares first goes (R8)"
combat act ganger-2 major swings a pipe
combat undo --reason "ganger-2 is still behind the crates"   # R26
combat act ganger-1 major swings a pipe
combat end-turn
combat act ganger-2 minor throws a bottle
combat end-turn
combat end-turn ganger-3          # ganger-3 passes its turn in this pass (R8)

say "Mara: up to 4 AP in a turn (R17)"
combat act mara major sprints to the catwalk
combat act mara minor
combat end-turn
combat act drone-1 major tases Vex   # 2 AP: its pool is empty, its turn ends (R21)
combat act drone-2 minor
combat end-turn
combat end-turn drone-3
combat end-turn drone-4

say "AP was spent in turns: pass 2 visits everyone with AP left (R23)"
combat act rook minor reloads        # seized: still first in pass 2 (R11)
combat act vex minor ducks           # its last AP: the turn ends by itself (R21)
combat end-turn                      # the boss keeps its AP
combat act ganger-1 minor
combat end-turn ganger-2
combat end-turn ganger-3
combat act mara minor climbs
combat status

say "Round 2: the GM starts it before pass 3 (R24); unspent AP is lost (R15)"
combat round
combat seize boss                    # an NPC seizes too; PC seizers would go first (R12)
combat act boss major
combat end-turn
say "Reinforcements burst in (R5): a small roster, loaded mid-fight, rolls on joining"
combat load "$HERE/reinforcements.toml"
combat roll guards --die 9           # 9+1 = 10: tied with the boss
combat order guards boss             # the GM orders the NPCs' tie (R3)
combat act vex major covers the door
vex_seq="$(last_seq)"
combat end-turn
combat interrupt ganger-3 minor shoots at Vex   # between turns (R19)
combat act rook major shoots ganger-3
combat end-turn
combat act guard-1 major             # the guards' slot comes after the PCs' 10s (R3)
combat end-turn
combat end-turn guard-2
combat leave ganger-3 --reason "knocked out"    # skipped from now on (R22)
combat end-turn ganger-1
combat end-turn ganger-2
combat act mara major
combat end-turn
combat act drone-1 minor
combat end-turn
combat end-turn drone-2
combat end-turn drone-3
combat end-turn drone-4
say "Vex never covered the door: retract it, the rest is judged again (R28)"
combat retract "$vex_seq" --reason "Vex was still stunned"
combat grit rook 1 --reason "a brave plan"      # Grit gained (R13)

say "Pass 2 of round 2: the boss, seized, first again (R11)"
combat end-turn
combat act vex major covers the door, for real
combat status

say "Round 3: two seizers, PCs first (R12)"
combat round
combat seize vex
combat seize rook
combat --actor players order rook vex             # the players reorder their seizers
combat act rook major
combat end-turn
combat act vex major finishes the hack
combat end-turn
combat act guard-2 major
combat interrupt mara minor shoots guard-2      # in a group member's turn (R19)
combat end-turn
combat end-turn guard-1
combat act boss major
combat act boss major                           # 4 AP in one turn: it ends (R17, R21)
combat set-initiative drones 12 --reason "the swarm reprograms itself"  # R4
combat undo                          # the GM hesitates...
combat redo                          # ...and puts it back, the very same (R27)
combat max-ap mara 3 --reason "the reflex booster burns out"            # from round 4 (R14)
combat adjust-ap mara -1 --reason "stunned by the blast"                # now (R14)
combat rejoin ganger-3                                                  # R22
combat note the drones scatter and the boss runs for the van
combat end                                                              # R25

say "The record"
combat log --audit
combat status --at "$vex_seq"        # the table when Vex "covered the door" (R31)
combat verify
echo
echo "The raid is encounter $COMBAT_ENCOUNTER in $COMBAT_DB:"
echo "  COMBAT_DB=$COMBAT_DB combat --encounter $COMBAT_ENCOUNTER log"
