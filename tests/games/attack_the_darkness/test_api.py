"""Attack the Darkness through the public API (SQLite): a table of each mode is created
with ``POST /api/tables`` and played to the end by its seats' links — in Tabletop the game
master link decides the monsters — every command taken from the prompts the API offers."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.support.tables import auth

PREFERRED = ("target", "area", "defend", "attack", "revive", "keep", "flip", "ready", "cut")


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url))) as test_client:
        yield test_client


def pick(choices: list[dict[str, Any]], view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A quick player: hit what it can, pay as soon as it may, close in on the others,
    else anything."""
    types = [c["command"]["type"] for c in choices]
    speeds = [c["command"] for c in choices if c["command"]["type"] == "speed"]
    others = [m["pos"] for m in view["monsters"]] or [
        ch["pos"] for ch in view["characters"] if ch["pos"] and not ch["unconscious"]
    ]
    if "play" in types:
        return rng.choice([c for c in choices if c["command"]["type"] == "play"])["command"]
    if speeds and others and "play" not in types and rng.random() < 0.8:
        return min(
            speeds,
            key=lambda c: min(
                max(abs(c["args"]["to"][0] - x), abs(c["args"]["to"][1] - y)) for x, y in others
            ),
        )
    for wanted in PREFERRED:
        if wanted in types:
            return choices[types.index(wanted)]["command"]
    if "done" in types and ("add" in types or "pick" in types):
        return choices[types.index("done")]["command"]
    if "add" in types:  # the offered card can be paid: keep adding
        return rng.choice([c for c in choices if c["command"]["type"] == "add"])["command"]
    if "end_turn" in types:  # nothing playable: cycle the hand
        ends = [c["command"] for c in choices if c["command"]["type"] == "end_turn"]
        return next((c for c in ends if c["args"]["discard"]), ends[0])
    return rng.choice(choices)["command"]


def play(
    client: TestClient, body: dict[str, Any], seed: int, limit: int = 3000, until: Any = None
) -> dict[str, Any]:
    """Create the table and play it through its links until it ends (or ``until`` says
    so of the commands sent so far); the last game-master view."""
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table = created.json()
    tid = table["table_id"]
    tokens: dict[Any, str] = {s["seat"]: s["token"] for s in table["seats"]} | {"gm": table["gm_token"]}
    rng = random.Random(seed)
    sent: list[dict[str, Any]] = []
    for _ in range(limit):
        gm = client.get(f"/api/tables/{tid}/view", headers=auth(tokens["gm"])).json()
        if gm["outcome"] is not None or (until is not None and until(sent)):
            return gm
        assert gm["waiting_for"], "the table runs but waits on nobody"
        seat = rng.choice(gm["waiting_for"])
        token = tokens[seat]
        view = gm if seat == "gm" else client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
        prompt = rng.choice([p for p in view["prompts"] if p["seat"] == seat and p["choices"]])
        command = pick(prompt["choices"], view["view"], rng)
        response = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token))
        assert response.status_code == 200, response.text
        sent.append(command | {"seat": seat})
    raise AssertionError(f"no end after {limit} commands")


def body_of(options: dict[str, Any], seats: int) -> dict[str, Any]:
    return {
        "game": "attack_the_darkness",
        "options": options,
        "seats": [{"name": f"Player {i + 1}"} for i in range(seats)],
        "seed": f"atd-{options['mode']}",
    }


def test_an_adventure_ends_through_the_api(client: TestClient) -> None:
    """A random Adventure (one encounter) played to its end by its seat's link (the player's
    seed 6 ends it in about 220 commands; seed 1 took 750)."""
    final = play(client, body_of({"mode": "adventure", "dungeon": "random", "encounters": 1}, 1), seed=6)
    assert final["outcome"]["result"] in ("win", "loss")


def test_the_game_master_link_plays_tabletop(client: TestClient) -> None:
    """Tabletop: the game-master link places the tiles, picks the monsters and decides
    their turns (AtD L272-275); played until it has decided a few monster turns. (Whole
    Tabletop and Arena games are played by the engine's conformance test; through the API
    each takes a few hundred requests, too slow for every CI run.)"""

    def monsters_decided(sent: list[dict[str, Any]]) -> bool:
        return sum(1 for c in sent if c["seat"] == "gm" and c["type"] in ("attack", "move")) >= 3

    final = play(
        client,
        body_of({"mode": "tabletop", "dungeon": "random", "encounters": 1}, 1),
        12,  # three monster turns after about 60 commands (seed 2 took 350)
        until=monsters_decided,
    )
    assert final["outcome"] is not None or final["view"]["monsters"]
    assert "dungeon_deck_cards" in final["view"]  # the game master sees the dungeon deck (AtD L274)


def test_arena_initiative_and_turns_through_the_api(client: TestClient) -> None:
    """Arena: both players cut at once, then take turns in initiative order (AtD L290)."""

    def turns_taken(sent: list[dict[str, Any]]) -> bool:
        return sum(1 for c in sent if c["type"] == "end_turn") >= 2

    final = play(client, body_of({"mode": "arena", "teams": 2}, 2), 2, until=turns_taken)  # ~60 commands
    assert final["view"]["round"] >= 1 and final["outcome"] is None
    assert sorted(final["view"]["order"]) == [0, 1]


def test_bad_options_are_refused_precisely(client: TestClient) -> None:
    body = {
        "game": "attack_the_darkness",
        "options": {"mode": "arena", "teams": 3},
        "seats": [{"name": "Solo"}],
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code in (400, 422)
    assert "AtD L288" in response.json()["error"]["message"]


def test_an_attack_with_nothing_to_hit_asks_to_confirm_through_the_api(client: TestClient) -> None:
    """Issue 26, AtD L157: an attack card with no enemy in range is offered with "no enemy in
    range: it will do nothing"; sending it asks "Play it anyway" or "Back" before any
    payment; Back spends nothing; played anyway, the payment starts."""
    created = client.post("/api/tables", json=body_of({"mode": "adventure", "dungeon": "tavern_cellar"}, 1))
    assert created.status_code == 201, created.text
    tid, token = created.json()["table_id"], created.json()["seats"][0]["token"]
    rng = random.Random(1)

    def seat_prompt() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        payload = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
        prompt = next(p for p in payload["prompts"] if p["seat"] == 0 and p["choices"] and p["required"])
        return payload, prompt["choices"]

    def send(command: dict[str, Any]) -> None:
        response = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token))
        assert response.status_code == 200, response.text

    for _ in range(100):
        payload, choices = seat_prompt()
        wasted = [
            c
            for c in choices
            if "no enemy in range: it will do nothing" in c["label"] and c["command"]["type"] == "play"
        ]
        if payload["view"]["waiting"]["kind"] == "act" and wasted:
            break
        send(pick(choices, payload["view"], rng))
    else:
        raise AssertionError("no attack card with nothing to hit was offered")
    hand = [c["id"] for c in payload["view"]["characters"][0]["hand"]]
    send(wasted[0]["command"])
    payload, choices = seat_prompt()
    assert payload["view"]["waiting"]["kind"] == "confirm_play"
    assert [c["label"] for c in choices] == ["Play it anyway", "Back"]
    send(choices[1]["command"])
    payload, _ = seat_prompt()
    assert payload["view"]["waiting"]["kind"] == "act"
    assert [c["id"] for c in payload["view"]["characters"][0]["hand"]] == hand
    again = next(c for c in seat_prompt()[1] if c["label"] == wasted[0]["label"])
    send(again["command"])  # the same choice, a fresh command id
    payload, choices = seat_prompt()
    assert choices[0]["label"] == "Play it anyway", choices
    send(choices[0]["command"])
    assert seat_prompt()[0]["view"]["waiting"]["kind"] == "pay"


def test_a_card_is_paid_in_one_click_through_the_api(client: TestClient) -> None:
    """Issue 26 (AtD L143: resources chosen before the card is declared): "play_cheapest"
    pays the fewest resource cards and declares the card in one command; its label names
    them."""
    created = client.post("/api/tables", json=body_of({"mode": "adventure", "dungeon": "tavern_cellar"}, 1))
    assert created.status_code == 201, created.text
    tid, token = created.json()["table_id"], created.json()["seats"][0]["token"]
    rng = random.Random(2)
    for _ in range(200):
        payload = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
        prompt = next(p for p in payload["prompts"] if p["seat"] == 0 and p["choices"] and p["required"])
        quick = [c for c in prompt["choices"] if c["command"]["type"] == "play_cheapest"]
        if payload["view"]["waiting"]["kind"] == "act" and quick and "nothing" not in quick[0]["label"]:
            break
        command = pick(prompt["choices"], payload["view"], rng)
        sent = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token))
        assert sent.status_code == 200, sent.text
    else:
        raise AssertionError("no card was payable")
    assert " paying " in quick[0]["label"]
    response = client.post(f"/api/tables/{tid}/commands", json=quick[0]["command"], headers=auth(token))
    assert response.status_code == 200, response.text
    after = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
    assert after["view"]["waiting"]["kind"] != "pay"
    events = client.get(f"/api/tables/{tid}/events", headers=auth(token)).json()["events"]
    played = [e for e in events if e["type"] == "CardPlayed"][-1]["data"]
    assert played["card"] == quick[0]["command"]["args"]["card"]


def test_mark_for_judgement_draws_and_moves_through_the_api(client: TestClient) -> None:
    """Issue 26: the Inquisitor's Mark for Judgement ("draw 1 and gain 1 speed move") draws a
    card, then asks where to move."""
    body = body_of({"mode": "adventure", "dungeon": "tavern_cellar", "class": ["inquisitor"]}, 1)
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    tid, token = created.json()["table_id"], created.json()["seats"][0]["token"]
    rng = random.Random(3)
    for _ in range(200):
        payload = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
        prompt = next(p for p in payload["prompts"] if p["seat"] == 0 and p["choices"] and p["required"])
        ability = [c for c in prompt["choices"] if c["command"]["type"] == "ability"]
        if ability:
            break
        command = pick(prompt["choices"], payload["view"], rng)
        sent = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token))
        assert sent.status_code == 200, sent.text
    else:
        raise AssertionError("Mark for Judgement was never offered")
    assert "gain 1 speed move" in ability[0]["label"]
    held = len(payload["view"]["characters"][0]["hand"])
    sent = client.post(f"/api/tables/{tid}/commands", json=ability[0]["command"], headers=auth(token))
    assert sent.status_code == 200, sent.text
    after = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
    assert len(after["view"]["characters"][0]["hand"]) == held + 1
    assert after["view"]["waiting"]["kind"] == "move_to"
