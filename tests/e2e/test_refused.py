"""Scenario 8: a refused command (stale, forged or malformed) changes nothing and the page
says why in ``#flash``; a stale page's repeat of a move already made is not made twice."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import (
    choice_buttons,
    click_choice,
    create_table,
    expect_live,
    expect_seq,
    lowest_choice,
    screenshot,
)

pytestmark = pytest.mark.browser


class HeldSocket:
    """Routes a page's websocket through the test, which may hold back what the server
    sends: the page then keeps showing a state the table has left."""

    def __init__(self) -> None:
        self.holding = False
        self.held: list[str | bytes] = []
        self.route: WebSocketRoute | None = None

    def __call__(self, route: WebSocketRoute) -> None:
        self.route = route
        server = route.connect_to_server()
        server.on_message(self.from_server)

    def from_server(self, message: str | bytes) -> None:
        if self.holding:
            self.held.append(message)
        elif self.route:
            self.route.send(message)

    def release(self) -> None:
        self.holding = False
        assert self.route
        for message in self.held:
            self.route.send(message)
        self.held.clear()


def send_forged(page: Page, table_id: str, command: Any) -> None:
    """Post a command through the page's own htmx, as a doctored button would."""
    body = command if isinstance(command, str) else json.dumps(command)
    with page.expect_response(lambda r: r.url.endswith("/act")) as info:
        page.evaluate(
            "([url, body]) => htmx.ajax('POST', url, {target: '#flash', swap: 'outerHTML',"
            " values: {command: body}})",
            [f"/t/{table_id}/act", body],
        )
    assert info.value.status >= 400


def expect_error(page: Page, text: str | re.Pattern[str]) -> None:
    flash = page.locator("#flash")
    expect(flash).to_have_class(re.compile(r"\bflash-error\b"))
    expect(flash).to_contain_text(text)
    expect(flash).to_be_visible()


def test_refused_commands_show_why_in_the_flash(server: Served, open_page: PageFactory) -> None:
    table = create_table(server.url, ["Ann", "Bob"])
    ann = open_page(table.seat_url(0))
    bob = open_page(table.seat_url(1))
    # A second tab of Ann's, in the same browser, whose live updates the test holds back.
    held = HeldSocket()
    stale = ann.context.new_page()
    stale.route_web_socket(re.compile(r"/ws/tables/"), held)
    stale.goto(f"{server.url}/t/{table.id}?seat=0")
    for page in (ann, bob, stale):
        expect_live(page)
    expect(ann.locator("#flash")).to_be_empty()
    expect(ann.locator("#flash")).to_be_hidden()

    held.holding = True
    button = lowest_choice(ann)
    label = button.locator(".label").inner_text()
    click_choice(ann, button)
    seq = table.summary()["seq"]
    expect_seq(bob, seq)
    expect_seq(stale, 4)  # still showing the state before Ann's move

    # The same move again from the stale tab is the same command: answered, not repeated.
    click_choice(stale, choice_buttons(stale).filter(has_text=label))
    expect(stale.locator("#flash")).to_be_empty()
    assert table.summary()["seq"] == seq

    # Another of its stale buttons is refused, and the page says why.
    with stale.expect_response(lambda r: r.url.endswith("/act")) as info:
        choice_buttons(stale).filter(has_text="Roll a die").click()
    assert info.value.status == 409
    expect_error(stale, "the table has moved on")
    expect_error(stale, "it is Bob's turn, not yours")
    assert table.summary()["seq"] == seq
    screenshot(stale, "flash-error")

    held.release()
    expect_seq(stale, seq)
    expect(choice_buttons(stale)).to_have_count(0)
    expect(stale.locator("#status")).to_contain_text("Waiting for Bob.")
    expect_error(stale, "it is Bob's turn, not yours")  # still said: the state it was refused on

    # Forged commands sent through the page: each refused with its reason, nothing changes.
    send_forged(ann, table.id, {"command_id": "forged-1", "seat": 1, "type": "roll", "args": {}})
    expect_error(ann, "this page does not hold that seat")
    send_forged(ann, table.id, "{not json")
    expect_error(ann, "That command is malformed")
    send_forged(bob, table.id, {"command_id": "forged-2", "seat": 1, "type": "play", "args": {"card": "x-1"}})
    expect_error(bob, 'play {"card": "x-1"} is not one of the choices offered now; expected one of')
    send_forged(bob, table.id, {"command_id": "forged-3", "seat": 1, "type": "pass", "args": {}})
    expect_error(bob, "you may pass only when you can neither play nor roll")
    assert table.summary()["seq"] == seq

    # A good move afterwards clears the message; the next update clears it on the other pages.
    click_choice(bob, lowest_choice(bob))
    expect(bob.locator("#flash")).to_be_empty()
    expect(bob.locator("#flash")).not_to_have_class(re.compile(r"\bflash-error\b"))
    expect_seq(ann, table.summary()["seq"])
    for page in (ann, stale):
        expect(page.locator("#flash")).to_be_empty()
        expect(page.locator("#flash")).to_be_hidden()
