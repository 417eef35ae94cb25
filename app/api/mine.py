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
from pydantic import BaseModel

from app.api.deps import HubDep
from app.http.mine import MineIn, my_tables

router = APIRouter(prefix="/api", tags=["tables"])


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
    detail: str = ""
    """Where the chapter being played stands ("day 3 · darkness meter 4 of 8"), or ""."""


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
