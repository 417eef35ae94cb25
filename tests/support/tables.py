"""Helpers for tests that drive tables through the public API."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient

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


@contextmanager
def second_device(first: TestClient) -> Iterator[TestClient]:
    """Another browser (its own cookies) on the server ``first`` runs.

    A real server has one event loop; two ``with TestClient(app)`` blocks would run one app
    on two loops, which the live layer's locks rightly refuse. So the second device sends
    its requests through the first one's loop (``portal``) and never starts the app again.
    """
    assert first.portal is not None, "enter the first client's `with` block first"
    device = TestClient(first.app, base_url=str(first.base_url))
    device.portal = first.portal
    try:
        yield device
    finally:
        device.portal = None
        device.close()
