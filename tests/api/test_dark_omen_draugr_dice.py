"""Draugr Dice through the API (issue 26, DO L345: "set aside any amount that you'd like
to keep"): a hero walks to a tavern, gambles, picks one die at a time for the reroll (each
pick a recorded command, so the table's view after a reload still shows it), puts one
back, and rerolls exactly the picked die."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.games.dark_omen.board import distance
from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.support.tables import auth


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url))) as test_client:
        yield test_client


class Hero:
    def __init__(self, client: TestClient) -> None:
        body = {
            "game": "dark_omen",
            "options": {"mode": "quick_chapter", "chapter": 1, "character": ["nyrkki"]},
            "seats": [{"name": "Ann"}],
            "seed": "do-town-7",
        }
        response = client.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        table = response.json()
        self.client, self.tid, self.token, self.sent = (
            client,
            table["table_id"],
            table["seats"][0]["token"],
            0,
        )

    def view(self) -> dict[str, Any]:
        return dict(self.client.get(f"/api/tables/{self.tid}/view", headers=auth(self.token)).json())

    def offered(self) -> list[dict[str, Any]]:
        return [c["command"] for p in self.view()["prompts"] if p["required"] for c in p["choices"]]

    def send(self, command: dict[str, Any]) -> list[dict[str, Any]]:
        self.sent += 1
        response = self.client.post(
            f"/api/tables/{self.tid}/commands",
            json=command | {"command_id": f"draugr-{self.sent}"},
            headers=auth(self.token),
        )
        assert response.status_code == 200, response.text
        return list(response.json()["events"])

    def send_the(self, kind: str, **args: Any) -> list[dict[str, Any]]:
        return self.send(
            next(c for c in self.offered() if c["type"] == kind and args.items() <= c["args"].items())
        )

    def walk_to(self, goal: int) -> None:
        for _ in range(40):
            here = self.view()["view"]["heroes"][0]["at"]
            if here == goal:
                return
            closer = [
                c
                for c in self.offered()
                if c["type"] == "move"
                and isinstance(c["args"]["to"], int)
                and distance(c["args"]["to"], goal) < distance(here, goal)
            ]
            if closer:
                self.send(min(closer, key=lambda c: distance(c["args"]["to"], goal)))
            else:
                self.send_the("end_round")
        raise AssertionError(f"the hero did not reach {goal}")


def test_draugr_dice_picks_dice_one_at_a_time_then_rerolls_them(client: TestClient) -> None:
    hero = Hero(client)
    seen = hero.view()["view"]
    at = seen["heroes"][0]["at"]
    town, gate = min(seen["towns"].items(), key=lambda t: distance(at, t[1]))
    hero.walk_to(gate)
    if hero.view()["view"]["heroes"][0]["ap_left"] < 4:
        hero.send_the("end_round")
    hero.send_the("move", to=f"{town}:gate")
    hero.send_the("move", to=f"{town}:market")
    hero.send_the("move", to=f"{town}:tavern")
    hero.send_the("gamble", game="draugr")
    dice = hero.view()["view"]["heroes"][0]["pending"]["dice"]
    assert len(dice) == 5
    assert not any(c["type"] == "reroll" for c in hero.offered())  # pick first
    hero.send_the("pick_die", index=0, pick=True)
    events = hero.send_the("pick_die", index=4, pick=True)
    assert events[0]["text"].endswith("picks die 5 to reroll.")
    hero.send_the("pick_die", index=0, pick=False)
    pending = hero.view()["view"]["heroes"][0]["pending"]  # as a reload reads it
    assert pending["picked"] == [4]
    labels = [
        c["label"] for p in hero.view()["prompts"] for c in p["choices"] if c["command"]["type"] == "reroll"
    ]
    assert labels == [f"Reroll the picked 1 die: {dice[4]}"]
    hero.send_the("reroll")
    after = hero.view()["view"]["heroes"][0]["pending"]
    assert after["dice"][:4] == dice[:4] and after["rolls_left"] == 1 and "picked" not in after
