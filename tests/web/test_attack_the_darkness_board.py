"""Attack the Darkness's board in the browser (templates/games/attack_the_darkness/board.html,
issue 13): the dungeon grid, tokens, the monster line and the party; the hand as readable
cards; choices that light up squares, tokens and cards; the defence window; the game
master's page; Arena teams — and no page showing what its viewer may not see."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape

from app.games.attack_the_darkness.game import AttackTheDarkness
from app.games.attack_the_darkness.view import secrets_of
from app.kernel.types import Choice, SeatInfo
from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.games.attack_the_darkness.test_api import pick
from tests.support.tables import auth
from tests.web.test_assembled_pages import TABLES as ASSEMBLED
from tests.web.test_assembled_pages import play as play_assembled
from tests.web.test_board_targets import buttons
from tests.web.test_darkest_night_board import section

NAMES = ["Ann", "Bob"]


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url))) as test_client:
        yield test_client


def new_table(client: TestClient, seed: str = "atd-board", seats: int = 2, **options: Any) -> dict[str, Any]:
    body = {
        "game": "attack_the_darkness",
        "seed": seed,
        "options": {"mode": "adventure"} | options,
        "seats": [{"name": n} for n in (NAMES + ["Cy", "Di"])[:seats]],
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def tokens(table: dict[str, Any]) -> dict[Any, str]:
    return {s["seat"]: s["token"] for s in table["seats"]} | {"gm": table["gm_token"]}


def gm_payload(client: TestClient, table: dict[str, Any]) -> dict[str, Any]:
    return client.get(f"/api/tables/{table['table_id']}/view", headers=auth(table["gm_token"])).json()


def drive(
    client: TestClient, table: dict[str, Any], until: Callable[[dict[str, Any]], bool], limit: int = 600
) -> dict[str, Any]:
    """Play the table through its links (a quick player: test_api.pick) until ``until`` holds
    for the game master's view payload; that payload."""
    rng = random.Random(7)
    tid = table["table_id"]
    keys = tokens(table)
    for _ in range(limit):
        gm = gm_payload(client, table)
        if until(gm):
            return gm
        assert gm["outcome"] is None, "the game ended first"
        seat = gm["waiting_for"][0]
        payload = (
            gm if seat == "gm" else client.get(f"/api/tables/{tid}/view", headers=auth(keys[seat])).json()
        )
        prompt = next(p for p in payload["prompts"] if p["seat"] == seat and p["choices"])
        command = pick(prompt["choices"], payload["view"], rng)
        response = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(keys[seat]))
        assert response.status_code == 200, response.text
    raise AssertionError("the wanted moment never came")


def waiting(kind: str) -> Callable[[dict[str, Any]], bool]:
    return lambda gm: (gm["view"].get("waiting") or {}).get("kind") == kind


def page_of(client: TestClient, url: str) -> str:
    """A page as a fresh browser gets it (its own cookies: one seat, or none)."""
    client.cookies.clear()
    response = client.get(url)
    assert response.status_code == 200, response.text
    return response.text


def seat_page(client: TestClient, table: dict[str, Any], seat: int) -> str:
    return page_of(client, table["seats"][seat]["url"])


def watch_page(client: TestClient, table: dict[str, Any]) -> str:
    return page_of(client, f"/t/{table['table_id']}/watch")


def gm_page(client: TestClient, table: dict[str, Any]) -> str:
    return page_of(client, table["gm_url"])


def hand_section(page: str) -> str:
    found = re.search(r'<section id="atd-hand"[^>]*>.*?</section>', page, flags=re.S)
    assert found
    return found.group(0)


def card_names(fragment: str) -> list[str]:
    return sorted(re.findall(r'<b class="atd-card-name">([^<]*)</b>', fragment))


def names_in(cards: list[dict[str, Any]]) -> list[str]:
    return sorted(str(escape(c["name"])) for c in cards)


# -- the board -----------------------------------------------------------------------------


def test_a_seat_page_draws_the_dungeon_the_monsters_and_the_party(client: TestClient) -> None:
    table = new_table(client)
    gm = drive(client, table, waiting("act"))
    view = gm["view"]
    page = seat_page(client, table, view["waiting"]["seats"][0])
    assert "generic-view" not in page  # the real board, not the dump of the view

    board = section(page, "atd-map")
    grid = view["grid"]
    assert grid["open"], "the encounter has a map"
    for square in grid["open"]:
        assert f'data-target="square:{square}"' in board
    for tile in view["map"]["tiles"]:
        assert f'data-target="tile:{tile["index"]}"' in board
    assert board.count("atd-tile-stairs") == sum(1 for t in view["map"]["tiles"] if t["stairs"])
    for c in view["characters"]:
        if c["pos"]:
            assert f'data-target="combatant:c{c["seat"]}"' in board
    for m in view["monsters"]:
        assert f'data-target="combatant:{m["id"]}"' in board
        assert f">{m['label']}<" in board and f">{m['hp']}<" in board
    assert board.count('class="atd-ruler ') == grid["w"] + grid["h"] + 1  # coordinates to read labels by
    assert "tabindex" not in board and 'role="button"' not in board  # wired per viewer by the page

    line = section(page, "atd-line")
    assert [e["name"] for e in view["line"]], "the encounter has monsters"
    positions = [line.index(str(escape(e["name"]))) for e in view["line"]]
    assert positions == sorted(positions)  # in the order they act (AtD L270)
    for e in view["line"]:
        assert str(escape(e["stats"]["attacks"])) in line and "Behaviour" in line

    party = section(page, "atd-party")
    for c in view["characters"]:
        assert str(escape(c["class_card"]["ability"])) in party
        assert f"{c['action_deck']} AC · {c['resource_deck']} RC" in party
        assert f"{c['hp']}/{c['max_hp']} HP" in party


def test_the_hand_is_readable_cards_and_the_choices_light_the_board(client: TestClient) -> None:
    table = new_table(client)
    gm = drive(client, table, waiting("act"))
    seat = gm["view"]["waiting"]["seats"][0]
    page = seat_page(client, table, seat)
    me = client.get(f"/api/tables/{table['table_id']}/view", headers=auth(tokens(table)[seat])).json()
    hand = me["view"]["characters"][seat]["hand"]
    mine = hand_section(page)
    assert card_names(mine) == names_in(hand)
    assert "atd-pip-red" in mine or "atd-pip-" in mine  # costs as coloured pips
    offered = buttons(page)
    board = section(page, "atd-map")
    for b in offered:
        kind = b["command"]["type"]
        if kind == "speed":
            x, y = b["command"]["args"]["to"]
            assert b["target"] == f"square:{x},{y}" and f'data-target="square:{x},{y}"' in board
        elif kind == "play":  # "choose the resource cards": the prompt's button (issue 26)
            assert b["target"] is None
        elif kind == "play_cheapest":  # the card's click pays the cheapest way
            card = next(c for c in hand if c["id"] == b["command"]["args"]["card"])
            assert b["target"] == f"ac:{card['card']}" and f'data-target="ac:{card["card"]}"' in mine
        elif kind == "end_turn":
            assert b["target"] is None
    plays = [b for b in offered if b["command"]["type"] == "play"]
    assert plays, "a card can be played on the first turn"

    # Pick a card: the payment step lights the resource cards that can pay, and says what
    # the card will do before it is declared.
    command = plays[0]["command"]
    response = client.post(
        f"/api/tables/{table['table_id']}/commands",
        json=command | {"command_id": "atd-pay"},
        headers=auth(tokens(table)[seat]),
    )
    assert response.status_code == 200, response.text
    page = seat_page(client, table, seat)
    if "No enemy in range" in section(page, "atd-window"):  # nothing to hit: confirm (AtD L157)
        anyway = next(b["command"] for b in buttons(page) if b["command"]["type"] == "play")
        response = client.post(
            f"/api/tables/{table['table_id']}/commands",
            json=anyway | {"command_id": "atd-anyway"},
            headers=auth(tokens(table)[seat]),
        )
        assert response.status_code == 200, response.text
        page = seat_page(client, table, seat)
    window = section(page, "atd-window")
    assert "Paying for" in window and 'class="atd-summary"' in window
    adds = [b for b in buttons(page) if b["command"]["type"] == "add"]
    for b in adds:
        assert b["target"] is not None and b["target"].startswith("rc:")
        assert f'data-target="{b["target"]}"' in hand_section(page)
    # ...and nobody else learns which resource cards are being chosen (still in the hand).
    other = seat_page(client, table, 1 - seat)
    assert "Paying for" not in other and "Paying for" not in watch_page(client, table)


def test_an_unplayable_card_says_why(client: TestClient) -> None:
    table = new_table(client, seed="atd-why")
    gm = drive(client, table, lambda gm: waiting("act")(gm) and gm["view"]["round"] >= 1)
    seat = gm["view"]["waiting"]["seats"][0]
    me = client.get(f"/api/tables/{table['table_id']}/view", headers=auth(tokens(table)[seat])).json()
    unplayable = me["view"]["characters"][seat]["unplayable"]
    refused = [u for p in me["prompts"] for u in p["unavailable"] if u["type"] == "play"]
    assert len(unplayable) == len({u["label"] for u in refused})
    mine = hand_section(seat_page(client, table, seat))
    for why in unplayable.values():
        assert f"Not now: {escape(why)}" in mine


def test_the_defence_window_on_the_defenders_page_and_the_table(client: TestClient) -> None:
    table = new_table(client, seed="atd-defend")
    gm = drive(client, table, waiting("defend"), limit=1500)
    w = gm["view"]["waiting"]
    defender = w["seats"][0]
    page = seat_page(client, table, defender)
    window = section(page, "atd-window")
    assert "You are attacked!" in window and str(escape(w["attacker"]["name"])) in window
    assert f"{w['attack']['damage']} damage" in window
    defends = [b for b in buttons(page) if b["command"]["type"] == "defend"]
    assert defends, "the window opens only when the defender holds a Defense card (facts file §20)"
    for b in defends:
        assert f'data-target="{b["target"]}"' in hand_section(page)
    watch = watch_page(client, table)
    window = section(watch, "atd-window")
    assert "A defence window" in window and f"Waiting for {escape(w['target']['name'])}" in window
    assert card_names(watch) == []


def test_no_page_shows_what_its_viewer_may_not_see(client: TestClient) -> None:
    """Hands (their player only), deck orders and face-down tiles (nobody): each role's page
    checked against the engine's own list of secrets (view.secrets_of)."""
    table = new_table(client, seed="atd-leak", dungeon="random", encounters=1)
    drive(client, table, lambda gm: waiting("act")(gm) and gm["view"]["round"] >= 2, limit=1500)
    tid = table["table_id"]
    hub = client.app.state.hub
    session = client.portal.call(hub.session, tid)
    state = session.state
    secrets = secrets_of(state, per_card=True)
    pages = {0: seat_page(client, table, 0), 1: seat_page(client, table, 1)}
    pages["watch"] = watch_page(client, table)
    pages["gm"] = gm_page(client, table)
    for who, page in pages.items():
        for secret in secrets:
            if who in secret.seats:
                continue
            pattern = rf"(?<![\w.]){re.escape(str(secret.value))}(?![\w.])"
            assert not re.search(pattern, page), f"{who}'s page shows {secret.value}"
        hand = card_names(hand_section(page))
        if isinstance(who, int):
            ch = state.chars[who]
            assert hand == sorted(str(escape(state_name(state, c))) for c in ch.hand_a + ch.hand_r), (
                f"{who} sees exactly their own hand"
            )
        else:
            assert hand == [], f"the {who} sees no hand"
    face_down = [t for t in state.tiles if not t.flipped and not t.stairs]
    assert face_down, "a random dungeon's tiles start face down"
    for page in pages.values():
        tiles = tiles_layer(page)
        for k, t in enumerate(state.tiles):
            if t in face_down:
                assert re.search(
                    rf'data-target="tile:{k}"[^>]*>\s*<span class="atd-tile-name">tile {k}</span>', tiles
                )
        assert "atd-gm-deck" not in page


def state_name(state: Any, inst: str) -> str:
    from app.games.attack_the_darkness.content import load

    return load().card_name(state.cards[inst])


def tiles_layer(page: str) -> str:
    """The map's tile layer (the layer of tokens follows it)."""
    return page[page.index('<div id="atd-tiles"') : page.index('<div id="atd-tokens"')]


# -- the game master, the arena ------------------------------------------------------------


def test_the_tabletop_game_master_places_tiles_and_picks_from_the_deck(client: TestClient) -> None:
    table = new_table(client, seed="atd-gm", seats=1, mode="tabletop", dungeon="random", encounters=1)
    gm = drive(client, table, waiting("place_tile"))
    page = gm_page(client, table)
    assert "Placing the map" in section(page, "atd-window")
    board = section(page, "atd-map")
    places = [b for b in buttons(page) if b["command"]["type"] == "place_tile"]
    assert places
    for b in places:
        args = b["command"]["args"]
        assert b["target"] == f"square:{args['x']},{args['y']}"
        assert f'data-target="{b["target"]}"' in board  # drawn even off the placed tiles

    gm = drive(client, table, waiting("gm_pick"))
    page = gm_page(client, table)
    deck = section(page, "atd-gm")
    assert "game master only" in deck and f"at most {gm['view']['danger'] + 5}" in deck
    picks = [b for b in buttons(page) if b["command"]["type"] == "pick"]
    assert picks
    for b in picks:
        assert b["target"].startswith("dungeon:") and f'data-target="{b["target"]}"' in deck
    player = seat_page(client, table, 0)
    assert "atd-gm-deck" not in player and "at most" not in player  # the deck is the GM's alone (AtD L274)


def test_arena_shows_teams_and_the_initiative_cuts(client: TestClient) -> None:
    table = new_table(client, seed="atd-arena", mode="arena", teams=2)
    gm = drive(client, table, lambda gm: waiting("act")(gm))
    page = watch_page(client, table)
    party = section(page, "atd-party")
    assert "team 1" in party and "team 2" in party
    assert "atd-team-0" in section(page, "atd-map") and "atd-team-1" in section(page, "atd-map")
    if gm["view"]["cuts"]:
        assert "Initiative cuts" in section(page, "atd-status")
    assert "Initiative:" in section(page, "atd-status")


def test_targets_and_room_clearing_are_clicks_on_the_board(client: TestClient) -> None:
    table = new_table(client, seed="atd-target")
    gm = drive(client, table, lambda gm: waiting("target")(gm) or waiting("area")(gm), limit=1500)
    seat = gm["view"]["waiting"]["seats"][0]
    page = seat_page(client, table, seat)
    board = section(page, "atd-map")
    aimed = [b for b in buttons(page) if b["command"]["type"] in ("target", "area")]
    assert aimed
    for b in aimed:
        assert b["target"] is not None and f'data-target="{b["target"]}"' in board
    assert "plays" in section(page, "atd-window")  # the card being resolved, for everyone

    gm = drive(client, table, waiting("clear_room"), limit=3000)
    page = seat_page(client, table, gm["view"]["waiting"]["seats"][0])
    assert "Clearing the room" in section(page, "atd-window")
    for b in buttons(page):
        if b["command"]["type"] == "revive":
            assert b["target"] == f"combatant:c{b['command']['args']['target']}"


def test_the_game_master_plays_a_monster_by_clicking_squares_and_tokens(client: TestClient) -> None:
    table = new_table(client, seed="atd-gm", seats=1, mode="tabletop", dungeon="random", encounters=1)
    gm = drive(client, table, waiting("gm_monster"), limit=1500)
    page = gm_page(client, table)
    board = section(page, "atd-map")
    assert f"The game master plays {escape(gm['view']['waiting']['monster']['name'])}" in section(
        page, "atd-window"
    )
    assert "atd-mon atd-current" in board  # the acting monster stands out
    moves = [b for b in buttons(page) if b["command"]["type"] in ("move", "attack")]
    assert moves
    for b in moves:
        assert b["target"] is not None and f'data-target="{b["target"]}"' in board


# -- live updates --------------------------------------------------------------------------

ASSEMBLED["attack_the_darkness"] = {"seats": ["Ann", "<b>Bo</b>"], "options": {"mode": "adventure"}}
"""The assembled-pages harness (tests/web/test_assembled_pages.py) with this game's table."""


def test_live_pages_equal_a_fresh_render_after_any_updates(client: TestClient) -> None:
    """Every part's slice covers what it shows: a spectator's, each seat's and the game
    master's page, assembled from the websocket's frames, equal a fresh render."""
    table = play_assembled(client, "attack_the_darkness", "atd-live", steps=40)
    assert table.session.seq > 30


def test_each_kind_of_choice_names_its_board_element() -> None:
    """targets.choice_target: the command field → the board element (the map in its
    docstring), for every kind of choice that has one, and None for the rest."""
    game = AttackTheDarkness()
    state = game.initial_state()
    for event in game.setup({"mode": "adventure"}, [SeatInfo(0, "Ann")], random.Random(1)):
        state = game.evolve(state, event)
    action = next(i for i in state.cards if i.startswith("0a"))
    resource = next(i for i in state.cards if i.startswith("0r"))
    dungeon = next(i for i in state.cards if i.startswith("d"))
    advancement = next(i for i in state.cards if i.startswith("v"))
    cases = [
        (Choice("speed", {"to": [3, -2]}, ""), "square:3,-2"),
        (Choice("move", {"to": [0, 4]}, ""), "square:0,4"),
        (Choice("area", {"x": -1, "y": 2, "o": "h"}, ""), "square:-1,2"),
        (Choice("place_tile", {"x": 4, "y": 0, "o": "v"}, ""), "square:4,0"),
        (Choice("target", {"who": "m3"}, ""), "combatant:m3"),
        (Choice("attack", {"who": "c0"}, ""), "combatant:c0"),
        (Choice("revive", {"seat": 0, "discard": False, "target": 1}, ""), "combatant:c1"),
        (Choice("play_cheapest", {"card": action}, ""), f"ac:{state.cards[action]}"),
        (Choice("play", {"card": action}, ""), None),  # "choose": the prompt's button (issue 26)
        (Choice("defend", {"card": action}, ""), f"ac:{state.cards[action]}"),
        (Choice("discard", {"card": resource}, ""), f"rc:{state.cards[resource]}"),
        (Choice("add", {"rc": resource}, ""), f"rc:{state.cards[resource]}"),
        (Choice("equip", {"item": dungeon}, ""), f"item:{dungeon}"),
        (Choice("flip", {"tile": 2}, ""), "tile:2"),
        (Choice("keep", {"card": advancement}, ""), f"adv:{state.cards[advancement]}"),
        (Choice("pick", {"card": dungeon}, ""), f"dungeon:{state.cards[dungeon]}"),
        (Choice("top", {"card": action}, ""), f"top:{state.cards[action]}"),
        (Choice("end_turn", {"discard": False}, ""), None),
        (Choice("keep", {"drop": []}, ""), None),
        (Choice("done", {}, ""), None),
        (Choice("play_cheapest", {"card": "nowhere"}, ""), None),
    ]
    for choice, wanted in cases:
        assert game.choice_target(state, choice) == wanted, choice
