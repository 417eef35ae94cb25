"""Attack the Darkness in Debian's chromium (issue 13): on a 390 px phone a player picks a card
from the hand, pays by tapping the lit resource cards, goes back, and moves by tapping
a lit square; a spectator sees the board without any hand; the Tabletop game master
places a tile by clicking the grid, and the attacked player's page opens the defence
window; the lobby refuses an illegal custom deck with every rule it breaks. Mid-turn, a
reload and a server restart leave the player's page usable, and no websocket frame a
spectator receives holds a card of a player's hand. Screenshots of each page type go to
test-artifacts/screenshots/."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import Page, WebSocket, expect

from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import (
    PHONE,
    Table,
    assert_not_reloaded,
    create_game_table,
    expect_live,
    expect_seq,
    mark_no_reload,
    screenshot,
    scroll_width,
)
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


CHOOSE = "#prompts button.choice:has-text('choose the resource cards')"


def open_payment(page: Page) -> None:
    """Open a card's payment step: "choose the resource cards" (the card's click pays the
    cheapest way at once, issue 26); an attack with nothing to hit is confirmed first."""
    act(page, CHOOSE)
    window = page.locator("#atd-window")
    expect(window).to_contain_text(re.compile("Paying for|will do nothing"))
    if "will do nothing" in (window.text_content() or ""):
        act(page, "#prompts button.choice:has-text('Play it anyway')")


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
    open_payment(phone)
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


RECONNECT = 20_000  # ms: after a restart the pages back off to at most 8 s between attempts
HAND_MARKS = ('data-target="ac:', 'data-target="rc:', 'data-target="top:', "atd-hand-seat")
"""What only a hand (or A Lifetime of Preparation's look at a deck) is drawn with."""


def hand_cards(table: Table) -> set[str]:
    """Every card instance in a player's hand now, from each player's own view."""
    out: set[str] = set()
    for seat in range(len(table.names)):
        view = httpx.get(
            f"{table.base}/api/tables/{table.id}/view",
            headers={"Authorization": f"Bearer {table.seat_token(seat)}"},
            timeout=10,
        ).json()["view"]
        out |= {card["id"] for card in view["characters"][seat]["hand"]}
    return out


def assert_no_hand_in(frames: list[str], hands: set[str], moment: str) -> None:
    assert frames, f"{moment}: the spectator received no frame"
    for frame in frames:
        assert not any(mark in frame for mark in HAND_MARKS), f"{moment}: a hand in a spectator frame"
        leaked = {card for card in hands if re.search(rf"\b{re.escape(card)}\b", frame)}
        assert not leaked, f"{moment}: the spectator received hand cards {sorted(leaked)}"


def dungeon_deck_order(table: Table) -> list[str]:
    """The Adventure's dungeon deck order now, as only the game master's event feed has it:
    the last ``DeckShuffled`` of the dungeon deck (AtD L243) without the cards any later
    event names (revealed, drawn as tiles; those may be shown, in any order)."""
    response = httpx.get(
        f"{table.base}/api/tables/{table.id}/events",
        headers={"Authorization": f"Bearer {token_of(table, 'gm')}"},
        params={"limit": 5000},
        timeout=10,
    )
    response.raise_for_status()
    events = response.json()["events"]
    shuffles = [
        k
        for k, e in enumerate(events)
        if e["type"] == "DeckShuffled" and e["data"].get("deck") == "dungeon" and "order" in e["data"]
    ]
    assert shuffles, "the game master's feed holds the dungeon deck's order"
    later = json.dumps([e["data"] for e in events[shuffles[-1] + 1 :]])
    order = [c for c in events[shuffles[-1]]["data"]["order"] if f'"{c}"' not in later]
    assert len(order) > 2, "most of the dungeon deck is still to draw"
    return order


def assert_no_deck_order_in(frames: list[str], order: list[str], moment: str) -> None:
    """No frame holds the dungeon deck in order: no two cards of it side by side as a
    list (JSON ``"d3", "d17"`` or HTML ``d3, d17``), nor the game master's deck panel."""
    patterns = [side_by_side(a, b) for a, b in zip(order, order[1:], strict=False)]
    assert patterns and patterns[0].search(json.dumps({"order": order})), "the check can fail"
    assert patterns[0].search(json.dumps(json.dumps(order))) and patterns[0].search(", ".join(order))
    for frame in frames:
        assert "atd-gm-deck" not in frame, f"{moment}: the game master's deck in a spectator frame"
        for pattern in patterns:
            assert not pattern.search(frame), (
                f"{moment}: the dungeon deck's order in a frame ({pattern.pattern})"
            )


def side_by_side(a: str, b: str) -> re.Pattern[str]:
    """Card ``a`` then card ``b`` in a list: quoted (also inside a JSON string) or bare."""
    quote = r'(?:\\?")?'
    return re.compile(rf"(?<![\w.]){quote}{a}{quote},\s*{quote}{b}(?![\w.])")


def recorder(frames: list[str]) -> Callable[[WebSocket], None]:
    def capture(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    return capture


def commands(n: int) -> Callable[[dict[str, Any]], bool]:
    """``drive`` until ``n`` more commands were sent."""
    left = iter(range(n))
    return lambda _view: next(left, None) is None


def pay_and_go_back(page: Page) -> None:
    """The page is usable: a card's "choose" opens its payment window, and Back closes it."""
    open_payment(page)
    window = page.locator("#atd-window")
    expect(window).to_contain_text("Paying for")
    with page.expect_response(lambda r: r.url.endswith("/act")):
        page.locator("#prompts button.choice", has_text="Back").click()
    expect(window).not_to_contain_text("Paying for")


def test_reload_and_restart_mid_turn_and_the_spectators_frames(
    server: Served, open_page: PageFactory
) -> None:
    """Issue 13: a reload mid-turn and a server restart mid-encounter keep the player's page
    usable; a spectator's websocket frames, from before the first command to after the
    restart, never hold a card of a player's hand."""
    table = create_game_table(
        server.url, "attack_the_darkness", ["Ann", "Bob"], {"mode": "adventure"}, "atd-e2e"
    )
    frames: list[str] = []
    own: list[str] = []
    spectator = open_page()
    spectator.on("websocket", recorder(frames))
    spectator.goto(table.watch_url)
    expect_live(spectator)

    view = drive(table, waiting("act"))
    seat = view["waiting"]["seats"][0]
    expect_seq(spectator, table.summary()["seq"])
    assert_no_hand_in(frames, hand_cards(table), "the first turn")
    seen = len(frames)

    # A reload mid-turn: the page comes back live with the hand lit, and a card still plays.
    page = open_page()
    page.on("websocket", recorder(own))
    page.goto(table.seat_url(seat))
    expect_live(page)
    page.reload()
    expect_live(page)
    expect(page.locator(LIT_CARD).first).to_be_visible()
    pay_and_go_back(page)

    # A server restart mid-encounter: the pages reconnect by themselves, catch up, and play on.
    mark_no_reload(page)
    server.kill()
    expect(page.locator("#conn")).to_have_text(re.compile(r"^(re)?connecting…$"))
    server.start_again()
    for open_ in (page, spectator):
        expect_live(open_, timeout=RECONNECT)
        expect_seq(open_, table.summary()["seq"])
    assert_not_reloaded(page)
    pay_and_go_back(page)

    drive(table, commands(20))
    expect_seq(spectator, table.summary()["seq"])
    assert len(frames) > seen, "the spectator was sent the moves after the restart"
    assert_no_hand_in(frames[seen:], hand_cards(table), "after the restart")
    assert_no_deck_order_in(frames, dungeon_deck_order(table), "the whole game")
    # The check can fail: the player's own frames do draw a hand.
    assert any('id="atd-' in frame for frame in frames)
    assert any(mark in frame for frame in own for mark in HAND_MARKS)


MAP_CHOICES = ("target", "attack", "move", "area")
"""A play's steps that are a tap on the map: a target's token, a square to move or push to,
an area's corner."""

CHOICES_JS = """bs => bs.map(b => ({
  text: b.textContent.trim(),
  target: b.dataset.target || null,
  type: JSON.parse(JSON.parse(b.getAttribute("hx-vals")).command).type,
}))"""


def tap(page: Page, table: Table, choice: dict[str, Any]) -> None:
    """Send a choice as a player does: tap its lit element on the board (its menu entry when
    the element stands for several choices), or its button when it has none."""
    with page.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as info:
        if choice["target"] is None:
            page.locator("#prompts button.choice", has_text=choice["text"]).first.click()
        else:
            lit = f'[data-target="{choice["target"]}"].is-target'
            page.locator(f"#atd-map {lit}, #atd-hand {lit}").first.click()
            menu = page.locator("#target-menu button", has_text=choice["text"])
            if page.locator("#target-menu button").count():
                menu.first.click()
    assert info.value.status == 200, info.value.text()
    expect_seq(page, table.summary()["seq"])


def next_choice(kind: str, choices: list[dict[str, Any]], plays: int) -> dict[str, Any]:
    """The choice a player working towards a card played onto the map makes now."""
    of = {t: [c for c in choices if c["type"] == t] for t in {c["type"] for c in choices}}
    if kind == "act":
        if of.get("play") and plays < 8:
            return of["play"][plays % len(of["play"])]
        return next(c for c in of["end_turn"] if "discard" not in c["text"])
    if kind == "pay":
        return (of.get("done") or of.get("add") or of["cancel"])[0]
    on_map = [c for c in choices if c["type"] in MAP_CHOICES and c["target"]]
    if on_map:
        return on_map[0]
    for quiet in ("done", "skip", "stay", "pass"):
        if of.get(quiet):
            return of[quiet][0]
    return choices[0]


def test_a_card_then_a_square_by_tapping_on_a_phone_and_the_page_types(
    server: Served, open_page: PageFactory
) -> None:
    """Issue 13: on a 390 px phone a player plays a card onto the map by tapping alone — the
    card, the resource cards that pay it, then a target's token or a square — and the log
    names the player's character; screenshots of a desktop seat page, the replay page and an
    Arena seat page."""
    table = create_game_table(
        server.url, "attack_the_darkness", ["Ann", "Bob"], {"mode": "adventure"}, "atd-tap"
    )
    view = drive(table, waiting("act"))
    seat = view["waiting"]["seats"][0]
    name = table.names[seat]
    phone = open_page(table.seat_url(seat), viewport=PHONE, is_mobile=True, has_touch=True)
    expect_live(phone)
    on_map: list[dict[str, Any]] = []
    plays = 0
    for _ in range(120):
        view = drive(table, lambda v: seat in ((v.get("waiting") or {}).get("seats") or []), limit=400)
        kind = view["waiting"]["kind"]
        if on_map and view["play"] is None:
            break
        expect_seq(phone, table.summary()["seq"])
        choices = phone.eval_on_selector_all("#prompts button.choice", CHOICES_JS)
        assert choices, f"the phone shows the {kind} question's choices"
        choice = next_choice(kind, choices, plays)
        plays += choice["type"] == "play"
        if choice["type"] in MAP_CHOICES and choice["target"]:
            on_map.append(choice)
            screenshot(phone, "atd-card-onto-map-phone")
        tap(phone, table, choice)
    assert on_map, "a card was played onto a target or a square by tapping"
    log = phone.locator("#log-entries")
    expect(log).to_contain_text(re.compile(rf"{re.escape(name)}'s \w+ plays "))
    assert scroll_width(phone) <= PHONE["width"]

    desktop = open_page(table.seat_url(seat))
    expect_live(desktop)
    expect(desktop.locator("#atd-map .atd-sq").first).to_be_visible()
    screenshot(desktop, "atd-seat-desktop")

    replay = open_page(table.replay_url)
    expect(replay.locator("#atd-map").first).to_be_visible()
    screenshot(replay, "atd-replay")

    arena = create_game_table(
        server.url, "attack_the_darkness", ["Ann", "Bob", "Cy"], {"mode": "arena", "teams": 2}, "atd-arena"
    )
    view = drive(arena, waiting("act"))
    page = open_page(arena.seat_url(view["waiting"]["seats"][0]))
    expect_live(page)
    expect(page.locator("#atd-status")).to_contain_text("Initiative cuts")
    expect(page.locator("#atd-party")).to_contain_text("team 2")
    screenshot(page, "atd-arena-seat-cuts")
