"""Boards you click and a lobby drawn from any game's schema (issue 9, items 3 and 4), in a
real browser: a Darkest Night location is clicked (and pressed with the keyboard) to
travel there; the focus stays on the same choice when a live update replaces the prompts;
the lobby offers a pick per seat and an option that applies only with another's value."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

import tests.conftest
from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import (
    Table,
    create_game_table,
    expect_live,
    expect_seq,
    page_seq,
    screenshot,
    table_events,
)

pytestmark = pytest.mark.browser

FAST = {"starting_blights": 2, "starting_darkness": 20, "darkness_cards": 1}
FOCUSED_ID = "document.activeElement && document.activeElement.id"


def post(table: Table, seat: int, command: dict[str, Any]) -> None:
    response = httpx.post(
        f"{table.base}/api/tables/{table.id}/commands",
        json=command,
        headers={"Authorization": f"Bearer {table.seat_token(seat)}"},
        timeout=10,
    )
    assert response.status_code == 200, response.text


def to_travel(table: Table) -> tuple[int, list[str]]:
    """Play the first choice through the API until a hero may travel (DN 8.0); return the
    seat and the locations it may travel to."""
    for _ in range(80):
        seat = table.summary()["waiting_for"][0]
        prompts = [p for p in table.view(table.seat_token(seat))["prompts"] if p["required"]]
        commands = [c["command"] for p in prompts for c in p["choices"]]
        travels = [c["args"]["to"] for c in commands if c["type"] == "travel"]
        if travels:
            return seat, travels
        post(table, seat, commands[0])
    raise AssertionError("no hero was offered travel")


def hero_location(table: Table) -> dict[str, str]:
    return {h["id"]: h["location"] for h in table.view()["view"]["heroes"]}


def single_target(page: Page, places: list[str]) -> str:
    """A place exactly one of this page's choices travels to (clicking it sends that one)."""
    for place in places:
        if page.locator(f'#prompts button.choice[data-target="location:{place}"]').count() == 1:
            return place
    raise AssertionError(f"every place is the target of several choices: {places}")


def test_clicking_a_location_travels_there(server: Served, open_page: PageFactory) -> None:
    table = create_game_table(server.url, "darkest_night", ["Ann", "Bo"], FAST, seed="e2e-click")
    seat, places = to_travel(table)
    page = open_page(table.seat_url(seat))
    expect_live(page)
    watch = open_page(table.watch_url)
    expect_live(watch)

    place = single_target(page, places)
    location = page.locator(f'svg[data-target="location:{place}"]')
    expect(location).to_have_class(re.compile(r"\bis-target\b"))
    expect(location).to_have_attribute("role", "button")
    expect(location).to_have_attribute("tabindex", "0")
    expect(location).to_have_attribute("aria-label", f"Travel to the {place}")
    # Only the places this page may act on are wired; a spectator's board has none.
    wired = page.locator("svg.dn-loc-svg.is-target").evaluate_all(
        "els => els.map(e => e.dataset.target.split(':')[1])"
    )
    offered = page.locator('#prompts button.choice[data-target^="location:"]').evaluate_all(
        "els => els.map(e => e.dataset.target.split(':')[1])"
    )
    assert set(wired) == set(offered) and set(places) <= set(wired), (wired, offered)
    expect(watch.locator("svg.dn-loc-svg")).to_have_count(7)
    expect(watch.locator(".is-target")).to_have_count(0)
    screenshot(page, "dn-clickable-map")

    before = table.summary()["seq"]
    with page.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as sent:
        location.click()
    assert sent.value.status == 200, sent.value.text()
    moved = [e for e in table_events(table) if e["seq"] > before and e["type"] == "HeroMoved"]
    assert [(e["data"]["to"], e["data"]["why"]) for e in moved] == [(place, "travel")]
    expect(page.locator("#log-entries")).to_contain_text(f"to the {place}")
    expect(watch.locator("#log-entries")).to_contain_text(f"to the {place}")
    assert hero_location(table)[moved[0]["data"]["hero"]] == place
    expect(location).not_to_have_class(re.compile(r"\bis-target\b"))  # the action is spent


def test_the_keyboard_travels_and_the_focus_survives_live_updates(
    server: Served, open_page: PageFactory
) -> None:
    table = create_game_table(server.url, "darkest_night", ["Ann", "Bo"], FAST, seed="e2e-focus")
    seat, places = to_travel(table)
    other = 1 - seat
    page = open_page(table.seat_url(seat))
    expect_live(page)

    # A button with the focus, then another player's chat line: no choice on this page
    # changes (a button carries no seq), so the prompts are not redrawn and the very same
    # element keeps the focus (issue 10).
    hide = page.locator("#prompts button.choice", has_text="Hide")
    hide.focus()
    hide_id = hide.get_attribute("id")
    assert hide_id and hide_id.startswith("choice-")
    page.evaluate("document.activeElement.dataset.before = 'yes'")
    seq = table.summary()["seq"]
    post(
        table,
        other,
        {"command_id": "chat-e2e-1", "seat": other, "type": "chat", "args": {"text": "take your time"}},
    )
    expect_seq(page, seq + 1)
    expect(page.locator("#log-entries")).to_contain_text("take your time")
    assert page.evaluate(FOCUSED_ID) == hide_id
    assert page.evaluate("document.activeElement.dataset.before") == "yes"  # the same element
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED_ID) == hide_id  # the page's tab order is intact

    # The map by keyboard: focus a location, press Enter; the hero travels and the focus
    # lands on the next choice, not on the page's body.
    place = single_target(page, places)
    location = page.locator(f'svg[data-target="location:{place}"]')
    location.focus()
    assert page.evaluate("document.activeElement.dataset.target") == f"location:{place}"
    with page.expect_response(lambda r: r.url.endswith("/act")) as sent:
        page.keyboard.press("Enter")
    assert sent.value.status == 200, sent.value.text()
    expect(page.locator("#log-entries")).to_contain_text(f"to the {place}")
    page.wait_for_function(
        "() => document.activeElement && document.activeElement !== document.body"
        " && !!document.activeElement.closest('#prompts')"
    )
    first = page.locator("#prompts button.choice").first.get_attribute("id")
    assert page.evaluate(FOCUSED_ID) == first
    screenshot(page, "dn-focus-kept")


def test_a_place_several_choices_act_on_asks_which(server: Served, open_page: PageFactory) -> None:
    """Two choices on one location (travel, and say a power that moves there too) open a
    small menu on the map instead of guessing; Escape closes it and gives the focus back."""
    table = create_game_table(server.url, "darkest_night", ["Ann", "Bo"], FAST, seed="e2e-menu")
    seat, places = to_travel(table)
    page = open_page(table.seat_url(seat))
    expect_live(page)
    place = single_target(page, places)
    travel = page.locator(f'#prompts button.choice[data-target="location:{place}"]')
    # A second choice on the same place, as a power would offer (it sends nothing itself).
    page.evaluate(
        """([sel, place]) => {
            const twin = document.createElement("button");
            twin.type = "button"; twin.className = "choice"; twin.id = "choice-twin";
            twin.dataset.target = "location:" + place;
            twin.innerHTML = '<span class="label">Sprint to the ' + place + '</span>';
            document.querySelector(sel).after(twin);
            document.body.dispatchEvent(new CustomEvent("htmx:afterSettle", { bubbles: true }));
        }""",
        [f'#prompts button.choice[data-target="location:{place}"]', place],
    )
    location = page.locator(f'svg[data-target="location:{place}"]')
    expect(location).to_have_attribute("aria-label", f"Travel to the {place} or Sprint to the {place}")
    expect(location).to_have_attribute("aria-haspopup", "menu")

    location.focus()
    page.keyboard.press("Enter")
    menu = page.get_by_role("menu")
    expect(menu.get_by_role("menuitem")).to_have_text([f"Travel to the {place}", f"Sprint to the {place}"])
    expect(menu.get_by_role("menuitem").first).to_be_focused()
    page.keyboard.press("Escape")
    expect(menu).to_have_count(0)
    expect(location).to_be_focused()
    assert table.summary()["seq"] == page_seq(page)  # nothing was sent

    location.click()
    screenshot(page, "dn-target-menu")
    with page.expect_response(lambda r: r.url.endswith("/act")) as sent:
        page.get_by_role("menuitem", name=f"Travel to the {place}").click()
    assert sent.value.status == 200, sent.value.text()
    expect(page.locator("#log-entries")).to_contain_text(f"to the {place}")
    expect(page.get_by_role("menu")).to_have_count(0)
    assert travel.count() == 0  # the travel was spent


# -- the lobby, from the schema alone ------------------------------------------------------------


@pytest.fixture
def waymarks_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    """A server that also runs the test game Waymarks (tests/web/waymarks.py)."""
    monkeypatch.setattr(tests.conftest, "TEST_GAMES", (*tests.conftest.TEST_GAMES, "tests.web.waymarks"))
    served = Served(f"sqlite:///{tmp_path / 'umbra.db'}", tmp_path / "server.log")
    try:
        yield served
    finally:
        served.stop()


def test_the_lobby_offers_a_pick_per_seat_and_dependent_options(
    waymarks_server: Served, open_page: PageFactory
) -> None:
    page = open_page(waymarks_server.url + "/?game=waymarks")
    form = page.locator("#game-form")
    summary = page.locator("#option-summary")
    picks = form.locator('[data-per-seat="character"] [data-seat-slot]')
    expect(picks).to_have_count(4)
    expect(form.locator('[data-per-seat="character"] [data-seat-slot]:visible')).to_have_count(1)
    route = form.locator('[data-depends-on="mode"]')
    expect(route).to_be_hidden()  # a race follows no route

    seats = form.locator("input[name=seat]")
    seats.nth(0).fill("Ann")
    seats.nth(1).fill("Bo")
    visible = form.locator('[data-per-seat="character"] [data-seat-slot]:visible')
    expect(visible).to_have_count(2)
    expect(visible.locator("[data-seat-name]")).to_have_text(["Ann", "Bo"])
    expect(visible.nth(0).locator("select option")).to_have_text(
        ["a random character", "Lamplighter", "Cartographer", "Pilgrim", "Ferryman"]
    )

    form.locator("select[name=opt_mode]").select_option(label="A tour")
    expect(route).to_be_visible()
    route.locator("select").select_option(label="Over the hills")
    visible.nth(0).locator("select").select_option(label="Pilgrim")
    visible.nth(1).locator("select").select_option(label="Pilgrim")
    expect(summary).to_contain_text("seats 1 and 2 both pick Pilgrim; each seat picks a different one")
    visible.nth(1).locator("select").select_option(label="Ferryman")
    expect(summary.locator(".summary-error")).to_have_count(0)
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    screenshot(page, "lobby-per-seat")

    with page.expect_navigation():
        page.get_by_role("button", name="Create the table").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Waymarks")
    table_id = re.search(r"/t/(\w+)/watch", page.locator("#invite-watch").input_value()).group(1)  # type: ignore[union-attr]
    events = httpx.get(f"{waymarks_server.url}/api/tables/{table_id}/events", timeout=10).json()["events"]
    started = events[0]["data"]
    assert started["names"] == ["Ann", "Bo"]
    assert started["characters"] == ["pilgrim", "ferryman"]
    assert (started["mode"], started["route"]) == ("tour", "hills")
