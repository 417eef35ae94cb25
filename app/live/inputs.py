"""What a new table is made of, checked the same way whether it comes from the lobby, the
API or an import: seat names, a table name and the game's options, all storable text."""

from __future__ import annotations

from typing import Any

from app.kernel.game import Game, validate_options
from app.kernel.text import COMMAND_BOUNDS, check_json, check_text
from app.kernel.types import RuleError

MAX_SEAT_NAME = 40
MAX_TABLE_NAME = 80


def check_seat_names(game: Game, names: list[Any]) -> list[str]:
    if not game.min_seats <= len(names) <= game.max_seats:
        raise RuleError(
            "seat_count",
            f"{game.title} seats {game.min_seats}–{game.max_seats} players, not {len(names)}",
        )
    return [check_seat_name(i, name) for i, name in enumerate(names)]


def check_seat_name(seat: int, name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise RuleError("seat_name", f"seat {seat} needs a name")
    if len(name.strip()) > MAX_SEAT_NAME:
        raise RuleError("seat_name", f"seat names are at most {MAX_SEAT_NAME} characters")
    return check_text(name, f"the name of seat {seat}").strip()


def check_table_name(name: Any) -> str:
    if not isinstance(name, str):
        raise RuleError("table_name", "a table name is text")
    if len(name) > MAX_TABLE_NAME:
        raise RuleError("table_name", f"a table name is at most {MAX_TABLE_NAME} characters")
    return check_text(name, "the table name").strip()


def check_options(game: Game, options: Any, seat_count: int | None = None) -> dict[str, Any]:
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RuleError("bad_option", "options are an object of option name to value")
    check_json(options, "options", COMMAND_BOUNDS)
    return validate_options(game, options, seat_count)
