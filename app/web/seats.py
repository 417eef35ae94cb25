"""The game master's seat controls on the GM page: "hand to a new player" (a new invite link
for a seat, the old link and the device holding the seat revoked, ``app.live.seats``; the
page shows the new link once, in ``#flash``; the players panel updates live) and the
table's bot pace and strength (``bot_pace`` and ``bot_strength`` commands, logged)."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.http.links import invite_url
from app.http.tokens import cookie_tokens
from app.kernel import table as kernel
from app.kernel.history import BOT_STRENGTHS
from app.kernel.types import GM_SEAT, Command, RuleError
from app.live.errors import AuthError, NotFound
from app.live.session import TableSession
from app.web.routes import flash, form_data, hub_of, pace_choices
from app.web.templating import render_block

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


@router.post("/t/{table_id}/bot-pace", response_class=HTMLResponse)
async def bot_pace(request: Request, table_id: str) -> HTMLResponse:
    """Form: ``seconds`` per bot move (issue 11: bots move at a pace people can follow). The
    game master's ``bot_pace`` command, so the choice is in the log and outlives a restart;
    answers with the pace menu as it now stands (and why, if refused)."""
    form = await form_data(request)
    raw = (form.get("seconds") or [""])[-1].strip()
    hub = hub_of(request)
    error, status = "", 200
    try:
        session = await hub.session(table_id)
        viewer = await hub.viewer(table_id, cookie_tokens(request, table_id), required=True, lenient=True)
        if not viewer.is_gm:
            raise AuthError(403, "gm_only", "only the game master sets the bots' pace")
        try:
            seconds = float(raw) if len(raw) <= 8 else float("nan")
        except ValueError:
            seconds = float("nan")
        command = Command(GM_SEAT, kernel.BOT_PACE, {"seconds": seconds})
        await session.submit(command, viewer, command_id="pace-" + secrets.token_hex(8))
    except NotFound as exc:
        return flash(request, str(exc), 404)
    except (AuthError, RuleError) as exc:
        error, status = exc.message, exc.status
    return await bot_settings(request, session, error, status)


@router.post("/t/{table_id}/bot-strength", response_class=HTMLResponse)
async def bot_strength(request: Request, table_id: str) -> HTMLResponse:
    """Form: ``strength``, ``strong`` or ``quick`` (issue 27: the game master picks how the
    table's bots play). The game master's ``bot_strength`` command, logged; answers with the
    bots' menus as they now stand (and why, if refused)."""
    form = await form_data(request)
    strength = (form.get("strength") or [""])[-1].strip()[:16]
    hub = hub_of(request)
    error, status = "", 200
    try:
        session = await hub.session(table_id)
        viewer = await hub.viewer(table_id, cookie_tokens(request, table_id), required=True, lenient=True)
        if not viewer.is_gm:
            raise AuthError(403, "gm_only", "only the game master sets how the bots play")
        command = Command(GM_SEAT, kernel.BOT_STRENGTH, {"strength": strength})
        await session.submit(command, viewer, command_id="strength-" + secrets.token_hex(8))
    except NotFound as exc:
        return flash(request, str(exc), 404)
    except (AuthError, RuleError) as exc:
        error, status = exc.message, exc.status
    return await bot_settings(request, session, error, status)


async def bot_settings(request: Request, session: TableSession, error: str, status: int) -> HTMLResponse:
    """The game master's bot menus (pace and strength) as they now stand."""
    hub = hub_of(request)
    pace = await hub.bots.pace(session)
    template = request.app.state.templates.get_template("table.html")
    ctx = {
        "table_id": session.id,
        "bot_pace": pace,
        "pace_choices": pace_choices(pace),
        "bot_strength": await hub.bots.strength(session),
        "strength_choices": list(BOT_STRENGTHS.items()),
        "pace_error": error,
    }
    return HTMLResponse(render_block(template, "bot_settings", ctx), status_code=status)
