"""Scenario 5: a spectator's page never receives a card in anyone's hand or the deck's
order, neither in its HTML nor in any websocket frame; a seat sees only its own hand."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, WebSocket, expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import create_table, expect_full_log, expect_live, expect_seq

pytestmark = pytest.mark.browser


def leaked(cards: set[str], *texts: str) -> set[str]:
    return {card for card in cards if any(card in text for text in texts)}


def test_the_spectator_never_receives_hidden_cards(server: Served, open_page: PageFactory) -> None:
    table = create_table(server.url, ["Ann", "Bob"])
    frames: list[str] = []

    def capture(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    spectator = open_page()
    spectator.on("websocket", capture)
    spectator.goto(table.watch_url)
    ann = open_page(table.seat_url(0))
    gm = open_page(table.gm_url)
    pages: list[Page] = [spectator, ann, gm]
    for page in pages:
        expect_live(page)

    moves = 0
    while True:
        summary = table.summary()
        for page in pages:
            expect_seq(page, summary["seq"])
        view = table.gm_view()["view"]
        hands = [set(p["hand"]) for p in view["players"]]
        hidden = table.hidden_cards()
        assert hidden, "the test needs hidden cards to look for"

        html = spectator.content()
        assert not leaked(hidden, html, *frames), f"the spectator received hidden cards (after {moves} moves)"
        expect(spectator.locator("#view-players")).to_contain_text('"hand": 2')
        # Controls: the probes do find cards where they may be seen.
        assert leaked(hidden, gm.content()) == hidden
        ann_html = ann.content()
        assert leaked(hands[0], ann_html) == hands[0]
        assert not leaked(hidden - hands[0], ann_html), "Ann sees cards that are not hers"

        if summary["outcome"]:
            break
        table.api_move()
        moves += 1

    assert moves == 4
    assert frames, "the spectator's page received no live updates"
    expect_full_log(spectator, summary["seq"])
    expect(spectator.locator("#log-entries")).to_contain_text("Seat 1 draws a card.")
    expect(spectator.locator("#status")).to_contain_text("Game over")
