"""A Darkest Night player's own controls, in the browser (issue 11): the stakes of a roll
before it is made, "auto-pass when I have nothing to do" as a checkbox that stays ticked,
handing their own seat to the bot and taking it back from their page, and the game
master's bot pace."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import choice_commands, expect_live, required_choices, screenshot, wait_until
from tests.e2e.test_darkest_night import api_click, dn_table

pytestmark = pytest.mark.browser


def test_a_players_own_controls_on_the_darkest_night_seat_page(
    server: Served, open_page: PageFactory
) -> None:
    table = dn_table(server, ["Ann", "Bo"])
    gm = open_page(table.gm_url)
    expect_live(gm)
    while True:  # hero and power choices, through the API, to the first action
        waiting = table.summary()["waiting_for"]
        view = table.view(table.seat_token(waiting[0]))
        if (view["view"].get("waiting") or {}).get("kind") == "action":
            break
        api_click(table)
    seat = waiting[0]
    name = ["Ann", "Bo"][seat]
    page = open_page(table.seat_url(seat))
    expect_live(page)

    expect(page.locator("#dn-context")).to_be_hidden()  # a wide screen has the panels beside
    # Stakes before the roll: what success and failure do, and the odds.
    pray = required_choices(page).filter(has_text="Pray")
    expect(pray.locator(".detail")).to_contain_text(re.compile(r"\d+%; fail: "))

    # Auto-pass is a checkbox: ticked once sent, still ticked on a reload.
    box = page.get_by_role("checkbox", name="Auto-pass when I have nothing to do")
    expect(box).not_to_be_checked()
    box.check()
    expect(page.locator("#log-entries")).to_contain_text("auto-pass")
    expect(box).to_be_checked()
    page.reload()
    expect_live(page)
    expect(page.get_by_role("checkbox", name="Auto-pass when I have nothing to do")).to_be_checked()
    screenshot(page, "dn-auto-pass")

    # The game master sets the bots' pace from the table page; the log says so.
    gm.locator("#bot-pace select").select_option(label="slowly (3 s a move)")
    expect(gm.locator("#log-entries")).to_contain_text("sets the bots' pace to 3 s a move")
    expect(gm.locator("#bot-pace select")).to_have_value("3.0")
    gm.locator("#bot-pace select").select_option(label="at once")
    expect(gm.locator("#log-entries")).to_contain_text("lets the bots move at once")

    # The player hands their own seat to the bot, which plays it, and takes it back.
    before = table.summary()["seq"]
    mine = page.locator(f"#seat-{seat}")
    mine.get_by_role("button", name=f"Let the bot play {name}").click()
    expect(mine.locator(".tag-bot")).to_have_text("bot")
    wait_until(lambda: table.summary()["seq"] > before + 1, message="the bot's moves")
    mine.get_by_role("button", name=f"Take {name} back from the bot").click()
    expect(mine.get_by_role("button", name=f"Let the bot play {name}")).to_be_visible()
    assert table.summary()["seats"][seat]["bot"] is False
    if seat in table.summary()["waiting_for"]:  # the person is asked again
        expect(required_choices(page).first).to_be_visible()
        assert choice_commands(required_choices(page))
