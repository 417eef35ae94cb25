"""Scenario 6: the replay page steps through a finished game event by event."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import create_table, screenshot

pytestmark = pytest.mark.browser


def expect_frame(page: Page, seq: int, last: int, text: str | re.Pattern[str]) -> None:
    frame = page.locator("#replay-frame")
    expect(frame).to_have_attribute("data-seq", str(seq))
    expect(frame.locator(".status")).to_have_text(text)
    expect(frame.locator(".log li")).to_have_count(seq)
    expect(page.locator("#replay-pos")).to_have_text(f"{seq} / {last}")
    expect(page.locator("#replay-seq")).to_have_value(str(seq))


def test_the_replay_scrubs_through_a_finished_game(server: Served, open_page: PageFactory) -> None:
    table = create_table(server.url, ["Ann", "Bob"])
    while not table.summary()["outcome"]:
        table.api_move()
    last = table.summary()["seq"]
    hidden = table.hidden_cards()

    page = open_page(table.replay_url)
    expect(page.locator(".topbar .crumbs")).to_have_text("Replay · Lanterns (test game)")
    expect_frame(page, last, last, f"Event {last}: Bob Seat 0 is up.")

    page.get_by_role("button", name="Previous event").click()
    expect_frame(page, last - 1, last, f"Event {last - 1}: Bob Seat 1 draws a card.")
    page.get_by_role("button", name="Next event").click()
    expect_frame(page, last, last, re.compile(rf"^Event {last}:"))
    page.get_by_role("button", name="Next event").click()  # already at the end: stays
    expect_frame(page, last, last, re.compile(rf"^Event {last}:"))

    page.locator("#replay-seq").fill("0")
    expect_frame(page, 0, last, "Before the first event.")
    page.get_by_role("button", name="Next event").click()
    expect_frame(page, 1, last, "Event 1: A game to 5 points begins.")

    page.locator("#replay-seq").fill("5")
    expect_frame(page, 5, last, "Event 5: Ann Seat 0 plays lantern01-2 for 2.")
    expect(page.locator("#replay-frame #view-played")).to_contain_text("lantern01-2")
    expect(page.locator("#replay-frame #view-played")).not_to_contain_text("lantern03-4")
    page.locator("body").click(position={"x": 5, "y": 200})
    page.keyboard.press("ArrowRight")
    expect_frame(page, 6, last, "Event 6: Ann Seat 0 draws a card.")
    screenshot(page, "replay")

    # The replay is a spectator's view: no hand or deck card shows, at any step.
    for seq in (4, 10, last):
        page.locator("#replay-seq").fill(str(seq))
        expect(page.locator("#replay-frame")).to_have_attribute("data-seq", str(seq))
        html = page.content()
        assert not {card for card in hidden if card in html}
