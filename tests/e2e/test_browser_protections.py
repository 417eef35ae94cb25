"""The pages under their Content-Security-Policy in a real Chromium: nothing is blocked,
the websocket, the buttons and the chat box work; and a command answered 503 (the server
reconnecting to its database) is sent again by the page and lands once."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import Page, Request, Route, expect

from app.api.security import CSP
from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import (
    click_choice,
    create_game_table,
    create_table,
    expect_live,
    expect_seq,
    lowest_choice,
)

pytestmark = pytest.mark.browser

PLAY_EVENTS = 3  # CardPlayed, CardDrawn, TurnPassed
RETRYING = "The server is reconnecting to its database; retrying…"
WATCH_CSP = """
document.addEventListener("securitypolicyviolation", function (e) {
  (window.__csp = window.__csp || []).push(e.violatedDirective + " " + e.blockedURI + " " + e.sample);
});
"""


def watched(open_page: PageFactory) -> tuple[Page, list[str]]:
    """A new page that records every CSP violation: the DOM events, and the console lines
    Chromium writes for them (which also cover violations before the listener ran)."""
    page = open_page()
    page.add_init_script(WATCH_CSP)
    console: list[str] = []
    page.on(
        "console",
        lambda m: (
            console.append(m.text) if "Content Security Policy" in m.text or "Refused to" in m.text else None
        ),
    )
    return page, console


def pump_until(page: Page, predicate: Any, message: str, timeout: float = 10_000) -> None:
    """Wait for ``predicate`` while Playwright keeps running route handlers (a plain sleep
    would not let them run)."""
    waited = 0
    while not predicate():
        assert waited < timeout, f"timed out waiting for {message}"
        page.wait_for_timeout(50)
        waited += 50


def violations(page: Page, console: list[str]) -> list[str]:
    return [*console, *page.evaluate("window.__csp || []")]


def test_a_seat_page_works_under_the_csp(server: Served, open_page: PageFactory) -> None:
    table = create_table(server.url, ["Ann", "Bob"])
    page, console = watched(open_page)
    response = page.goto(table.seat_url(0))
    assert response is not None and response.headers["content-security-policy"] == CSP
    expect_live(page)  # the websocket connects under connect-src 'self'
    assert page.evaluate("htmx.config.allowEval") is False

    seq = table.summary()["seq"]
    click_choice(page, lowest_choice(page))
    expect_seq(page, seq + PLAY_EVENTS)

    chat = page.locator(".chat input[name=text]")
    chat.fill("hello under the CSP")
    with page.expect_request(re.compile(r"/chat$")) as sent:
        page.locator(".chat button[type=submit]").click()
    expect(chat).to_have_value("")  # data-reset-on-success, no inline handler
    expect(page.locator("#log-entries > li.log-chat").first).to_have_text("Ann: hello under the CSP")
    form = parse_qs(sent.value.post_data or "")
    assert re.fullmatch(r"chat-[0-9a-f]{24}", form["command_id"][0]), form
    assert table.summary()["seq"] == seq + PLAY_EVENTS + 1

    # The other pages, the Darkest Night board (inline style attributes) among them.
    dn = create_game_table(server.url, "darkest_night", ["Ann"], seed="csp")
    for url in (server.url + "/", table.watch_url, table.replay_url, dn.seat_url(0), dn.gm_url):
        page.goto(url)
        page.wait_for_load_state("networkidle")
    expect_live(page)
    assert violations(page, console) == []


def flaky(responses: list[str], landed: bool) -> Any:
    """A route handler answering the first request 503 + Retry-After: 1, as the server does
    while its database is away; with ``landed`` the request reaches the server first (the
    command committed, the answer got lost). Later requests go through untouched."""
    seen: list[Request] = []

    def handle(route: Route) -> None:
        seen.append(route.request)
        if len(seen) > 1:
            responses.append("passed")
            route.continue_()
            return
        if landed:
            route.fetch()
        responses.append("503")
        route.fulfill(
            status=503,
            headers={"Retry-After": "1", "Content-Type": "text/html"},
            body='<div id="flash" class="flash flash-error" role="alert">the database is away</div>',
        )

    handle.seen = seen  # type: ignore[attr-defined]
    return handle


@pytest.mark.parametrize("landed", [False, True], ids=["lost", "landed"])
def test_a_command_answered_503_is_sent_again_and_lands_once(
    server: Served, open_page: PageFactory, landed: bool
) -> None:
    table = create_table(server.url, ["Ann", "Bob"])
    page = open_page(table.seat_url(0))
    expect_live(page)
    seq = table.summary()["seq"]

    responses: list[str] = []
    act = flaky(responses, landed)
    page.route(re.compile(r"/t/\w+/act$"), act)
    lowest_choice(page).click()
    expect(page.locator("#flash")).to_have_text(RETRYING)
    expect_seq(page, seq + PLAY_EVENTS)
    pump_until(page, lambda: responses == ["503", "passed"], "the retry")
    first, again = act.seen
    assert again.post_data == first.post_data  # the same command, with the same command_id
    assert again.headers.get("x-umbra-retry") == "1"
    expect(page.locator("#flash")).to_be_empty()
    assert table.summary()["seq"] == seq + PLAY_EVENTS

    responses.clear()
    chat = flaky(responses, landed)
    page.route(re.compile(r"/t/\w+/chat$"), chat)
    box = page.locator(".chat input[name=text]")
    box.fill("said once")
    page.locator(".chat button[type=submit]").click()
    expect(page.locator("#flash")).to_have_text(RETRYING)
    expect(box).to_have_value("said once")  # kept while it retries
    expect(box).to_have_value("", timeout=5_000)
    pump_until(page, lambda: responses == ["503", "passed"], "the chat's retry")
    assert parse_qs(chat.seen[1].post_data) == parse_qs(chat.seen[0].post_data)
    expect_seq(page, seq + PLAY_EVENTS + 1)
    expect(page.locator("#log-entries > li.log-chat")).to_have_count(1)
    page.wait_for_timeout(300)
    assert table.summary()["seq"] == seq + PLAY_EVENTS + 1


def test_the_page_gives_up_after_ten_retries(server: Served, open_page: PageFactory) -> None:
    table = create_table(server.url, ["Ann", "Bob"])
    page = open_page(table.seat_url(0))
    expect_live(page)
    seq = table.summary()["seq"]
    seen: list[str] = []

    def down(route: Route) -> None:
        seen.append(route.request.headers.get("x-umbra-retry", "0"))
        route.fulfill(status=503, headers={"Retry-After": "0.05"}, body="")

    page.route(re.compile(r"/t/\w+/act$"), down)
    lowest_choice(page).click()
    expect(page.locator("#flash")).to_contain_text("nothing was done", timeout=10_000)
    assert seen == [str(n) for n in range(11)]  # the first try and ten retries
    assert table.summary()["seq"] == seq
