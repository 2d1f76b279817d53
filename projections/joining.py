"""The encounter on the table and joining it by the join page (the docs,
"Table server", "Joining"), kept in the store so that every server over it
agrees, and decided here, each decision in one `store.deciding()`.

- The table: the encounter the GM put there, in the life it had then (the
  hash of its first event): a delete and a `new` of the same id is another
  encounter, and not on the table.
- A join request: the PC a phone asks for, under the name its player gave,
  with the digest of the secret the phone keeps. It claims nothing: several
  phones may wait for one PC, and a waiting request never blocks another.
  It expires after its minutes (`combat serve --join-minutes`), and waiting
  requests are bounded per address and in total.
- The GM's approval is one decision that re-checks everything: the request
  still waiting, the seat free, the encounter live and the same life. It
  makes the phone's secret a player token for that PC, and every other
  request for that PC is ended ("given"). A denial ends the request;
  approve, deny and revoke of one request are decided one after the other,
  so exactly one of them finds it waiting.
"""
from __future__ import annotations

import secrets as random
from datetime import datetime, timedelta

from eventlog.codec import utc_now
from eventlog.errors import LedgerError, Refusal, UnknownEncounter
from eventlog.language import _, decimal
from eventlog.stores.records import JoinRequest, TableChoice, Token
from eventlog.text import neutral

MINUTES = 10.0  # how long a request waits for the GM's answer, by default
PER_ADDRESS = 3  # requests waiting at once from one client address
WAITING = 40  # requests waiting at once in the whole store
KEPT_H = 1  # an answered or expired request is kept this long, to tell its phone why
WAITS, DENIED, GIVEN = "waiting", "denied", "given"


class TooMany(Refusal):
    """Too many requests waiting, from one address or in all (429)."""


def check_minutes(minutes: float) -> None:
    """How long a request may wait (`serve --join-minutes`): a minute's
    fraction to a day."""
    import math
    if not (math.isfinite(minutes) and 0.1 <= minutes <= 24 * 60):
        raise LedgerError(_("--join-minutes is how long a join request waits for the GM: "
                            "from {least} to {most} minutes, not {minutes}").format(
                                least=decimal(0.1), most=1440,
                                minutes=f"{minutes:g}"))


def later(at: str, minutes: float) -> str:
    """The UTC timestamp `minutes` after `at` (both as the store writes them)."""
    then = datetime.fromisoformat(at[:-1]) + timedelta(minutes=minutes)
    return then.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# -- the table ------------------------------------------------------------

def on_table(store) -> str | None:
    """The encounter the GM put on the table, if it is still there, in the
    same life."""
    choice = store.table_choice()
    if choice is None or store.life(choice.encounter) != choice.life:
        return None
    return choice.encounter


def put_on_table(store, encounter: str) -> None:
    """The GM's choice of the encounter every page follows."""
    with store.deciding():
        life = store.life(encounter)
        if life is None or encounter not in {e.id for e in store.encounters()}:
            raise LedgerError(_("no encounter {encounter!r} to put on the table (`combat list` "
                                "shows them)").format(encounter=neutral(encounter)))
        if store.is_archived(encounter):  # out of the pages (the docs, `archive`)
            raise LedgerError(_("{encounter} is archived: `combat unarchive {encounter}` first, "
                                "then put it on the table").format(encounter=neutral(encounter)))
        store.choose_table(TableChoice(encounter, life))


def current_to_table(store, current: str | None) -> str | None:
    """Served without a choice of encounter: the GM's last choice stays; with
    none (or one deleted or archived since), `current`, the encounter the
    terminal that starts the server works in, goes on the table if it is
    there and not archived. What is on the table then."""
    chosen = on_table(store)
    if chosen is not None and not store.is_archived(chosen):
        return chosen
    if current is None or current not in {e.id for e in store.encounters()} \
            or store.is_archived(current):
        return None
    put_on_table(store, current)
    return current


# -- requests -------------------------------------------------------------

def expired(join: JoinRequest, now: str) -> bool:
    return join.state == WAITS and now >= join.expires_at


def pending(store, now: str | None = None) -> list[JoinRequest]:
    """The requests waiting for the GM's answer (not expired), by name."""
    now = now or utc_now()
    return [j for j in store.joins() if j.state == WAITS and not expired(j, now)]


def open_seats(store, state) -> list[dict]:
    """The PCs of the encounter on the table a player may ask for: visible
    ones, each with whether a player token owns it (a request claims none)."""
    claimed = {cid for t in store.tokens() if t.encounter == state.encounter
               and t.role == "player" for cid in t.owns}
    return [{"id": c.id, "name": c.name, "claimed": c.id in claimed}
            for c in state.combatants.values()
            if c.side == "pc" and c.active and c.id not in state.hidden]


def _tidy(store, now: str) -> None:
    """Forget the requests answered or expired over KEPT_H ago."""
    for j in store.joins():
        if (j.state != WAITS or expired(j, now)) and now >= later(j.expires_at, KEPT_H * 60):
            store.drop_join(j.name)


def _owner(store, encounter: str, pc: str) -> Token | None:
    return next((t for t in store.tokens() if t.role == "player" and t.encounter == encounter
                 and pc in t.owns), None)


def request(store, state, name: str, cid: str, address: str,
            minutes: float = MINUTES) -> str:
    """A join request for PC `cid` of `state`'s encounter (the one on the
    table), under the name the player gives, from client `address`; the
    secret the phone keeps (a token once approved)."""
    from eventlog.text import check_actor
    from projections.access import digest
    check_actor(name)
    _check_not_the_gms(name)
    seats = {s["id"]: s for s in open_seats(store, state)}
    if cid not in seats:
        if not seats:
            raise Refusal(_("{id!r} is no PC of {encounter}: there is none yet").format(
                id=neutral(cid), encounter=state.encounter))
        raise Refusal(_("{id!r} is no PC of {encounter}: pick one of {seats}").format(
            id=neutral(cid), encounter=state.encounter, seats=", ".join(seats)))
    secret = random.token_urlsafe(32)
    with store.deciding():
        now = utc_now()
        _tidy(store, now)
        if _owner(store, state.encounter, cid) is not None:
            raise Refusal(_("{name} is taken already: pick another PC").format(
                name=seats[cid]["name"]))
        waiting = pending(store, now)
        if sum(j.address == address for j in waiting) >= PER_ADDRESS:
            raise TooMany(_("{n} requests from this device are waiting already: wait for the "
                            "GM's answer").format(n=PER_ADDRESS))
        if len(waiting) >= WAITING:
            raise TooMany(_("{n} requests are waiting: the GM answers them first").format(
                n=WAITING))
        _check_name_free(store, name)
        life = store.life(state.encounter)
        if life is None:
            raise UnknownEncounter(_("{encounter} is no longer on the table").format(
                encounter=state.encounter))
        store.add_join(JoinRequest(name, cid, seats[cid]["name"], state.encounter, life,
                                   digest(secret), address, now, later(now, minutes)))
    return secret


def _check_not_the_gms(name: str) -> None:
    """`gm` and the console's token name are the GM's, however they are written
    (a request under one would be ended when `serve --lan` next makes it)."""
    from eventlog.names import skeleton
    from projections.access import CONSOLE
    if skeleton(name).casefold() in (skeleton("gm").casefold(), skeleton(CONSOLE).casefold()):
        raise Refusal(_("the name {name!r} is the GM's: give your own name").format(
            name=neutral(name)))


def _check_name_free(store, name: str) -> None:
    """A request's name is unique among tokens and requests, case-blind and
    by how it reads; an answered or expired request gives its name back."""
    from projections.access import check_unlike
    now, wanted = utc_now(), name.casefold()
    for j in store.joins():
        if j.name.casefold() == wanted and (j.state != WAITS or expired(j, now)):
            store.drop_join(j.name)
    kept = [t.name for t in store.tokens()] + [j.name for j in store.joins()]
    taken = next((n for n in kept if n.casefold() == wanted), None)
    if taken is not None:
        raise Refusal(_("the name {name!r} is taken: give another name").format(
            name=neutral(taken)))
    check_unlike(name, kept)


# -- the GM's answers -----------------------------------------------------

def _ended(join: JoinRequest, now: str) -> str | None:
    """Why `join` can no longer be answered, said to the GM; None: waiting."""
    name = neutral(join.name)
    if join.state == GIVEN:
        return _("{seat} was given to {other}: {name}'s request has ended").format(
            seat=neutral(join.seat), other=neutral(join.said), name=name)
    if join.state == DENIED:
        return _("{name} was turned away already").format(name=name)
    if expired(join, now):
        return _("{name}'s request expired: the phone asks again on the join page").format(
            name=name)
    return None


def _find(store, name: str) -> JoinRequest:
    """The request called `name` (case-blind), or a refusal saying what it
    is instead: a player let in already, or nothing."""
    from projections.access import named
    found = named(store.joins(), name)
    if found is not None:
        return found
    token = named(store.tokens(), name, ("player",))
    if token is not None:
        raise Refusal(_("{name} was let in already (plays {owns}): `combat token revoke "
                        "{name}` shuts the phone out").format(
                            name=neutral(token.name), owns=", ".join(token.owns)))
    shown = ", ".join(neutral(j.name) for j in pending(store)) or _("none")
    raise LedgerError(_("no join request named {name!r} (waiting: {waiting})").format(
        name=neutral(name), waiting=shown))


def approve(store, name: str) -> Token:
    """The request `name` becomes a player token for its PC and encounter,
    and every other request for that PC is ended; a Refusal saying what
    happened when it is no longer waiting, the seat is taken, or the
    encounter is archived, deleted or another one."""
    refused: Refusal | None = None
    with store.deciding():
        now = utc_now()
        found = _find(store, name)
        why = _ended(found, now)
        if why:
            raise Refusal(why)
        who, where = neutral(found.name), neutral(found.encounter)
        life = store.life(found.encounter)
        if life != found.life:
            store.drop_join(found.name)
            raise Refusal((_("{name} asked to play in another {encounter}, deleted since: the "
                             "phone asks again on the join page") if life is not None else
                           _("{encounter} was deleted: {name}'s request has ended")).format(
                               name=who, encounter=where))
        if store.is_archived(found.encounter):
            raise Refusal(_("{encounter} is archived: `combat unarchive {encounter}` first, then "
                            "approve {name}").format(encounter=where, name=who))
        owner = _owner(store, found.encounter, found.pc)
        if owner is not None:
            store.answer_join(found.name, GIVEN, owner.name)
            refused = Refusal(_("{seat} is taken ({owner}'s token): {name}'s request has ended")
                              .format(seat=neutral(found.seat), owner=neutral(owner.name),
                                      name=who))
        elif (taken := _named_token(store, found.name)) is not None:
            store.answer_join(found.name, DENIED)
            refused = Refusal(_("the name {name} is a token's now ({token}): {name}'s request "
                                "has ended; the phone asks again under another").format(
                                    name=who, token=neutral(taken)))
        else:
            token = Token(found.name, "player", (found.pc,), found.encounter, found.digest, now)
            store.drop_join(found.name)
            store.add_token(token)
            for other in pending(store, now):
                if (other.encounter, other.life, other.pc) == (found.encounter, found.life,
                                                               found.pc):
                    store.answer_join(other.name, GIVEN, found.name)
    if refused is not None:  # (after the request's end is kept)
        raise refused
    return token


def _named_token(store, name: str) -> str | None:
    """A token's name that is `name` or reads as it (made since the request)."""
    from eventlog.names import skeleton
    reads = skeleton(name).casefold()
    return next((t.name for t in store.tokens() if skeleton(t.name).casefold() == reads), None)


def deny(store, name: str) -> JoinRequest:
    """The GM turns the request `name` away: its phone is told so."""
    with store.deciding():
        found = _find(store, name)
        why = _ended(found, utc_now())
        if why:
            raise Refusal(why)
        store.answer_join(found.name, DENIED)
    return found


def revoke(store, name: str) -> tuple[str, str]:
    """`combat token revoke NAME`: a waiting request is denied, a token ended
    at once; its name and what it was ("token", "join request")."""
    from projections.access import named
    with store.deciding():
        found = named(store.joins(), name)
        if found is not None and found.state == WAITS:
            deny(store, found.name)
            return found.name, "join request"
        token = named(store.tokens(), name)
        if token is not None and store.revoke_token(token.name):
            return token.name, "token"
        if found is not None:
            raise Refusal(_ended(found, utc_now()) or "")
    raise LedgerError(_("no token named {name!r}: `combat token list` shows them").format(
        name=neutral(name)))
