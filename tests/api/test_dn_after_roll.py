"""Issue 26, item 1, through the API: after a Darkest Night roll, before its effects, the
players may still trade an item that acts on it (DN 14.3.2, 15.1). The stated position is
a signed log (built by the engine's harness, imported as a game master would import an
export); the two players then play it through HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.test_dn_last_grace import heroes, offer, offered, send
from tests.games.darkest_night.harness import Table, run_steps
from tests.support.hardening import keyed_client, resign
from tests.support.tables import auth

GHOUL_FIGHT = {
    "op": "fight",
    "hero": "crusader",
    "foe": "Ghoul",
    "strength": 4,
    "awareness": 3,
    "fail": [{"op": "lose_grace", "n": 1, "why": "the Ghoul"}],
}


def lost_fight_log() -> tuple[list[Any], str]:
    """Two players (the Crusader's and the Valkyrie's), both heroes at the Monastery, the
    Valkyrie holding a Charm; the Crusader, no spark and no fight tactic, has just lost a
    fight against a Ghoul (a 1 against 4+). The log, and the Charm's id."""
    t = Table.start(
        heroes=["crusader", "valkyrie", "seer", "prince"],
        powers={"crusader": ["crusader.faith", "crusader.retreat", "crusader.consecration"]},
        seats=2,
    )
    t.begin_turn("crusader")  # at the Monastery: no event card (DN 7.0)
    run_steps(t, [{"op": "gain_item", "hero": "valkyrie", "kind": "charm", "why": "a test"}])
    run_steps(t, [{"op": "lose_spark", "hero": "crusader", "n": 3, "why": "a test"}])
    run_steps(t, [GHOUL_FIGHT])
    t.act("resolve_combat", approach="fight", tactic=None, option=0, dice=[1])
    (charm,) = t.hero("valkyrie").items
    assert t.decision.kind == "after_roll" and charm.kind == "charm"
    return t.events, charm.id


@pytest.fixture
def imported(db_url: str) -> Iterator[tuple[TestClient, str, list[str], str]]:
    """The position imported as a new table: its id, its two seats' tokens, the Charm's id."""
    with keyed_client(db_url) as client:
        body = {"game": "darkest_night", "seats": [{"name": "Player 1"}, {"name": "Player 2"}], "seed": "g"}
        made = client.post("/api/tables", json=body).json()
        doc = client.get(f"/api/tables/{made['table_id']}/export", headers=auth(made["gm_token"])).json()
        at = doc["events"][0]["at"]
        events, charm = lost_fight_log()
        doc["events"] = [
            {"seq": i, "type": e.type, "v": e.v, "data": e.data, "at": at}
            for i, e in enumerate(events, start=1)
        ]
        response = client.post("/api/tables/import", json=resign(doc))
        assert response.status_code == 201, response.text
        table = response.json()
        yield client, table["table_id"], [s["token"] for s in table["seats"]], charm


def test_the_valkyries_charm_given_after_the_roll_rerolls_it_through_the_api(imported: Any) -> None:
    """DN 14.3.2, 15.1: the roll waits (the Crusader's player may only keep it, the
    Valkyrie's may give her Charm); given, the Charm rerolls the lost fight."""
    client, tid, tokens, charm = imported
    crusader_player, valkyrie_player = tokens
    gift = {"hero": "valkyrie", "item": charm, "to": "crusader"}
    assert [c["type"] for c in offered(client, tid, crusader_player) if c["type"] != "set_auto_pass"] == [
        "accept_roll"
    ]
    send(client, tid, valkyrie_player, offer(client, tid, valkyrie_player, "give_item", **gift))
    send(client, tid, crusader_player, offer(client, tid, crusader_player, "use_roll_item", item=charm))
    crusader = heroes(client, tid, crusader_player)["crusader"]
    assert all(i["id"] != charm for i in crusader["items"])  # used: discarded (DN 15.0)


def test_keeping_the_roll_resolves_it_through_the_api(imported: Any) -> None:
    """Kept, the lost fight's loss follows (−1 grace) and the Charm stays with the Valkyrie."""
    client, tid, tokens, charm = imported
    grace = heroes(client, tid, tokens[0])["crusader"]["grace"]
    send(client, tid, tokens[0], offer(client, tid, tokens[0], "accept_roll"))
    after = heroes(client, tid, tokens[0])
    assert after["crusader"]["grace"] == grace - 1
    assert any(i["id"] == charm for i in after["valkyrie"]["items"])
