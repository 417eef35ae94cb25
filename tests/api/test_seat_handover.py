"""A game master hands a seat to a new player, on SQLite and PostgreSQL, through the public
API and the GM page: a new invite link; the old invite link and the device that held the
seat answered 403 ``seat_reissued``; an optional new name; bad requests change nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.store import EventStore
from tests.support.tables import auth, create_body, first_choice


def new_table(client: TestClient, seats: int = 2) -> dict[str, Any]:
    response = client.post("/api/tables", json=create_body(seats=seats))
    assert response.status_code == 201, response.text
    return response.json()


def error_of(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    assert body["error"]["message"]
    return str(body["error"]["message"])


def open_on_device(client: TestClient, table: dict[str, Any], seat: int) -> str:
    """Open a seat's invite link as a browser would; the device-session token it gets."""
    tid = table["table_id"]
    client.cookies.clear()
    response = client.get(f"/t/{tid}/join/{table['seats'][seat]['token']}", follow_redirects=False)
    assert response.status_code == 303, response.text
    device = client.cookies.get(f"umbra_{tid}")
    client.cookies.clear()
    assert device
    return str(device)


def reissue(client: TestClient, tid: str, seat: int, token: str | None, **body: Any) -> Any:
    headers = auth(token) if token else {}
    return client.post(f"/api/tables/{tid}/seats/{seat}/reissue", json=body or None, headers=headers)


def summary(client: TestClient, tid: str) -> dict[str, Any]:
    return client.get(f"/api/tables/{tid}").json()


def test_the_old_invite_and_device_are_refused_and_the_new_link_opens_the_seat(client: TestClient) -> None:
    table = new_table(client)
    tid, gm = table["table_id"], table["gm_token"]
    old_invite = table["seats"][0]["token"]
    device = open_on_device(client, table, 0)
    view = client.get(f"/api/tables/{tid}/view", headers=auth(device)).json()
    command = first_choice(view, seat=0)

    response = reissue(client, tid, 0, gm, name="Bea")
    assert response.status_code == 201, response.text
    handed = response.json()
    assert handed["seat"] == 0 and handed["name"] == "Bea" and handed["revoked"] == 2
    assert handed["token"] not in (old_invite, device)
    assert handed["url"].endswith(f"/t/{tid}/join/{handed['token']}")

    seq = summary(client, tid)["seq"]
    message = error_of(client.get(f"/api/tables/{tid}/view", headers=auth(device)), 403, "seat_reissued")
    assert "device session of seat 0" in message and "game master" in message
    sent = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(device))
    error_of(sent, 403, "seat_reissued")
    message = error_of(client.get(f"/api/tables/{tid}/view", headers=auth(old_invite)), 403, "seat_reissued")
    assert "invite link of seat 0" in message
    page = client.get(f"/t/{tid}/join/{old_invite}", follow_redirects=False)
    assert page.status_code == 403 and "handed the seat to a new player" in page.text
    assert summary(client, tid)["seq"] == seq  # nothing was played with the revoked tokens

    after = summary(client, tid)
    assert after["seats"][0] == {"seat": 0, "name": "Bea", "joined": False, "bot": False}
    assert after["seats"][1]["name"] == "Player 2"
    new_view = client.get(f"/api/tables/{tid}/view", headers=auth(handed["token"])).json()
    assert {p["seat"] for p in new_view["prompts"]} == {0}
    played = client.post(
        f"/api/tables/{tid}/commands", json=first_choice(new_view, seat=0), headers=auth(handed["token"])
    )
    assert played.status_code == 200, played.text
    new_device = open_on_device(client, {**table, "seats": [handed, table["seats"][1]]}, 0)
    assert client.get(f"/api/tables/{tid}/view", headers=auth(new_device)).status_code == 200
    assert summary(client, tid)["seats"][0]["joined"] is True


def test_a_seat_nobody_joined_keeps_its_name_and_revokes_only_its_invite(client: TestClient) -> None:
    table = new_table(client)
    tid = table["table_id"]
    response = client.post(f"/api/tables/{tid}/seats/1/reissue", headers=auth(table["gm_token"]))
    assert response.status_code == 201, response.text
    assert response.json()["name"] == "Player 2" and response.json()["revoked"] == 1
    second = reissue(client, tid, 1, table["gm_token"]).json()  # and again: both old links refused
    for token in (table["seats"][1]["token"], response.json()["token"]):
        error_of(client.get(f"/api/tables/{tid}/view", headers=auth(token)), 403, "seat_reissued")
    assert client.get(f"/api/tables/{tid}/view", headers=auth(second["token"])).status_code == 200
    # The other seat and the game master are untouched.
    assert client.get(f"/api/tables/{tid}/view", headers=auth(table["seats"][0]["token"])).status_code == 200


def test_only_the_game_master_hands_a_seat_over_and_bad_requests_change_nothing(client: TestClient) -> None:
    table = new_table(client)
    tid, gm, invite = table["table_id"], table["gm_token"], table["seats"][0]["token"]
    before = summary(client, tid)
    error_of(reissue(client, tid, 0, None), 401, "token_missing")
    error_of(reissue(client, tid, 0, invite), 403, "gm_only")
    error_of(reissue(client, tid, 1, table["seats"][1]["token"]), 403, "gm_only")
    error_of(reissue(client, tid, 0, "forged"), 401, "token_invalid")
    error_of(reissue(client, tid, 7, gm), 404, "not_found")
    error_of(reissue(client, "nosuchtable", 0, gm), 404, "not_found")
    error_of(reissue(client, tid, 0, gm, name=""), 422, "invalid_request")
    error_of(reissue(client, tid, 0, gm, name="x" * 41), 422, "invalid_request")
    error_of(reissue(client, tid, 0, gm, name="   "), 422, "seat_name")
    error_of(reissue(client, tid, 0, gm, name=7), 422, "invalid_request")
    error_of(reissue(client, tid, 0, gm, nickname="Bea"), 422, "invalid_request")
    error_of(reissue(client, tid, 0, gm, name="bad\x00name"), 422, "bad_text")
    assert summary(client, tid) == before
    assert client.get(f"/api/tables/{tid}/view", headers=auth(invite)).status_code == 200


def test_the_device_that_held_the_seat_is_told_live(client: TestClient) -> None:
    table = new_table(client)
    tid = table["table_id"]
    device = open_on_device(client, table, 0)
    seq = summary(client, tid)["seq"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={device}&after={seq}") as ws:
        assert ws.receive_json()["type"] == "hello"
        assert reissue(client, tid, 0, table["gm_token"]).status_code == 201
        frame = ws.receive_json()
        assert frame["type"] == "error" and frame["error"]["code"] == "seat_moved"
    with client.websocket_connect(f"/ws/tables/{tid}?token={device}") as ws:
        frame = ws.receive_json()
        assert frame["type"] == "error" and frame["error"]["code"] == "seat_reissued"


def test_the_store_keeps_hashes_never_tokens(client: TestClient) -> None:
    table = new_table(client)
    tid = table["table_id"]
    device = open_on_device(client, table, 0)
    handed = reissue(client, tid, 0, table["gm_token"]).json()
    store: EventStore = client.app.state.hub.store
    seats = client.portal.call(store.seats, tid)
    stored = repr(seats)
    for token in (table["seats"][0]["token"], device, handed["token"]):
        assert token not in stored
    assert [r.kind for r in seats[0].revoked] == ["invite", "device"]
    assert seats[1].revoked == ()


def test_the_game_master_page_hands_a_seat_over(client: TestClient) -> None:
    table = new_table(client)
    tid = table["table_id"]
    client.cookies.clear()
    assert client.get(f"/t/{tid}/gm/join/{table['gm_token']}").status_code == 200
    page = client.get(f"/t/{tid}/gm").text
    assert f'hx-post="/t/{tid}/seats/0/reissue"' in page and "Hand to a new player" in page
    answer = client.post(f"/t/{tid}/seats/0/reissue", data={"name": "Cai"})
    assert answer.status_code == 200 and 'id="flash"' in answer.text
    url = answer.text.split('value="', 1)[1].split('"', 1)[0]
    assert url.rsplit("/", 1)[1] != table["seats"][0]["token"] and f"/t/{tid}/join/" in url
    assert summary(client, tid)["seats"][0]["name"] == "Cai"
    error_of(
        client.get(f"/api/tables/{tid}/view", headers=auth(table["seats"][0]["token"])), 403, "seat_reissued"
    )
    refused = client.post(f"/t/{tid}/seats/0/reissue", data={"name": " " * 3 + "x" * 41})
    assert refused.status_code == 422 and "at most 40" in refused.text
    client.cookies.clear()
    assert "Hand to a new player" not in client.get(f"/t/{tid}/watch").text
    player = client.post(f"/t/{tid}/seats/1/reissue", data={})
    assert player.status_code == 401
    assert summary(client, tid)["seats"][1]["name"] == "Player 2"
