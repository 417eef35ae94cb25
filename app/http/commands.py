"""The body of one command, as the API receives it and as a page's button sends it. Strict:
unknown fields and wrong types are refused with 422 rather than guessed at."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.kernel.history import COMMAND_ID_PATTERN

Seat = int | Literal["gm"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CommandIn(Strict):
    command_id: str = Field(min_length=1, max_length=64, pattern=COMMAND_ID_PATTERN)
    seat: Seat
    type: str = Field(min_length=1, max_length=64)
    args: dict[str, Any] = Field(default_factory=dict)
    seq: int | None = Field(
        default=None, ge=0, description="The seq of the view this command was chosen from."
    )
