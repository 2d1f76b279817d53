"""The table server's tokens: `combat token add|list|revoke` (docs/server.md,
"Table server"). A token is 256 random bits, printed once with its link;
the store keeps only its SHA-256 digest."""

import typer

from cli.base import app, session
from eventlog.errors import LedgerError
from eventlog.language import _

token_app = typer.Typer(
    help=_("Tokens of the table server (`combat serve`): who may read and declare, "
         "by a secret link, never by a claimed name.\n\n"
         "Example: combat token add ana --player --owns rook        combat token list"),
)
app.add_typer(token_app, name="token")


@token_app.command("add", help=_(
    "Make a token and print it once, with the link that opens its page.\n\n"
    "\b\n"
    "Example: combat token add ana --player --owns rook\n"
    "         combat token add tv --view --encounter warehouse"))
def add(ctx: typer.Context,
        name: str = typer.Argument(..., help=_("Who holds it; recorded as the actor of what it declares (R29).")),
        gm: bool = typer.Option(False, "--gm", help=_("The GM: every command.")),
        player: bool = typer.Option(False, "--player", help=_("A player: declares for the combatants it owns.")),
        view: bool = typer.Option(False, "--view", help=_("Reads only (a TV at the table).")),
        metrics: bool = typer.Option(False, "--metrics", help=_("Reads GET /metrics only (a monitoring system).")),
        owns: str | None = typer.Option(None, "--owns", metavar="ID[,ID...]", help=_("The combatants a player declares for.")),
        encounter: str | None = typer.Option(None, "--encounter", help=_("Reach this encounter only (default: a GM token every one, a player or view token the current one).")),
        url: str = typer.Option("http://127.0.0.1:8000", "--url", help=_("Where `combat serve` is reached, for the link.")),
        lang: str | None = typer.Option(None, "--lang", metavar="LANG", help=_("The language its pages speak (en, de; default: the browser's)."))) -> None:
    from projections.access import check_unlike, make
    roles = [r for r, on in (("gm", gm), ("player", player), ("view", view),
                             ("metrics", metrics)) if on]
    here = session(ctx)
    if encounter is None and roles in (["player"], ["view"]):  # the current one
        encounter = here.chosen or here.current()
    archived = here.store.archived()
    if encounter is not None and encounter in archived:  # out of every reach (the docs)
        from eventlog.text import neutral
        raise LedgerError(_("{encounter} is archived: `combat unarchive {encounter}` first, then "
                            "make the token").format(encounter=neutral(encounter)))
    secret, token = make(name, roles, owns, encounter, lang)
    from projections.joining import pending
    check_unlike(token.name, [t.name for t in here.store.tokens()]
                 + [j.name for j in pending(here.store)])  # (a request becomes a token)
    here.store.add_token(token)
    from cli.output import say, write
    from eventlog.text import neutral
    what = token.role
    if token.owns:
        what = _("{what}, owns {ids}").format(what=what, ids=", ".join(token.owns))
    if token.encounter:
        what = _("{what}, encounter {encounter}").format(what=what, encounter=token.encounter)
    if token.language:
        what = _("{what}, speaks {language}").format(what=what, language=token.language)
    link = (f"{neutral(url.rstrip('/'))}/?token={secret}"
            + (f"&encounter={token.encounter}" if token.encounter else ""))
    write(_("token for {name} ({what}), shown once: {secret}\nlink: {link}").format(
        name=neutral(token.name), what=what, secret=secret, link=link) + "\n")
    made = [info.id for info in here.store.encounters() if info.id not in archived]
    if token.encounter and token.encounter not in made:
        say(_("warning: no encounter {encounter!r} in {store} yet: {name} reaches nothing until "
              "it is made (`combat list` shows them)").format(
            encounter=token.encounter, store=here.where, name=neutral(token.name)))
        return
    reach = [token.encounter] if token.encounter else made
    for missing in _unknown(here.ledger, token.owns, reach):
        said = (_("warning: no combatant {id!r} in {encounter} yet: {name} declares for it once "
                  "it joins (is it spelled as in `combat status`?)") if token.encounter else
                _("warning: no combatant {id!r} in any encounter of {store} yet: {name} declares "
                  "for it once it joins (is it spelled as in `combat status`?)"))
        say(said.format(id=missing, encounter=token.encounter, store=here.where,
                        name=neutral(token.name)))


def _unknown(ledger, owns: tuple[str, ...], reach: list[str]) -> list[str]:
    """The owned ids no encounter in the token's reach has (yet): a typo, or
    a combatant still to join; the token is made either way."""
    known: set[str] = set()
    for eid in reach if owns else ():
        try:
            known.update(ledger.state(eid).combatants)
        except LedgerError:  # (one that does not fold: nobody is known in it)
            continue
    return [own for own in owns if own not in known]


@token_app.command("list", help=_(
    "Names, roles, owned combatants and encounter of every token (never the tokens).\n\n"
    "Example: combat token list"))
def list_(ctx: typer.Context) -> None:
    from cli.output import write
    from eventlog.text import neutral
    from projections.joining import pending
    store = session(ctx).store
    tokens = store.tokens()
    waiting = pending(store)
    if not tokens and not waiting:
        write(_("no tokens: make one with `combat token add NAME --gm|--player --owns ID|--view`") + "\n")
    for t in tokens:
        write(_("{name}\t{role}\towns {ids}\tencounter {encounter}\tsince {since}").format(
            name=neutral(t.name), role=t.role, ids=",".join(t.owns) or "-",
            encounter=t.encounter or "*", since=t.created_at)
              + ("\t" + _("speaks {language}").format(language=t.language) if t.language else "")
              + "\n")
    for j in waiting:  # (no tokens yet: what `token approve` takes)
        write(_("{name}\tjoin\towns {id}\tencounter {encounter}\tsince {since}\tuntil {until}").format(
            name=neutral(j.name), id=j.pc, encounter=j.encounter, since=j.asked_at,
            until=j.expires_at) + "\n")


@token_app.command("approve", help=_(
    "Let a player in: their join request becomes a player token for the PC\n"
    "they picked, on the phone that asked, and other requests for that PC end\n"
    "(`combat token list` shows waiting requests as role join; `combat token\n"
    "revoke NAME` denies one).\n\n"
    "Example: combat token approve ana"))
def approve(ctx: typer.Context, name: str = typer.Argument(..., help=_("The name a player gave on the join page."))) -> None:
    from cli.output import write
    from eventlog.text import neutral
    from projections.joining import approve as let_in
    token = let_in(session(ctx).store, name)
    write(_("approved {name}: player, owns {ids}, encounter {encounter}").format(
        name=neutral(token.name), ids=", ".join(token.owns), encounter=token.encounter) + "\n")


@token_app.command("lang", help=_(
    "Choose the language a token's pages speak, from its next request on:\n"
    "a phone set to another language still reads the table's (a page's own\n"
    "switch goes before it). `auto` gives the choice back to the browser.\n\n"
    "Example: combat token lang ana de"))
def lang_(ctx: typer.Context,
          name: str = typer.Argument(..., help=_("The token's name.")),
          language: str = typer.Argument(..., metavar="LANG", help=_("en, de, or auto (the browser's)."))) -> None:
    from cli.output import write
    from eventlog.text import neutral
    from projections.access import set_language
    token = set_language(session(ctx).store, name, language)
    write((_("{name} speaks {language}") if token.language else
           _("{name} speaks the browser's language")).format(
        name=neutral(token.name), language=token.language) + "\n")


@token_app.command("revoke", help=_(
    "End a token at once: its pages and streams are refused from now on (a\n"
    "waiting join request of that name is denied).\n\n"
    "Example: combat token revoke ana"))
def revoke(ctx: typer.Context, name: str = typer.Argument(..., help=_("The token's name."))) -> None:
    from eventlog.text import neutral
    from projections.joining import revoke as end
    name, kind = end(session(ctx).store, name)  # (case-blind, as names are unique)
    from cli.output import write
    write((_("revoked {name}") if kind == "token" else
           _("denied {name}'s join request")).format(name=neutral(name)) + "\n")
