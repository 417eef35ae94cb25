"""A Dark Omen table created and played to its end through the public API (Quick Start:
one chapter), and, with two players acting at once, a command the table moved past refused
with a 409 that spends nothing."""

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


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url))) as test_client:
        yield test_client


def new_table(client: TestClient, seats: int, **options: Any) -> dict[str, Any]:
    body = {
        "game": "dark_omen",
        "options": options,
        "seats": [{"name": f"Player {i + 1}"} for i in range(seats)],
        "seed": "omen-api",
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def test_a_quick_start_chapter_is_played_to_its_end_through_the_api(client: TestClient) -> None:
    table = new_table(client, 1, mode="quick_chapter", chapter=1, difficulty="light")
    tid = table["table_id"]
    tokens = [seat["token"] for seat in table["seats"]]
    picker = random.Random(14)
    for _ in range(3000):
        summary = client.get(f"/api/tables/{tid}").json()
        if summary.get("outcome"):
            break
        seat = picker.choice(summary["waiting_for"])
        view = client.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
        options = [c["command"] for p in view["prompts"] if p["seat"] == seat for c in p["choices"]]
        assert options, view["prompts"]
        command = picker.choice(options)
        response = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(tokens[seat]))
        assert response.status_code in (200, 201), response.text
    summary = client.get(f"/api/tables/{tid}").json()
    assert summary["outcome"]["result"] in ("win", "loss")
    view = client.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json()
    assert "face_down" not in view["view"]


def test_a_choice_the_table_moved_past_is_a_409_naming_what_changed(client: TestClient) -> None:
    """Facts §21: a command chosen from a view that another commit made stale is refused
    with a 409 ``taken`` naming what happened since, and spends nothing; the same command
    never offered at that view is a 422."""
    table = new_table(client, 2, mode="quick_chapter", chapter=1)
    tid = table["table_id"]
    tokens = [seat["token"] for seat in table["seats"]]
    view = client.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json()
    offered = {
        c["command"]["type"]: c["command"] for p in view["prompts"] if p["seat"] == 0 for c in p["choices"]
    }
    end, move = offered["end_round"], offered["move"]
    ended = client.post(f"/api/tables/{tid}/commands", json=end, headers=auth(tokens[0]))
    assert ended.status_code == 200, ended.text
    late = client.post(
        f"/api/tables/{tid}/commands", json=move | {"command_id": "late"}, headers=auth(tokens[0])
    )
    assert late.status_code == 409, late.text
    error = late.json()["error"]
    assert error["code"] == "taken" and "ends" in error["message"] and "nothing was spent" in error["message"]
    never = move | {"command_id": "never", "args": {"to": 999}}
    refused = client.post(f"/api/tables/{tid}/commands", json=never, headers=auth(tokens[0]))
    assert refused.status_code == 422, refused.text
    after = client.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json()
    assert after["seq"] == ended.json()["seq"]  # only the end of the round was committed
    assert (
        after["view"]["heroes"][0]["ap_left"] == 6
        and after["view"]["heroes"][0]["at"] == view["view"]["heroes"][0]["at"]
    )


def test_the_lobby_form_and_the_pages_render_a_dark_omen_table(client: TestClient) -> None:
    """The generic lobby draws the options; the generic board, the log and the watch page
    render the view (the game's own board is a later issue)."""
    form = client.get("/lobby/form", params={"game": "dark_omen"})
    assert form.status_code == 200 and "quick_chapter" in form.text
    table = new_table(client, 1, mode="quick_omen")
    tid = table["table_id"]
    joined = client.get(f"/t/{tid}/join/{table['seats'][0]['token']}", follow_redirects=True)
    assert joined.status_code == 200, joined.text[:500]
    watch = client.get(f"/t/{tid}/watch")
    assert watch.status_code == 200
    assert "Chapter 1 begins" in joined.text and "Day 1 of chapter 1 dawns" in joined.text


@pytest.mark.parametrize(
    ("seats", "options"),
    [(2, {"mode": "quick_chapter", "chapter": 1, "difficulty": "light"}), (1, {"difficulty": "light"})],
    ids=["quick-start-chapter", "whole-campaign"],
)
def test_bot_seats_play_to_the_end(sqlite_url: str, seats: int, options: dict[str, Any]) -> None:
    """Every seat handed to the bot (the live layer drives it): the table reaches its end."""
    import time

    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url, bot_delay=0.0))) as fast:
        table = new_table(fast, seats, **options)
        tid = table["table_id"]
        for seat in range(seats):
            response = fast.post(
                f"/api/tables/{tid}/seats/{seat}/bot", json={"on": True}, headers=auth(table["gm_token"])
            )
            assert response.status_code == 200, response.text
        deadline = time.monotonic() + 120
        summary: dict[str, Any] = {}
        seq, still = -1, time.monotonic()
        while time.monotonic() < deadline:
            summary = fast.get(f"/api/tables/{tid}").json()
            if summary.get("outcome"):
                break
            now = fast.get(f"/api/tables/{tid}/events", params={"after": 0, "limit": 1}).json()["seq"]
            if now != seq:
                seq, still = now, time.monotonic()
            elif time.monotonic() - still > 3:
                # the runaway guard (app/live/bots.py) pauses the bots after 500 moves in a
                # row, until a person acts: a whole campaign is longer, so the seats are
                # handed over again, as a game master would
                for on in (False, True):
                    fast.post(
                        f"/api/tables/{tid}/seats/0/bot", json={"on": on}, headers=auth(table["gm_token"])
                    )
                still = time.monotonic()
            time.sleep(0.1)
        assert summary.get("outcome", {}).get("result") in ("win", "loss"), summary
        view = fast.get(f"/api/tables/{tid}/view", headers=auth(table["gm_token"])).json()["view"]
        assert view["results"] and view["result"]["result"] == summary["outcome"]["result"]
