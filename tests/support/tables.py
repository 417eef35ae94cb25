"""Helpers for tests that drive tables through the public API."""

from __future__ import annotations

from typing import Any

LANTERNS = "lanterns"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create_body(seats: int = 2, seed: str | None = "test-seed", **options: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "game": LANTERNS,
        "options": options,
        "seats": [{"name": f"Player {i + 1}"} for i in range(seats)],
    }
    if seed is not None:
        body["seed"] = seed
    return body


def first_choice(view: dict[str, Any], seat: Any = None, type_: str | None = None) -> dict[str, Any]:
    """The first ready-to-send command in a view's prompts (optionally of one seat/type)."""
    for prompt in view["prompts"]:
        if seat is not None and prompt["seat"] != seat:
            continue
        for choice in prompt["choices"]:
            if type_ is None or choice["command"]["type"] == type_:
                return choice["command"]
    raise AssertionError(f"no choice for seat {seat} type {type_} in {view['prompts']}")
