"""Rules at hand in the browser (issue 28), on the test game Lanterns: a citation in a
refusal opens its entry in the side panel without leaving or reloading the table, by mouse
and by keyboard, and the table plays on; a first game's guide says what the step is for
until dismissed (remembered by the browser); the log shows each line's rule on request;
on a phone the panel fits the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import (
    PHONE,
    assert_not_reloaded,
    click_choice,
    create_table,
    expect_live,
    lowest_choice,
    mark_no_reload,
    page_seq,
    scroll_width,
)
from tests.e2e.test_refused import send_forged

pytestmark = pytest.mark.browser


def refuse_out_of_turn(page: Page, table_id: str) -> None:
    send_forged(page, table_id, {"seat": 1, "type": "roll", "args": {}})
    expect(page.locator("#flash a.rule-ref")).to_have_text("LR 2.1")


def test_a_refusals_rule_opens_in_the_panel_and_the_table_plays_on(
    server: Served, open_page: PageFactory
) -> None:
    table = create_table(server.url, ["Ann", "Bob"])
    ann = open_page(table.seat_url(0))
    bob = open_page(table.seat_url(1))
    for page in (ann, bob):
        expect_live(page)
        mark_no_reload(page)
    seq = page_seq(bob)

    refuse_out_of_turn(bob, table.id)
    bob.locator("#flash a.rule-ref").click()
    panel = bob.locator("#rules-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("h2")).to_contain_text("Taking turns")
    expect(bob.locator("#rules-panel-title")).to_be_focused()
    bob.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(bob.locator("#flash a.rule-ref")).to_be_focused()  # back where the player was

    # By keyboard alone: Enter on the focused link opens it, the close button closes it.
    bob.keyboard.press("Enter")
    expect(panel).to_be_visible()
    panel.get_by_role("button", name="Close the rules").click()
    expect(panel).to_be_hidden()
    assert page_seq(bob) == seq
    assert_not_reloaded(bob)

    # The table plays on, from both pages.
    click_choice(ann, lowest_choice(ann))
    click_choice(bob, lowest_choice(bob))
    assert_not_reloaded(bob)


def test_the_first_game_guide_and_the_log_rules(server: Served, open_page: PageFactory) -> None:
    table = create_table(server.url, ["Ann", "Bob"])
    ann = open_page(table.seat_url(0))
    expect_live(ann)
    guide = ann.locator("#first-game-guide")
    expect(guide).to_be_visible()
    expect(guide).to_contain_text("Your turn: play a lantern")
    guide.locator("a.rule-ref").click()
    expect(ann.locator("#rules-panel h2")).to_contain_text("Taking turns")
    ann.keyboard.press("Escape")
    guide.get_by_role("button", name="Got it, hide tips").click()
    expect(guide).to_be_hidden()
    ann.reload()
    expect_live(ann)
    expect(ann.locator("#first-game-guide")).to_be_hidden()  # remembered by the browser
    ann.get_by_role("button", name="Tips").click()
    expect(ann.locator("#first-game-guide")).to_be_visible()

    click_choice(ann, lowest_choice(ann))
    rule = ann.locator("#log-entries .log-rule").first
    expect(rule).to_be_hidden()  # off by default
    ann.locator("#log-rules").check()
    expect(rule).to_be_visible()
    expect(rule).to_have_text("LR 2.2")
    rule.click()
    expect(ann.locator("#rules-panel h2")).to_contain_text("Scoring")

    watch = open_page(table.watch_url)
    expect_live(watch)
    expect(watch.locator("#first-game-guide")).to_be_hidden()  # spectators: only when asked


def test_the_panel_fits_a_phone(server: Served, open_page: PageFactory) -> None:
    table = create_table(server.url, ["Ann", "Bob"])
    bob = open_page(table.seat_url(1), viewport=PHONE, is_mobile=True, has_touch=True)
    expect_live(bob)
    bob.get_by_role("link", name="Rules").click()
    panel = bob.locator("#rules-panel")
    expect(panel).to_be_visible()
    box = panel.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1
    assert scroll_width(bob) <= PHONE["width"] + 1
    panel.locator("a.rule-ref").first.tap()
    expect(panel.locator("h2")).to_contain_text("Hands and the deck")
