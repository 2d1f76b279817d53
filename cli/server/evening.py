"""The GM's evening from the page: a new encounter from a roster
file the page uploads (read by the same strict reader as `combat load`: a
hostile file is refused whole with one line, nothing appended), and archive
or unarchive an encounter. GM tokens only; the declaration goes through the
core's one `execute` like every other (declare.py)."""
from __future__ import annotations

from pathlib import PurePosixPath

import msgspec
from starlette.requests import Request

from eventlog.errors import InvalidFile
from eventlog.text import neutral
from eventlog.language import _
from projections import access
from projections.domain import commands as c
from cli.server import declare
from cli.server.reads import token_of
from cli.server.replies import JSON, BadInput, body_of, encounter_of, guarded, ledger, run
from cli.server.table import check_gm

MAX_FILE_NAME = 100


class Upload(msgspec.Struct, forbid_unknown_fields=True):
    """A roster file as the page read it: its name (for the format and the
    refusals) and its text."""
    file: str
    text: str


class Create(msgspec.Struct, forbid_unknown_fields=True):
    title: str = ""
    roster: Upload | None = None


class Archive(msgspec.Struct, forbid_unknown_fields=True):
    archived: bool


def _decoded(raw: bytes, kind):
    try:
        return msgspec.json.decode(raw, type=kind)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise BadInput(_("not a request: {why}").format(why=" ".join(str(exc).splitlines()))) from None


def roster_of(upload: Upload) -> c.Load:
    """The upload as `load` would read the file, or BadInput with its one line."""
    from projections.inputs.roster import read_bytes
    name = neutral(PurePosixPath(upload.file.replace("\\", "/")).name)[:MAX_FILE_NAME]
    try:
        return read_bytes(name or "roster", upload.text.encode("utf-8"))
    except InvalidFile as exc:
        raise BadInput(" ".join(str(exc).splitlines())) from None


def reader(request: Request):
    """The body of a create as the `new` command (the id is the address's)."""
    encounter = encounter_of(request)

    def read(raw: bytes, _state: object = None) -> c.Command:  # (a new encounter: no state)
        asked = _decoded(raw, Create)
        roster = roster_of(asked.roster) if asked.roster is not None else None
        return c.New(id=encounter, title=asked.title, roster=roster)
    return read


@guarded
async def create(request: Request):
    """POST /api/encounters/ID {"title", "roster": {"file", "text"}}: `new ID
    --roster FILE` from the page."""
    check_gm(await token_of(request))
    raw = await body_of(request)
    return JSON(await run(declare.declare, request, raw, reader(request), False))


@guarded
async def archive(request: Request):
    """POST /api/encounters/ID/archive {"archived": true|false}: out of the
    pickers and what tokens reach, or back; the log is kept whole."""
    token = await token_of(request)
    check_gm(token)
    encounter = encounter_of(request)
    access.check_reach(token, encounter)
    said = _decoded(await body_of(request), Archive)
    await run(lambda: ledger(request).set_archived(encounter, said.archived))
    if said.archived:  # (its open streams here end now; other servers' at their next look)
        request.app.state.hub.ended(encounter, "archived")
    return JSON({"encounter": encounter, "archived": said.archived})
