"""Who may declare what through the table server, decided in the core:
tokens (made here, 256 random bits; the store keeps only their SHA-256 hex
digest, and a token's name becomes the actor of what it declares, R29),
their reach, and what each role may declare (docs/server.md;
R3c, R29):

- `gm`: every command, in every encounter (or the one it names);
- `player`: for the combatants it owns only: roll for an owned lone
  combatant, act, interrupt, free actions, end its own turn, seize, and
  orders among PC slots (the core judges those, R3c);
- `view`: reads only.
Which combatant a command is for is the core's answer (`decide.who`), asked
on the very state the command is decided on (`permit_for`)."""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

from eventlog.errors import LedgerError, Refusal
from eventlog.language import _
from eventlog.stores.contract import Token
from eventlog.text import neutral
from projections.domain import commands as c
from projections.domain.decide import who
from projections.domain.state import State

ROLES = ("gm", "player", "view", "metrics")  # metrics: GET /metrics only


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogateescape")).hexdigest()


def named(tokens, name: str, roles: tuple[str, ...] | None = None):
    """The token (or join request) of `tokens` called `name`, matched
    case-blind as ids are (`Rook` is `rook`: names are unique that way), of
    one of `roles` if given; None when there is none."""
    wanted = name.casefold()
    return next((t for t in tokens if t.name.casefold() == wanted
                 and (roles is None or t.role in roles)), None)


def same(a: str, b: str) -> bool:
    """Two digests compared in constant time."""
    return hmac.compare_digest(a.encode(), b.encode())


def make(name: str, roles: list[str], owns: str | None,
         encounter: str | None, language: str | None = None) -> tuple[str, Token]:
    """A new secret and the Token the store keeps of it; Refusal for a bad name,
    role, owned id or encounter id."""
    import secrets

    from eventlog.codec import utc_now
    from eventlog.text import check_actor
    from projections.domain.rules import check_slug
    check_actor(name)
    if len(roles) != 1:
        raise Refusal(_("a token has one role: give exactly one of --gm, --player, --view, "
                        "--metrics"))
    role = roles[0]
    ids = tuple(x.strip() for x in (owns or "").split(",") if x.strip())
    if role == "player" and not ids:
        raise Refusal(_("a player token declares for its own combatants: name them with "
                        "--owns ID[,ID...]"))
    if role != "player" and owns is not None:
        raise Refusal(_("--owns is for a player token; a {role} token owns no combatants")
                      .format(role=role))
    if role != "gm" and name == "gm":
        raise Refusal(_("the name gm is the GM's (R3c, R29): name a player's or a view's "
                        "token after who holds it"))
    for cid in ids:
        check_slug(cid, "combatant id")
    if encounter is not None:
        check_slug(encounter, "encounter id")
    elif role not in ("gm", "metrics"):  # (owned ids are ids in one encounter)
        raise Refusal(_("a {role} token reaches one encounter: name it with --encounter ID, or "
                        "make one current first (`combat use ID`)").format(role=role))
    secret = secrets.token_urlsafe(32)
    return secret, Token(name, role, ids, encounter, digest(secret), utc_now(),
                         spoken(language))


AUTO = "auto"  # a token's pages speak the browser's language


def spoken(flag: str | None) -> str | None:
    """The language a token's pages speak, as the GM names it (`--lang de`,
    `de-AT`); None for `auto` or none named: the browser's. Refusal for a
    language we do not speak."""
    from eventlog.language import LANGUAGES, chosen
    if flag is None or flag.strip().casefold() == AUTO:
        return None
    language = chosen(flag)
    if language is None:
        raise Refusal(_("no language {name}: a token's pages speak {known}, "
                        "or {auto} for the browser's").format(
            name=neutral(repr(flag)), known=", ".join(LANGUAGES), auto=AUTO))
    return language


def set_language(store, name: str, flag: str) -> Token:
    """Make the token called `name` (case-blind) speak `flag` on its pages
    from its next request on; the token as it is now."""
    language = spoken(flag)
    token = named(store.tokens(), name)
    if token is None or not store.set_token_language(token.name, language):
        raise Refusal(_("no token named {name}: `combat token list` shows them").format(
            name=neutral(repr(name))))
    return token._replace(language=language)


def check_unlike(name: str, others: Iterable[str]) -> None:
    """Refuse a token name that reads as another token's."""
    from eventlog.names import skeleton
    reads = skeleton(name).casefold()
    for other in others:
        if other != name and skeleton(other).casefold() == reads:
            raise Refusal(_("the name {name!r} reads as the token {other!r}: choose a name "
                            "that cannot be taken for it").format(name=neutral(name),
                                                                  other=neutral(other)))


CONSOLE = "gm-console"  # the GM token `serve --lan` makes again at each start


def console_token(store) -> tuple[str, Token]:
    """A GM token for the console link `combat serve --lan` prints on the
    terminal of whoever started it (they can make tokens anyway). With no GM
    token in the store it is the GM's own, `gm`; otherwise a fresh
    `gm-console`, replacing the one the last start made (a token is kept only
    as its digest, so an existing one cannot be shown again, and an old
    console link stops working when the server is started again)."""
    tokens = store.tokens()
    if not any(t.role == "gm" for t in tokens):
        name = "gm"
    else:
        name = CONSOLE
        for t in tokens:
            if t.name.casefold() != CONSOLE:
                continue
            if t.role != "gm":
                raise Refusal(_("the name {name!r} is taken by a {role} token: the console link "
                                "needs it; `combat token revoke {name}` first, or open the "
                                "console with a GM link of your own").format(
                                    name=neutral(t.name), role=t.role))
            store.revoke_token(t.name)
    secret, token = make(name, ["gm"], None, None)
    check_unlike(token.name, [t.name for t in store.tokens()])
    store.add_token(token)
    return secret, token


# What a player's token may declare; everything else is the GM's.
PLAYER_COMMANDS = (c.Roll, c.Act, c.Interrupt, c.EndTurn, c.Seize, c.Order)


class Unauthorized(LedgerError):
    """No token, or one the store does not know (401)."""


class Forbidden(LedgerError):
    """The token may not do this (403): nothing is appended."""


def identify(store, secret: str | None) -> Token:
    """The token `secret` is, or Unauthorized; compared in constant time."""
    if not secret:
        raise Unauthorized(_("no token: open the link `combat token add` printed, or send "
                             "Authorization: Bearer TOKEN"))
    wanted = digest(secret)
    found = store.token(wanted)
    if found is None or not same(found.digest, wanted):
        asked = store.join(wanted)  # a join request is no token until approved
        if asked is not None and same(asked.digest, wanted):
            raise Unauthorized(why_shut(asked))
        raise Unauthorized(_("unknown or revoked token: ask the GM for a new link"))
    if found.role not in ROLES:  # (a store not migrated yet: its requests' old rows)
        raise Unauthorized(_("waiting for the GM to let {name} in").format(
            name=neutral(found.name)))
    return found


def why_shut(join) -> str:
    """What the phone holding a join request's secret is told while it is no
    token (the request's states: projections/joining.py)."""
    from eventlog.codec import utc_now
    name = neutral(join.name)
    if join.state == "given":
        return _("{seat} was given to {other}: pick another PC").format(
            seat=neutral(join.seat), other=neutral(join.said))
    if join.state == "denied":
        return _("the GM did not let {name} in: pick again or ask them").format(name=name)
    if utc_now() >= join.expires_at:
        return _("{name}'s request expired: ask again on the join page").format(name=name)
    return _("waiting for the GM to let {name} in").format(name=name)


def reaches(token: Token, encounter: str) -> bool:
    """A GM token without an encounter reaches every one; any other token,
    the one it names (one made before tokens were bound reaches none)."""
    if token.encounter is None:
        return token.role == "gm"
    return token.encounter == encounter


def check_reach(token: Token, encounter: str) -> None:
    if token.encounter is None and token.role != "gm":
        raise Forbidden(_("{name}'s token was made before a {role} token was bound to one "
                          "encounter: make it again with `combat token add ... --encounter "
                          "ID`").format(name=neutral(token.name), role=token.role))
    if not reaches(token, encounter):
        raise Forbidden(_("{name}'s token reaches encounter {reach} only, not {encounter}")
                        .format(name=neutral(token.name), reach=token.encounter,
                                encounter=neutral(encounter)))


def check_writes(token: Token) -> None:
    """A view token reads only: refused before its command is even read."""
    if token.role == "view":
        raise Forbidden(_("{name}'s token is a view: it reads only").format(
            name=neutral(token.name)))
    if token.role == "metrics":
        raise Forbidden(_("{name}'s token reads the metrics only").format(
            name=neutral(token.name)))


def check_types_lines(token: Token) -> None:
    """The command box (a typed line) is the GM's; a player declares with the
    page's buttons, which send commands checked one by one."""
    if token.role != "gm":
        raise Forbidden(_("{name}'s token may not type command lines: the command box is "
                          "the GM's").format(name=neutral(token.name)))


def check_may_declare(token: Token, command: c.Command) -> None:
    """What the token's role allows, before the state is read."""
    if token.role == "gm":
        if isinstance(command, (c.New, c.Fork)) and token.encounter is not None:
            raise Forbidden(_("{name}'s token reaches encounter {reach} only: it cannot start "
                              "another").format(name=neutral(token.name),
                                                reach=token.encounter))
        if isinstance(command, c.PARTY) and token.encounter is not None:
            raise Forbidden(_("{name}'s token reaches encounter {reach} only: the party is the "
                              "whole campaign's").format(name=neutral(token.name),
                                                         reach=token.encounter))
        return
    tag = command.__struct_config__.tag
    check_writes(token)
    if not isinstance(command, PLAYER_COMMANDS):
        raise Forbidden(_("`{command}` is the GM's: {name} may roll, act, interrupt, take free "
                          "actions, end a turn and seize for {owns}, and order PC slots (R3c)")
                        .format(command=tag, name=neutral(token.name),
                                owns=", ".join(token.owns)))


def permit_for(token: Token):
    """The check `Ledger.execute` runs on the state it decides on: a player
    declares for the combatants it owns only (orders: the core's R3c)."""
    if token.role == "gm":
        return None

    def permit(state: State, command: c.Command) -> c.Command:
        # A hidden combatant does not exist for a player: its id, name or a
        # prefix reads as a word that matches nothing (the same answer).
        from projections.domain.ids import resolved
        from projections.visible import secret
        unseen = secret(state)
        command = resolved(state, command, unseen)
        name = neutral(token.name)
        missing = [w for w in _id_words(command)
                   if w in unseen or (w not in state.combatants and w not in state.groups)]
        if isinstance(command, c.Order):
            if missing and len(set(command.slots)) >= 2:
                from projections.domain.rules import unknown
                raise unknown(state, missing[0], groups=True, unseen=unseen)
            return command  # among PC slots, any player's (R3c, judged by the core)
        others = missing or [x for x in who(state, command)
                             if x not in token.owns and x not in unseen]
        if others:
            shown = ", ".join(neutral(x) for x in others)
            raise Forbidden(_("{name} declares for {owns} only, not for {others}").format(
                name=name, owns=", ".join(token.owns), others=shown))
        ids = who(state, command)
        if isinstance(command, c.Roll):
            grouped = [x for x in ids if x in state.groups or (
                x in state.combatants and state.combatants[x].group)]
            if grouped or len(ids) != 1:
                raise Forbidden(_("{name} rolls for one owned lone combatant at a time; a "
                                  "group's roll is the GM's (R7)").format(name=name))
        return command
    return permit


def _id_words(command: c.Command) -> list[str]:
    """The combatant or slot ids `command` names, as given."""
    from projections.domain.ids import ID_FIELDS
    words: list[str] = []
    for field in ID_FIELDS.get(type(command), ()):
        value = getattr(command, field)
        words += [value] if isinstance(value, str) else \
            [v for v in value or () if isinstance(v, str)]
    return words
