"""Dark Omen rule fixes of issue 26 played through the API, from a position arranged on
the live table's state (as the engine tests arrange theirs): the pitch black guardian
cannot be fled (DO L325)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.games.dark_omen.harness import enemy
from tests.games.dark_omen.positions import holding
from tests.support.tables import auth


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url))) as test_client:
        yield test_client


def new_table(client: TestClient) -> tuple[str, str]:
    body = {
        "game": "dark_omen",
        "options": {"mode": "quick_chapter", "chapter": 1},
        "seats": [{"name": "Ann"}],
        "seed": "do-rules-26",
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    table = response.json()
    return table["table_id"], table["seats"][0]["token"]


def offered(client: TestClient, tid: str, token: str) -> list[dict[str, Any]]:
    view = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
    return [c["command"] for p in view["prompts"] if p["required"] for c in p["choices"]]


def send(client: TestClient, tid: str, token: str, command: dict[str, Any], cid: str) -> Any:
    return client.post(f"/api/tables/{tid}/commands", json=command | {"command_id": cid}, headers=auth(token))


def test_the_pitch_black_guardian_cannot_be_fled_through_the_api(client: TestClient) -> None:
    """DO L325: "needs to be fought until the end - you cannot flee this fight"."""
    tid, token = new_table(client)
    step = next(c for c in offered(client, tid, token) if c["type"] == "move")
    session = client.portal.call(client.app.state.hub.session, tid)
    hero = session.state.heroes[0]
    specter = enemy(session.state, space=hero.at, hp=30, cid="specter", name="Screeching Specter")
    specter.no_flee = True
    end = next(c for c in offered(client, tid, token) if c["type"] == "end_round")
    ended = send(client, tid, token, end, "end-1")  # a fresh round: the prompts are listed anew
    assert ended.status_code == 200, ended.text
    now = offered(client, tid, token)
    assert any(c["type"] == "attack" for c in now) and not any(c["type"] in ("move", "maze") for c in now)
    fled = send(client, tid, token, step, "flee-1")
    assert fled.status_code in (409, 422), fled.text
    fight = next(c for c in now if c["type"] == "attack" and c["args"]["creature"] == "specter")
    fought = send(client, tid, token, fight, "fight-1")
    assert fought.status_code == 200, fought.text
    finalize = next(c for c in offered(client, tid, token) if c["type"] == "finalize")
    assert send(client, tid, token, finalize, "fight-2").status_code == 200
    after = offered(client, tid, token)
    assert any(c["type"] == "end_round" for c in after)
    assert not any(c["type"] in ("move", "maze") for c in after)


def test_gear_is_free_again_once_the_last_ap_was_a_step_away(client: TestClient) -> None:
    """DO L386: changing gear costs an AP only "if you share a space with an enemy, and/or
    your last AP was spent to attack an enemy"."""
    tid, token = new_table(client)
    session = client.portal.call(client.app.state.hub.session, tid)
    hero = session.state.heroes[0]
    spare = next(g for g in ("g1_w0", "g1_w1", "g1_w2", "g1_w4") if g not in hero.gear)
    hero.gear.append(spare)
    enemy(session.state, space=hero.at, hp=30, cid="foe")
    end = next(c for c in offered(client, tid, token) if c["type"] == "end_round")
    assert send(client, tid, token, end, "end-1").status_code == 200  # the prompts listed anew
    fight = next(c for c in offered(client, tid, token) if c["type"] == "attack")
    assert send(client, tid, token, fight, "fight-1").status_code == 200
    finalize = next(c for c in offered(client, tid, token) if c["type"] == "finalize")
    assert send(client, tid, token, finalize, "fight-2").status_code == 200
    view = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
    labels = [c["label"] for p in view["prompts"] for c in p["choices"] if c["command"]["type"] == "equip"]
    assert labels and all("(1 AP)" in label for label in labels)  # right after the attack
    step = next(c for c in offered(client, tid, token) if c["type"] == "move")
    assert send(client, tid, token, step, "step-1").status_code == 200
    equip = next(
        c for c in offered(client, tid, token) if c["type"] == "equip" and c["args"]["gear"] == spare
    )
    events = send(client, tid, token, equip, "equip-1").json()["events"]
    assert "ApSpent" not in [e["type"] for e in events]


def test_a_campfire_warms_the_other_hero_on_its_space(client: TestClient) -> None:
    """DO L309: "When on this space regain 2 MP" — every hero there, not only the one who
    lit it."""
    body = {
        "game": "dark_omen",
        "options": {"mode": "quick_chapter", "chapter": 1},
        "seats": [{"name": "Ann"}, {"name": "Bo"}],
        "seed": "do-rules-26",
    }
    table = client.post("/api/tables", json=body).json()
    tid, tokens = table["table_id"], [seat["token"] for seat in table["seats"]]
    session = client.portal.call(client.app.state.hub.session, tid)
    ann, bo = session.state.heroes
    bo.at = ann.at
    holding(session.state, 0, "straw_doll")
    for seat in (0, 1):  # a fresh round: the prompts are listed anew
        end = next(c for c in offered(client, tid, tokens[seat]) if c["type"] == "end_round")
        assert send(client, tid, tokens[seat], end, f"end-{seat}").status_code == 200
    before = [
        h["mp"]
        for h in client.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json()["view"]["heroes"]
    ]
    light = next(c for c in offered(client, tid, tokens[0]) if c["type"] == "campfire")
    assert send(client, tid, tokens[0], light, "light-1").status_code == 200
    after = [
        h["mp"]
        for h in client.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json()["view"]["heroes"]
    ]
    assert after == [min(30, before[0] + 2), min(30, before[1] + 2)]
