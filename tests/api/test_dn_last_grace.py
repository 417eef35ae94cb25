"""Issue 26, item 1, through the API: a Darkest Night hero at 0 grace who lost a fight is
not killed before the players may save him (DN 13.1, DN 14.3.2). The stated position is
a signed log (built by the engine's harness, imported as a game master would import an
export); the players then play it through HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.games.darkest_night import DARKEST_NIGHT
from app.kernel import table as kernel
from app.kernel.types import Event
from tests.games.darkest_night.harness import Table, run_steps
from tests.support.hardening import keyed_client, resign
from tests.support.tables import auth

GHOUL_FIGHT = {
    "op": "fight",
    "hero": "crusader",
    "foe": "Ghoul",
    "strength": 4,
    "awareness": 3,
    "fail": [{"op": "wound", "why": "the Ghoul"}],
}

MARTYR = {"hero": "crusader", "power": "crusader.martyr"}
SHIELD_MAIDEN = {"hero": "valkyrie", "power": "valkyrie.shield_maiden"}


def stated(t: Table, type_: str, **data: Any) -> None:
    """A fact of the stated position, written to the log as the rules would write it."""
    event = Event(type_, data, DARKEST_NIGHT.event_types().get(type_, 1))
    t.state = kernel.fold(DARKEST_NIGHT, t.state, event)
    t.events.append(event)


def graceless_crusader_log() -> list[Event]:
    """The issue's table: two players (the Crusader's and the Valkyrie's), the Crusader at 0
    grace holding Martyr, the Valkyrie with Shield Maiden beside him in the Village; the
    Crusader has just lost a fight against a Ghoul (a 1 against 4+)."""
    t = Table.start(
        heroes=["crusader", "valkyrie", "seer", "prince"],
        powers={
            "valkyrie": ["valkyrie.skewer", "valkyrie.winged_leap", "valkyrie.shield_maiden"],
            "seer": ["seer.dowse", "seer.prophecy_of_fortune", "seer.far_sight"],
        },
        seats=2,
    )
    t.begin_turn("crusader")  # at the Monastery: no event card (DN 7.0)
    for hero in ("crusader", "valkyrie"):
        stated(t, "HeroMoved", hero=hero, **{"from": t.hero(hero).location}, to="Village")
    stated(t, "HeroChanged", hero="crusader", stat="grace", to=0, by=-t.hero("crusader").grace, why="a test")
    stated(t, "PowerDrawn", hero="crusader", power="crusader.martyr")
    stated(t, "PowerGained", hero="crusader", power="crusader.martyr")
    run_steps(t, [GHOUL_FIGHT])
    t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[1])
    assert t.decision.kind == "wound" and t.hero("crusader").grace == 0
    return t.events


@pytest.fixture
def imported(db_url: str) -> Iterator[tuple[TestClient, str, list[str]]]:
    """The position imported as a new table: its id and its two seats' tokens."""
    with keyed_client(db_url) as client:
        body = {"game": "darkest_night", "seats": [{"name": "Player 1"}, {"name": "Player 2"}], "seed": "g"}
        made = client.post("/api/tables", json=body).json()
        doc = client.get(f"/api/tables/{made['table_id']}/export", headers=auth(made["gm_token"])).json()
        events = graceless_crusader_log()
        at = doc["events"][0]["at"]
        doc["events"] = [
            {"seq": i, "type": e.type, "v": e.v, "data": e.data, "at": at}
            for i, e in enumerate(events, start=1)
        ]
        response = client.post("/api/tables/import", json=resign(doc))
        assert response.status_code == 201, response.text
        table = response.json()
        yield client, table["table_id"], [s["token"] for s in table["seats"]]


def offered(client: TestClient, tid: str, token: str) -> list[dict[str, Any]]:
    """The commands this seat may send now, ready to send."""
    view = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
    return [c["command"] for p in view["prompts"] for c in p["choices"]]


def offer(client: TestClient, tid: str, token: str, type_: str, **args: Any) -> dict[str, Any] | None:
    return next(
        (c for c in offered(client, tid, token) if c["type"] == type_ and c["args"] == args),
        None,
    )


def heroes(client: TestClient, tid: str, token: str) -> dict[str, Any]:
    view = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
    return {h["id"]: h for h in view["view"]["heroes"]}


def send(client: TestClient, tid: str, token: str, command: dict[str, Any] | None) -> None:
    assert command is not None, "not offered"
    response = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token))
    assert response.status_code == 200, response.text


def test_martyr_saves_the_graceless_crusader_through_the_api(imported: Any) -> None:
    """DN 14.3.2, 13.1: the Crusader's player is asked before the wound kills, uses Martyr
    (1 grace), then spends it (asked: the Valkyrie's Shield Maiden could still spare it)."""
    client, tid, tokens = imported
    crusader_player = tokens[0]
    types = [c["type"] for c in offered(client, tid, crusader_player)]
    assert "accept_death" in types and "spend_grace" not in types
    send(client, tid, crusader_player, offer(client, tid, crusader_player, "use_power", **MARTYR))
    send(client, tid, crusader_player, offer(client, tid, crusader_player, "spend_grace"))
    crusader = heroes(client, tid, crusader_player)["crusader"]
    assert not crusader["dead"] and crusader["grace"] == 0


def test_shield_maiden_from_the_other_seat_saves_him_through_the_api(imported: Any) -> None:
    """DN 14.3.2: the Valkyrie's player, not the one asked, may use Shield Maiden meanwhile."""
    client, tid, tokens = imported
    send(client, tid, tokens[1], offer(client, tid, tokens[1], "use_power", **SHIELD_MAIDEN))
    assert "accept_death" not in [c["type"] for c in offered(client, tid, tokens[0])]
    assert not heroes(client, tid, tokens[0])["crusader"]["dead"]
