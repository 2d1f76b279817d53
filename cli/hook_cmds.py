"""The table server's webhooks: `combat hook add URL [--discord]`, `hook
list`, `hook remove ID` (kept in the store; `combat serve` delivers them:
cli/server/hooks.py). A signed hook's secret is printed once."""
import typer

from cli.base import app, session
from eventlog.errors import LedgerError

hook_app = typer.Typer(
    help="Webhooks of the table server (`combat serve`): every batch POSTed to a URL, "
         "signed (HMAC-SHA256), or turn and round changes to a Discord channel.\n\n"
         "Example: combat hook add https://example.org/combat        combat hook list",
)
app.add_typer(hook_app, name="hook")


def shown_url(url: str) -> str:
    """A hook's URL as listed: scheme, host and the path's start; its last
    part (a Discord webhook's token) and any query hidden."""
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    path = parts.path.rsplit("/", 1)[0] + "/…" if parts.path.count("/") > 1 else parts.path
    return f"{parts.scheme}://{parts.netloc}{path}"


@hook_app.command("add")
def add(ctx: typer.Context,
        url: str = typer.Argument(..., help="Where each batch is POSTed (http:// or https://)."),
        discord: bool = typer.Option(False, "--discord", help="A Discord webhook URL: turn and round changes as Discord messages.")) -> None:
    """Add a webhook; a signed one's secret is printed once.

    \b
    Example: combat hook add https://example.org/combat
             combat hook add https://discord.com/api/webhooks/ID/TOKEN --discord
    """
    import hashlib
    import secrets
    from urllib.parse import urlsplit

    from cli.output import write
    from eventlog.codec import utc_now
    from eventlog.stores.contract import Hook
    from eventlog.text import neutral
    try:
        parts = urlsplit(url)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
        raise LedgerError(f"a hook's URL starts with http:// or https://, not {neutral(url)[:60]!r}")
    hook = Hook(hashlib.sha256(url.encode()).hexdigest()[:8], url, discord,
                secrets.token_urlsafe(32), utc_now())
    store = session(ctx).store
    store.add_hook(hook)
    for info in store.encounters():  # (from now on: what was declared before is not sent)
        store.mark_hook(hook.id, info.id, info.events)
    if discord:
        write(f"hook {hook.id}: turn and round changes to {shown_url(url)} (Discord)\n")
    else:
        write(f"hook {hook.id}: every batch to {shown_url(url)}, signed; secret, shown once: "
              f"{hook.secret}\n(each POST carries X-Combat-Signature: sha256=HMAC-SHA256 "
              "of its body with this secret, hex)\n")


@hook_app.command("list")
def listed(ctx: typer.Context) -> None:
    """The webhooks: id, kind and where (never a secret)."""
    from cli.output import write
    hooks = session(ctx).store.hooks()
    if not hooks:
        write("no hooks (combat hook add URL)\n")
    for hook in hooks:
        write(f"{hook.id}  {'discord' if hook.discord else 'signed '}  {shown_url(hook.url)}\n")


@hook_app.command("remove")
def remove(ctx: typer.Context,
           hook_id: str = typer.Argument(..., metavar="ID", help="The hook's id, as `hook list` shows it.")) -> None:
    """Remove a webhook: nothing more is sent to it."""
    from cli.output import write
    from eventlog.text import neutral
    if not session(ctx).store.remove_hook(hook_id):
        raise LedgerError(f"no hook {neutral(hook_id)!r} (combat hook list shows them)")
    write(f"hook {neutral(hook_id)} removed\n")
