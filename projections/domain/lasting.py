"""How long an effect lasts (R14), and the conditions of the party's
characters that outlast the fight (docs/rules.md, "The party"): in the
fight they last until ended; `end` carries them into the party."""
from __future__ import annotations

from eventlog.errors import Refusal
from eventlog.language import _
from eventlog.events import EffectApplied
from projections.domain.state import State


def check_span(s: State, e: EffectApplied) -> None:
    """Refuse an effect without exactly one duration, or one that cannot
    last as long as it says."""
    outlasts = e.until_rest or e.fights is not None
    if [e.until_round_end, e.rounds is not None, e.until_ended, e.until_rest,
            e.fights is not None].count(True) != 1:
        raise Refusal(_("an effect lasts either some rounds (--rounds N), until the end of the "
                        "round (--until-round-end), until ended (--until-ended), until the "
                        "party rests (--until-rest) or some fights (--fights N)"))
    if outlasts and e.combatant not in s.party:
        raise Refusal(_("{id} is not one of the party's characters in this fight: only theirs "
                        "outlast it (--until-rest, --fights N, with `new --party`); give it "
                        "--until-ended").format(id=e.combatant))
    if outlasts and e.max_ap:
        raise Refusal(_("a change of maximum AP lasts within the fight (R14): --until-rest and "
                        "--fights are for a condition (leave out --max-ap)"))
    if e.until_round_end and not s.running:
        raise Refusal(_("no round is running: an effect until the round's end needs one; "
                        "give it --rounds N for the next rounds (R14)"))
