"""Issue 11: "your turn" is noticed in a background tab. A seat's page that gets a prompt
while hidden changes its title until it is seen again; the sound switch is off by default
and remembered by the browser."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import create_table, expect_live

HIDE = "Object.defineProperty(document, 'hidden', {configurable: true, get: () => true})"
SHOW = (
    "Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});"
    "document.dispatchEvent(new Event('visibilitychange'))"
)


def test_a_hidden_tab_says_your_turn_until_seen(server: Served, open_page: PageFactory) -> None:
    table = create_table(server.url, ["Ann", "Bob"], seed="turn-alerts")
    waiting = table.summary()["waiting_for"][0]
    idle = 1 - waiting
    page = open_page(table.seat_url(idle))
    expect_live(page)
    plain = page.title()
    assert "Your turn" not in plain
    expect(page.locator("#turn-sound")).not_to_be_checked()  # off by default

    page.evaluate(HIDE)
    table.api_move()
    assert table.summary()["waiting_for"] == [idle]
    expect(page).to_have_title(re.compile(r"^● Your turn — "))
    page.evaluate(SHOW)
    expect(page).to_have_title(plain)

    page.locator("#turn-sound").check()
    page.reload()
    expect(page.locator("#turn-sound")).to_be_checked()  # remembered by this browser
    assert page.evaluate("localStorage.getItem('umbra.turnSound')") == "on"
