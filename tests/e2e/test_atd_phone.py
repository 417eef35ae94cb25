"""Attack the Darkness on a 390×844 phone (issue 26): a seat page during a move shows the
board and the hand first and the choices after them, with the moves, the tile corners and
the hand's own choices folded away (the lit squares and cards stand for them; one toggle
lists them as buttons, for the keyboard), and the page stays short; a move is a tap on a
lit square."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.atd_play import Driver, waiting_kind
from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import PHONE, create_game_table, expect_live, expect_seq, screenshot, scroll_width

pytestmark = pytest.mark.browser

SEED = "atd-tap"
"""Two players in the Tavern Cellar: the first action step comes at once, with moves."""


def test_a_phone_shows_the_board_and_hand_first_and_moves_by_a_tap(
    server: Served, open_page: PageFactory
) -> None:
    table = create_game_table(server.url, "attack_the_darkness", ["Ann", "Bob"], {"mode": "adventure"}, SEED)
    with httpx.Client(base_url=server.url, timeout=10) as http:
        api = Driver.of(http, table.created)
        gm = api.play_until(waiting_kind("act"))
        seat = gm["view"]["waiting"]["seats"][0]
        choices, payload = api.choices(seat)
        moves = [c for c in choices if c["command"]["type"] == "speed"]
        assert len(moves) > 10
        phone = open_page(table.seat_url(seat), viewport=PHONE, is_mobile=True, has_touch=True)
        expect_live(phone)
        expect_seq(phone, payload["seq"])
        screenshot(phone, "atd-phone-move")

        height = phone.evaluate("document.scrollingElement.scrollHeight")
        # 2,500 px before issue 28; the Rules link and a first game's tip (≈185 px, "Got it,
        # hide tips" folds it away) add 225 px.
        assert height < 2800, f"the seat page is {height} px tall on a phone"
        assert scroll_width(phone) <= PHONE["width"]
        board, hand, prompts = (
            phone.locator(s).bounding_box() for s in ("#atd-map", "#atd-hand", "#prompts")
        )
        assert board and hand and prompts
        assert board["y"] + board["height"] <= hand["y"] + 1, "the board comes first"
        assert hand["y"] + hand["height"] <= prompts["y"] + 1, "then the hand, then the choices"
        buttons = phone.locator("#prompts button.choice", has_text="Move to")
        expect(buttons).to_have_count(len(moves))
        assert buttons.filter(visible=True).count() == 0, "the squares stand for the moves"
        expect(phone.locator("#prompts button.choice", has_text="End the turn").first).to_be_visible()

        # For the keyboard, one toggle under the grid lists them as buttons, under the board.
        toggle = phone.locator("#atd-square-choices > summary")
        toggle.tap()
        expect(buttons.first).to_be_visible()
        first = buttons.first.bounding_box()
        assert first and first["y"] > board["y"] + board["height"]
        toggle.tap()
        expect(buttons.first).to_be_hidden()

        # The move: a tap on a lit square (the frame opens on the token whose turn it is).
        move = moves[0]["command"]
        x, y = move["args"]["to"]
        square = phone.locator(f'#atd-cells .is-target[data-target="square:{x},{y}"]')
        square.scroll_into_view_if_needed()
        with phone.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as sent:
            square.tap()
        assert sent.value.status == 200, sent.value.text()
        after = api.payload(seat)
        assert after["view"]["characters"][seat]["pos"] == [x, y]
        expect_seq(phone, after["seq"])
        token = phone.locator(f'#atd-tokens [data-target="combatant:c{seat}"]').bounding_box()
        there = phone.locator(f'#atd-cells [data-target="square:{x},{y}"]').bounding_box()
        assert token and there
        middle = (token["x"] + token["width"] / 2, token["y"] + token["height"] / 2)
        assert there["x"] <= middle[0] <= there["x"] + there["width"]
        assert there["y"] <= middle[1] <= there["y"] + there["height"], (
            "the token stands on the square tapped"
        )
