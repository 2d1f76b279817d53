#!/usr/bin/env bash
# The warehouse raid, examples/warehouse-raid.combat, played line by line with
# the real `combat` command, as you would type it at the table: each line is
# shown before what it prints, and the script's comments are the headings.
# (`combat demo` plays the same script in one process.)
#
#   examples/warehouse-raid.sh                  # a fresh temporary store
#   COMBAT_DB=my.db examples/warehouse-raid.sh  # into this store
#   examples/warehouse-raid.sh raid-2           # under another encounter id
#
# `combat` must be on the PATH (`.venv/bin`).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ -z "${COMBAT_DB:-}" ]]; then
    COMBAT_DB="$(mktemp -d)/ledger.db"
fi
export COMBAT_DB
export COMBAT_ENCOUNTER="${1:-warehouse}"  # every command acts on this encounter
unset COMBAT_ACTOR
cd "$HERE"  # the script's paths are relative to its folder

preamble=1  # the opening comment block describes the script
while IFS= read -r line || [[ -n $line ]]; do
    if ((preamble)); then
        [[ -z ${line// /} ]] && preamble=0
        continue
    fi
    case $line in
        "") ;;
        "#"*) printf '\n%s\n' "$line" ;;
        *)
            if [[ $line == "new" || $line == "new "* ]]; then
                line="new $COMBAT_ENCOUNTER${line#new}"
            fi
            printf '$ combat %s\n' "$line"
            eval "combat $line" </dev/null
            ;;
    esac
done <warehouse-raid.combat

echo
echo "The raid is encounter $COMBAT_ENCOUNTER in $COMBAT_DB:"
echo "  COMBAT_DB=$COMBAT_DB combat --encounter $COMBAT_ENCOUNTER log"
