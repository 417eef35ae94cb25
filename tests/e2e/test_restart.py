"""Scenario 4: the server dies mid-game and comes back on the same port and database; the
open pages reconnect by themselves, catch up on what they missed, and nothing is lost."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import (
    assert_not_reloaded,
    click_choice,
    create_table,
    expect_full_log,
    expect_live,
    expect_seq,
    lowest_choice,
    mark_no_reload,
)

pytestmark = pytest.mark.browser

RECONNECT = 20_000  # ms: the pages back off to at most 8 s between attempts


@pytest.mark.parametrize("stop", ["crash", "shutdown"])
def test_pages_reconnect_after_a_server_restart_and_lose_nothing(
    server: Served, open_page: PageFactory, stop: str
) -> None:
    table = create_table(server.url, ["Ann", "Bob"])
    ann = open_page(table.seat_url(0))
    bob = open_page(table.seat_url(1))
    spectator = open_page(table.watch_url)
    gm = open_page(table.gm_url)
    pages: list[Page] = [ann, bob, spectator, gm]
    for page in pages:
        expect_live(page)
        mark_no_reload(page)

    click_choice(ann, lowest_choice(ann))
    seq = table.summary()["seq"]
    for page in pages:
        expect_seq(page, seq)

    server.kill() if stop == "crash" else server.stop()
    for page in pages:
        expect(page.locator("#conn")).to_have_text(re.compile(r"^(re)?connecting…$"))

    # A click while the server is down changes nothing and says why.
    button = lowest_choice(bob)
    button.click()
    expect(bob.locator("#flash")).to_contain_text("Could not reach the server")
    expect(bob.locator("#flash")).to_have_class(re.compile(r"\bflash-error\b"))

    server.start_again()
    # Bob moves at once, maybe before the pages are back: they catch up on reconnecting.
    click_choice(bob, lowest_choice(bob))
    seq = table.summary()["seq"]
    for page in pages:
        expect_live(page, timeout=RECONNECT)
        expect_seq(page, seq)
        expect_full_log(page, seq)
        expect(page.locator("#status")).to_contain_text("Waiting for Ann")
        assert_not_reloaded(page)
    expect(bob.locator("#flash")).to_be_empty()

    # Once everyone is back, a move shows up live everywhere.
    click_choice(ann, lowest_choice(ann))
    seq = table.summary()["seq"]
    for page in pages:
        expect_seq(page, seq)
        expect_full_log(page, seq)
        expect(page.locator("#status")).to_contain_text("Waiting for Bob")
        assert_not_reloaded(page)

    # The store holds exactly the events the pages show, once each.
    events = httpx.get(f"{server.url}/api/tables/{table.id}/events", timeout=10).json()["events"]
    assert [e["seq"] for e in events] == list(range(1, seq + 1))
