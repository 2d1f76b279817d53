"""The table server's tokens: `combat token add|list|revoke` (docs/server.md,
"Table server"). A token is 256 random bits, printed once with its link;
the store keeps only its SHA-256 digest."""

import typer

from cli.base import app, session
from eventlog.errors import LedgerError

token_app = typer.Typer(
    help="Tokens of the table server (`combat serve`): who may read and declare, "
         "by a secret link, never by a claimed name.\n\n"
         "Example: combat token add ana --player --owns rook        combat token list",
)
app.add_typer(token_app, name="token")


@token_app.command("add")
def add(ctx: typer.Context,
        name: str = typer.Argument(..., help="Who holds it; recorded as the actor of what it declares (R29)."),
        gm: bool = typer.Option(False, "--gm", help="The GM: every command."),
        player: bool = typer.Option(False, "--player", help="A player: declares for the combatants it owns."),
        view: bool = typer.Option(False, "--view", help="Reads only (a TV at the table)."),
        metrics: bool = typer.Option(False, "--metrics", help="Reads GET /metrics only (a monitoring system)."),
        owns: str | None = typer.Option(None, "--owns", metavar="ID[,ID...]", help="The combatants a player declares for."),
        encounter: str | None = typer.Option(None, "--encounter", help="Reach this encounter only (default: a GM token every one, a player or view token the current one)."),
        url: str = typer.Option("http://127.0.0.1:8000", "--url", help="Where `combat serve` is reached, for the link."),
        lang: str | None = typer.Option(None, "--lang", metavar="LANG", help="The language its pages speak (en, de; default: the browser's).")) -> None:
    """Make a token and print it once, with the link that opens its page.

    \b
    Example: combat token add ana --player --owns rook
             combat token add tv --view --encounter warehouse
    """
    from projections.access import check_unlike, make
    roles = [r for r, on in (("gm", gm), ("player", player), ("view", view),
                             ("metrics", metrics)) if on]
    here = session(ctx)
    if encounter is None and roles in (["player"], ["view"]):  # the current one
        encounter = here.chosen or here.current()
    archived = here.store.archived()
    if encounter is not None and encounter in archived:  # out of every reach (the docs)
        from eventlog.text import neutral
        raise LedgerError(f"{neutral(encounter)} is archived: `combat unarchive "
                          f"{neutral(encounter)}` first, then make the token")
    secret, token = make(name, roles, owns, encounter, lang)
    from projections.joining import pending
    check_unlike(token.name, [t.name for t in here.store.tokens()]
                 + [j.name for j in pending(here.store)])  # (a request becomes a token)
    here.store.add_token(token)
    from cli.output import say, write
    from eventlog.text import neutral
    what = token.role + (f", owns {', '.join(token.owns)}" if token.owns else "")
    what += f", encounter {token.encounter}" if token.encounter else ""
    what += f", speaks {token.language}" if token.language else ""
    write(f"token for {neutral(token.name)} ({what}), shown once: {secret}\n"
          f"link: {neutral(url.rstrip('/'))}/?token={secret}"
          + (f"&encounter={token.encounter}" if token.encounter else "") + "\n")
    made = [info.id for info in here.store.encounters() if info.id not in archived]
    if token.encounter and token.encounter not in made:
        say(f"warning: no encounter {token.encounter!r} in {here.where} yet: "
            f"{neutral(token.name)} reaches nothing until it is made (`combat list` shows them)")
        return
    reach = [token.encounter] if token.encounter else made
    for missing in _unknown(here.ledger, token.owns, reach):
        say(f"warning: no combatant {missing!r} in "
            f"{token.encounter or 'any encounter of ' + here.where} yet: {neutral(token.name)} "
            "declares for it once it joins (is it spelled as in `combat status`?)")


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


@token_app.command("list")
def list_(ctx: typer.Context) -> None:
    """Names, roles, owned combatants and encounter of every token (never the tokens).

    Example: combat token list
    """
    from cli.output import write
    from eventlog.text import neutral
    from projections.joining import pending
    store = session(ctx).store
    tokens = store.tokens()
    waiting = pending(store)
    if not tokens and not waiting:
        write("no tokens: make one with `combat token add NAME --gm|--player --owns ID|--view`\n")
    for t in tokens:
        write(f"{neutral(t.name)}\t{t.role}\towns {','.join(t.owns) or '-'}\t"
              f"encounter {t.encounter or '*'}\tsince {t.created_at}"
              + (f"\tspeaks {t.language}" if t.language else "") + "\n")
    for j in waiting:  # (no tokens yet: what `token approve` takes)
        write(f"{neutral(j.name)}\tjoin\towns {j.pc}\tencounter {j.encounter}\t"
              f"since {j.asked_at}\tuntil {j.expires_at}\n")


@token_app.command("approve")
def approve(ctx: typer.Context, name: str = typer.Argument(..., help="The name a player gave on the join page.")) -> None:
    """Let a player in: their join request becomes a player token for the PC
    they picked, on the phone that asked, and other requests for that PC end
    (`combat token list` shows waiting requests as role join; `combat token
    revoke NAME` denies one).

    Example: combat token approve ana
    """
    from cli.output import write
    from eventlog.text import neutral
    from projections.joining import approve as let_in
    token = let_in(session(ctx).store, name)
    write(f"approved {neutral(token.name)}: player, owns {', '.join(token.owns)}, "
          f"encounter {token.encounter}\n")


@token_app.command("lang")
def lang_(ctx: typer.Context,
          name: str = typer.Argument(..., help="The token's name."),
          language: str = typer.Argument(..., metavar="LANG", help="en, de, or auto (the browser's).")) -> None:
    """Choose the language a token's pages speak, from its next request on:
    a phone set to another language still reads the table's (a page's own
    switch goes before it). `auto` gives the choice back to the browser.

    Example: combat token lang ana de
    """
    from cli.output import write
    from eventlog.text import neutral
    from projections.access import set_language
    token = set_language(session(ctx).store, name, language)
    write(f"{neutral(token.name)} speaks {token.language}\n" if token.language else
          f"{neutral(token.name)} speaks the browser's language\n")


@token_app.command("revoke")
def revoke(ctx: typer.Context, name: str = typer.Argument(..., help="The token's name.")) -> None:
    """End a token at once: its pages and streams are refused from now on (a
    waiting join request of that name is denied).

    Example: combat token revoke ana
    """
    from eventlog.text import neutral
    from projections.joining import revoke as end
    name, kind = end(session(ctx).store, name)  # (case-blind, as names are unique)
    from cli.output import write
    write(f"revoked {neutral(name)}\n" if kind == "token" else
          f"denied {neutral(name)}'s join request\n")
