"""Dark Omen in a real browser (issue 15): the circular map drawn, two players moving at
once by clicking lit spaces (one of them on a 390 px phone) and each seeing the other's
move live, and an Obstacle Throw turning the layers by the rolled number of sectors."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import (
    PHONE,
    Table,
    create_game_table,
    expect_live,
    expect_seq,
    screenshot,
    table_events,
)

pytestmark = pytest.mark.browser


def post(table: Table, seat: int, command: dict[str, Any], command_id: str) -> int:
    response = httpx.post(
        f"{table.base}/api/tables/{table.id}/commands",
        json=command | {"command_id": command_id},
        headers={"Authorization": f"Bearer {table.seat_token(seat)}"},
        timeout=10,
    )
    assert response.status_code == 200, response.text
    return int(response.json()["seq"])


def click_a_lit_space(page: Page, tap: bool = False) -> tuple[int, int]:
    """Click a space this page's prompts make live (the board lights it) and wait for the
    server's answer: the space moved to and the AP its choice said it costs."""
    lit = page.locator(".do-cell.is-target")
    expect(lit.first).to_be_visible()
    target = lit.first.get_attribute("data-target") or ""
    cost = page.locator(f'#prompts button.choice[data-target="{target}"] .detail').first.inner_text()
    found = re.match(r"(\d) AP", cost)
    assert found, cost
    if not tap:  # the path's cost shows before the click
        lit.first.hover()
        expect(page.locator(".do-tip")).to_contain_text(cost)
    with page.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as answer:
        if tap:
            lit.first.tap()
        else:
            lit.first.click()
    assert answer.value.status == 200, answer.value.text()
    return int(target.removeprefix("space:")), int(found.group(1))


def test_two_players_move_at_once_by_clicking_the_map(server: Served, open_page: PageFactory) -> None:
    table = create_game_table(
        server.url, "dark_omen", ["Ann", "Bo"], {"mode": "quick_chapter"}, seed="e2e-do"
    )
    ann = open_page(table.seat_url(0), viewport={"width": 1280, "height": 900})
    bo = open_page(table.seat_url(1), viewport=PHONE, is_mobile=True, has_touch=True)
    for page in (ann, bo):
        expect_live(page)
        expect(page.locator("#do-map svg.do-map-svg")).to_be_visible()
        expect(page.locator('[data-target="space:111"]')).to_have_count(1)
    # Both are asked at once (DO L211): each clicks a lit space, and sees the other's move.
    to, _ = click_a_lit_space(ann)
    expect(bo.locator("#do-hero-0 title")).to_contain_text(f"on {to}:")
    expect(ann.locator("#do-sheet-0")).to_contain_text(f"on {to}")
    bo_to, ap = click_a_lit_space(bo, tap=True)
    expect(ann.locator("#do-hero-1 title")).to_contain_text(f"on {bo_to}:")
    expect(ann.locator(".do-acting .do-c1 .do-ap-left")).to_have_count(6 - ap)
    assert (
        bo.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"] + 1
    )  # the map scrolls, not the page
    screenshot(ann, "dark-omen-seat")
    screenshot(bo, "dark-omen-phone")
    # A spectator sees the moves and no face-down token's face; the game master sees them.
    watch = open_page(table.watch_url, viewport={"width": 1100, "height": 900})
    gm = open_page(table.gm_url, viewport={"width": 1100, "height": 900})
    expect(watch.locator("#do-hero-1 title")).to_contain_text(f"on {bo_to}:")
    expect(watch.locator("#do-map")).not_to_contain_text("game master only")
    expect(gm.locator("#do-loot title").first).to_contain_text("game master only")
    screenshot(watch, "dark-omen-watch")
    screenshot(gm, "dark-omen-gm")


def test_an_obstacle_throw_turns_the_layers_by_the_roll(server: Served, open_page: PageFactory) -> None:
    """Days 1 and 2 hold omens (light), day 3 the Obstacle Throw (DO L169-171): even rolls
    clockwise, odd counter-clockwise; the page turns each layer by that many sectors."""
    table = create_game_table(
        server.url, "dark_omen", ["Ann"], {"mode": "quick_chapter", "difficulty": "light"}, seed="e2e-throw"
    )
    page = open_page(table.seat_url(0), viewport={"width": 1100, "height": 900})
    expect_live(page)
    end = {"seat": 0, "type": "end_round", "args": {}}
    for n in range(7):
        seq = post(table, 0, end, f"end-{n}")
    expect_seq(page, seq)
    seq = post(table, 0, end, "end-7")
    expect_seq(page, seq)
    throws = [e for e in table_events(table) if e["type"] == "LayersTurned"]
    last = throws[-1]["data"]
    assert last["why"] == "the Obstacle Throw" and len(last["rolls"]) == 2
    for layer, roll in zip(("white", "clear"), last["rolls"], strict=True):
        turn = page.locator(f'.do-turn[data-layer="{layer}"]')
        expect(turn).to_have_attribute("data-pos", str(last[layer]))
        expect(turn).to_have_attribute("data-turned", str(roll if roll % 2 == 0 else -roll))
        expect(turn).to_have_class("do-turn do-turning")
    screenshot(page, "dark-omen-throw")
