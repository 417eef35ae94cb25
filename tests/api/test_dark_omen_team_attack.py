"""Dark Omen team attacks through the API (issue 26): a member who joined is committed
until the launch (facts §21: members spend no AP elsewhere until it resolves) and may
leave only by saying so; a seat that ends its round is never pulled into one (DO L211)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.support.tables import auth

SEED = "team-29"
"""A seed whose two heroes can both reach a creature before anyone moves."""


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url))) as test_client:
        yield test_client


class Seats:
    def __init__(self, client: TestClient) -> None:
        body = {
            "game": "dark_omen",
            "options": {"mode": "quick_chapter", "chapter": 1},
            "seats": [{"name": "Ann"}, {"name": "Bo"}],
            "seed": SEED,
        }
        response = client.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        table = response.json()
        self.client, self.tid = client, table["table_id"]
        self.tokens = [seat["token"] for seat in table["seats"]]
        self.sent = 0

    def view(self, seat: int) -> dict[str, Any]:
        return dict(self.client.get(f"/api/tables/{self.tid}/view", headers=auth(self.tokens[seat])).json())

    def offered(self, seat: int) -> list[dict[str, Any]]:
        return [c["command"] for p in self.view(seat)["prompts"] if p["seat"] == seat for c in p["choices"]]

    def send(self, seat: int, type_: str) -> list[dict[str, Any]]:
        command = next(c for c in self.offered(seat) if c["type"] == type_)
        self.sent += 1
        response = self.client.post(
            f"/api/tables/{self.tid}/commands",
            json=command | {"command_id": f"team-{self.sent}"},
            headers=auth(self.tokens[seat]),
        )
        assert response.status_code == 200, response.text
        return list(response.json()["events"])

    def ap_left(self) -> list[int]:
        return [h["ap_left"] for h in self.view(0)["view"]["heroes"]]


def lines(events: list[dict[str, Any]]) -> list[str]:
    return [e.get("text") or e["type"] for e in events]


def test_a_joined_member_stays_until_the_launch_or_leaves_saying_so(client: TestClient) -> None:
    seats = Seats(client)
    seats.send(0, "propose_team")
    seats.send(1, "join_team")
    bo = {c["type"] for c in seats.offered(1)}
    assert "leave_team" in bo and bo.isdisjoint({"move", "meditate", "end_round", "flip"})
    left = seats.send(1, "leave_team")
    assert lines(left)[:2] == [
        "Bo\u2019s Nyrkki leaves the team attack led by Ann\u2019s Visko.",
        "Ann\u2019s Visko\u2019s team attack is withdrawn: nobody joined.",
    ]
    assert seats.ap_left() == [6, 6]
    seats.send(0, "propose_team")
    seats.send(1, "join_team")
    launched = seats.send(0, "launch_team")
    assert "AttackRolled" in [e["type"] for e in launched]
    assert seats.ap_left() == [5, 5]


def test_ending_the_round_declines_the_invitation_and_spends_nothing(client: TestClient) -> None:
    """DO L211: the seat that forfeits its round is done; the proposal it was asked to join
    hears a no, and with nobody left it is withdrawn."""
    seats = Seats(client)
    seats.send(0, "propose_team")
    events = seats.send(1, "end_round")
    assert [e["type"] for e in events][:3] == ["TeamAnswered", "TeamWithdrawn", "RoundPassed"]
    assert "launch_team" not in {c["type"] for c in seats.offered(0)}
    assert seats.ap_left() == [6, 6]
    assert lines(events)[0] == "Bo\u2019s Nyrkki declines Ann\u2019s Visko\u2019s team attack."
