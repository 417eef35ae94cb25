"""Attack the Darkness's rules at hand in Debian's chromium (issue 28): once the speed move
is made, the greyed "Move at speed" cites its rule (AtD L82); the link opens that entry in
the side panel without leaving or reloading the table, Escape closes it, and the table
plays on. The first game's guide says what the action step is for."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.atd_clicks import click
from tests.e2e.atd_play import Driver, waiting_kind
from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import (
    assert_not_reloaded,
    create_game_table,
    expect_live,
    expect_seq,
    mark_no_reload,
    page_seq,
    screenshot,
)

pytestmark = pytest.mark.browser

SEED = "atd-tap"
"""Two players in the Tavern Cellar: the first action step comes at once, with moves."""


def test_a_greyed_actions_rule_opens_in_the_panel_and_the_table_plays_on(
    server: Served, open_page: PageFactory
) -> None:
    table = create_game_table(server.url, "attack_the_darkness", ["Ann", "Bob"], {"mode": "adventure"}, SEED)
    with httpx.Client(base_url=server.url, timeout=10) as http:
        api = Driver.of(http, table.created)
        gm = api.play_until(waiting_kind("act"))
        seat = gm["view"]["waiting"]["seats"][0]
        choices, _ = api.choices(seat)
        api.send(seat, next(c["command"] for c in choices if c["command"]["type"] == "speed"))
        choices, payload = api.choices(seat)

        page = open_page(table.seat_url(seat))
        expect_live(page)
        expect_seq(page, payload["seq"])
        guide = page.locator("#first-game-guide")
        expect(guide).to_be_visible()
        expect(guide).to_contain_text("Your action step")
        mark_no_reload(page)
        seq = page_seq(page)

        greyed = page.locator("#prompts .unavailable li", has_text="Move at speed")
        expect(greyed.locator(".reason")).to_contain_text("once per turn")
        link = greyed.locator("cite a.rule-ref")
        expect(link).to_have_text("AtD L82")
        link.click()
        panel = page.locator("#rules-panel")
        expect(panel).to_be_visible()
        expect(panel.locator("h2")).to_contain_text("The speed move and card moves")
        expect(panel).to_contain_text("Covers AtD L82.")
        expect(panel).to_contain_text("Once in each of your turns")
        screenshot(page, "atd-rules-panel")
        page.keyboard.press("Escape")
        expect(panel).to_be_hidden()
        assert page_seq(page) == seq
        assert_not_reloaded(page)

        # The table plays on: the turn ends by a click on the page.
        end = next(c["command"] for c in choices if c["command"]["type"] == "end_turn")
        click(page, end)
        after = api.payload(seat)
        assert after["seq"] > seq
        expect_seq(page, after["seq"])
        assert_not_reloaded(page)
