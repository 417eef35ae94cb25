"""Attack the Darkness in Debian's chromium (issue 13): on a 390 px phone a player picks a card
from the hand, pays by tapping the lit resource cards, goes back, and moves by tapping
a lit square; a spectator sees the board without any hand; the Tabletop game master
places a tile by clicking the grid, and the attacked player's page opens the defence
window; the lobby refuses an illegal custom deck with every rule it breaks. Screenshots
of each page type go to test-artifacts/screenshots/."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import PHONE, Table, create_game_table, expect_live, screenshot, scroll_width
from tests.games.attack_the_darkness.test_api import pick

LIT_CARD = "#atd-hand .atd-card.is-target"


def token_of(table: Table, seat: Any) -> str:
    return table.created["gm_token"] if seat == "gm" else table.seat_token(seat)


def drive(table: Table, until: Callable[[dict[str, Any]], bool], limit: int = 1500) -> dict[str, Any]:
    """Play through the API (a quick player) until ``until`` holds for the game master's view.
    One connection for it all (a new httpx connection costs a TLS context: ~0.2 s)."""
    rng = random.Random(5)
    api = f"{table.base}/api/tables/{table.id}"
    with httpx.Client(timeout=10) as http:

        def view_of(seat: Any) -> dict[str, Any]:
            response = http.get(f"{api}/view", headers={"Authorization": f"Bearer {token_of(table, seat)}"})
            response.raise_for_status()
            return response.json()

        for _ in range(limit):
            gm = view_of("gm")
            if until(gm["view"]):
                return gm["view"]
            assert gm["outcome"] is None, "the game ended first"
            seat = gm["waiting_for"][0]
            payload = gm if seat == "gm" else view_of(seat)
            prompt = next(p for p in payload["prompts"] if p["seat"] == seat and p["choices"])
            command = pick(prompt["choices"], payload["view"], rng)
            response = http.post(
                f"{api}/commands", json=command, headers={"Authorization": f"Bearer {token_of(table, seat)}"}
            )
            assert response.status_code == 200, response.text
    raise AssertionError("the wanted moment never came")


def waiting(kind: str) -> Callable[[dict[str, Any]], bool]:
    return lambda view: (view.get("waiting") or {}).get("kind") == kind


def act(page: Page, locator: str) -> None:
    """Click a board element and wait until the server has taken the command."""
    with page.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as info:
        page.locator(locator).first.click()
    assert info.value.status == 200, info.value.text()


def test_a_turn_on_a_phone_a_spectator_a_defence_and_the_game_master(
    server: Served, open_page: PageFactory
) -> None:
    table = create_game_table(
        server.url, "attack_the_darkness", ["Ann", "Bob"], {"mode": "adventure"}, "atd-e2e"
    )
    view = drive(table, waiting("act"))
    seat = view["waiting"]["seats"][0]
    name = table.names[seat]

    phone = open_page(table.seat_url(seat), viewport=PHONE, is_mobile=True, has_touch=True)
    expect_live(phone)
    expect(phone.locator("#atd-map .atd-sq").first).to_be_visible()
    assert scroll_width(phone) <= PHONE["width"], "the page fits; the grid scrolls inside it"
    grid = phone.locator(".atd-grid-scroll")
    assert grid.evaluate("g => g.scrollWidth > g.clientWidth") or grid.evaluate("g => g.scrollWidth <= 390")
    expect(phone.locator(LIT_CARD).first).to_be_visible()
    screenshot(phone, "atd-seat-phone")

    # A card, then the resource cards that pay for it: the window says what it will do.
    act(phone, LIT_CARD)
    window = phone.locator("#atd-window")
    expect(window).to_contain_text("Paying for")
    expect(window.locator(".atd-summary")).not_to_be_empty()
    lit = phone.locator("#atd-hand .atd-rc.is-target")
    if lit.count():
        chosen = lit.first.locator(".atd-card-name").inner_text()
        act(phone, "#atd-hand .atd-rc.is-target")
        expect(window).to_contain_text(chosen)
    screenshot(phone, "atd-paying-phone")
    back = phone.locator("#prompts button.choice", has_text="Back")
    with phone.expect_response(lambda r: r.url.endswith("/act")):
        back.click()
    expect(window).not_to_contain_text("Paying for")

    # The free speed move: tap a lit square, the token goes there.
    square = phone.locator("#atd-cells .atd-sq.is-target").first
    expect(square).to_be_visible()
    target = square.get_attribute("data-target")
    act(phone, "#atd-cells .atd-sq.is-target")
    x, y = (int(v) for v in target.removeprefix("square:").split(","))
    expect(phone.locator("#atd-map")).to_contain_text(name[:2])
    expect(phone.locator(f'#atd-tokens [data-target="combatant:c{seat}"]')).to_have_attribute(
        "style",
        re.compile(rf"grid-column: {x - view['grid']['x0'] + 2}; grid-row: {y - view['grid']['y0'] + 2}"),
    )

    # A spectator sees the board and no hand.
    watch = open_page(table.watch_url)
    expect_live(watch)
    expect(watch.locator("#atd-line .atd-mcard").first).to_be_visible()
    assert watch.locator(".atd-card").count() == 0
    screenshot(watch, "atd-watch")

    # Tabletop: the game master places a tile by clicking a square off the map.
    tabletop = create_game_table(
        server.url,
        "attack_the_darkness",
        ["Cy"],
        {"mode": "tabletop", "dungeon": "random", "encounters": 1},
        "atd-gm",
    )
    drive(tabletop, waiting("place_tile"))
    gm = open_page(tabletop.gm_url)
    expect_live(gm)
    expect(gm.locator("#atd-window")).to_contain_text("Placing the map")
    tiles = gm.locator("#atd-tiles .atd-tile").count()
    gm.locator("#atd-cells .atd-anchor.is-target").first.click()
    menu = gm.locator("#target-menu button")
    if menu.count():
        with gm.expect_response(lambda r: r.url.endswith("/act")):
            menu.first.click()
    expect(gm.locator("#atd-tiles .atd-tile")).to_have_count(tiles + 1)
    screenshot(gm, "atd-game-master")

    # A defence window (in Tabletop every attacked player gets one, AtD L151): the
    # defender's page says who attacks with what, and the table shows whom it waits for.
    view = drive(tabletop, waiting("defend"))
    page = open_page(tabletop.seat_url(0))
    expect_live(page)
    window = page.locator("#atd-window")
    expect(window).to_contain_text("You are attacked!")
    expect(window).to_contain_text(f"{view['waiting']['attack']['damage']} damage")
    expect(gm.locator("#atd-window")).to_contain_text("Waiting for Cy")
    screenshot(page, "atd-defence-window")
    with page.expect_response(lambda r: r.url.endswith("/act")):
        page.locator("#prompts button.choice", has_text="Take the attack").click()
    expect(window).not_to_contain_text("You are attacked!")

    # The lobby: a seat's own deck, written as text, refused with every rule it breaks.
    lobby = open_page(f"{server.url}/lobby")
    with lobby.expect_response(re.compile(r"/lobby/form\?game=attack_the_darkness")):
        lobby.locator("select[name=game]").select_option("attack_the_darkness")
    form = lobby.locator("#game-form")
    form.locator("input[name=seat]").nth(0).fill("Ann")
    form.locator("select[name=opt_class]").nth(0).select_option("champion")
    form.locator("textarea[name=opt_deck]").nth(0).fill("12 Hearty, 5 Brutish; 3 Hack!, 4 Cleave")
    summary = lobby.locator("#option-summary")
    expect(summary).to_contain_text("5 copies of Brutish: at most 3 (AtD L318)")
    expect(summary).to_contain_text("4 copies of Cleave: at most 3 (AtD L325)")
    expect(summary).to_contain_text("not exactly 27 (AtD L316)")
    expect(summary.locator(".summary-error")).to_have_count(4)  # a line per broken rule
    screenshot(lobby, "atd-lobby-deck")
