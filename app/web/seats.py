"""The game master's "hand to a new player" form on the GM page: a new invite link for a
seat, the old link and the device holding the seat revoked (``app.live.seats``). The page
shows the new link once, in ``#flash``; the players panel updates live."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.http.links import invite_url
from app.http.tokens import cookie_tokens
from app.kernel.types import RuleError
from app.live.errors import AuthError, NotFound
from app.web.routes import flash, form_data, hub_of

router = APIRouter(include_in_schema=False)


@router.post("/t/{table_id}/seats/{seat}/reissue", response_class=HTMLResponse)
async def reissue_seat(request: Request, table_id: str, seat: int) -> HTMLResponse:
    """Form: ``name`` (optional, the new player's). Authorised by the game-master cookie."""
    form = await form_data(request)
    name = (form.get("name") or [""])[-1].strip() or None
    hub = hub_of(request)
    try:
        viewer = await hub.viewer(table_id, cookie_tokens(request, table_id), required=True, lenient=True)
        done = await hub.reissue_seat(table_id, seat, viewer, name)
    except NotFound as exc:
        return flash(request, str(exc), 404)
    except (AuthError, RuleError) as exc:
        return flash(request, exc.message, exc.status)
    template = request.app.state.templates.get_template("reissued.html")
    html = template.render(
        seat=done.seat, name=done.name, url=invite_url(request, table_id, done.invite_token)
    )
    return HTMLResponse(html)
