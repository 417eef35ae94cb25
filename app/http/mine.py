"""Your tables, as the JSON API (``app.api.mine``) and the page (``app.web.tables``) both
answer them: which tables a request asks about, and where each stands for the one asking
(see ``app.api.mine`` for the rules). Neither layer imports the other; both import this."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field
from starlette.requests import Request

from app.http.commands import Strict
from app.http.tokens import cookie_tokens
from app.kernel import table as kernel
from app.kernel.game import campaign
from app.kernel.types import GM_SEAT, Viewer
from app.live.hub import TABLE_ID, AuthError, Hub, NotFound
from app.live.session import TableSession

MAX_LINKS = 200
"""Tables asked about in one request: each may load a table into memory."""
LAST_MOVE_LOOKBACK = 50
"""Events looked back through for the last one that is not chat."""
TOKEN_PATTERN = r"^[A-Za-z0-9_-]+$"


class LinkIn(Strict):
    table_id: str = Field(min_length=1, max_length=32, pattern=TABLE_ID.pattern)
    token: str | None = Field(
        default=None,
        min_length=1,
        max_length=128,
        pattern=TOKEN_PATTERN,
        description="A seat, device or game-master token; without one, this browser's cookie.",
    )


class MineIn(Strict):
    links: list[LinkIn] = Field(max_length=MAX_LINKS)


def unknown(table_id: str) -> dict[str, Any]:
    return {"table_id": table_id, "status": "unknown"}


async def my_tables(hub: Hub, request: Request, links: list[LinkIn]) -> list[dict[str, Any]]:
    """One entry per link, in order (a table asked about twice is answered once)."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str | None]] = set()
    for link in links:
        if (link.table_id, link.token) in seen:
            continue
        seen.add((link.table_id, link.token))
        tokens = [link.token] if link.token else cookie_tokens(request, link.table_id)
        out.append(await table_entry(hub, link.table_id, tokens))
    return out


async def table_entry(hub: Hub, table_id: str, tokens: list[str]) -> dict[str, Any]:
    if not tokens:
        return unknown(table_id)
    try:
        session = await hub.session(table_id)
        viewer = await hub.viewer(table_id, tokens, lenient=True)
    except (NotFound, AuthError):
        return unknown(table_id)
    if viewer.role == "spectator":
        return unknown(table_id)
    return await describe_table(hub, session, viewer)


async def describe_table(hub: Hub, session: TableSession, viewer: Viewer) -> dict[str, Any]:
    names: dict[Any, str] = {s.seat: s.name for s in session.seats}
    names[GM_SEAT] = "Game master"
    waiting = hub.waiting_for(session)
    you = [names[s] for s in sorted(viewer.seats, key=str) if s in names]
    return {
        "table_id": session.id,
        "status": "ok",
        "game": session.game.name,
        "game_title": session.game.title,
        "name": session.record.name,
        "role": "gm" if viewer.is_gm else "seat",
        "url": f"/t/{session.id}/gm" if viewer.is_gm else f"/t/{session.id}",
        "you": you,
        "players": [
            {"seat": s.seat, "name": s.name, "bot": s.bot, "joined": s.session_hash is not None}
            for s in session.seats
        ],
        "last_move_at": await last_move_at(session),
        "waiting_for": [names.get(s, str(s)) for s in waiting],
        "your_move": any(viewer.holds(s) for s in waiting),
        "outcome": session.outcome.to_json() if session.outcome else None,
        "campaign": campaign(session.game, session.state),
    }


async def last_move_at(session: TableSession) -> datetime | None:
    """When the newest event that is not a chat line was stored (or the newest chat line,
    when the last few events are all chat)."""
    recent = await session.events_between(max(0, session.seq - LAST_MOVE_LOOKBACK), session.seq)
    chat = kernel.PLATFORM_PREFIX + kernel.CHAT
    moves = [e for e in recent if e.event.type != chat]
    newest = (moves or recent)[-1:]
    return newest[0].at if newest else None
