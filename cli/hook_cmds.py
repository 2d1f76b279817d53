"""The table server's webhooks: `combat hook add URL [--discord]`, `hook
list`, `hook remove ID` (kept in the store; `combat serve` delivers them:
cli/server/hooks.py). A signed hook's secret is printed once."""
import typer

from cli.base import app, session
from eventlog.errors import LedgerError
from eventlog.language import _

hook_app = typer.Typer(
    help=_("Webhooks of the table server (`combat serve`): every batch POSTed to a URL, "
         "signed (HMAC-SHA256), or turn and round changes to a Discord channel.\n\n"
         "Example: combat hook add https://example.org/combat        combat hook list"),
)
app.add_typer(hook_app, name="hook")


@hook_app.command("add", help=_(
    "Add a webhook; a signed one's secret is printed once.\n\n"
    "The destination must be a public address (checked now, and again at each\n"
    "delivery): not this machine, the local network, link-local or multicast,\n"
    "unless --allow-private. Credentials written into the URL are sent as\n"
    "HTTP Basic authentication and never shown.\n\n"
    "\b\n"
    "Example: combat hook add https://example.org/combat\n"
    "         combat hook add https://discord.com/api/webhooks/ID/TOKEN --discord\n"
    "         combat hook add http://192.168.1.20:8080/combat --allow-private"))
def add(ctx: typer.Context,
        url: str = typer.Argument(..., help=_("Where each batch is POSTed (http:// or https://, a public address).")),
        discord: bool = typer.Option(False, "--discord", help=_("A Discord webhook URL: turn and round changes as Discord messages.")),
        allow_private: bool = typer.Option(False, "--allow-private", help=_("Let this hook send to this machine or the local network (a bot on your own network); otherwise only public addresses."))) -> None:
    import hashlib
    import secrets

    from cli.output import write
    from cli.server.destinations import checked, read, resolve, shown
    from eventlog.codec import utc_now
    from eventlog.stores.contract import Hook
    destination = read(url)  # (a malformed URL: one line, before the store is opened)
    try:  # (a name that does not resolve now is kept: each delivery checks again)
        resolve(destination.host, destination.port)
    except LedgerError as exc:
        later = " " + _("({problem}: it is checked again at each delivery)").format(problem=exc)
    else:
        checked(url, allow_private)
        later = ""
    hook = Hook(hashlib.sha256(url.encode()).hexdigest()[:8], url, discord,
                secrets.token_urlsafe(32), utc_now(), allow_private)
    store = session(ctx).store
    store.add_hook(hook)
    for info in store.encounters():  # (from now on: what was declared before is not sent)
        store.mark_hook(hook.id, info.id, info.events)
    where = (_("{url}, a private address allowed") if allow_private else "{url}").format(
        url=shown(url)) + later
    if discord:
        write(_("hook {id}: turn and round changes to {where} (Discord)").format(
            id=hook.id, where=where) + "\n")
    else:
        write(_("hook {id}: every batch to {where}, signed; secret, shown once: {secret}\n"
                "(each POST carries X-Combat-Signature: sha256=HMAC-SHA256 of its body with "
                "this secret, hex)").format(id=hook.id, where=where, secret=hook.secret) + "\n")


@hook_app.command("list", help=_(
    "The webhooks: id, kind and where (never a secret)."))
def listed(ctx: typer.Context) -> None:
    from cli.output import write
    from cli.server.destinations import shown
    hooks = session(ctx).store.hooks()
    if not hooks:
        write(_("no hooks (combat hook add URL)") + "\n")
    for hook in hooks:
        private = "  " + _("(a private address allowed)") if hook.allow_private else ""
        write(f"{hook.id}  {'discord' if hook.discord else 'signed '}  {shown(hook.url)}{private}\n")


@hook_app.command("remove", help=_(
    "Remove a webhook: nothing more is sent to it."))
def remove(ctx: typer.Context,
           hook_id: str = typer.Argument(..., metavar="ID", help=_("The hook's id, as `hook list` shows it."))) -> None:
    from cli.output import write
    from eventlog.text import neutral
    if not session(ctx).store.remove_hook(hook_id):
        raise LedgerError(_("no hook {id!r} (combat hook list shows them)").format(id=neutral(hook_id)))
    write(_("hook {id} removed").format(id=neutral(hook_id)) + "\n")
