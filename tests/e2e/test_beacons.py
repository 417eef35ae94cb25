"""The platform's contract in a real browser without Darkest Night (issue 9): the test game
Beacons (tests/support/beacons), served by a real ``umbra serve`` with
``UMBRA_EXTRA_GAMES`` naming it. A keeper clicks a square of the grid to move there, then
raises a lantern and clicks a square to light it; each shows in the log. When the night
ends the table waits between chapters; "ready" starts the next, with a chapter divider in
the log."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

import tests.conftest
from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import Table, create_game_table, expect_live, screenshot

pytestmark = pytest.mark.browser

BEACONS_MODULE = "tests.support.beacons"


@pytest.fixture
def beacons_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    """A server that also runs Beacons (``UMBRA_EXTRA_GAMES``, from the test games)."""
    monkeypatch.setattr(tests.conftest, "TEST_GAMES", (*tests.conftest.TEST_GAMES, BEACONS_MODULE))
    served = Served(f"sqlite:///{tmp_path / 'umbra.db'}", tmp_path / "server.log")
    try:
        yield served
    finally:
        served.stop()


def required_commands(table: Table, seat: int) -> list[dict[str, Any]]:
    prompts = table.view(table.seat_token(seat))["prompts"]
    return [c["command"] for p in prompts if p["required"] for c in p["choices"]]


def post(table: Table, seat: int, command: dict[str, Any]) -> None:
    response = httpx.post(
        f"{table.base}/api/tables/{table.id}/commands",
        json=command,
        headers={"Authorization": f"Bearer {table.seat_token(seat)}"},
        timeout=10,
    )
    assert response.status_code == 200, response.text


def test_clicking_squares_moves_and_lights_and_a_new_night_is_a_chapter(
    beacons_server: Served, open_page: PageFactory
) -> None:
    table = create_game_table(
        beacons_server.url, "beacons", ["Ann"], {"campaign": "campaign", "nights": 2, "colour": ["jade"]}
    )
    page = open_page(table.seat_url(0))
    expect_live(page)
    board = page.locator("#bc-board")
    log = page.locator("#log-entries")
    expect(log.locator("li.log-chapter")).to_have_count(1)  # Night 1 falls
    expect(log.locator("li.log-chapter").first).to_contain_text("Night 1 falls")

    # Ann is at 0-0: the squares she may move to are wired, the others are not.
    square = board.locator("#bc-sq-0-1")
    expect(square).to_have_class(re.compile(r"\bis-target\b"))
    expect(square).to_have_attribute("aria-label", "Move to 0-1")
    expect(board.locator("#bc-sq-2-2")).not_to_have_class(re.compile(r"\bis-target\b"))
    square.click()
    expect(log).to_contain_text("Keeper 1 moves to 0-1.")
    expect(board.locator("#bc-sq-0-1 .bc-token")).to_have_text("An")

    # Lighting is two questions: the lantern (a prompt button), then a square (the board).
    page.locator("#prompts button.choice", has_text="Raise lantern").first.click()
    target = board.locator("#bc-sq-1-1")
    expect(target).to_have_class(re.compile(r"\bis-target\b"))
    expect(target).to_have_attribute("aria-label", "Light a beacon on 1-1")
    target.click()
    expect(log).to_contain_text("Keeper 1 lights a beacon on 1-1.")
    expect(target).to_have_class(re.compile(r"\bbc-lit\b"))
    screenshot(page, "beacons-lit")

    # The night runs out through the API (waiting at every watch) until it ends.
    for _ in range(60):
        commands = required_commands(table, 0)
        if any(c["type"] == "ready" for c in commands):
            break
        post(table, 0, next(c for c in commands if c["type"] == "wait"))
    else:
        raise AssertionError("the first night did not end")
    expect(page.locator(".campaign-line")).to_contain_text("Between chapters: 1 of 2 played")
    expect(log).to_contain_text("Night 1 is lost.")

    page.locator("#prompts button.choice", has_text="ready for Night 2").click()
    expect(log.locator("li.log-chapter")).to_have_count(2)
    expect(log.locator("li.log-chapter").first).to_contain_text("Night 2 falls")
    expect(page.locator(".campaign-line")).to_contain_text("Night 2 (2 of 2)")
    expect(board.locator("#bc-sq-0-0 .bc-token")).to_have_text("An")  # back in her corner
    screenshot(page, "beacons-night-2")
