"""Request and response bodies. Requests are strict: unknown fields and wrong types are
refused with 422 rather than guessed at."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.kernel.history import COMMAND_ID_PATTERN

Seat = int | Literal["gm"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


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


class CommandIn(Strict):
    command_id: str = Field(min_length=1, max_length=64, pattern=COMMAND_ID_PATTERN)
    seat: Seat
    type: str = Field(min_length=1, max_length=64)
    args: dict[str, Any] = Field(default_factory=dict)
    seq: int | None = Field(
        default=None, ge=0, description="The seq of the view this command was chosen from."
    )


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
