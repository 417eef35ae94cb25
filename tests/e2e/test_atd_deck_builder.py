"""Issue 13 "Lobby": Attack the Darkness's deck builder, clicked on a phone-sized page. A
deck is built by clicking, a broken rule is shown with its rule and the deck is refused,
the deck is fixed, saved in the browser, found again after a reload and played."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import screenshot, scroll_width

pytestmark = pytest.mark.browser


def open_builder(page: Page) -> None:
    """The Attack the Darkness form, Ann a Champion, her deck builder open."""
    with page.expect_response(re.compile(r"/lobby/form\?game=attack_the_darkness")):
        page.locator("select[name=game]").select_option("attack_the_darkness")
    page.locator("input[name=seat]").nth(0).fill("Ann")
    page.locator("select[name=opt_class]").nth(0).select_option("champion")
    page.get_by_role("button", name="Build deck: Ann").click()
    expect(page.get_by_role("heading", name="Ann’s Champion deck")).to_be_focused()


def card(page: Page, card_id: str) -> tuple[Page, ...]:
    return page.locator(f'.atd-b-card[data-card="{card_id}"]')  # type: ignore[return-value]


def test_a_deck_built_by_clicking_is_refused_fixed_saved_and_played(
    server: Served, open_page: PageFactory
) -> None:
    page = open_page(server.url + "/", viewport={"width": 390, "height": 844})
    open_builder(page)
    builder = page.locator(".atd-builder")
    counts, problems = builder.locator(".atd-b-counts"), builder.locator(".atd-b-problems")
    expect(counts).to_contain_text("Resources 27/27")
    expect(counts).to_contain_text("Actions 27/27")
    expect(counts).to_contain_text("core Hearty 12/12")
    expect(problems).to_contain_text("A legal Champion deck")
    assert scroll_width(page) <= 390

    # Filter, then take the Fate out: 26 actions, a rule broken and "Use this deck" refused.
    builder.locator(".atd-b-filter").fill("fate")
    expect(builder.locator(".atd-b-card:visible")).to_have_count(1)
    card(page, "fate").get_by_role("button", name="Remove a Fate").click()
    expect(counts).to_contain_text("Actions 26/27")
    rule = "the action deck holds 26 cards, not exactly 27 (AtD L324)"
    expect(problems.locator(".summary-error")).to_have_text([rule])
    builder.get_by_role("button", name="Use this deck").click()
    expect(builder.locator(".atd-b-said")).to_contain_text(f"Refused: this deck breaks 1 rule — {rule}")
    expect(page.locator("textarea[name=opt_deck]").nth(0)).to_have_value("")
    screenshot(page, "atd-deck-builder-refused")

    # A third Feint fixes it; a fourth is refused with its rule, by keyboard.
    builder.locator(".atd-b-filter").fill("feint")
    plus = card(page, "feint").get_by_role("button", name="Add a Feint")
    plus.click()
    expect(counts).to_contain_text("Actions 27/27")
    expect(problems).to_contain_text("A legal Champion deck")
    plus.focus()
    page.keyboard.press("Enter")
    expect(builder.locator(".atd-b-said")).to_have_text("At most 3 Feint (AtD L318, L325).")
    expect(card(page, "feint").locator(".atd-b-n")).to_have_text("3")

    builder.locator(".atd-b-name").fill("Feint champion")
    builder.get_by_role("button", name="Save in this browser").click()
    expect(builder.locator(".atd-b-saved")).to_contain_text("Feint champion")
    text = builder.locator(".atd-b-text").input_value()
    assert "3 Feint" in text and "Fate" not in text

    # After a reload the saved deck is found again, loaded, and written into Ann's box.
    page.reload()
    open_builder(page)
    builder = page.locator(".atd-builder")
    builder.locator(".atd-b-text").fill("12 Hearty; 3 Hack!")  # a shared text, loaded as it is
    builder.get_by_role("button", name="Load this text").click()
    expect(builder.locator(".atd-b-said")).to_have_text("Loaded the text.")
    expect(counts := builder.locator(".atd-b-counts")).to_contain_text("Resources 12/27")
    expect(counts).to_contain_text("Actions 3/27")
    expect(builder.locator(".atd-b-problems")).to_contain_text(
        "the resource deck holds 12 cards, not exactly 27 (AtD L316)"
    )
    builder.get_by_role("button", name="Load Feint champion").click()
    expect(builder.locator(".atd-b-said")).to_have_text("Loaded Feint champion.")
    expect(card(page, "feint").locator(".atd-b-n")).to_have_text("3")
    expect(card(page, "fate").locator(".atd-b-n")).to_have_text("0")
    expect(builder.locator(".atd-b-problems")).to_contain_text("A legal Champion deck")
    builder.get_by_role("button", name="Use this deck").click()
    expect(page.locator("textarea[name=opt_deck]").nth(0)).to_have_value(text)
    expect(page.locator("#option-summary")).to_contain_text("Adventure")
    expect(page.locator("#option-summary .summary-error")).to_have_count(0)
    screenshot(page, "atd-deck-builder")
    assert scroll_width(page) <= 390

    page.get_by_role("button", name="Create the table").click()
    expect(page).to_have_url(re.compile(r"/lobby/created/\w+$"))
    invite = page.locator("#invite-0").input_value()
    table_id = re.search(r"/t/(\w+)/join/", invite).group(1)  # type: ignore[union-attr]
    events = httpx.get(f"{server.url}/api/tables/{table_id}/events").json()["events"]
    deck = events[0]["data"]["decks"][0]
    assert deck["actions"]["feint"] == 3 and "fate" not in deck["actions"]
