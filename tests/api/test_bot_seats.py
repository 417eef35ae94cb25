"""Seats played by the game's bot, through the REST API and the HTML switch, on SQLite and
PostgreSQL: who may hand a seat over, the summary, the bot's moves, and Darkest Night's
heuristic bot playing a whole seat."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.kernel.game import GameBase, has_bot
from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.support.tables import auth, create_body, first_choice


@pytest.fixture
def fast(db_url: str) -> Iterator[TestClient]:
    """The app with bots that move without a pause."""
    upgrade(db_url)
    with TestClient(create_app(make_settings(db_url, bot_delay=0.0))) as test_client:
        yield test_client


def new_table(client: TestClient, **kw: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=create_body(**kw))
    assert response.status_code == 201, response.text
    return response.json()


def set_bot(client: TestClient, table: dict[str, Any], seat: Any, on: Any, token: str | None) -> Any:
    headers = auth(token) if token else {}
    return client.post(f"/api/tables/{table['table_id']}/seats/{seat}/bot", json={"on": on}, headers=headers)


def wait_for(predicate: Any, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out")


def log_of(client: TestClient, table: dict[str, Any]) -> list[dict[str, Any]]:
    return client.get(f"/api/tables/{table['table_id']}/export", headers=auth(table["gm_token"])).json()[
        "events"
    ]


def test_the_summary_says_which_seats_the_bot_plays(fast: TestClient) -> None:
    table = new_table(fast)
    summary = fast.get(f"/api/tables/{table['table_id']}").json()
    assert [(s["seat"], s["bot"]) for s in summary["seats"]] == [(0, False), (1, False)]
    response = set_bot(fast, table, 1, True, table["gm_token"])
    assert response.status_code == 200, response.text
    assert [s["bot"] for s in response.json()["seats"]] == [False, True]
    assert response.json() == fast.get(f"/api/tables/{table['table_id']}").json()


def test_the_bot_answers_a_persons_move(fast: TestClient) -> None:
    table = new_table(fast)
    tid, token = table["table_id"], table["seats"][0]["token"]
    assert set_bot(fast, table, 1, True, table["gm_token"]).status_code == 200
    command = first_choice(fast.get(f"/api/tables/{tid}/view", headers=auth(token)).json(), 0)
    moved = fast.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token)).json()

    def answered() -> dict[str, Any] | None:
        summary = fast.get(f"/api/tables/{tid}").json()
        return summary if summary["seq"] > moved["seq"] and summary["waiting_for"] == [0] else None

    summary = wait_for(answered)
    bot_events = [e for e in log_of(fast, table) if e["seq"] > moved["seq"]]
    assert bot_events and summary["seq"] == bot_events[-1]["seq"]
    assert {e["actor"] for e in bot_events} == {"seat:1"}
    assert {e["command_id"] for e in bot_events} == {f"bot-{moved['seq']}-1"}
    # Taken back: the bot no longer answers.
    assert set_bot(fast, table, 1, False, table["gm_token"]).json()["seats"][1]["bot"] is False
    command = first_choice(fast.get(f"/api/tables/{tid}/view", headers=auth(token)).json(), 0)
    moved = fast.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token)).json()
    time.sleep(0.3)
    assert fast.get(f"/api/tables/{tid}").json()["seq"] == moved["seq"]


def test_bots_play_a_table_to_its_end(fast: TestClient) -> None:
    table = new_table(fast, seats=3)
    for seat in range(3):
        assert set_bot(fast, table, seat, True, table["gm_token"]).status_code == 200
    summary = wait_for(
        lambda: (s := fast.get(f"/api/tables/{table['table_id']}").json())["status"] == "finished" and s
    )
    assert summary["outcome"] and summary["waiting_for"] == []
    commands = [e["command_id"] for e in log_of(fast, table) if e["command_id"]]
    assert commands and all(c.startswith("bot-") for c in commands)


def test_who_may_hand_a_seat_to_the_bot(fast: TestClient) -> None:
    table = new_table(fast)
    tid = table["table_id"]
    seat0, seat1 = table["seats"][0]["token"], table["seats"][1]["token"]

    def error(response: Any, status: int) -> str:
        assert response.status_code == status, response.text
        return response.json()["error"]["code"]

    assert error(set_bot(fast, table, 1, True, seat0), 403) == "seat_not_held"
    assert error(set_bot(fast, table, 1, True, None), 401) == "token_missing"
    assert error(set_bot(fast, table, 1, True, "forged"), 401) == "token_invalid"
    assert error(set_bot(fast, table, 7, True, table["gm_token"]), 404) == "not_found"
    assert error(set_bot(fast, table, "x", True, table["gm_token"]), 422) == "invalid_request"
    assert error(set_bot(fast, table, 1, "yes", table["gm_token"]), 422) == "invalid_request"
    response = fast.post("/api/tables/nope/seats/1/bot", json={"on": True}, headers=auth(seat1))
    assert error(response, 404) == "not_found"
    summary = fast.get(f"/api/tables/{tid}").json()
    assert not any(s["bot"] for s in summary["seats"])  # nothing changed
    # A seat's own player may hand it over, and take it back.
    assert set_bot(fast, table, 1, True, seat1).json()["seats"][1]["bot"] is True
    assert set_bot(fast, table, 1, False, seat1).json()["seats"][1]["bot"] is False
    # Once a person has joined seat 1, only they may hand it to the bot.
    assert fast.get(f"/t/{tid}/join/{seat1}").status_code == 200
    assert error(set_bot(fast, table, 1, True, table["gm_token"]), 409) == "seat_joined"
    assert set_bot(fast, table, 1, True, seat1).json()["seats"][1] == {
        "seat": 1,
        "name": "Player 2",
        "joined": True,
        "bot": True,
    }
    assert set_bot(fast, table, 1, False, table["gm_token"]).json()["seats"][1]["bot"] is False


def test_opening_the_invite_link_takes_the_seat_back(fast: TestClient) -> None:
    table = new_table(fast)
    tid, token = table["table_id"], table["seats"][0]["token"]
    assert set_bot(fast, table, 1, True, table["gm_token"]).status_code == 200
    assert fast.get(f"/t/{tid}/join/{table['seats'][1]['token']}").status_code == 200
    seats = fast.get(f"/api/tables/{tid}").json()["seats"]
    assert seats[1]["joined"] is True and seats[1]["bot"] is False
    command = first_choice(fast.get(f"/api/tables/{tid}/view", headers=auth(token)).json(), 0)
    moved = fast.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token)).json()
    time.sleep(0.3)
    summary = fast.get(f"/api/tables/{tid}").json()
    assert summary["seq"] == moved["seq"] and summary["waiting_for"] == [1]  # the person plays now


def test_the_switch_on_the_table_ready_and_game_master_pages(fast: TestClient) -> None:
    page = fast.post("/lobby", data={"game": "lanterns", "seat": ["Ann", "<b>Bo</b>"], "opt_dice": "on"})
    assert page.status_code == 200
    html = page.text
    assert html.count('class="bot-switch"') == 2 and 'aria-label="Let the bot play Ann"' in html
    assert "<b>Bo</b>" not in html and "&lt;b&gt;Bo&lt;/b&gt;" in html
    tid = html.split("/t/")[1].split("/")[0]
    gm_token = html.split("/gm/join/")[1].split('"')[0]
    switched = fast.post(f"/t/{tid}/seats/1/bot", data={"on": "1", "reply": "toggle", "token": gm_token})
    assert switched.status_code == 200, switched.text
    assert 'aria-pressed="true"' in switched.text and 'id="bot-seat-1"' in switched.text
    assert "<b>" not in switched.text
    refused = fast.post(f"/t/{tid}/seats/1/bot", data={"on": "1", "reply": "toggle", "token": "forged"})
    assert refused.status_code == 401 and "bot-error" in refused.text
    # The game-master page shows who the bot plays, with a switch per seat.
    assert fast.get(f"/t/{tid}/gm/join/{gm_token}").status_code == 200
    gm_page = fast.get(f"/t/{tid}/gm").text
    assert 'class="tag tag-bot"' in gm_page and "Bot playing — take it back" in gm_page
    off = fast.post(f"/t/{tid}/seats/1/bot", data={"on": "0"})
    assert off.status_code == 200 and 'id="flash"' in off.text
    assert not fast.get(f"/api/tables/{tid}").json()["seats"][1]["bot"]
    # Spectators see who is a bot but get no switch.
    fast.cookies.clear()
    watch = fast.get(f"/t/{tid}/watch").text
    assert "Let the bot play" not in watch
    denied = fast.post(f"/t/{tid}/seats/1/bot", data={"on": "1"})
    assert denied.status_code == 401 and "flash-error" in denied.text


def test_a_game_without_a_bot_refuses() -> None:
    class NoBot(GameBase):
        name = "nobot"

    class WithBot(GameBase):
        name = "withbot"

        def bot_choice(self, state: Any, prompt: Any, rng: random.Random) -> Any:
            return None

    assert not has_bot(NoBot()) and has_bot(WithBot())


def test_darkest_night_bot_plays_a_seat(fast: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="app.live.bots")
    body = {"game": "darkest_night", "seats": [{"name": "Solo"}], "seed": "dn-bot"}
    created = fast.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table = created.json()
    assert set_bot(fast, table, 0, True, table["gm_token"]).status_code == 200

    def commands() -> int:
        ids = {e["command_id"] for e in log_of(fast, table) if e["command_id"]}
        finished = fast.get(f"/api/tables/{table['table_id']}").json()["status"] == "finished"
        return len(ids) if len(ids) >= 50 or finished else 0

    count = wait_for(commands, timeout=60)
    assert count >= 50, count
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
