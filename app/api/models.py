"""Request and response bodies. Requests are strict: unknown fields and wrong types are
refused with 422 rather than guessed at."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.http.commands import CommandIn as CommandIn  # the command body lives with the pages' too
from app.http.commands import Seat, Strict


class SeatCreate(Strict):
    name: str = Field(min_length=1, max_length=40)


class TableCreate(Strict):
    game: str = Field(min_length=1, max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatCreate] = Field(min_length=1, max_length=16)
    seed: str | None = Field(default=None, min_length=1, max_length=64)
    name: str = Field(default="", max_length=80)


class SeatCreated(BaseModel):
    seat: int
    name: str
    token: str
    url: str


class TableCreated(BaseModel):
    table_id: str
    seats: list[SeatCreated]
    gm_token: str
    gm_url: str
    watch_url: str
    replay_url: str


class EventOut(BaseModel):
    seq: int
    type: str
    v: int
    data: dict[str, Any]
    actor: str
    at: str
    text: str | None = None


class CommandOut(BaseModel):
    seq: int
    events: list[EventOut]
    replayed: bool = False


class SeatPublic(BaseModel):
    seat: int
    name: str
    joined: bool
    bot: bool = False
    """The seat is played by the game's bot."""


class BotIn(Strict):
    on: bool


class SeatReissueIn(Strict):
    name: str | None = Field(
        default=None, min_length=1, max_length=40, description="The new player's name (default: unchanged)."
    )


class SeatReissued(BaseModel):
    seat: int
    name: str
    token: str
    url: str
    revoked: int = Field(description="How many tokens were revoked: the old invite, and its device session.")


class TableSummary(BaseModel):
    table_id: str
    game: str
    name: str
    status: str
    seq: int
    seats: list[SeatPublic]
    waiting_for: list[Seat]
    outcome: dict[str, Any] | None


class ViewOut(BaseModel):
    seq: int
    view: dict[str, Any]
    prompts: list[dict[str, Any]]
    waiting_for: list[Seat]
    outcome: dict[str, Any] | None


class OptionOut(BaseModel):
    name: str
    type: str
    default: Any
    label: str
    help: str = ""
    choices: list[str] | None = None
    choice_labels: list[str] | None = None
    minimum: int | None = None
    maximum: int | None = None
    count_option: str | None = None
    item_label: str | None = None
    distinct: bool | None = None
    blank_label: str | None = None
    depends_on: dict[str, Any] | None = None


class GameOut(BaseModel):
    name: str
    title: str
    summary: str
    min_seats: int
    max_seats: int
    engine_version: str
    options: list[OptionOut]
