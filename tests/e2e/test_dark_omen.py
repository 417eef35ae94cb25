"""Dark Omen in a real browser (issue 15): the circular map drawn, two players moving at
once by clicking lit spaces (one of them on a 390 px phone) and each seeing the other's
move live, a race for one loot token, an Obstacle Throw turning the layers by the rolled
number of sectors and its black lines then charged, the round barrier, a reload mid-round
and a campaign closed and resumed from "your tables"."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, Route, WebSocket, expect

from app.games.dark_omen.board import distance, neighbours
from tests.e2e import test_your_tables as your_tables
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
    table_events,
)
from tests.e2e.test_refused import HeldSocket

pytestmark = pytest.mark.browser

RECONNECT = 20_000  # ms: the pages back off to at most 8 s between attempts

browsing = your_tables.browsing  # a browser whose profile survives a restart (the fixture)


def post(table: Table, seat: int, command: dict[str, Any], command_id: str) -> int:
    response = httpx.post(
        f"{table.base}/api/tables/{table.id}/commands",
        json=command | {"command_id": command_id},
        headers={"Authorization": f"Bearer {table.seat_token(seat)}"},
        timeout=10,
    )
    assert response.status_code == 200, response.text
    return int(response.json()["seq"])


def view_of(table: Table, seat: int) -> dict[str, Any]:
    response = httpx.get(
        f"{table.base}/api/tables/{table.id}/view",
        headers={"Authorization": f"Bearer {table.seat_token(seat)}"},
        timeout=10,
    )
    response.raise_for_status()
    return dict(response.json())


def drive_to(table: Table, seat: int, goal: int, tag: str) -> int:
    """Move a hero towards ``goal`` with its own move choices, each step closer (DO L240);
    the seq of the last move (0: already there)."""
    seq = 0
    for step in range(8):
        payload = view_of(table, seat)
        here = payload["view"]["heroes"][seat]["at"]
        if here == goal:
            return seq
        moves = [
            c["command"]
            for p in payload["prompts"]
            for c in p["choices"]
            if c["command"]["type"] == "move" and isinstance(c["command"]["args"]["to"], int)
        ]
        closer = min(moves, key=lambda m: distance(m["args"]["to"], goal))
        assert distance(closer["args"]["to"], goal) < distance(here, goal), "no step closer"
        seq = post(table, seat, closer, f"{tag}-{step}")
    raise AssertionError(f"seat {seat} did not reach {goal}")


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


def face_down_tokens(table: Table) -> set[str]:
    """The face-down loot tokens' names now (``l05.17``), which only the game master's view
    holds: each deal names its token anew, so none may ever reach a spectator."""
    return {str(x["token"]) for x in table.gm_view()["view"].get("face_down", {}).values()}


def recorder(frames: list[str]) -> Callable[[WebSocket], None]:
    def capture(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    return capture


def assert_no_face_down_face(frames: list[str], tokens: set[str]) -> None:
    """No spectator frame names a face-down token or carries the game master's faces."""
    assert frames and tokens
    for frame in frames:
        assert "game master only" not in frame, "a face-down token's face in a spectator frame"
        leaked = {t for t in tokens if re.search(rf"(?<![\w.]){re.escape(t)}(?![\w.])", frame)}
        assert not leaked, f"face-down tokens {sorted(leaked)} in a spectator frame"


def test_two_players_move_at_once_by_clicking_the_map(server: Served, open_page: PageFactory) -> None:
    """Both are asked at once; the phone plays its whole round by tapping; a spectator's
    websocket frames never hold a face-down token's face; the log names heroes; a reload
    mid-round; the round barrier; the replay and the lobby."""
    table = create_game_table(
        server.url, "dark_omen", ["Ann", "Bo"], {"mode": "quick_chapter"}, seed="e2e-do"
    )
    hidden = face_down_tokens(table)
    frames: list[str] = []
    watch = open_page(viewport={"width": 1100, "height": 900})
    watch.on("websocket", recorder(frames))
    watch.goto(table.watch_url)
    expect_live(watch)
    ann = open_page(table.seat_url(0), viewport={"width": 1280, "height": 900})
    bo = open_page(table.seat_url(1), viewport=PHONE, is_mobile=True, has_touch=True)
    for page in (ann, bo):
        expect_live(page)
        expect(page.locator("#do-map svg.do-map-svg")).to_be_visible()
        expect(page.locator('[data-target="space:111"]')).to_have_count(1)
    # Both are asked at once (DO L211): each clicks a lit space, and sees the other's move.
    to, ann_ap = click_a_lit_space(ann)
    expect(bo.locator("#do-hero-0 title")).to_contain_text(f"on {to}:")
    expect(ann.locator("#do-sheet-0")).to_contain_text(f"on {to}")
    # The phone plays its round by tapping: moves while AP last, then "End my round" below.
    ap, taps = 0, 0
    while taps < 3 and 6 - ap > 2:
        bo_to, cost = click_a_lit_space(bo, tap=True)
        ap, taps = ap + cost, taps + 1
        expect(ann.locator("#do-hero-1 title")).to_contain_text(f"on {bo_to}:")
        expect(bo.locator("#do-acting-1 .do-ap-left")).to_have_count(6 - ap)
    assert taps >= 2, "the phone tapped more than one move"
    expect(ann.locator(".do-acting .do-c1 .do-ap-left")).to_have_count(6 - ap)
    assert (
        bo.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"] + 1
    )  # the map scrolls, not the page
    screenshot(ann, "dark-omen-seat")
    screenshot(bo, "dark-omen-phone")
    # A spectator sees the moves and no face-down token's face; the game master sees them.
    gm = open_page(table.gm_url, viewport={"width": 1100, "height": 900})
    expect(watch.locator("#do-hero-1 title")).to_contain_text(f"on {bo_to}:")
    expect(watch.locator("#do-map")).not_to_contain_text("game master only")
    expect(gm.locator("#do-loot title").first).to_contain_text("game master only")
    screenshot(watch, "dark-omen-watch")
    screenshot(gm, "dark-omen-gm")
    # The log names heroes by player and character, on every page and after a reload.
    character = view_of(table, 0)["view"]["heroes"][0]["character"]
    for page in (ann, bo, watch):
        expect(page.locator("#log-entries")).to_contain_text(f"Ann\u2019s {character} moves to {to}")
    expect(ann.locator("#log-entries")).not_to_contain_text("Player 1")

    # A reload mid-round shows the same hero, AP and lit spaces.
    ann.reload()
    expect_live(ann)
    expect(ann.locator("#do-sheet-0")).to_contain_text(f"on {to}")
    expect(ann.locator("#do-acting-0 .do-ap-left")).to_have_count(6 - ann_ap)
    expect(ann.locator(".do-cell.is-target").first).to_be_visible()
    expect(ann.locator("#log-entries")).to_contain_text(f"Ann\u2019s {character} moves to {to}")

    # The round barrier (DO L211): Ann ends her round and waits on Bo; the round turns
    # when Bo ends his.
    expect(ann.locator(".do-round .do-pip-now")).to_have_text("1")
    with ann.expect_response(lambda r: r.url.endswith("/act")) as answer:
        ann.locator("#prompts button.choice", has_text="End my round").click()
    assert answer.value.status == 200
    for page in (ann, bo, watch):
        expect(page.locator("#do-barrier")).to_contain_text("waiting on Bo")
        expect(page.locator("#do-acting-0")).to_contain_text("done this round")
        expect(page.locator(".do-round .do-pip-now")).to_have_text("1")
    expect(ann.locator(".do-cell.is-target")).to_have_count(0)  # Ann waits: nothing of hers is lit
    screenshot(ann, "dark-omen-barrier")
    with bo.expect_response(lambda r: r.url.endswith("/act")) as answer:
        bo.locator("#prompts button.choice", has_text="End my round").tap()
    assert answer.value.status == 200
    for page in (ann, bo, watch):
        expect(page.locator(".do-round .do-pip-now")).to_have_text("2")
        expect(page.locator("#do-acting-0 .do-ap-left")).to_have_count(6)
    expect(ann.locator(".do-cell.is-target").first).to_be_visible()
    # The log's dividers: the chapter, the day and each round.
    log = ann.locator("#log-entries")
    expect(log.locator(".log-chapter")).to_contain_text("Chapter 1 begins")
    expect(log.locator(".log-round")).to_contain_text("Day 1 of chapter 1 dawns")
    expect(log.locator(".log-turn")).to_have_count(2)
    expect(log.locator(".log-turn", has_text="Round 2 (day).")).to_have_count(1)
    # The spectator's frames, from before the first move to the next round: every move sent,
    # no face-down token's name or face ever (the game master's page draws them).
    expect(watch.locator("#do-hero-1 title")).to_contain_text(f"on {bo_to}:")
    assert any('id="do-fig-1"' in frame for frame in frames), "the spectator was sent Bo's moves"
    assert_no_face_down_face(frames, hidden | face_down_tokens(table))
    # The replay draws the round move by move; the lobby offers Dark Omen's table options.
    replay = open_page(table.replay_url, viewport={"width": 1280, "height": 900})
    expect(replay.locator("#do-map svg.do-map-svg")).to_be_visible()
    expect(replay.locator("#log-entries")).to_contain_text(f"Ann\u2019s {character} moves to {to}")
    screenshot(replay, "dark-omen-replay-round")
    lobby = open_page(f"{server.url}/lobby", viewport={"width": 1280, "height": 900})
    with lobby.expect_response(re.compile(r"/lobby/form\?game=dark_omen")):
        lobby.locator("select[name=game]").select_option("dark_omen")
    form = lobby.locator("#game-form")
    expect(form.locator("select[name=opt_difficulty]")).to_have_count(1)
    expect(form.locator("select[name=opt_mode]")).to_have_count(1)
    screenshot(lobby, "dark-omen-lobby")


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
    # The turned layers are then enforced (DO L240): a step through a slit they closed is lit
    # only with its 4 MP (never without the MP), a step through an open one costs no MP.
    blocked = set(view_of(table, 0)["view"]["blocked"])

    def closed_from(space: int) -> list[int]:
        return [n for n in neighbours(space) if f"{space}-{n}" in blocked or f"{n}-{space}" in blocked]

    start = view_of(table, 0)["view"]["heroes"][0]["at"]
    goal = min(
        (s for s in range(1, 112) if 0 < len(closed_from(s)) < len(neighbours(s))),
        key=lambda s: (distance(start, s), s),
    )
    if seq := drive_to(table, 0, goal, "walk"):
        expect_seq(page, seq)
    hero = view_of(table, 0)["view"]["heroes"][0]
    here, closed = hero["at"], closed_from(goal)
    assert here == goal
    for there in neighbours(here):
        lit = page.locator(f'.do-cell.is-target[data-target="space:{there}"]')
        cost = page.locator(f'#prompts button.choice[data-target="space:{there}"] .detail')
        if there not in closed:
            expect(lit).to_have_count(1)
            expect(cost).to_have_text("1 AP")
        elif hero["mp"] >= 4:
            expect(cost).to_have_text("1 AP · 4 MP")
        else:
            expect(lit).to_have_count(0)


def both_on_one_loot_token(table: Table) -> dict[str, Any]:
    """Ann's and Bo's heroes walk to the face-down loot token nearest both (the view before)."""
    view = view_of(table, 0)["view"]
    a, b = view["heroes"][0]["at"], view["heroes"][1]["at"]
    goal = min(view["loot_face_down"], key=lambda s: (max(distance(a, s), distance(b, s)), s))
    drive_to(table, 0, goal, "a")
    drive_to(table, 1, goal, "b")
    return dict(view)


def test_a_lost_race_for_one_loot_token_costs_nothing(server: Served, open_page: PageFactory) -> None:
    """Both heroes stand on one face-down loot token and flip it at once: Ann's commit
    arrives first, so Bo's click is refused with a message quoting what her hero did, and
    spends no AP (DO L211, facts §21)."""
    table = create_game_table(
        server.url, "dark_omen", ["Ann", "Bo"], {"mode": "quick_chapter"}, seed="do-race"
    )
    view = both_on_one_loot_token(table)
    bo = open_page(table.seat_url(1), viewport={"width": 1100, "height": 900})
    expect_live(bo)
    ap_before = view_of(table, 1)["view"]["heroes"][1]["ap_left"]

    def ann_first(route: Any) -> None:  # Ann's flip commits while Bo's click is on its way
        post(table, 0, {"seat": 0, "type": "loot", "args": {}}, "ann-loot")
        route.continue_()

    bo.route("**/act", ann_first)
    token = bo.locator('#do-map [data-target="loot:here"]')
    expect(token).to_have_count(1)
    with bo.expect_response(lambda r: r.url.endswith("/act")) as answer:
        token.click()
    assert answer.value.status == 409
    character = view["heroes"][0]["character"]
    flash = bo.locator("#flash")
    expect(flash).to_contain_text(f"the table has moved on since your view: Ann\u2019s {character} ")
    expect(flash).to_contain_text(f"Ann\u2019s {character} flips a loot token")
    expect(flash).to_contain_text("So loot was not done; nothing was spent")
    assert view_of(table, 1)["view"]["heroes"][1]["ap_left"] == ap_before
    expect(bo.locator('#do-map [data-target="loot:here"]')).to_have_count(0)  # the token is Ann's
    screenshot(bo, "dark-omen-race")


FOCUSED = """() => {
    const a = document.activeElement;
    return {id: a.id, action: !!a.closest('#prompts button.choice, .is-target, .target-menu')};
}"""


def expect_focus_on_the_refusal(page: Page, table: Table) -> None:
    """The focus is on the refusal (no action of the prompts or the board), and another
    Enter sends nothing: Bo's first choice, "Give a gold to Ann", stays unsent."""
    expect(page.locator("#flash")).to_contain_text("nothing was spent")
    expect(page.locator("#flash")).to_be_focused()
    assert page.evaluate(FOCUSED) == {"id": "flash", "action": False}
    expect(page.locator("#prompts button.choice").first).to_have_text("Give a gold to Ann")
    gold, seq = view_of(table, 1)["view"]["heroes"][1]["gold"], table.summary()["seq"]
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.url.endswith("/act") else None)
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert sent == [], "Enter after a refusal sent a command"
    assert table.summary()["seq"] == seq
    assert view_of(table, 1)["view"]["heroes"][1]["gold"] == gold


def test_a_refused_press_leaves_the_focus_on_its_refusal(server: Served, open_page: PageFactory) -> None:
    """Bo presses Enter on a choice Ann's hero took first: the focus goes to the refusal,
    never to another of his actions (the first, "Give a gold to Ann", was where it used to
    land, and the next Enter gave the gold away). Once with the refusal before the live
    update of Ann's move (Bo's page held its updates back), once after it."""
    table = create_game_table(
        server.url, "dark_omen", ["Ann", "Bo"], {"mode": "quick_chapter"}, seed="do-race"
    )
    both_on_one_loot_token(table)
    held = HeldSocket()
    bo = open_page(viewport={"width": 1100, "height": 900})
    bo.route_web_socket(re.compile(r"/ws/tables/"), held)
    bo.goto(table.seat_url(1))
    expect_live(bo)

    # The refusal first: Bo's page has not seen Ann's flip yet.
    held.holding = True
    seq = post(table, 0, {"seat": 0, "type": "loot", "args": {}}, "ann-loot")
    bo.locator("#prompts button.choice", has_text="Flip the loot token here").focus()
    with bo.expect_response(lambda r: r.url.endswith("/act")) as answer:
        bo.keyboard.press("Enter")
    assert answer.value.status == 409, answer.value.text()
    expect(bo.locator("#flash")).to_be_focused()
    held.release()
    expect_seq(bo, seq)
    expect(bo.locator('#prompts button.choice:has-text("Flip the loot token")')).to_have_count(0)
    expect_focus_on_the_refusal(bo, table)

    # The live update first: Ann drops the herb she found; Bo presses "Pick up", and his
    # request is held back until Ann has picked it up again and his page has redrawn.
    offered = [c["command"] for p in view_of(table, 0)["prompts"] for c in p["choices"]]
    post(table, 0, next(c for c in offered if c["type"] == "drop"), "ann-drop")
    take = bo.locator("#prompts button.choice", has_text="Pick up the")
    expect(take).to_have_count(1)
    requests: list[Route] = []
    bo.route("**/act", lambda route: requests.append(route))
    take.focus()
    bo.keyboard.press("Enter")
    while not requests:
        bo.wait_for_timeout(20)
    offered = [c["command"] for p in view_of(table, 0)["prompts"] for c in p["choices"]]
    seq = post(table, 0, next(c for c in offered if c["type"] == "take"), "ann-take")
    expect_seq(bo, seq)
    expect(take).to_have_count(0)
    with bo.expect_response(lambda r: r.url.endswith("/act")) as answer:
        requests[0].continue_()
    assert answer.value.status == 409, answer.value.text()
    expect_focus_on_the_refusal(bo, table)


def test_on_a_phone_the_boost_choices_sit_by_their_dice(server: Served, open_page: PageFactory) -> None:
    """Issue 26: a battle's boost buttons sat 1,300 px from the dice on a phone. In one
    column the battle comes right under the choices: each boost button is within 300 px of
    the die it raises, and tapping that die boosts it (DO L404-406)."""
    table = create_game_table(
        server.url, "dark_omen", ["Ann", "Bo"], {"mode": "quick_chapter"}, seed="e2e-fight3"
    )
    foe = next(c for c in view_of(table, 0)["view"]["creatures"] if c["id"] == "c2")
    post(table, 0, {"seat": 0, "type": "move", "args": {"to": 65}}, "ann-1")
    post(table, 0, {"seat": 0, "type": "move", "args": {"to": foe["space"]}}, "ann-2")
    post(table, 0, {"seat": 0, "type": "attack", "args": {"creature": "c2"}}, "ann-3")
    ann = open_page(table.seat_url(0), viewport=PHONE, is_mobile=True, has_touch=True)
    expect_live(ann)
    boosts = ann.locator('#prompts button.choice[data-target^="mydie:"]')
    expect(boosts.first).to_be_visible()

    def top(locator: Any) -> float:
        box = locator.bounding_box()
        assert box, locator
        return float(box["y"])

    for i in range(boosts.count()):
        die = ann.locator(f'#do-battle [data-target="{boosts.nth(i).get_attribute("data-target")}"]')
        gap = abs(top(die) - top(boosts.nth(i)))
        assert gap <= 300, f"{boosts.nth(i).inner_text()!r} is {gap:.0f} px from its die"
    assert top(ann.locator("#do-battle")) < top(ann.locator("#do-map"))
    screenshot(ann, "dark-omen-phone-battle")
    raised = re.search(r"to (\d)", boosts.first.locator(".label").inner_text())
    assert raised
    die = ann.locator(f'#do-battle [data-target="{boosts.first.get_attribute("data-target")}"]')
    with ann.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as answer:
        die.tap()
    assert answer.value.status == 200, answer.value.text()
    expect(die).to_have_text(raised.group(1))


def end_the_day(table: Table, seats: int) -> int:
    """Every seat ends its rounds through the API until the next day dawns (DO L174); the
    seq of the last command."""
    seq, n = 0, 0
    day = view_of(table, 0)["view"]["day"]
    while view_of(table, 0)["view"]["day"] == day:
        assert n < 6 * seats, "the day did not end"
        for seat in range(seats):
            payload = view_of(table, seat)
            offered = [c["command"] for p in payload["prompts"] for c in p["choices"]]
            end = next((c for c in offered if c["type"] == "end_round" and c["seat"] == seat), None)
            if end is not None:
                seq, n = post(table, seat, end, f"day-{n}"), n + 1
    return seq


def test_a_campaign_closed_mid_day_resumes_from_your_tables(
    server: Served, browsing: your_tables.Browsing
) -> None:
    """Across evenings (issue 15): after a day of a campaign and a move into day 2, the whole
    browser closes; "your tables" lists the campaign's chapter and its link opens the same
    seat exactly where it stood (day, hero, AP), still playable by a click."""
    table = create_game_table(server.url, "dark_omen", ["Ann", "Bo"], {"mode": "campaign"}, seed="e2e-camp")
    ann = browsing.page(table.seat_url(0))
    expect_live(ann)
    expect_seq(ann, end_the_day(table, 2))
    expect(ann.locator(".do-day .do-pip-now")).to_have_text("2")
    to, ap = click_a_lit_space(ann)
    browsing.close()

    browsing.start()
    tables = browsing.page(server.url + "/tables")
    listed = your_tables.row(tables, table.id)
    expect(listed).to_contain_text("Chapter 1 (1 of 4)")
    expect(listed).to_contain_text("Players: Ann, Bo — you: Ann")
    listed.get_by_role("link").first.click()
    expect(tables).to_have_url(f"{server.url}/t/{table.id}")
    expect_live(tables)
    expect(tables.locator(".do-day .do-pip-now")).to_have_text("2")
    expect(tables.locator("#do-sheet-0")).to_contain_text(f"on {to}")
    expect(tables.locator("#do-acting-0 .do-ap-left")).to_have_count(6 - ap)
    again, _ = click_a_lit_space(tables)
    expect(tables.locator("#do-sheet-0")).to_contain_text(f"on {again}")
    screenshot(tables, "dark-omen-resumed")


def act_by(page: Page, element: Any) -> None:
    """Click a lit element (or a menu item it opened) and wait for the server's yes."""
    with page.expect_response(lambda r: r.url.endswith("/act") and r.request.method == "POST") as answer:
        element.click()
    assert answer.value.status == 200, answer.value.text()


def test_a_team_attack_shares_one_boost_window_across_a_server_restart(
    server: Served, open_page: PageFactory
) -> None:
    """DO L424-425: Bo proposes a team attack on the Groll he stands on; Ann, on the same
    space, is asked and joins by a click; one shared roll opens a boost window both use at
    once, the table showing whom it waits on. The server dies mid-battle: the pages come back
    by themselves with the same dice, and the battle resolves when both are ready."""
    table = create_game_table(
        server.url, "dark_omen", ["Ann", "Bo"], {"mode": "quick_chapter"}, seed="e2e-fight3"
    )
    foe = next(c for c in view_of(table, 0)["view"]["creatures"] if c["id"] == "c2")
    post(table, 0, {"seat": 0, "type": "move", "args": {"to": 65}}, "ann-1")
    post(table, 0, {"seat": 0, "type": "move", "args": {"to": foe["space"]}}, "ann-2")
    ann = open_page(table.seat_url(0), viewport={"width": 1280, "height": 900})
    bo = open_page(table.seat_url(1), viewport={"width": 1280, "height": 900})
    for page in (ann, bo):
        expect_live(page)
        mark_no_reload(page)

    bo.locator('#do-map [data-target="creature:c2"]').click()  # attack or team: a small menu
    act_by(bo, bo.get_by_role("menuitem", name="Propose a team attack on the Groll"))
    for page in (ann, bo):
        expect(page.locator("#do-battle .do-team")).to_contain_text("waiting on Ann")
    invitation = ann.locator('#do-battle [data-target="team:1"]')
    invitation.click()  # join or decline: a menu
    act_by(ann, ann.get_by_role("menuitem", name="Join Bo's attack"))
    expect(bo.locator("#do-battle .do-team")).to_contain_text("Joined: Ann")
    act_by(bo, bo.locator("#prompts button.choice", has_text="Launch the team attack"))

    # One shared roll: both rows of dice on both pages, each boosting or ready at once.
    rolled = next(e for e in reversed(table_events(table)) if e["type"] == "AttackRolled")["data"]
    for page in (ann, bo):
        fight = page.locator("#do-battle .do-fight").first
        expect(fight).to_contain_text("Battle: Bo and Ann against Groll")
        expect(fight.locator(".do-c0 .do-die-hero")).to_have_text([str(d) for d in rolled["dice"]["0"]])
        expect(fight.locator(".do-c1 .do-die-hero")).to_have_text([str(d) for d in rolled["dice"]["1"]])
        expect(fight.locator(".do-muted", has_text="boosting…")).to_have_count(2)
    screenshot(bo, "dark-omen-team-battle")

    server.kill()
    for page in (ann, bo):
        expect(page.locator("#conn")).to_have_text(re.compile(r"^(re)?connecting…$"))
    server.start_again()
    for page in (ann, bo):
        expect_live(page, timeout=RECONNECT)
        assert_not_reloaded(page)
        expect(page.locator("#do-battle .do-fight").first).to_contain_text("Battle: Bo and Ann")
    act_by(ann, ann.locator("#prompts button.choice", has_text="Ready"))
    for page in (ann, bo):
        expect(page.locator("#do-battle .do-c0 .do-tag")).to_have_text("ready")
        expect(page.locator("#do-battle .do-c1 .do-muted")).to_have_text("boosting…")
    act_by(bo, bo.locator("#prompts button.choice", has_text="Ready"))
    for page in (ann, bo):
        expect(page.locator("#do-battle")).to_be_hidden()
        expect(page.locator("#log-entries")).to_contain_text("The battle resolves")
