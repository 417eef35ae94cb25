"""Scenarios 2 and 3: two players, a spectator and the game master follow a game live, a
whole game is played by clicking, and a reloaded page picks up where it was."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import (
    assert_not_reloaded,
    choice_buttons,
    click_choice,
    create_table,
    expect_full_log,
    expect_live,
    expect_seq,
    lowest_choice,
    mark_no_reload,
    screenshot,
)

pytestmark = pytest.mark.browser

OPENING_EVENTS = 4  # GameStarted, DeckShuffled, two CardsDealt


def test_a_game_played_by_clicking_shows_live_on_every_page(server: Served, open_page: PageFactory) -> None:
    table = create_table(server.url, ["Ann", "Bob"])
    ann = open_page(table.seat_url(0))
    bob = open_page(table.seat_url(1))
    spectator = open_page(table.watch_url)
    gm = open_page(table.gm_url)
    pages: dict[str, Page] = {"Ann": ann, "Bob": bob, "spectator": spectator, "gm": gm}

    expect(ann).to_have_url(re.compile(rf"/t/{table.id}\?seat=0$"))
    expect(gm).to_have_url(f"{server.url}/t/{table.id}/gm")
    expect(ann.locator(".topbar .role")).to_have_text("Playing as Ann")
    expect(bob.locator(".topbar .role")).to_have_text("Playing as Bob")
    expect(spectator.locator(".topbar .role")).to_have_text("Spectator")
    expect(gm.locator(".topbar .role")).to_have_text("Game master")
    for page in pages.values():
        expect_live(page)
        expect_full_log(page, OPENING_EVENTS)
        mark_no_reload(page)
    # Bob opened his link after Ann's page was drawn: her page learnt it live.
    expect(ann.locator("#seats .seat").nth(1).locator(".joined")).to_have_text("joined")
    # The game master may gift a point at any time; spectators get no buttons.
    expect(choice_buttons(gm)).to_have_text(["Gift Ann a point", "Gift Bob a point"])
    expect(choice_buttons(spectator)).to_have_count(0)
    expect(spectator.locator("#prompts")).to_be_hidden()  # no empty panel

    players = [ann, bob]
    moves = 0
    while not (summary := table.summary())["outcome"]:
        turn = summary["waiting_for"][0]
        mover, other = players[turn], players[1 - turn]
        expect(mover.locator("#status")).to_contain_text(f"Waiting for {table.names[turn]} — that's you.")
        expect(other.locator("#status")).to_have_text(
            re.compile(rf"^\s*Waiting for {table.names[turn]}\.\s*$")
        )
        expect(choice_buttons(other)).to_have_count(0)
        expect(other.locator("#prompts")).to_contain_text("Nothing for you to do right now.")
        if moves == 0:
            screenshot(mover, "seat")

        button = lowest_choice(mover)
        card = re.sub(r"^Play ", "", button.locator(".label").inner_text())
        click_choice(mover, button)
        seq = table.summary()["seq"]
        assert seq > summary["seq"]
        for page in pages.values():
            expect_seq(page, seq)
            expect_full_log(page, seq)
            expect(page.locator("#log-entries")).to_contain_text(
                f"{table.names[turn]} Seat {turn} plays {card}"
            )
            expect(page.locator("#view-played")).to_contain_text(card)
            expect_live(page)
            assert_not_reloaded(page)
        moves += 1
        if moves == 1:
            screenshot(spectator, "watch")
            screenshot(gm, "gm")

    assert moves == 4
    assert summary["outcome"] == {"result": "win", "reason": "Bob reached 5 points", "winners": [1]}
    # Bob alone won: each seat is told whether it won, the others read the result.
    heading = {"Ann": "Game over — you lose.", "Bob": "Game over — you win.", "spectator": "Game over."}
    for who, page in pages.items():
        status = page.locator("#status")
        expect(status).to_contain_text(f"{heading.get(who, 'Game over.')} Bob reached 5 points")
        expect(status).to_have_class(re.compile(r"\bstatus-over\b"))
        expect(choice_buttons(page)).to_have_count(0)
        expect(page.locator("#prompts")).to_be_hidden()
        expect(page.locator("#seats .tag-turn")).to_have_count(0)
        expect_live(page)
        assert_not_reloaded(page)
    screenshot(bob, "seat-game-over")


def test_a_reloaded_page_shows_the_current_state_and_stays_live(
    server: Served, open_page: PageFactory
) -> None:
    table = create_table(server.url, ["Ann", "Bob"])
    ann = open_page(table.seat_url(0))
    bob = open_page(table.seat_url(1))
    gm = open_page(table.gm_url)
    for page in (ann, bob, gm):
        expect_live(page)
        mark_no_reload(page)

    click_choice(ann, lowest_choice(ann))
    seq = table.summary()["seq"]
    expect_seq(bob, seq)

    bob.reload()
    expect_live(bob)
    expect_seq(bob, seq)
    expect_full_log(bob, seq)
    expect(bob.locator("#status")).to_contain_text("Waiting for Bob — that's you.")
    expect(bob.locator("#view-played")).to_contain_text("lantern01-2")
    mark_no_reload(bob)

    # The reloaded page's buttons are current: its move reaches the others live.
    click_choice(bob, lowest_choice(bob))
    seq = table.summary()["seq"]
    for page in (ann, bob, gm):
        expect_seq(page, seq)
        expect_full_log(page, seq)
        assert_not_reloaded(page)
    expect(ann.locator("#status")).to_contain_text("Waiting for Ann — that's you.")

    # The game master's gift and a chat line reach the reloaded page live too.
    click_choice(gm, gm.get_by_role("button", name="Gift Bob a point"))
    expect(bob.locator("#log-entries > li").first).to_have_text(
        "Game master The game master gifts seat 1 a point."
    )
    bob.locator(".chat input[name=text]").fill("<b>well played</b>")
    with bob.expect_response(re.compile(r"/chat$")):
        bob.locator(".chat button[type=submit]").click()
    expect(bob.locator(".chat input[name=text]")).to_have_value("")
    seq = table.summary()["seq"]
    for page in (ann, bob, gm):
        expect_seq(page, seq)
        expect_full_log(page, seq)
        expect(page.locator("#log-entries > li.log-chat").first).to_have_text("Bob: <b>well played</b>")
        assert_not_reloaded(page)
