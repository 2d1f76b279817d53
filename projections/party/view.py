"""The party and its sessions as the terminal and `--json` show them."""
from __future__ import annotations

from eventlog.language import _, n_
from eventlog.names import shown
from projections.party.state import Party


def party_json(p: Party) -> dict:
    """`party --json`: `characters` (id, name, bonus, ap, grit, tracks,
    conditions, portrait), `seq`, and the fights that hold some of them."""
    return {"characters": [ch.as_dict() for ch in p.characters.values()], "seq": p.seq,
            "fights": [{"encounter": f, "characters": ids} for f, ids in p.fights.items()],
            "session": p.session.id if p.session else None}


def party_lines(p: Party) -> list[str]:
    if not p.characters:
        return [_("The party is empty (seq {seq}): add a character with "
                  "`combat party add NAME`.").format(seq=p.seq)]
    out = [_("The party (seq {seq})").format(seq=p.seq)]
    width = max(len(x) for x in p.characters)
    names = max(len(shown(ch.name)) for ch in p.characters.values())
    for ch in p.characters.values():
        tracks = "  ".join(f"{t.track} {t.value}" + (f"/{t.max}" if t.max is not None else "")
                           for t in ch.tracks.values())
        conditions = ", ".join(condition(x) for x in ch.conditions)
        held = p.holder(ch.id)
        line = (f"  {ch.id:<{width}}  {shown(ch.name):<{names}}  "
                + _("bonus {bonus}  AP {ap}  Grit {grit}").format(
                    bonus=f"{ch.bonus:+d}", ap=ch.max_ap, grit=ch.grit)
                + (f"  {tracks}" if tracks else "")
                + (f"  [{conditions}]" if conditions else "")
                + ("  " + _("(in fight {id})").format(id=held) if held else ""))
        out.append(line.rstrip())
    if p.session is not None:
        if p.session.title:
            out.append(_("Session {id} is open: {title}").format(
                id=p.session.id, title=shown(p.session.title)))
        else:
            out.append(_("Session {id} is open").format(id=p.session.id))
    return out


def condition(x) -> str:
    """A lasting condition as the party shows it: `poisoned (until rest)`."""
    if x.until_rest:
        return _("{name} (until rest)").format(name=shown(x.name))
    if x.fights is not None:
        return n_("{name} ({n} more fight)", "{name} ({n} more fights)", x.fights).format(
            name=shown(x.name), n=x.fights)
    return shown(x.name)


def sessions_json(p: Party) -> dict:
    return {"sessions": [{"id": x.id, "title": x.title, "started": x.started, "ended": x.ended,
                          "fights": x.fights} for x in p.sessions]}


def session_lines(p: Party) -> list[str]:
    if not p.sessions:
        return [_("No sessions yet: open one with `combat session start [TITLE]`.")]
    return [f"  {x.id}  {shown(x.title) or _('(untitled)')}  " + _(
        "party seq {first}-{last}  fights: {fights}").format(
            first=x.started, last=x.ended if x.ended is not None else _("open"),
            fights=", ".join(x.fights) or _("none")) for x in p.sessions]


def difference_lines(p: Party, carried) -> list[str]:
    """What a carry would change, one line per character: `rook  hp 15/20
    -> 12/20  poisoned ends`."""
    out = []
    for left in carried.characters:
        ch = p.characters[left.id]
        said = [f"Grit {ch.grit} -> {left.grit}"] if left.grit != ch.grit else []
        for t in left.tracks:
            was = ch.tracks.get(t.track)
            most = f"/{t.max}" if t.max is not None else ""
            said.append(f"{t.track} " + (f"{was.value}{'' if was.max is None else f'/{was.max}'}"
                                         if was else _("none")) + f" -> {t.value}{most}")
        now = {x.name: x for x in left.conditions}
        said += [_("{name} ends").format(name=shown(x.name)) for x in ch.conditions
                 if x.name not in now]
        said += [_("now {condition}").format(condition=condition(x)) for x in left.conditions
                 if x not in ch.conditions]
        out.append(f"  {left.id}  " + "  ".join(said or [_("(no change)")]))
    out += ["  " + _("{id} is no longer in the party: not carried").format(id=cid)
            for cid in carried.missing]
    return out


def carry_lines(carried, seq: int, before: Party) -> list[str]:
    """What a carry took into the party, one line per character, as what
    each value was in the party `before` it and is now (`hp 12/12 -> 9/12`,
    `poisoned ends`)."""
    if carried is None:
        return [_("nothing new to carry into the party")]
    head = _("carried into the party (party seq {seq}, from {id} at seq {at}):").format(
        seq=seq, id=carried.encounter, at=carried.seq)
    if not carried.characters and not carried.missing:
        return [head, "  " + _("(no changes)")]
    return [head, *difference_lines(before, carried)]
