"""Your tables: where each table a browser (or an API client) holds a seat or the
game-master link stands now (DESIGN.md, "Campaigns").

A browser remembers the tables it opened as a player or game master (``static/tables.js``)
and sends their ids here; the seat and game-master tokens themselves stay in the table's
``umbra_<table>`` cookie, which the page's script cannot read, and come along with the
request. An API client sends the token it holds with each table instead.

Each table is answered on its own: a table that is gone, or that none of the tokens opens
any more (the seat was opened on another device), is ``{"table_id", "status": "unknown"}``
and nothing else, the same whichever it is, so the answer tells nothing about a table the
asker does not hold.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.api.deps import HubDep, cookie_tokens
from app.api.models import Strict
from app.kernel import table as kernel
from app.kernel.game import campaign
from app.kernel.types import GM_SEAT, Viewer
from app.live.hub import TABLE_ID, AuthError, Hub, NotFound
from app.live.session import TableSession

router = APIRouter(prefix="/api", tags=["tables"])

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


class SeatOut(BaseModel):
    seat: int
    name: str
    bot: bool
    joined: bool


class ChapterOut(BaseModel):
    index: int
    title: str
    outcome: dict[str, Any] | None
    current: bool


class CampaignOut(BaseModel):
    chapters: list[ChapterOut]
    """Every chapter in order, with its outcome once played."""
    total: int
    played: int
    current: ChapterOut | None
    between: bool
    line: str


class MyTableOut(BaseModel):
    table_id: str
    status: Literal["ok", "unknown"]
    game: str | None = None
    game_title: str | None = None
    name: str | None = None
    role: Literal["seat", "gm"] | None = None
    url: str | None = None
    you: list[str] | None = None
    """The names of the seats held ("Game master" for the game-master link)."""
    players: list[SeatOut] | None = None
    last_move_at: datetime | None = None
    waiting_for: list[str] | None = None
    """Whose decision the table waits on, by name."""
    your_move: bool | None = None
    outcome: dict[str, Any] | None = None
    campaign: CampaignOut | None = None


class MineOut(BaseModel):
    tables: list[MyTableOut]


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


@router.post(
    "/tables/mine",
    response_model=MineOut,
    response_model_exclude_unset=True,  # an unknown table is its id and status, nothing more
    responses={422: {"description": "Malformed body, or more than 200 links"}},
)
async def mine(body: MineIn, request: Request, hub: HubDep) -> dict[str, Any]:
    """Where each of these tables stands for the one asking: game, name, players, when
    the last move was made, whose move it is and whether it is yours, the outcome, and a
    campaign's chapter. ``links`` lists up to 200 tables, each ``{"table_id"}`` (the
    browser's cookie for that table authorises it) or ``{"table_id", "token"}``. A table
    gone, or that the token or cookie no longer opens, is ``"status": "unknown"``."""
    return {"tables": await my_tables(hub, request, body.links)}
