"""The REST API on SQLite and PostgreSQL: tables, views, commands, events, export/import,
and every bad input answered precisely without changing anything."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.support.tables import auth, create_body, first_choice, second_device


def new_table(client: TestClient, **kw: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=create_body(**kw))
    assert response.status_code == 201, response.text
    return response.json()


def seq_of(client: TestClient, table_id: str) -> int:
    return client.get(f"/api/tables/{table_id}").json()["seq"]


def error_of(response: Any) -> dict[str, str]:
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["message"]
    return body["error"]


def test_games_list_their_options_and_seat_limits(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    lanterns = games["lanterns"]
    assert (lanterns["min_seats"], lanterns["max_seats"]) == (1, 5)
    options = {o["name"]: o for o in lanterns["options"]}
    assert options["target"]["type"] == "int" and options["target"]["minimum"] == 3
    assert options["deck"]["choices"] == ["short", "long"]


def test_create_table_returns_links(client: TestClient) -> None:
    table = new_table(client, seats=3)
    tid = table["table_id"]
    assert [s["seat"] for s in table["seats"]] == [0, 1, 2]
    assert all(s["url"].endswith(f"/t/{tid}/join/{s['token']}") for s in table["seats"])
    assert table["gm_url"].endswith(table["gm_token"])
    assert table["watch_url"].endswith(f"/t/{tid}/watch")
    assert table["replay_url"].endswith(f"/t/{tid}/replay")
    summary = client.get(f"/api/tables/{tid}").json()
    assert summary["game"] == "lanterns" and summary["status"] == "running"
    assert [s["name"] for s in summary["seats"]] == ["Player 1", "Player 2", "Player 3"]
    assert summary["seq"] == 5 and summary["waiting_for"] == [0]


def test_same_seed_same_game(client: TestClient) -> None:
    views = []
    for _ in range(2):
        table = new_table(client, seed="same")
        views.append(
            client.get(f"/api/tables/{table['table_id']}/view", headers=auth(table["gm_token"])).json()
        )
    assert views[0]["view"] == views[1]["view"]


def test_views_hide_what_a_viewer_may_not_see(client: TestClient) -> None:
    table = new_table(client)
    tid = table["table_id"]
    spectator = client.get(f"/api/tables/{tid}/view").json()
    seat0 = client.get(f"/api/tables/{tid}/view", headers=auth(table["seats"][0]["token"])).json()
    gm = client.get(f"/api/tables/{tid}/view", headers=auth(table["gm_token"])).json()
    assert isinstance(spectator["view"]["players"][0]["hand"], int)
    assert isinstance(spectator["view"]["deck"], int)
    assert isinstance(seat0["view"]["players"][0]["hand"], list)
    assert isinstance(seat0["view"]["players"][1]["hand"], int)
    assert isinstance(gm["view"]["deck"], list)
    assert spectator["prompts"] == []
    assert {p["seat"] for p in seat0["prompts"]} == {0}
    assert {p["seat"] for p in gm["prompts"]} == {"gm"}
    hidden = json.dumps(gm["view"]["players"][0]["hand"])
    assert hidden not in json.dumps(spectator)


def test_a_command_commits_and_a_retry_appends_nothing(client: TestClient) -> None:
    table = new_table(client)
    tid, token = table["table_id"], table["seats"][0]["token"]
    command = first_choice(client.get(f"/api/tables/{tid}/view", headers=auth(token)).json(), 0, "play")
    first = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token))
    assert first.status_code == 200, first.text
    body = first.json()
    assert [e["type"] for e in body["events"]] == ["CardPlayed", "CardDrawn", "TurnPassed"]
    assert body["seq"] == 7 and body["replayed"] is False
    again = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token))
    assert again.status_code == 200
    assert again.json()["seq"] == 7 and again.json()["events"] == body["events"]
    assert again.json()["replayed"] is True
    assert seq_of(client, tid) == 7


def test_events_after_are_redacted_per_viewer(client: TestClient) -> None:
    table = new_table(client)
    tid = table["table_id"]
    spectator = client.get(f"/api/tables/{tid}/events?after=0").json()["events"]
    assert [e["seq"] for e in spectator] == [1, 2, 3, 4]
    assert spectator[1]["data"] == {"order": 12}
    assert spectator[2]["data"]["cards"] == 2
    mine = client.get(f"/api/tables/{tid}/events?after=2", headers=auth(table["seats"][0]["token"])).json()
    assert [e["seq"] for e in mine["events"]] == [3, 4]
    assert isinstance(mine["events"][0]["data"]["cards"], list)
    assert mine["events"][1]["data"]["cards"] == 2
    assert client.get(f"/api/tables/{tid}/events?after=4").json()["events"] == []


def test_chat_is_in_the_log(client: TestClient) -> None:
    table = new_table(client)
    tid, token = table["table_id"], table["seats"][1]["token"]
    body = {"command_id": "hello-1", "seat": 1, "type": "chat", "args": {"text": " hi all "}}
    response = client.post(f"/api/tables/{tid}/commands", json=body, headers=auth(token))
    assert response.status_code == 200
    event = response.json()["events"][0]
    assert event["type"] == "table.chat" and event["data"] == {"seat": 1, "text": "hi all"}


# -- bad input ------------------------------------------------------------------------


def assert_unchanged(client: TestClient, tid: str, seq: int) -> None:
    assert seq_of(client, tid) == seq


def test_bad_bodies_are_refused_precisely(client: TestClient) -> None:
    table = new_table(client)
    tid, token = table["table_id"], table["seats"][0]["token"]
    url = f"/api/tables/{tid}/commands"
    ok = {"command_id": "c1", "seat": 0, "type": "roll", "args": {}}
    cases = [
        (
            "malformed JSON",
            {"content": b"{not json", "headers": {"content-type": "application/json"}},
            "not valid JSON",
        ),
        ("unknown field", {"json": ok | {"extra": 1}}, "extra: unknown field"),
        ("wrong type", {"json": ok | {"seat": "zero"}}, "seat"),
        ("missing field", {"json": {k: v for k, v in ok.items() if k != "type"}}, "type: required"),
        ("args not an object", {"json": ok | {"args": [1]}}, "args"),
        ("bad command id", {"json": ok | {"command_id": "has space"}}, "command_id"),
    ]
    for label, kwargs, expected in cases:
        headers = auth(token) | kwargs.pop("headers", {})
        response = client.post(url, headers=headers, **kwargs)
        assert response.status_code == 422, label
        error = error_of(response)
        assert error["code"] == "invalid_request" and expected in error["message"], (label, error)
        assert_unchanged(client, tid, 4)


def test_an_oversized_body_is_refused(client: TestClient) -> None:
    table = new_table(client)
    tid, token = table["table_id"], table["seats"][0]["token"]
    big = {"command_id": "c", "seat": 0, "type": "chat", "args": {"text": "x" * (2 << 20)}}
    response = client.post(f"/api/tables/{tid}/commands", json=big, headers=auth(token))
    assert response.status_code == 413 and error_of(response)["code"] == "too_large"
    response = client.post(
        "/api/tables", content=b"[" + b"1," * (1 << 20) + b"1]", headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert_unchanged(client, tid, 4)


def test_unknown_tables_are_404_everywhere(client: TestClient) -> None:
    for method, path in [
        ("get", "/api/tables/nope"),
        ("get", "/api/tables/nope/view"),
        ("get", "/api/tables/nope/events"),
        ("get", "/api/tables/nope/export"),
    ]:
        response = getattr(client, method)(path)
        assert response.status_code == 404 and error_of(response)["code"] == "not_found", path
    response = client.post(
        "/api/tables/nope/commands", json={"command_id": "c", "seat": 0, "type": "roll", "args": {}}
    )
    assert response.status_code == 404


def test_tokens_and_seats_are_checked(client: TestClient) -> None:
    table = new_table(client)
    tid = table["table_id"]
    url = f"/api/tables/{tid}/commands"
    body = {"command_id": "c1", "seat": 0, "type": "roll", "args": {}}
    missing = client.post(url, json=body)
    assert missing.status_code == 401 and error_of(missing)["code"] == "token_missing"
    forged = client.post(url, json=body, headers=auth("forged-token"))
    assert forged.status_code == 401 and error_of(forged)["code"] == "token_invalid"
    other_seat = client.post(url, json=body, headers=auth(table["seats"][1]["token"]))
    assert other_seat.status_code == 403 and error_of(other_seat)["code"] == "seat_not_held"
    gm_as_seat = client.post(url, json=body, headers=auth(table["gm_token"]))
    assert gm_as_seat.status_code == 403
    other_table = new_table(client)
    cross = client.post(url, json=body, headers=auth(other_table["seats"][0]["token"]))
    assert cross.status_code == 401
    view = client.get(f"/api/tables/{tid}/view", headers=auth("forged"))
    assert view.status_code == 401
    export = client.get(f"/api/tables/{tid}/export", headers=auth(table["seats"][0]["token"]))
    assert export.status_code == 403 and error_of(export)["code"] == "gm_only"
    assert client.get(f"/api/tables/{tid}/export").status_code == 401
    assert_unchanged(client, tid, 4)


def test_illegal_and_stale_commands(client: TestClient) -> None:
    table = new_table(client)
    tid = table["table_id"]
    t0, t1 = table["seats"][0]["token"], table["seats"][1]["token"]
    out_of_turn = client.post(
        f"/api/tables/{tid}/commands",
        headers=auth(t1),
        json={"command_id": "x1", "seat": 1, "type": "roll", "args": {}},
    )
    assert out_of_turn.status_code == 422
    assert "turn" in error_of(out_of_turn)["message"]
    not_in_hand = client.post(
        f"/api/tables/{tid}/commands",
        headers=auth(t0),
        json={"command_id": "x2", "seat": 0, "type": "play", "args": {"card": "joker"}},
    )
    assert not_in_hand.status_code == 422 and error_of(not_in_hand)["code"] == "not_offered"
    assert "expected one of" in error_of(not_in_hand)["message"]
    unknown = client.post(
        f"/api/tables/{tid}/commands",
        headers=auth(t0),
        json={"command_id": "x3", "seat": 0, "type": "fly", "args": {}},
    )
    assert unknown.status_code == 422
    assert_unchanged(client, tid, 4)
    view = client.get(f"/api/tables/{tid}/view", headers=auth(t0)).json()
    play, roll = first_choice(view, 0, "play"), first_choice(view, 0, "roll")
    assert client.post(f"/api/tables/{tid}/commands", json=play, headers=auth(t0)).status_code == 200
    stale = client.post(f"/api/tables/{tid}/commands", json=roll, headers=auth(t0))
    assert stale.status_code == 409 and error_of(stale)["code"] == "taken"  # offered at its seq
    assert "moved on" in error_of(stale)["message"]
    assert_unchanged(client, tid, 7)


def test_a_finished_game_refuses_moves(client: TestClient) -> None:
    table = new_table(client, seats=1, target=3)
    tid, token = table["table_id"], table["seats"][0]["token"]
    for _ in range(20):
        view = client.get(f"/api/tables/{tid}/view", headers=auth(token)).json()
        if view["outcome"]:
            break
        client.post(f"/api/tables/{tid}/commands", json=first_choice(view, 0), headers=auth(token))
    summary = client.get(f"/api/tables/{tid}").json()
    assert summary["status"] == "finished" and summary["outcome"]["result"] == "win"
    seq = summary["seq"]
    late = client.post(
        f"/api/tables/{tid}/commands",
        headers=auth(token),
        json={"command_id": "late", "seat": 0, "type": "roll", "args": {}},
    )
    assert late.status_code == 409 and error_of(late)["code"] == "game_over"
    assert_unchanged(client, tid, seq)


def test_create_table_errors(client: TestClient) -> None:
    cases = [
        ({"game": "chess", "seats": [{"name": "A"}]}, 422, "unknown_game"),
        ({"game": "lanterns", "seats": [{"name": f"P{i}"} for i in range(6)]}, 422, "seat_count"),
        ({"game": "lanterns", "seats": []}, 422, "invalid_request"),
        ({"game": "lanterns", "seats": [{"name": ""}]}, 422, "invalid_request"),
        ({"game": "lanterns", "seats": [{"name": "   "}]}, 422, "seat_name"),
        ({"game": "lanterns", "seats": [{"name": "A"}], "options": {"target": 1}}, 422, "bad_option"),
        ({"game": "lanterns", "seats": [{"name": "A"}], "options": {"target": "9"}}, 422, "bad_option"),
        ({"game": "lanterns", "seats": [{"name": "A"}], "options": {"colour": "red"}}, 422, "unknown_option"),
        ({"game": "lanterns", "seats": [{"name": "A"}], "players": 2}, 422, "invalid_request"),
    ]
    for body, status, code in cases:
        response = client.post("/api/tables", json=body)
        assert response.status_code == status, body
        assert error_of(response)["code"] == code, (body, response.json())


def test_a_seed_needs_test_mode(db_url: str) -> None:
    upgrade(db_url)
    with TestClient(create_app(make_settings(db_url, test_mode=False))) as client:
        response = client.post("/api/tables", json=create_body(seed="x"))
        assert response.status_code == 422 and error_of(response)["code"] == "seed_not_allowed"
        assert client.post("/api/tables", json=create_body(seed=None)).status_code == 201


# -- export and import ----------------------------------------------------------------


def play_some(client: TestClient, table: dict[str, Any], moves: int) -> None:
    tid = table["table_id"]
    tokens = [s["token"] for s in table["seats"]]
    for _ in range(moves):
        summary = client.get(f"/api/tables/{tid}").json()
        if summary["outcome"]:
            return
        seat = summary["waiting_for"][0]
        view = client.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
        response = client.post(
            f"/api/tables/{tid}/commands", json=first_choice(view, seat), headers=auth(tokens[seat])
        )
        assert response.status_code == 200, response.text


def test_export_then_import_replays_to_the_same_game(client: TestClient) -> None:
    table = new_table(client)
    play_some(client, table, 5)
    exported = client.get(f"/api/tables/{table['table_id']}/export", headers=auth(table["gm_token"])).json()
    assert "seed" not in json.dumps(exported)
    assert [e["seq"] for e in exported["events"]] == list(range(1, len(exported["events"]) + 1))
    imported = client.post("/api/tables/import", json=exported)
    assert imported.status_code == 201, imported.text
    new = imported.json()
    assert new["table_id"] != table["table_id"]
    old_view = client.get(f"/api/tables/{table['table_id']}/view", headers=auth(table["gm_token"])).json()
    new_view = client.get(f"/api/tables/{new['table_id']}/view", headers=auth(new["gm_token"])).json()
    assert old_view["view"] == new_view["view"] and old_view["seq"] == new_view["seq"]
    assert new["seats"][0]["token"] != table["seats"][0]["token"]
    play_some(client, new, 2)  # the imported table plays on


def test_import_refuses_a_broken_log(client: TestClient) -> None:
    table = new_table(client)
    play_some(client, table, 2)
    exported = client.get(f"/api/tables/{table['table_id']}/export", headers=auth(table["gm_token"])).json()
    gap = json.loads(json.dumps(exported))
    del gap["events"][3]
    bad_event = json.loads(json.dumps(exported))
    bad_event["events"][4]["data"] = {"nonsense": True}
    for broken, code in [
        (gap, "bad_signature"),  # tests/api/test_import_forgery.py re-signs to go deeper
        (bad_event, "bad_signature"),
        ({"format": "other"}, "bad_export"),
        (exported | {"game": "chess"}, "bad_signature"),
        (exported | {"events": "nope"}, "bad_export"),
    ]:
        response = client.post("/api/tables/import", json=broken)
        assert response.status_code == 422 and error_of(response)["code"] == code, response.text
    response = client.post(
        "/api/tables/import", content=b"nope", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422


# -- pages ----------------------------------------------------------------------------


def test_names_are_escaped_everywhere(client: TestClient) -> None:
    evil = "<script>alert(1)</script>"
    body = create_body() | {"seats": [{"name": evil}, {"name": "Bo"}], "name": "<b>night</b>"}
    table = client.post("/api/tables", json=body).json()
    tid = table["table_id"]
    client.post(
        f"/api/tables/{tid}/commands",
        headers=auth(table["seats"][0]["token"]),
        json={"command_id": "m", "seat": 0, "type": "chat", "args": {"text": "<img src=x onerror=alert(2)>"}},
    )
    pages = [client.get(f"/t/{tid}/watch").text, client.get(f"/t/{tid}/replay").text]
    client.get(f"/t/{tid}/join/{table['seats'][0]['token']}")
    pages.append(client.get(f"/t/{tid}").text)
    for html in pages:
        assert evil not in html and "<b>night</b>" not in html and "<img src=x" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_a_seat_link_opened_elsewhere_takes_the_seat_over(db_url: str) -> None:
    upgrade(db_url)
    app = create_app(make_settings(db_url))
    with TestClient(app) as laptop, second_device(laptop) as phone:
        table = new_table(laptop)
        tid, link = table["table_id"], f"/t/{table['table_id']}/join/{table['seats'][0]['token']}"
        assert laptop.get(link).status_code == 200
        assert "Playing as Player 1" in laptop.get(f"/t/{tid}").text
        assert phone.get(link).status_code == 200
        assert "Playing as Player 1" in phone.get(f"/t/{tid}").text
        assert laptop.get(f"/t/{tid}").status_code == 403  # the seat moved to the phone
        summary = laptop.get(f"/api/tables/{tid}").json()
        assert summary["seats"][0]["joined"] is True


def test_snapshots_load_the_same_state(db_url: str) -> None:
    upgrade(db_url)
    with TestClient(create_app(make_settings(db_url))) as client:
        table = new_table(client, seats=3, target=60, deck="long")
        play_some(client, table, 12)
        before = client.get(f"/api/tables/{table['table_id']}/view", headers=auth(table["gm_token"])).json()
    with TestClient(create_app(make_settings(db_url))) as client:  # a restarted process
        after = client.get(f"/api/tables/{table['table_id']}/view", headers=auth(table["gm_token"])).json()
        assert before == after


def test_health(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json()["status"] == "ok"


def test_view_after_a_seq_answers_at_that_seq_and_refuses_a_bad_one(client: TestClient) -> None:
    """``GET /view?after=SEQ`` (read your writes): at SEQ or later; a SEQ the table never
    reached is 409 ``seq_not_reached`` after a bounded wait; not a number is 422."""
    table = new_table(client)
    tid = table["table_id"]
    seq = seq_of(client, tid)
    view = client.get(f"/api/tables/{tid}/view", params={"after": seq})
    assert view.status_code == 200 and view.json()["seq"] == seq
    assert client.get(f"/api/tables/{tid}/view", params={"after": -3}).json()["seq"] == seq
    ahead = client.get(f"/api/tables/{tid}/view", params={"after": seq + 1})
    assert ahead.status_code == 409
    error = ahead.json()["error"]
    assert error["code"] == "seq_not_reached" and f"at seq {seq}" in error["message"]
    bad = client.get(f"/api/tables/{tid}/view", params={"after": "soon"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request"
    assert seq_of(client, tid) == seq
