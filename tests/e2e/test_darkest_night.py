"""Darkest Night in the browser (issue 4): whole seeded games played by clicking the
prompts, followed live by the other player and a spectator; a reload and a server restart
mid-game lose nothing; the spectator never receives a deck's order or the Necromancer
player's hand; undo takes back a travel."""

from __future__ import annotations

import html
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Locator, Page, WebSocket, expect

from app.web.fragments import LOG_PAGE
from tests.e2e.conftest import PageFactory, Served
from tests.e2e.support import (
    Table,
    assert_not_reloaded,
    choice_commands,
    click_choice,
    create_game_table,
    expect_live,
    expect_seq,
    log_seqs,
    mark_no_reload,
    narrated_seqs,
    page_seq,
    required_choices,
    screenshot,
    table_events,
)

pytestmark = pytest.mark.browser

SEED = "e2e-dn"
# Two blights everywhere, darkness from 20 and a single darkness card: the Monastery is
# overrun after four rounds (about 140 clicks with the picks below).
FAST = {"starting_blights": 2, "starting_darkness": 20, "darkness_cards": 1}
MAX_CLICKS = 600
# The first choice, except: roll rather than boost, fight or elude rather than yield, spend
# grace rather than die, and act by travelling (no dice, no cards) then end the action step.
PREFERRED = ("roll_dice", "resolve_combat", "spend_grace", "travel", "end_action")
RECONNECT = 20_000  # ms: the pages back off to at most 8 s between attempts
MAP_CARD = re.compile(r"\bmap\d+\b")


def dn_table(server: Served, names: list[str], **options: Any) -> Table:
    return create_game_table(server.url, "darkest_night", names, FAST | options, seed=SEED)


def pick(page: Page) -> tuple[Locator, dict[str, Any]]:
    """The button to press among this page's required choices, and the command it posts."""
    buttons = required_choices(page)
    expect(buttons.first).to_be_visible()
    commands = choice_commands(buttons)
    types = [c["type"] for c in commands]
    index = next((types.index(t) for t in PREFERRED if t in types), 0)
    return buttons.nth(index), commands[index]


def api_click(table: Table) -> None:
    """The seat the table waits for makes the same pick through the API (to reach the middle
    of a game quickly)."""
    seat = table.summary()["waiting_for"][0]
    token = table.seat_token(seat)
    prompts = [p for p in table.view(token)["prompts"] if p["required"] and p["seat"] == seat]
    commands = [c["command"] for p in prompts for c in p["choices"]]
    types = [c["type"] for c in commands]
    command = commands[next((types.index(t) for t in PREFERRED if t in types), 0)]
    response = httpx.post(
        f"{table.base}/api/tables/{table.id}/commands",
        json=command,
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert response.status_code == 200, response.text


@dataclass
class Game:
    """The open pages of one table: ``seats`` maps each seat to the page holding it,
    ``watchers`` only follow (spectator, game master)."""

    table: Table
    seats: dict[int, Page]
    watchers: list[Page] = field(default_factory=list)
    clicks: int = 0
    types: list[str] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)

    @property
    def pages(self) -> list[Page]:
        unique = {id(p): p for p in [*self.seats.values(), *self.watchers]}
        return list(unique.values())

    def sync(self, timeout: float = 10_000) -> int:
        """Every page shows the table's current seq; returns it."""
        seq = self.table.summary()["seq"]
        for page in self.pages:
            expect_seq(page, seq, timeout=timeout)
        return seq

    def click(self) -> dict[str, Any]:
        """The seat the table waits for presses a button on its page; every other page
        follows live. Returns the table's summary after it."""
        before = self.table.summary()
        assert not before["outcome"], "the game is already over"
        seat = before["waiting_for"][0]
        mover = self.seats[seat]
        # Only the pages of the seats waited for offer a required choice.
        holding = {s for s, page in self.seats.items() if required_choices(page).count()}
        assert holding == {s for s in self.seats if s in before["waiting_for"]}, (
            f"pages with a required prompt: {holding}, the table waits for {before['waiting_for']}"
        )
        if len(before["waiting_for"]) > 1:  # who goes next: any one of the players answers (DN 6.0)
            expect(mover.locator("#status")).to_contain_text("Any one of you")
            for page in self.watchers:
                expect(page.locator("#status")).to_contain_text("Waiting for any one of")
        else:
            expect(mover.locator("#status")).to_contain_text("that's you")
            for page in self.watchers:
                expect(page.locator("#status")).to_contain_text(f"Waiting for {self.table.names[seat]}")
        button, command = pick(mover)
        assert command["seat"] == seat
        click_choice(mover, button)
        self.clicks += 1
        self.types.append(command["type"])
        self.movers.append(seat)
        after = self.table.summary()
        assert after["seq"] > before["seq"], f"{command['type']} committed nothing"
        expect_seq(mover, after["seq"])
        for page in self.pages:
            if page is not mover:
                expect_seq(page, after["seq"])
        return after

    def play(
        self, until: Callable[[dict[str, Any]], bool], every: Callable[[Game], None] | None = None
    ) -> dict[str, Any]:
        """Click until ``until(summary)`` (or the game ends), at most MAX_CLICKS times."""
        summary = self.table.summary()
        while not summary["outcome"] and not until(summary):
            assert self.clicks < MAX_CLICKS, f"the game did not end in {MAX_CLICKS} clicks: {summary}"
            summary = self.click()
            if every:
                every(self)
        return summary

    def play_to_the_end(self, every: Callable[[Game], None] | None = None) -> dict[str, Any]:
        summary = self.play(lambda s: False, every)
        assert summary["outcome"], summary
        return summary


def expect_game_over(page: Page, outcome: dict[str, Any]) -> None:
    status = page.locator("#status")
    expect(status).to_contain_text(f"Game over — {'defeat' if outcome['result'] == 'loss' else 'victory'}.")
    expect(status).to_contain_text(outcome["reason"])
    expect(status).to_have_class(re.compile(r"\bstatus-over\b"))
    expect(page.locator("#prompts button.choice")).to_have_count(0)


def expect_dn_log(page: Page, table: Table, token: str | None = None, loaded_at: int = 0) -> None:
    """The page's log has one line for each narrated event this viewer may see, once each
    and newest first: nothing lost or doubled. (A page loaded at seq ``loaded_at`` starts
    with the lines of the last LOG_PAGE events only.)"""
    seqs = [seq for seq in narrated_seqs(table, token) if seq > loaded_at - LOG_PAGE]
    expect(page.locator("#log-entries > li")).to_have_count(len(seqs))
    assert log_seqs(page) == seqs


def board_text(page: Page) -> dict[str, str]:
    return {f: page.locator(f"#{f}").inner_text() for f in ("dn-status", "dn-map", "dn-heroes", "dn-cards")}


# -- hidden information ------------------------------------------------------------------


def recorder(frames: list[str]) -> Callable[[WebSocket], None]:
    def capture(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    return capture


def list_forms(cards: list[str]) -> set[str]:
    """A list as a page or a frame could spell it: JSON (spaced or not) or Python's repr,
    maybe escaped as HTML or inside a JSON string."""
    forms = {json.dumps(cards), json.dumps(cards, separators=(",", ":")), repr(cards)}
    forms |= {html.escape(f) for f in forms}
    return forms | {json.dumps(f)[1:-1] for f in forms}


def public_map_cards(table: Table) -> set[str]:
    """The map cards a spectator has been shown (drawn, played, discarded)."""
    return set(MAP_CARD.findall(json.dumps(table_events(table))))


def secret_orders(table: Table) -> tuple[dict[str, list[str]], set[str]]:
    """From the game master's view: every deck order (of two cards or more) and every
    hero's power deck, by name; and the next three map cards no spectator has seen."""
    view = table.gm_view()["view"]
    orders = {f"{name} deck": deck["order"] for name, deck in view["decks"].items()}
    orders |= {f"{hero['name']}'s power deck": hero["deck"] for hero in view["heroes"]}
    assert "order" in view["decks"]["map"], "the game master's view shows no map deck order"
    next_maps = set(view["decks"]["map"]["order"][:3]) - public_map_cards(table)
    return {k: v for k, v in orders.items() if len(v) > 1}, next_maps


def assert_no_secret_reaches(table: Table, pages: dict[str, list[str]], moment: str) -> tuple[int, int]:
    """No deck order and none of the next map cards is in any of ``pages`` (each name's
    HTML and websocket frames); returns how many orders and map cards were looked for."""
    orders, next_maps = secret_orders(table)
    for who, texts in pages.items():
        for name, cards in orders.items():
            for form in list_forms(cards):
                assert not any(form in t for t in texts), f"{moment}: {who} received the {name} order"
        leaked = {card for card in next_maps if any(re.search(rf"\b{card}\b", t) for t in texts)}
        assert not leaked, f"{moment}: {who} received the next map cards {leaked}"
    return len(orders), len(next_maps)


# -- 1 and 4: a whole game, live on every page, nothing secret to the spectator -----------


def test_a_whole_game_played_by_clicking_shows_live_and_hides_the_decks(
    server: Served, open_page: PageFactory
) -> None:
    table = dn_table(server, ["Ann", "Bo"])
    frames: list[str] = []
    spectator = open_page()
    spectator.on("websocket", recorder(frames))
    spectator.goto(table.watch_url)
    ann = open_page(table.seat_url(0))
    bo = open_page(table.seat_url(1))
    game = Game(table, {0: ann, 1: bo}, [spectator])

    expect(ann.locator(".topbar .role")).to_have_text("Playing as Ann")
    expect(bo.locator(".topbar .role")).to_have_text("Playing as Bo")
    expect(spectator.locator(".topbar .role")).to_have_text("Spectator")
    for page in game.pages:
        expect_live(page)
        expect(page.locator("#dn-map")).to_be_visible()
        mark_no_reload(page)
    game.sync()
    expect(spectator.locator("#prompts button.choice")).to_have_count(0)

    def no_secret(moment: str) -> tuple[int, int]:
        texts = {"the spectator": [spectator.content(), *frames], "Ann's page": [ann.content()]}
        return assert_no_secret_reaches(table, texts, moment)

    looked_for = [no_secret("at the start")]

    def every(game: Game) -> None:
        if game.clicks == 12:  # every hero is chosen: the board shows them
            for page in game.pages:
                expect(page.locator("#dn-heroes .dn-hero")).to_have_count(4)
            screenshot(ann, "dn-seat")
            screenshot(spectator, "dn-watch")
        if game.clicks % 25 == 0:
            moment = f"after {game.clicks} clicks"
            looked_for.append(no_secret(moment))
            for page in game.pages:
                assert_not_reloaded(page)

    started = time.monotonic()
    summary = game.play_to_the_end(every)
    elapsed = time.monotonic() - started
    print(f"{game.clicks} clicks to {summary['outcome']} in {elapsed:.1f} s")

    assert summary["outcome"]["result"] in ("win", "loss")
    # "End your action step" is asked only while a free action is left (issue 11): after a
    # travel it ends by itself.
    assert {"travel", "take_turn", "resolve_combat"} <= set(game.types), game.types
    for page in game.pages:
        expect_game_over(page, summary["outcome"])
        expect_seq(page, summary["seq"])
        expect_live(page)
        assert_not_reloaded(page)
    expect_dn_log(ann, table, table.seat_token(0))
    expect_dn_log(spectator, table)
    looked_for.append(no_secret("at the end"))
    assert all(orders for orders, _ in looked_for), f"no deck order to look for at some moment: {looked_for}"
    assert sum(maps for _, maps in looked_for) >= 9, f"too few unseen map cards looked for: {looked_for}"
    assert len(frames) > game.clicks, "the spectator's page received no live updates"
    screenshot(bo, "dn-seat-game-over")

    # A page opened now shows the latest lines; "Show earlier entries" brings the rest.
    late = open_page(table.watch_url)
    expect_live(late)
    expect_dn_log(late, table, loaded_at=summary["seq"])
    while (more := late.locator("button#log-more")).count():
        asked = more.get_attribute("hx-get")
        more.click()
        expect(late.locator(f'button#log-more[hx-get="{asked}"]')).to_have_count(0)  # replaced
    expect_dn_log(late, table)

    replay = open_page(table.replay_url)
    expect(replay.locator("#replay-frame")).to_have_attribute("data-seq", str(summary["seq"]))
    expect(replay.locator("#replay-frame #dn-map")).to_be_visible()
    replay.locator("#replay-seq").fill("120")
    expect(replay.locator("#replay-frame")).to_have_attribute("data-seq", "120")
    expect(replay.locator("#replay-frame #dn-heroes .dn-hero")).to_have_count(4)
    # A whole move at a time: the next stop is the last event of a command.
    ends = [int(s) for s in (replay.locator("form[data-moves]").get_attribute("data-moves") or "").split(",")]
    replay.get_by_role("button", name="Next move").click()
    after = next(end for end in ends if end > 120)
    expect(replay.locator("#replay-frame")).to_have_attribute("data-seq", str(after))
    expect(replay.locator("#replay-frame .mid-move")).to_have_count(0)
    replay.get_by_role("button", name="Previous move").click()
    previous = max(end for end in ends if end < after)
    expect(replay.locator("#replay-frame")).to_have_attribute("data-seq", str(previous))
    screenshot(replay, "dn-replay")


# -- 2: a reloaded page resumes ------------------------------------------------------------


def test_a_page_reloaded_mid_game_resumes_and_keeps_playing(server: Served, open_page: PageFactory) -> None:
    table = dn_table(server, ["Ann", "Bo"])
    ann = open_page(table.seat_url(0))
    bo = open_page(table.seat_url(1))
    gm = open_page(table.gm_url)
    game = Game(table, {0: ann, 1: bo}, [gm])
    expect(gm.locator(".topbar .role")).to_have_text("Game master")
    for page in game.pages:
        expect_live(page)
        mark_no_reload(page)
    game.sync()

    game.play(lambda s: game.clicks >= 20)  # heroes chosen, the first round under way
    screenshot(gm, "dn-gm")
    seq = game.sync()
    seat = table.summary()["waiting_for"][0]
    mover = game.seats[seat]  # the page reloaded is the next to act
    before = board_text(mover)
    status = mover.locator("#status").inner_text()
    prompts = choice_commands(required_choices(mover))

    mover.reload()
    expect_live(mover)
    expect_seq(mover, seq)
    assert board_text(mover) == before
    expect(mover.locator("#status")).to_have_text(status)
    assert choice_commands(required_choices(mover)) == prompts
    expect_dn_log(mover, table, table.seat_token(seat), seq)
    mark_no_reload(mover)

    # The reloaded page's buttons are current and it follows the others live.
    start = game.clicks
    summary = game.play(lambda s: game.clicks >= start + 15)
    assert summary["seq"] > seq and {0, 1} <= set(game.movers[start:])
    assert set(game.types[start:]) - {"take_turn"}, "the game did not move on after the reload"
    for page in game.pages:
        expect_seq(page, summary["seq"])
        assert_not_reloaded(page)
    expect_dn_log(mover, table, table.seat_token(seat), seq)
    expect_dn_log(gm, table, table.created["gm_token"])


# -- 3: the server restarts mid-game -------------------------------------------------------


def test_the_pages_reconnect_after_a_restart_and_the_game_goes_on_to_the_end(
    server: Served, open_page: PageFactory
) -> None:
    table = dn_table(server, ["Ann", "Bo"])
    for _ in range(40):  # through the API: heroes chosen, a round played
        api_click(table)
    loaded_at = table.summary()["seq"]
    ann = open_page(table.seat_url(0))
    bo = open_page(table.seat_url(1))
    spectator = open_page(table.watch_url)
    game = Game(table, {0: ann, 1: bo}, [spectator])
    for page in game.pages:
        expect_live(page)
        mark_no_reload(page)
    game.sync()
    game.play(lambda s: game.clicks >= 10)
    seq = game.sync()

    server.kill()
    for page in game.pages:
        expect(page.locator("#conn")).to_have_text(re.compile(r"^(re)?connecting…$"))
    server.start_again()
    for page in game.pages:
        expect_live(page, timeout=RECONNECT)
    assert game.sync() == seq

    summary = game.play_to_the_end()
    assert game.clicks > 11
    for page in game.pages:
        expect_game_over(page, summary["outcome"])
        assert page_seq(page) == summary["seq"] == table.summary()["seq"]
        expect_live(page)
        assert_not_reloaded(page)
    events = table_events(table)
    assert [e["seq"] for e in events] == list(range(1, summary["seq"] + 1))
    expect_dn_log(ann, table, table.seat_token(0), loaded_at)
    expect_dn_log(bo, table, table.seat_token(1), loaded_at)
    expect_dn_log(spectator, table, None, loaded_at)


# -- 4: the Necromancer player's hand ------------------------------------------------------


def test_the_necromancer_players_hand_reaches_only_his_page(server: Served, open_page: PageFactory) -> None:
    table = dn_table(server, ["Ann", "Bo", "Necro"], necromancer_player=True)
    frames: dict[str, list[str]] = {"spectator": [], "Ann": [], "Bo": []}
    pages: dict[str, Page] = {}
    for name, url in (("spectator", table.watch_url), ("Ann", table.seat_url(0)), ("Bo", table.seat_url(1))):
        pages[name] = open_page()
        pages[name].on("websocket", recorder(frames[name]))
        pages[name].goto(url)
    necro = open_page(table.seat_url(2))
    game = Game(table, {0: pages["Ann"], 1: pages["Bo"], 2: necro}, [pages["spectator"]])
    expect(necro.locator(".topbar .role")).to_have_text("Playing as Necro")
    for page in game.pages:
        expect_live(page)
    game.sync()
    checked: list[int] = []
    shot: list[Path] = []

    def check(game: Game) -> None:
        hand = [card["id"] for card in table.gm_view()["view"]["necromancer_hand"]]
        assert hand, "the Necromancer holds no card"
        hidden = set(hand) - public_map_cards(table)
        expect(necro.locator("#dn-cards .dn-hand li")).to_have_count(len(hand))
        face_down = f"{len(hand)} map card{'s' if len(hand) != 1 else ''}, face down"
        for page in pages.values():
            expect(page.locator("#dn-cards")).to_contain_text(face_down)
        necro_html = necro.content()
        assert all(card in necro_html for card in hand), "the Necromancer's page does not show his hand"
        for name, page in pages.items():
            texts = [page.content(), *frames[name]]
            leaked = {card for card in hidden if any(re.search(rf"\b{card}\b", t) for t in texts)}
            assert not leaked, f"after {game.clicks} clicks {name}'s page received the Necromancer's {leaked}"
        checked.append(len(hidden))
        if required_choices(necro).count() and not shot:
            expect(necro.locator("#prompts")).to_contain_text(
                re.compile("Play a map card|Move the Necromancer")
            )
            shot.append(screenshot(necro, "dn-necromancer"))

    check(game)

    def played() -> int:
        return game.types.count("play_map_card")

    game.play(lambda s: played() >= 2, every=check)
    check(game)
    assert played() >= 2 and "move_necromancer" in game.types, game.types
    assert min(checked) > 0, "at some moment no card of the hand was secret"
    assert shot, "the Necromancer never had to choose"
    assert all(frames.values()), "some page received no live update"


# -- 6: undo --------------------------------------------------------------------------------


def test_undo_takes_back_a_travel_until_another_player_acts(server: Served, open_page: PageFactory) -> None:
    table = dn_table(server, ["Ann", "Bo"])
    ann = open_page(table.seat_url(0))
    bo = open_page(table.seat_url(1))
    game = Game(table, {0: ann, 1: bo})
    for page in game.pages:
        expect_live(page)
    game.sync()

    def ann_may_travel() -> bool:
        page = game.seats[table.summary()["waiting_for"][0]]
        return page is ann and "travel" in [c["type"] for c in choice_commands(required_choices(ann))]

    game.play(lambda s: ann_may_travel())
    title = ann.locator("#prompts .prompt:not(.prompt-optional) h3").first.inner_text()
    hero = title.split(":")[0]
    card = ann.locator(f"#dn-heroes article[aria-label='{hero}']")
    monastery = ann.locator("#dn-place-monastery summary")
    expect(card).to_contain_text("in the Monastery")
    expect(monastery).to_contain_text(hero)

    undo = ann.locator("#prompts .prompt-optional button.choice", has_text="Undo your last action")
    button, command = pick(ann)
    assert command["type"] == "travel"
    place = command["args"]["to"]
    click_choice(ann, button)
    seq = game.sync()
    for page in game.pages:
        expect(page.locator(f"#dn-heroes article[aria-label='{hero}']")).to_contain_text(f"in the {place}")
        expect(page.locator(f"#dn-place-{place.lower()} summary")).to_contain_text(hero)
        expect(page.locator("#dn-place-monastery summary")).not_to_contain_text(hero)
    expect(undo).to_be_visible()
    expect(undo).to_contain_text(f"{hero} moves from the Monastery to the {place}")
    expect(bo.locator("#prompts").get_by_text("Undo your last action")).to_have_count(0)

    click_choice(ann, undo)
    assert game.sync() > seq
    for page in game.pages:
        expect(page.locator(f"#dn-heroes article[aria-label='{hero}']")).to_contain_text("in the Monastery")
        expect(page.locator("#dn-place-monastery summary")).to_contain_text(hero)
        expect(page.locator(f"#dn-place-{place.lower()} summary")).not_to_contain_text(hero)
    # The action is Ann's to choose again.
    assert "travel" in [c["type"] for c in choice_commands(required_choices(ann))]

    # Ann plays on until Bo is to act: her last action (ending a turn) is still hers to take
    # back; once Bo has acted, it no longer is.
    game.play(lambda s: s["waiting_for"][0] == 1)
    expect(undo).to_be_visible()
    expect(undo).to_contain_text("ends the turn")
    game.click()
    assert game.movers[-1] == 1
    expect(undo).to_have_count(0)
    expect(ann.locator("#log-entries")).to_contain_text("takes back their last action")
