"""Playing a table of any game through the public API, as a client would: its seats'
views, the commands they are offered, random legal moves, and arguments retyped as an
attacker would send them (issue 23)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from fastapi.testclient import TestClient

from tests.support.tables import auth

SCENARIOS: dict[str, tuple[dict[str, Any], int]] = {
    "darkest_night": ({}, 1),
    "attack_the_darkness": ({}, 2),
    "dark_omen": ({"mode": "quick_chapter", "chapter": 1}, 2),
}
"""A table of each game for the fuzzers: its options and seats."""


def as_json(value: Any) -> str:
    """One text per JSON value, types kept (``1``, ``1.0`` and ``true`` differ)."""
    return json.dumps(value, sort_keys=True)


def retyped(value: Any) -> list[Any]:
    """``value`` as other JSON types: what a mistaken or hostile client sends instead."""
    kind = type(value)
    if kind is bool:
        return [int(value), float(value), "true" if value else "false", None]
    if kind is int:
        return [float(value), value != 0, str(value), [value], None]
    if kind is float:
        return [int(value), str(value), None]
    if kind is str:
        return [{}, [value], 1, None, True]
    if kind is list:
        same_but_floats = [float(x) if type(x) is int else x for x in value]
        out: list[Any] = ["x", {"0": value}, None]
        if same_but_floats != value or any(type(x) is int for x in value):
            out.append(same_but_floats)
        if value:
            out.append(value[:-1])
        return out
    if kind is dict:
        return ["x", [], None]
    return [0, "", False, [], {}]


def mistyped(args: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """``args`` with one argument (at any depth of a list) changed to another JSON type."""
    for key, value in args.items():
        for wrong in retyped(value):
            yield {**args, key: wrong}
        if isinstance(value, list):
            for i, item in enumerate(value):
                for wrong in retyped(item):
                    yield {**args, key: [*value[:i], wrong, *value[i + 1 :]]}


@dataclass
class ApiTable:
    """A table made and played through the API by ``client``."""

    client: TestClient
    tid: str
    tokens: list[str]
    gm_token: str

    @classmethod
    def create(cls, client: TestClient, game: str, seed: str = "strict") -> ApiTable:
        options, seats = SCENARIOS[game]
        body = {
            "game": game,
            "options": options,
            "seats": [{"name": f"Player {i + 1}"} for i in range(seats)],
            "seed": seed,
        }
        response = client.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        made = response.json()
        return cls(client, made["table_id"], [s["token"] for s in made["seats"]], made["gm_token"])

    def summary(self) -> dict[str, Any]:
        return self.client.get(f"/api/tables/{self.tid}").json()  # type: ignore[no-any-return]

    def seq(self) -> int:
        return int(self.summary()["seq"])

    def offered(self) -> list[tuple[int, bool, dict[str, Any]]]:
        """Every ready-to-send command of every seat now: (seat, required, command)."""
        out = []
        for seat, token in enumerate(self.tokens):
            view = self.client.get(f"/api/tables/{self.tid}/view", headers=auth(token)).json()
            for prompt in view["prompts"]:
                if prompt["seat"] == seat:
                    out.extend((seat, prompt["required"], c["command"]) for c in prompt["choices"])
        return out

    def greyed(self, seat: int) -> list[dict[str, Any]]:
        """The greyed-out actions of ``seat``'s prompts (each with its reason and rule)."""
        view = self.client.get(f"/api/tables/{self.tid}/view", headers=auth(self.tokens[seat])).json()
        return [u for p in view["prompts"] if p["seat"] == seat for u in p.get("unavailable", [])]

    def send(self, seat: int, command: dict[str, Any]) -> Any:
        return self.client.post(
            f"/api/tables/{self.tid}/commands", json=command, headers=auth(self.tokens[seat])
        )

    def step(self, rng: random.Random, offered: list[tuple[int, bool, dict[str, Any]]] | None = None) -> bool:
        """One random legal move of a seat the table waits on; False once the game is over."""
        offered = self.offered() if offered is None else offered
        required = [(seat, command) for seat, needed, command in offered if needed]
        if not required:
            return False
        seat, command = rng.choice(required)
        response = self.send(seat, command)
        assert response.status_code == 200, response.text
        return True

    def play_until(self, kind: str, rng: random.Random, steps: int = 400) -> tuple[int, dict[str, Any]]:
        """Random legal moves until a command of type ``kind`` is offered: its seat and command."""
        for _ in range(steps):
            offered = self.offered()
            found = [(seat, command) for seat, _, command in offered if command["type"] == kind]
            if found:
                return found[0]
            assert self.step(rng, offered), f"the game ended before {kind} was offered"
        raise AssertionError(f"{kind} was not offered within {steps} moves")
