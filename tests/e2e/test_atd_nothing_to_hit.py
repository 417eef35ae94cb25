"""Attack the Darkness in Debian's chromium (issue 26): an attack card with no enemy in
range says so before any payment, and clicking it asks to confirm ("Play it anyway" or
"Back") — playing it is legal (AtD L157), but a newcomer should not burn a hand by
accident. At a desktop width and a phone's (390×844)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.atd_clicks import button_for, click
from tests.e2e.atd_play import Driver
from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import create_game_table, expect_live, expect_seq, screenshot

SEED = "atd-0"
OPTIONS = {"mode": "adventure", "dungeon": "tavern_cellar"}
NOTHING = "no enemy in range: it will do nothing"


def first_wasted_attack(api: Driver, limit: int = 200) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play the quick player's moves until seat 0's action step offers an attack card with
    nothing to hit; that choice and seat 0's payload."""
    for _ in range(limit):
        gm = api.payload()
        if (gm["view"].get("waiting") or {}).get("kind") == "act" and gm["waiting_for"] == [0]:
            choices, payload = api.choices(0)
            wasted = [c for c in choices if NOTHING in c["label"]]
            if wasted:
                return wasted[0], payload
        seat, command, _ = api.next_move()
        api.send(seat, command)
    raise AssertionError("no attack card with nothing to hit came")


@pytest.mark.parametrize(
    ("name", "viewport"),
    [("desktop", {"width": 1280, "height": 900}), ("phone", {"width": 390, "height": 844})],
)
def test_an_attack_with_nothing_to_hit_asks_before_paying(
    server: Served, open_page: PageFactory, name: str, viewport: dict[str, int]
) -> None:
    table = create_game_table(server.url, "attack_the_darkness", ["Ann"], OPTIONS, SEED)
    page = open_page(table.seat_url(0), viewport=viewport)
    expect_live(page)
    with httpx.Client(base_url=server.url, timeout=10) as http:
        api = Driver.of(http, table.created)
        choice, payload = first_wasted_attack(api)
        command = choice["command"]
        expect_seq(page, payload["seq"])
        hand_size = len(payload["view"]["characters"][0]["hand"])
        expect(button_for(page, command)).to_contain_text(NOTHING)

        # The card's click asks first: nothing is paid.
        target = click(page, command)
        assert target is not None and target.startswith("ac:")  # the card in the hand
        window = page.locator("#atd-window")
        expect(window).to_contain_text("will do nothing")
        expect(window).to_contain_text("AtD L157")
        anyway = page.locator("#prompts button.choice", has_text="Play it anyway")
        back = page.locator("#prompts button.choice", has_text="Back")
        expect(anyway).to_be_visible()
        expect(back).to_be_visible()
        screenshot(page, f"atd-nothing-to-hit-{name}")

        # Back: the action step again, every card still in hand.
        back.click()
        expect(window).not_to_contain_text("will do nothing")
        after = api.payload(0)
        assert after["view"]["waiting"]["kind"] == "act"
        assert len(after["view"]["characters"][0]["hand"]) == hand_size
        expect_seq(page, after["seq"])

        # Play it anyway: the card's click paid the cheapest way (issue 26), so it is
        # declared at once: the card and its resource cards leave the hand.
        assert command["type"] == "play_cheapest"
        click(page, command)
        expect(anyway).to_be_visible()
        anyway.click()
        expect(anyway).to_have_count(0)
        after = api.payload(0)
        assert after["view"]["waiting"]["kind"] != "pay"
        assert len(after["view"]["characters"][0]["hand"]) < hand_size
