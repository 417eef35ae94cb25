"""Dark Omen's rules at hand in a real browser (issue 28): in chapter 1 a barrow search is
greyed out with its rule; its link opens the entry in the side panel beside the table, the
first game's guide says what the day's dawn is for, Escape closes the panel, the table is
as it was (same seq, never reloaded), and a step on the map plays on."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import (
    assert_not_reloaded,
    create_game_table,
    expect_live,
    mark_no_reload,
    page_seq,
)
from tests.e2e.test_dark_omen import click_a_lit_space, view_of

pytestmark = pytest.mark.browser


def test_a_greyed_out_actions_rule_opens_beside_the_table(server: Served, open_page: PageFactory) -> None:
    table = create_game_table(server.url, "dark_omen", ["Ann", "Bo"], {"mode": "quick_chapter"}, seed="rules")
    ann = open_page(table.seat_url(0), viewport={"width": 1100, "height": 900})
    expect_live(ann)
    mark_no_reload(ann)
    seq = page_seq(ann)
    guide = ann.locator("#first-game-guide")
    expect(guide).to_contain_text("A new day has dawned")

    greyed = ann.locator("#prompts .unavailable li", has_text="Search for a barrow")
    expect(greyed.locator("button")).to_be_disabled()
    greyed.locator("cite a.rule-ref").click()
    panel = ann.locator("#rules-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("h2")).to_contain_text("Finding a barrow")
    expect(panel).to_contain_text("From chapter 2")
    expect(panel).to_contain_text("Covers DO L315")
    ann.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    assert page_seq(ann) == seq
    assert_not_reloaded(ann)

    space, _ = click_a_lit_space(ann)
    expect(ann.locator("#seq")).not_to_have_attribute("data-seq", str(seq))
    assert view_of(table, 0)["view"]["heroes"][0]["at"] == space
    assert_not_reloaded(ann)
