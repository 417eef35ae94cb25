"""Scenario 1: the lobby makes a table; player-chosen names are shown as text, never run."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import XSS_NAME, expect_live, screenshot

pytestmark = pytest.mark.browser


def test_lobby_creates_a_table_with_invite_links(server: Served, open_page: PageFactory) -> None:
    page = open_page(server.url + "/", permissions=["clipboard-read", "clipboard-write"])
    expect(page).to_have_title(re.compile("New table"))
    expect(page.get_by_role("heading", name="Start a table")).to_be_visible()

    with page.expect_response(re.compile(r"/lobby/form\?game=lanterns")):
        page.locator("select[name=game]").select_option("lanterns")
    form = page.locator("#game-form")
    expect(form.locator(".summary")).to_have_text("A tiny game used by the platform's tests.")
    expect(form.locator("input[name=seat]")).to_have_count(5)

    page.locator("input[name=name]").fill("Friday night")
    form.locator("input[name=opt_target]").fill("5")
    form.locator("input[name=seat]").nth(0).fill("Ann")
    form.locator("input[name=seat]").nth(1).fill(XSS_NAME)
    screenshot(page, "lobby")

    page.get_by_role("button", name="Create the table").click()
    expect(page).to_have_url(re.compile(r"/lobby/created/\w+$"))  # POST-redirect-GET (issue 11)
    expect(page.get_by_role("heading", level=1)).to_have_text("Your Lanterns (test game) table is ready")
    first_seat_url = page.locator("#invite-1").input_value()
    page.reload()  # shows the same table again, never a second one
    expect(page.get_by_role("heading", level=1)).to_have_text("Your Lanterns (test game) table is ready")
    expect(page.locator("#invite-1")).to_have_value(first_seat_url)

    invites = page.locator(".invite")
    expect(invites).to_have_count(4)
    expect(invites.locator(".who")).to_have_text(["Ann", XSS_NAME, "Game master", "Spectators"])
    assert page.locator("main script").count() == 0
    seat_url = page.locator("#invite-1").input_value()
    assert re.fullmatch(rf"{re.escape(server.url)}/t/\w+/join/[\w-]+", seat_url)
    expect(page.locator("#invite-gm")).to_have_value(re.compile(r"/t/\w+/gm/join/[\w-]+$"))
    expect(page.locator("#invite-watch")).to_have_value(re.compile(r"/t/\w+/watch$"))
    expect(invites.locator("a.button")).to_have_count(4)

    copy = page.locator('button.copy[data-copy="#invite-1"]')
    copy.click()
    expect(copy).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == seat_url
    expect(copy).to_have_text("Copy", timeout=5_000)
    screenshot(page, "created")

    # The seat of the player with the hostile name: the name is text everywhere.
    seat = open_page(seat_url)
    expect(seat).to_have_url(re.compile(r"/t/\w+\?seat=1$"))
    expect_live(seat)
    expect(seat.locator(".topbar .role")).to_have_text(f"Playing as {XSS_NAME}")
    expect(seat.locator("#seats .name")).to_have_text(["Ann", XSS_NAME])
    expect(seat.locator("#status")).to_contain_text("Waiting for Ann")
    assert seat.locator("body script:not([src])").count() == 0
    assert not open_page.dialogs  # type: ignore[attr-defined]


def test_links_that_open_nothing_explain_themselves(server: Served, open_page: PageFactory) -> None:
    page = open_page(server.url + "/t/nosuchtable/join/forged")
    expect(page.get_by_role("heading", level=1)).to_have_text("No such table")
    expect(page.get_by_role("link", name="Back to the lobby")).to_be_visible()
    screenshot(page, "message")

    page.get_by_role("link", name="Back to the lobby").click()
    expect(page).to_have_url(server.url + "/")
    page.locator("#game-form input[name=seat]").nth(0).fill("Solo")
    page.get_by_role("button", name="Create the table").click()
    watch_url = page.locator("#invite-watch").input_value()
    table_url = watch_url.removesuffix("/watch")

    stranger = open_page(table_url)  # a browser that holds no seat
    expect(stranger.get_by_role("heading", level=1)).to_have_text("You hold no seat at this table")
    screenshot(stranger, "noseat")
    stranger.get_by_role("link", name="Watch the game instead").click()
    expect(stranger).to_have_url(watch_url)
    expect_live(stranger)
    expect(stranger.locator(".topbar .role")).to_have_text("Spectator")


def test_the_darkest_night_lobby_assigns_heroes_and_rates_the_difficulty(
    server: Served, open_page: PageFactory
) -> None:
    """Issue 4: name the players, say who controls which heroes, see the combined dm."""
    page = open_page(server.url + "/?game=darkest_night")
    form = page.locator("#game-form")
    summary = page.locator("#option-summary")
    expect(summary).to_contain_text("Combined difficulty modifier +0 (DN 20.1): the standard challenge.")
    seats = form.locator("input[name=seat]")
    seats.nth(0).fill("Ann")
    seats.nth(1).fill("Bo")
    expect(summary).to_contain_text("Ann chooses and plays the first and third heroes.")

    slots = form.locator(".option-seats [data-slot]")
    expect(slots).to_have_count(5)
    expect(form.locator(".option-seats [data-slot]:visible")).to_have_count(4)  # 4 heroes by default
    form.locator("input[name=opt_heroes]").fill("3")
    form.locator("input[name=opt_heroes]").dispatch_event("change")
    expect(form.locator(".option-seats [data-slot]:visible")).to_have_count(3)
    expect(summary).to_contain_text("+4 (DN 20.1): harder than the standard game")  # 3 heroes (DN 20.2)

    first = slots.nth(0).locator("select")
    expect(first.locator("option")).to_have_text(
        ["shared in turn", "Ann", "Bo", "Seat 3", "Seat 4", "Seat 5", "Seat 6"]
    )
    for i, who in enumerate(["Bo", "Ann", "Ann"]):
        slots.nth(i).locator("select").select_option(label=who)
    expect(summary).to_contain_text("Ann chooses and plays the second and third heroes.")
    expect(summary).to_contain_text("Bo chooses and plays the first hero.")
    form.locator("input[name=opt_starting_blights]").fill("2")
    form.locator("input[name=opt_starting_blights]").press("Tab")  # a change, as a person makes it
    expect(summary).to_contain_text("+7 (DN 20.1)")
    # Let the summary's last refresh land before leaving the page.
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    screenshot(page, "dn-lobby")

    with page.expect_navigation():
        page.get_by_role("button", name="Create the table").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Darkest Night")
    bo = open_page(page.locator("#invite-1").input_value())
    expect_live(bo)
    expect(bo.locator("#prompts")).to_contain_text("Choose a hero")  # Bo chooses the first hero (hero_seats)
    expect(bo.locator("#status")).to_contain_text("Waiting for Bo")
    expect(bo.locator("#dn-offer details")).not_to_have_count(0)  # every hero's starting powers
    bo.locator("#dn-offer details").first.locator("summary").click()
    expect(bo.locator("#dn-offer details").first.locator("li").first).to_be_visible()
    screenshot(bo, "dn-choose-hero")
