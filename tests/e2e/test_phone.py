"""Scenario 7: at phone width (390×844) every page fits the screen: no sideways scrolling,
and the choice buttons stay big enough to tap."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import (
    PHONE,
    choice_commands,
    create_table,
    expect_live,
    lowest_choice,
    required_choices,
    screenshot,
    scroll_width,
    wait_until,
)

pytestmark = pytest.mark.browser

# 40 characters without a space: the longest name a seat may have, and the hardest to wrap.
LONG_NAME = "Wolfeschlegelsteinhausenbergerdorffvoral"


def phone_page(open_page: PageFactory, url: str) -> Page:
    return open_page(url, viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)


def assert_fits(page: Page, name: str) -> None:
    screenshot(page, f"phone-{name}")
    width = scroll_width(page)
    assert width <= PHONE["width"] + 1, f"the {name} page is {width}px wide, wider than a 390px phone"
    panel = page.locator("#prompts")
    if panel.count() and panel.is_visible():
        right = edge(panel)
        for button in page.locator("#prompts button.choice").all():
            box = button.bounding_box()
            assert box and box["height"] >= 44, f"a choice on the {name} page is too small to tap"
            assert box["x"] + box["width"] <= right, f"a choice sticks out of its panel on the {name} page"


def edge(locator: Locator) -> float:
    box = locator.bounding_box()
    assert box
    return box["x"] + box["width"]


def smallest_text(page: Page, selector: str) -> float:
    """The smallest rendered font size (CSS px) of the SVG texts ``selector`` finds: each
    text's computed size times the scale its SVG draws at."""
    return float(
        page.evaluate(
            """(selector) => Math.min(...Array.from(document.querySelectorAll(selector))
                 .filter((t) => t.textContent.trim() && t.getBBox().width > 0)
                 .map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a))""",
            selector,
        )
    )


def test_every_page_fits_a_phone_screen(server: Served, open_page: PageFactory) -> None:
    lobby = phone_page(open_page, server.url + "/")
    assert_fits(lobby, "lobby")
    lobby.locator("#game-form input[name=seat]").nth(0).fill("Ann")
    lobby.locator("#game-form input[name=seat]").nth(1).fill(LONG_NAME)
    lobby.get_by_role("button", name="Create the table").click()
    expect(lobby.locator(".invite")).to_have_count(4)
    assert_fits(lobby, "created")

    table = create_table(server.url, [LONG_NAME, "Bob"], target=5)
    seat = phone_page(open_page, table.seat_url(0))
    expect_live(seat)
    expect(seat.locator(".topbar .role")).to_have_text(f"Playing as {LONG_NAME}")
    expect(seat.locator("#prompts button.choice")).to_have_count(3)
    assert_fits(seat, "seat")

    watch = phone_page(open_page, table.watch_url)
    gm = phone_page(open_page, table.gm_url)
    expect_live(gm)
    lowest_choice(seat).click()
    expect(watch.locator("#log-entries > li")).to_have_count(7)
    assert_fits(watch, "watch")
    assert_fits(gm, "gm")

    replay = phone_page(open_page, table.replay_url)
    assert_fits(replay, "replay")


def test_the_darkest_night_board_fits_a_phone_and_plays_by_touch(
    server: Served, open_page: PageFactory
) -> None:
    """Issue 4: the map, hero panels and prompts on a 390 px phone, played by tapping."""
    from tests.e2e.test_darkest_night import api_click, dn_table

    table = dn_table(server, ["Ann", LONG_NAME])
    seat = phone_page(open_page, table.seat_url(0))
    watch = phone_page(open_page, table.watch_url)
    expect_live(seat)
    while not any(c["type"] == "travel" for c in choice_commands(required_choices(seat))):
        api_click(table)  # hero and power choices, through the API, to the first action
        expect(seat.locator("#seq")).to_have_attribute("data-seq", str(table.summary()["seq"]))
    if table.summary()["waiting_for"] != [0]:
        pytest.skip("the first hero to act is not Ann's with this seed")
    # The map scrolls in its frame rather than shrink its labels (issue 11): the frame fits
    # the phone, and no text of the map or the darkness track is drawn under 10 px.
    frame = seat.locator(".dn-map-scroll").bounding_box()
    assert frame and frame["width"] <= PHONE["width"]
    map_box = seat.locator(".dn-map-canvas").bounding_box()
    assert map_box and map_box["height"] > 200
    # The choices' context next to them: the hero asked, where and how it stands, just above.
    context = seat.locator("#dn-context")
    expect(context).to_be_visible()
    expect(context).to_contain_text(re.compile(r"in the \w+ · grace \d+/\d+ · secrecy"))
    above, choices = context.bounding_box(), seat.locator("#prompts").bounding_box()
    assert above and choices and above["y"] + above["height"] <= choices["y"] + 1
    smallest = smallest_text(seat, "#dn-map svg text, #dn-status svg text")
    assert smallest >= 9.9, f"a map or track label is drawn {smallest:.1f} px high on a phone"
    for name in ("monastery", "village", "ruins"):  # the locations lie inside the map
        box = seat.locator(f"#dn-loc-{name}").bounding_box()
        assert (
            box
            and map_box["x"] - 1 <= box["x"]
            and box["x"] + box["width"] <= map_box["x"] + map_box["width"] + 1
        )
    assert_fits(seat, "dn-seat")

    travel = next(
        button
        for button, command in zip(
            required_choices(seat).all(), choice_commands(required_choices(seat)), strict=True
        )
        if command["type"] == "travel"
    )
    before = table.summary()["seq"]
    travel.tap()
    # The tap posts from the browser: wait until the table has taken it before reading its seq.
    seq = wait_until(lambda: (now := table.summary()["seq"]) > before and now, message="the travel")
    expect(seat.locator("#seq")).to_have_attribute("data-seq", str(seq))
    expect(watch.locator("#seq")).to_have_attribute("data-seq", str(seq))
    expect(watch.locator("#log-entries")).to_contain_text("moves from the Monastery")
    assert_fits(watch, "dn-watch")
