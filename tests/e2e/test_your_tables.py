"""Your tables: a browser that opened a seat finds the table again on /tables after the tab
(and the whole browser) was closed, without the invite link."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, Playwright, expect

from tests.e2e.conftest import Served
from tests.e2e.support import CHROMIUM, LAUNCH_ARGS, click_choice, create_table, expect_live, lowest_choice

pytestmark = pytest.mark.browser


class Browsing:
    """A browser with a profile on disk (cookies and localStorage survive a restart), and
    every uncaught script error of its pages."""

    def __init__(self, driver: Playwright, profile: Path) -> None:
        self.driver, self.profile = driver, profile
        self.errors: list[str] = []
        self.context: BrowserContext | None = None

    def start(self) -> BrowserContext:
        self.context = self.driver.chromium.launch_persistent_context(
            str(self.profile), executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS
        )
        self.context.set_default_timeout(10_000)
        return self.context

    def page(self, url: str) -> Page:
        assert self.context is not None
        page = self.context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: {exc}"))
        page.goto(url)
        return page

    def close(self) -> None:
        if self.context is not None:
            self.context.close()
            self.context = None


@pytest.fixture
def browsing(playwright_driver: Playwright, tmp_path: Path) -> Iterator[Browsing]:
    browsing = Browsing(playwright_driver, tmp_path / "profile")
    browsing.start()
    try:
        yield browsing
    finally:
        browsing.close()
    assert not browsing.errors, f"uncaught script errors: {browsing.errors}"


def row(page: Page, table_id: str) -> Any:
    return page.locator(f'li.my-table[data-table="{table_id}"]')


def test_a_closed_tab_finds_its_table_on_your_tables(server: Served, browsing: Browsing) -> None:
    mine = create_table(server.url, ["Ann", "Bob"])
    theirs = create_table(server.url, ["Cid", "Dee"])
    ann = browsing.page(mine.seat_url(0))
    expect(ann).to_have_url(re.compile(rf"/t/{mine.id}\?seat=0$"))
    expect_live(ann)
    dee = browsing.page(theirs.seat_url(1))  # Cid moves first there
    expect_live(dee)
    ann.close()
    dee.close()

    # The tab is gone; a new one, in the same browser, goes to "Your tables".
    lobby = browsing.page(server.url + "/")
    lobby.get_by_role("link", name="Your tables").click()
    expect(lobby).to_have_url(f"{server.url}/tables")
    ours, other = row(lobby, mine.id), row(lobby, theirs.id)
    expect(ours.locator(".your-move")).to_have_text("Your move")
    expect(ours).to_contain_text("Lanterns (test game)")
    expect(ours).to_contain_text("Players: Ann, Bob — you: Ann")
    expect(ours).to_contain_text("Waiting for Ann.")
    expect(ours).to_contain_text(re.compile(r"Last move: (just now|\d+ minutes? ago)"))
    expect(other.locator(".your-move")).to_have_count(0)
    expect(other).to_contain_text("Waiting for Cid.")
    expect(lobby.locator("li.my-table").first).to_have_attribute("data-table", mine.id)  # your move first

    # Closing the whole browser loses nothing: its profile keeps the list and the seats.
    browsing.close()
    browsing.start()
    tables = browsing.page(server.url + "/tables")
    expect(row(tables, mine.id).locator(".your-move")).to_be_visible()
    row(tables, mine.id).get_by_role("link").click()
    expect(tables).to_have_url(f"{server.url}/t/{mine.id}")
    expect(tables.locator(".topbar .role")).to_have_text("Playing as Ann")
    expect_live(tables)
    click_choice(tables, lowest_choice(tables))  # still Ann's seat: she can move
    expect(tables.locator("#status")).to_contain_text("Waiting for Bob")

    # Back on the list the move has passed to Bob, and "Forget" takes a table off the list.
    tables.goto(server.url + "/tables")
    expect(row(tables, mine.id)).to_contain_text("Waiting for Bob.")
    expect(row(tables, mine.id).locator(".your-move")).to_have_count(0)
    row(tables, theirs.id).get_by_role("button", name="Forget").click()
    expect(row(tables, theirs.id)).to_have_count(0)
    tables.reload()
    expect(row(tables, mine.id)).to_be_visible()
    expect(row(tables, theirs.id)).to_have_count(0)


def test_a_seat_opened_on_another_device_is_shown_as_lost(
    server: Served, browsing: Browsing, browser: Any
) -> None:
    table = create_table(server.url, ["Ann", "Bob"])
    laptop = browsing.page(table.seat_url(0))
    expect_live(laptop)
    phone = browser.new_context()
    try:
        phone.new_page().goto(table.seat_url(0))  # the same invite link, on a phone
    finally:
        phone.close()
    # The laptop's page turns into the watch page first (its seat moved): /tables is opened
    # once that navigation is over, not while it races it in the same browser.
    expect(laptop).to_have_url(re.compile(rf"/t/{table.id}/watch\?seat_moved=1$"))
    listed = browsing.page(server.url + "/tables")
    lost = row(listed, table.id)
    expect(lost).to_contain_text("no longer holds a seat")
    expect(lost.locator(".my-table-link")).to_have_text("Lanterns (test game)")  # the title it remembered
    lost.get_by_role("button", name=re.compile("Forget")).click()
    expect(listed.locator("#your-tables")).to_contain_text("No tables yet")
