"""Undo: a player takes back their own last action, until dice are rolled, a card drawn,
something hidden revealed or another player acts; the platform records it as an event."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from tests.support.tables import auth
from tests.web.render_profile import new_table, play_one


def dn_table(client: TestClient, seats: int = 2) -> dict[str, Any]:
    body = {"game": "darkest_night", "seats": [{"name": f"P{i}"} for i in range(seats)], "seed": "undo"}
    table = client.post("/api/tables", json=body).json()
    tokens = [s["token"] for s in table["seats"]]
    tid = table["table_id"]
    for _ in range(20):  # choose heroes and powers: the first choice each time
        view = waiting(client, tid, tokens)
        if view is None:
            break
        seat, prompt = view
        kinds = {c["command"]["type"] for c in prompt["choices"]}
        if not kinds & {"choose_hero", "choose_powers"}:
            break
        post(client, tid, tokens[seat], prompt["choices"][0]["command"])
    return table


def waiting(client: TestClient, tid: str, tokens: list[str]) -> tuple[int, dict[str, Any]] | None:
    for seat, token in enumerate(tokens):
        view = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
        for prompt in view["prompts"]:
            if prompt["required"]:
                return seat, prompt
    return None


def post(client: TestClient, tid: str, token: str, command: dict[str, Any]) -> Any:
    response = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token))
    assert response.status_code == 200, response.text
    return response.json()


def choice(client: TestClient, tid: str, token: str, type_: str) -> dict[str, Any] | None:
    view = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
    for prompt in view["prompts"]:
        for c in prompt["choices"]:
            if c["command"]["type"] == type_:
                return c["command"]
    return None


def test_take_back_a_move_then_not_after_another_player(client: TestClient) -> None:
    table = dn_table(client)
    tid, tokens = table["table_id"], [s["token"] for s in table["seats"]]
    # Seat 0 starts a hero's turn in the Monastery (no event there: nothing random).
    take = choice(client, tid, tokens[0], "take_turn")
    post(client, tid, tokens[0], take)
    before = client.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json()
    travel = choice(client, tid, tokens[0], "travel")
    post(client, tid, tokens[0], travel)
    undo = choice(client, tid, tokens[0], "undo")
    assert undo is not None and choice(client, tid, tokens[1], "undo") is None
    result = post(client, tid, tokens[0], undo)
    assert result["events"][0]["type"] == "table.undo"
    after = client.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json()
    assert after["view"]["heroes"] == before["view"]["heroes"]
    # Taking back the turn start too (still nothing random): then the round's choice returns.
    undo_again = choice(client, tid, tokens[0], "undo")
    assert undo_again is not None
    post(client, tid, tokens[0], undo_again)
    assert choice(client, tid, tokens[0], "take_turn") is not None
    # Once seat 1 acts, seat 0 cannot take anything back.
    take_other = choice(client, tid, tokens[1], "take_turn")
    post(client, tid, tokens[1], take_other)
    assert choice(client, tid, tokens[0], "undo") is None
    refused = client.post(
        f"/api/tables/{tid}/commands",
        headers=auth(tokens[0]),
        json={"command_id": "late-undo", "seat": 0, "type": "undo", "args": {}},
    )
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "cannot_undo"


def test_no_undo_after_dice(client: TestClient) -> None:
    table = dn_table(client, seats=1)
    tid, token = table["table_id"], table["seats"][0]["token"]
    post(client, tid, token, choice(client, tid, token, "take_turn"))
    post(client, tid, token, choice(client, tid, token, "pray"))  # rolls dice at once or asks
    roll = choice(client, tid, token, "roll_dice")
    if roll:
        post(client, tid, token, roll)
    assert choice(client, tid, token, "undo") is None


def test_undo_survives_a_restart(db_url: str) -> None:
    from app.main import create_app
    from app.store.migrate import upgrade
    from tests.conftest import make_settings

    upgrade(db_url)
    with TestClient(create_app(make_settings(db_url))) as client:
        table = dn_table(client, seats=1)
        tid, token = table["table_id"], table["seats"][0]["token"]
        post(client, tid, token, choice(client, tid, token, "take_turn"))
        before = client.get(f"/api/tables/{tid}/view", headers=auth(table["gm_token"])).json()["view"]
        post(client, tid, token, choice(client, tid, token, "travel"))
        post(client, tid, token, choice(client, tid, token, "undo"))
        undone = client.get(f"/api/tables/{tid}/view", headers=auth(table["gm_token"])).json()["view"]
    with TestClient(create_app(make_settings(db_url))) as client:  # rebuilt from the log
        again = client.get(f"/api/tables/{tid}/view", headers=auth(table["gm_token"])).json()["view"]
    assert undone["heroes"] == before["heroes"] == again["heroes"]
    exported = None
    with TestClient(create_app(make_settings(db_url))) as client:
        exported = client.get(f"/api/tables/{tid}/export", headers=auth(table["gm_token"])).json()
        imported = client.post("/api/tables/import", json=exported).json()
        copy = client.get(
            f"/api/tables/{imported['table_id']}/view", headers=auth(imported["gm_token"])
        ).json()
    assert copy["view"]["heroes"] == again["heroes"]


def test_what_a_seq_derives_is_made_once_and_a_per_request_prompt_is_not_kept(client: TestClient) -> None:
    """Views and the game's prompts as ready-to-send commands are made once per seq for every
    page, socket and ``GET /view`` (``TableSession.derived``); an undo prompt, made for each
    request, is never kept, so asking again and again at one seq keeps nothing more."""
    from app.kernel.types import Viewer
    from app.live import wire

    table = dn_table(client)
    tid, tokens = table["table_id"], [s["token"] for s in table["seats"]]
    post(client, tid, tokens[0], choice(client, tid, tokens[0], "take_turn"))
    post(client, tid, tokens[0], choice(client, tid, tokens[0], "travel"))
    hub = client.app.state.hub  # type: ignore[attr-defined]
    session = client.portal.call(hub.session, tid)
    seat0 = Viewer("seat", frozenset({0}))
    game_prompt = next(p for p in session.game_prompts() if p.seat == 0)
    assert wire.prompt_json(session, game_prompt) is wire.prompt_json(session, game_prompt)
    assert session.view_for(seat0) is session.view_for(Viewer("seat", frozenset({0})))
    views = [client.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json() for _ in range(3)]
    assert views[0] == views[2]
    assert any(p["choices"][0]["command"]["type"] == "undo" for p in views[0]["prompts"])
    kept = len(session._derived)
    for _ in range(20):
        client.get(f"/api/tables/{tid}/view", headers=auth(tokens[0]))
    assert len(session._derived) == kept
    # A new seq derives afresh.
    before = session.view_for(seat0)
    post(client, tid, tokens[0], choice(client, tid, tokens[0], "undo"))
    assert session.view_for(seat0) is not before and session._derived_of[0] == session.seq


def test_undo_facts_kept_across_seqs_give_the_fresh_answers(client: TestClient) -> None:
    """Each command's undo facts are told once and kept while it stays in memory
    (``TableSession._undo_facts``): every seat's undo answer at every seq of a played game
    is the one told with nothing kept."""
    session = new_table(client, "undo-facts-kept")
    rng = random.Random("undo-facts-kept")
    undoable = 0
    for _ in range(60):
        if play_one(client, session, rng) is None:
            break
        for seat in range(4):
            kept = session.undo_check(seat)
            facts, derived = session._undo_facts, session._derived
            session._undo_facts, session._derived = {}, {}
            try:
                assert session.undo_check(seat) == kept
            finally:
                session._undo_facts, session._derived = facts, derived
            undoable += kept[0] is not None
    assert session._undo_facts, "facts are kept across seqs"
    assert undoable > 0, "the game offered some undo"
