"""Attack the Darkness's ally defence (issue 26) played through the API, from a position
arranged on the live table's state as the engine tests arrange theirs: when a monster
attacks Ann's Champion, Bo's Templar, 2 squares away, is asked too and plays Armor of
Light on her (AtD L151, L158; facts file §20); his page lights the card and names whom it
protects, the table's says whom it waits for."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.games.attack_the_darkness.harness import Table
from tests.games.attack_the_darkness.positions import FAR, ROW
from tests.support.tables import auth
from tests.web.test_attack_the_darkness_board import hand_section, page_of
from tests.web.test_board_targets import buttons
from tests.web.test_darkest_night_board import section


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    upgrade(sqlite_url)
    with TestClient(create_app(make_settings(sqlite_url))) as test_client:
        yield test_client


def view_of(client: TestClient, tid: str, token: str) -> dict[str, Any]:
    return client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()


def required(view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [c for p in view["prompts"] if p["required"] and p["seat"] == seat for c in p["choices"]]


def offered(view: dict[str, Any], seat: int, type_: str, **args: Any) -> dict[str, Any]:
    """The ready-to-send command of ``type_`` (with these arguments) offered to ``seat``."""
    return next(
        c["command"]
        for c in required(view, seat)
        if c["command"]["type"] == type_ and args.items() <= c["command"]["args"].items()
    )


def send(client: TestClient, tid: str, token: str, command: dict[str, Any], cid: str) -> dict[str, Any]:
    response = client.post(
        f"/api/tables/{tid}/commands", json=command | {"command_id": cid}, headers=auth(token)
    )
    assert response.status_code == 200, response.text
    return response.json()


def arranged(state: Any) -> Table:
    """The engine tests' harness over the live table's state (crafting only)."""
    table = Table.__new__(Table)
    table.state, table.events, table.seed, table.fixtures = state, [], 0, 0
    return table


def test_an_ally_armors_the_attacked_player_through_the_api(client: TestClient) -> None:
    body = {
        "game": "attack_the_darkness",
        "options": {"dungeon": "tavern_cellar", "class": ["champion", "templar"]},
        "seats": [{"name": "Ann"}, {"name": "Bo"}],
        "seed": "atd-ally-defence",
    }
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    tid = created.json()["table_id"]
    tokens = [seat["token"] for seat in created.json()["seats"]]
    for n in range(200):  # the opening: tiles and tokens, until Ann's first action step
        views = [view_of(client, tid, token) for token in tokens]
        if required(views[0], 0) and views[0]["view"]["waiting"]["kind"] == "act":
            break
        seat = next(k for k in (0, 1) if required(views[k], k))
        send(client, tid, tokens[seat], required(views[seat], seat)[0]["command"], f"open-{n}")
    else:
        raise AssertionError("Ann's turn never came")
    end_turn = offered(views[0], 0, "end_turn", discard=False)
    session = client.portal.call(client.app.state.hub.session, tid)
    t = arranged(session.state)
    t.craft(ROW, {0: (0, 0), 1: (0, 2)})  # Bo 2 squares from Ann: within Armor of Light's reach
    t.monster("ogre", FAR)
    knight = t.monster("aura_knight", (1, 0))  # beside Ann, out of Bo's melee
    t.hand(0)
    armor, pious = t.hand(1, "armor_of_light", "pious")

    send(client, tid, tokens[0], end_turn, "ann-ends")
    for n in range(6):  # Bo's turn, then the monster phase; Ann may answer first if she drew a Defense
        bo = view_of(client, tid, tokens[1])
        waiting = bo["view"]["waiting"]
        if waiting["kind"] == "defend" and waiting["seats"] == [1]:
            break
        if waiting["kind"] == "defend":
            ann = view_of(client, tid, tokens[0])
            send(client, tid, tokens[0], offered(ann, 0, "pass"), f"ann-passes-{n}")
        else:
            assert waiting["kind"] == "act" and waiting["seats"] == [1], waiting
            send(client, tid, tokens[1], offered(bo, 1, "end_turn", discard=False), f"bo-ends-{n}")
    else:
        raise AssertionError("Bo was never asked to defend Ann")
    assert waiting["attacker"]["id"] == knight and waiting["target"]["name"] == "Ann"
    labels = {c["command"]["args"].get("card"): c["label"] for c in required(bo, 1)}
    assert labels[armor] == "Defend Ann with Armor of Light (1 purple)"
    assert labels[None] == "Let the attack land"
    assert required(view_of(client, tid, tokens[0]), 0) == []
    assert [p["title"] for p in bo["prompts"] if p["seat"] == 1] == ["Ann is attacked: protect them?"]
    page = page_of(client, created.json()["seats"][1]["url"])
    assert "Ann is attacked: protect them?" in section(page, "atd-window")
    (lit,) = [b for b in buttons(page) if b["command"]["type"] == "defend"]
    assert f'data-target="{lit["target"]}"' in hand_section(page)
    watch = section(page_of(client, f"/t/{tid}/watch"), "atd-window")
    assert "Waiting for Bo to protect Ann or let the attack land." in watch

    send(client, tid, tokens[1], offered(bo, 1, "defend", card=armor), "bo-defends")
    paying = view_of(client, tid, tokens[1])
    send(client, tid, tokens[1], offered(paying, 1, "add", rc=pious), "bo-pays")
    paid = view_of(client, tid, tokens[1])
    events = send(client, tid, tokens[1], offered(paid, 1, "done"), "bo-declares")["events"]
    guarded = [e["data"] for e in events if e["type"] == "Guarded"]
    damaged = [e["data"] for e in events if e["type"] == "Damaged"]
    assert guarded == [{"who": "c0", "save": 3}]
    assert [(d["who"], d["amount"], d["saved"]) for d in damaged] == [("c0", 1, 3)]
    assert view_of(client, tid, tokens[0])["view"]["waiting"]["kind"] != "defend"
