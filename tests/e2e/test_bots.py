"""A seat handed to the bot, in the browser: the switch on the table-ready page, the bot
answering a person's move live, and the game master taking the seat back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import click_choice, expect_live, lowest_choice, screenshot

pytestmark = pytest.mark.browser


def test_the_bot_plays_a_seat_nobody_took(server: Served, open_page: PageFactory) -> None:
    page = open_page(server.url + "/")
    with page.expect_response(re.compile(r"/lobby/form\?game=lanterns")):
        page.locator("select[name=game]").select_option("lanterns")
    form = page.locator("#game-form")
    form.locator("input[name=opt_target]").fill("30")
    form.locator("input[name=seat]").nth(0).fill("Ann")
    form.locator("input[name=seat]").nth(1).fill("Bo")
    page.get_by_role("button", name="Create the table").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("table is ready")

    switch = page.get_by_role("button", name="Let the bot play Bo")
    switch.click()
    taken = page.get_by_role("button", name="Take Bo back from the bot")
    expect(taken).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="Let the bot play Ann")).to_have_attribute("aria-pressed", "false")
    screenshot(page, "created-bot")
    ann_url = page.locator("#invite-0").input_value()
    gm_url = page.locator("#invite-gm").input_value()

    ann = open_page(ann_url)
    expect_live(ann)
    expect(ann.locator("#seats .tag-bot")).to_have_count(1)
    click_choice(ann, lowest_choice(ann))
    # The bot answers by itself, and the page shows its move without a reload.
    bot_lines = ann.locator("#log-entries .actor", has_text=re.compile(r"^Bo$"))
    expect(bot_lines.first).to_be_visible(timeout=10_000)
    expect(ann.locator("#status")).to_contain_text("Waiting for Ann", timeout=10_000)

    gm = open_page(gm_url)
    expect_live(gm)
    bo = gm.locator("#seats li").filter(has=gm.locator(".name", has_text=re.compile(r"^Bo$")))
    expect(bo.locator(".tag-bot")).to_have_text("bot")
    bo.get_by_role("button", name="Take Bo back from the bot").click()
    expect(bo.locator(".tag-bot")).to_have_count(0)
    expect(bo.get_by_role("button", name="Let the bot play Bo")).to_be_visible()
    expect(ann.locator("#seats .tag-bot")).to_have_count(0)  # every page learns it live
    screenshot(gm, "gm-bot")

    seq = int(ann.locator("#seq").get_attribute("data-seq") or 0)
    click_choice(ann, lowest_choice(ann))
    expect(ann.locator("#status")).to_contain_text("Waiting for Bo")
    ann.wait_for_timeout(500)
    assert int(ann.locator("#seq").get_attribute("data-seq") or 0) > seq
    expect(ann.locator("#status")).to_contain_text("Waiting for Bo")  # nobody plays Bo now
