"""The game master hands a seat to a new player, in the browser: the form on the GM page
shows the new link once, the old player's page drops to the live spectator page (saying
why) instead of keeping buttons that answer 403, the new link opens the seat under the new
name, and the old link is refused with the reason. A seat opened on a second device drops
the first device to watching in the same way (README, issue 11)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import WebSocketRoute, expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import click_choice, create_table, expect_live, expect_seq, lowest_choice, screenshot

pytestmark = pytest.mark.browser


class CutOffSocket:
    """Routes a page's websocket through the test: the server's close never reaches the
    page, and ``drop`` closes the page's side as a network blip would (it reconnects)."""

    def __init__(self) -> None:
        self.route: WebSocketRoute | None = None

    def __call__(self, route: WebSocketRoute) -> None:
        self.route = route
        server = route.connect_to_server()
        server.on_message(route.send)
        server.on_close(lambda code, reason: None)

    def drop(self) -> None:
        assert self.route
        self.route.close(code=1012, reason="network blip")


def test_the_game_master_hands_a_seat_to_a_new_player(server: Served, open_page: PageFactory) -> None:
    table = create_table(server.url, ["Ann", "Bo"], target=30)
    ann = open_page(table.seat_url(0))
    expect_live(ann)
    # A second tab of Ann's whose socket misses the news (as if offline): the test swallows
    # the server's closing of it, then drops it so the page reconnects.
    cut_off = CutOffSocket()
    away = ann.context.new_page()
    away.route_web_socket(re.compile(r"/ws/tables/"), cut_off)
    away.goto(f"{server.url}/t/{table.id}?seat=0")
    expect_live(away)
    gm = open_page(table.gm_url)
    expect_live(gm)

    row = gm.locator("#seats li").filter(has=gm.locator(".name", has_text=re.compile(r"^Ann$")))
    row.get_by_text("Hand to a new player").click()
    row.get_by_role("textbox", name="New player's name for Ann's seat (optional)").fill("Cai")
    row.get_by_role("button", name="New invite link").click()
    link = gm.get_by_role("textbox", name="New invite link for Cai")
    expect(link).to_have_value(re.compile(rf"/t/{table.id}/join/"))
    url = link.input_value()
    assert url != table.seat_url(0)
    expect(gm.locator("#seats .name")).to_have_text(["Cai", "Bo"])  # the panel updates live
    screenshot(gm, "gm-handover")

    # Told at once, on the live spectator page the old device dropped to.
    expect(ann).to_have_url(re.compile(rf"/t/{table.id}/watch\?seat_moved=1$"))
    expect(ann.locator("#flash")).to_contain_text("no longer controls it")
    expect(ann.locator(".topbar .role")).to_have_text("Spectator")
    expect_live(ann)
    expect(ann.locator("#prompts button.choice")).to_have_count(0)

    # The tab that missed it finds out on reconnecting, and drops to watching the same way.
    expect(away).to_have_url(re.compile(r"/t/\w+\?seat=0$"))
    cut_off.drop()
    expect(away).to_have_url(re.compile(rf"/t/{table.id}/watch\?seat_moved=1$"))
    expect_live(away)

    cai = open_page(url)
    expect_live(cai)
    expect(cai.locator(".topbar .role")).to_have_text("Playing as Cai")
    click_choice(cai, lowest_choice(cai))
    expect_seq(ann, table.summary()["seq"])  # the dropped page follows the game live

    old = open_page()
    response = old.goto(table.seat_url(0))
    assert response is not None and response.status == 403
    expect(old.locator("body")).to_contain_text("handed the seat to a new player")

    # Cai opens the seat on a second device: the first drops to watching in the same way.
    phone = open_page(url)
    expect_live(phone)
    expect(cai).to_have_url(re.compile(rf"/t/{table.id}/watch\?seat_moved=1$"))
    expect(cai.locator("#flash")).to_contain_text("you are watching the game as a spectator")
    expect_live(cai)
    screenshot(cai, "seat-moved-watching")
