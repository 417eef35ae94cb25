"""Darkest Night's rules at hand in the browser (issue 28): at a hero's first action step
in the Monastery the greyed-out Search names its rule; its link opens the entry in the side
panel without reloading the table or changing it, Escape closes it, and the game plays on.
A first game's guide says what the action step is for."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import (
    assert_not_reloaded,
    click_choice,
    create_game_table,
    expect_live,
    expect_seq,
    mark_no_reload,
    page_seq,
    required_choices,
)
from tests.e2e.test_darkest_night import api_click

pytestmark = pytest.mark.browser


def test_a_greyed_out_actions_rule_opens_in_the_panel_and_the_game_plays_on(
    server: Served, open_page: PageFactory
) -> None:
    table = create_game_table(server.url, "darkest_night", ["Ann"], seed="e2e-dn-rules")
    while (table.view(table.seat_token(0))["view"].get("waiting") or {}).get("kind") != "action":
        api_click(table)  # heroes, powers and who goes first, through the API
    page = open_page(table.seat_url(0))
    expect_live(page)
    mark_no_reload(page)
    seq = page_seq(page)

    guide = page.locator("#first-game-guide")
    expect(guide).to_be_visible()
    expect(guide).to_contain_text("Your action step")

    # Every hero starts in the Monastery, which cannot be searched (DN 19.2).
    search = page.locator(".unavailable li").filter(has_text="Search")
    rule = search.locator("cite a.rule-ref")
    expect(rule).to_have_text("DN 19.2")
    rule.click()
    panel = page.locator("#rules-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("h2")).to_contain_text("The Monastery")
    expect(panel).to_contain_text("no searching there")
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    assert page_seq(page) == seq
    assert_not_reloaded(page)

    # The table plays on: the hero hides (no dice, no card).
    click_choice(page, required_choices(page).filter(has_text="Hide"))
    expect_seq(page, table.summary()["seq"])
    assert page_seq(page) > seq
    assert_not_reloaded(page)
