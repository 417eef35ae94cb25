"""Issue 10: the two requests of every move (``POST /commands``, ``GET /view``) take a short
path past the framework's routing; their answers keep the response models' exact shape,
errors keep the app's handlers and the security headers, and a body the short path does
not take (not JSON) is answered by the FastAPI route as before."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.api.models import CommandOut, ViewOut
from tests.support.tables import auth, create_body, first_choice


def test_answers_keep_the_response_models_shape(client: TestClient) -> None:
    table = client.post("/api/tables", json=create_body(seats=2)).json()
    tid, token = table["table_id"], table["seats"][0]["token"]
    view = client.get(f"/api/tables/{tid}/view", headers=auth(token))
    assert view.status_code == 200 and view.headers["x-frame-options"] == "DENY"
    assert ViewOut.model_validate(view.json()).model_dump(mode="json") == view.json()
    command = first_choice(view.json(), 0)
    answer = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token))
    assert answer.status_code == 200, answer.text
    assert CommandOut.model_validate(answer.json()).model_dump(mode="json") == answer.json()
    assert all("text" in e for e in answer.json()["events"])
    again = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token))
    assert again.json() == {**answer.json(), "replayed": True}


def test_errors_on_the_short_path_are_the_apps(client: TestClient) -> None:
    table = client.post("/api/tables", json=create_body(seats=2)).json()
    tid, tokens = table["table_id"], [s["token"] for s in table["seats"]]
    view = client.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json()
    command = first_choice(view, 0)
    wrong = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth("not-a-token"))
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "token_invalid"
    assert wrong.headers["content-security-policy"].startswith("default-src 'self'")
    other_seat = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(tokens[1]))
    assert other_seat.status_code == 403 and other_seat.json()["error"]["code"] == "seat_not_held"
    missing = client.get("/api/tables/nosuchtable/view")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    seq = client.get(f"/api/tables/{tid}").json()["seq"]
    as_text = client.post(
        f"/api/tables/{tid}/commands",
        content=str(command).encode(),
        headers={**auth(tokens[0]), "content-type": "text/plain"},
    )
    assert as_text.status_code == 422 and as_text.json()["error"]["code"] == "invalid_request"
    unknown_field = client.post(
        f"/api/tables/{tid}/commands", json={**command, "x": 1}, headers=auth(tokens[0])
    )
    assert unknown_field.status_code == 422 and "x: unknown field" in unknown_field.json()["error"]["message"]
    assert client.get(f"/api/tables/{tid}").json()["seq"] == seq  # nothing changed


def test_a_view_answer_is_the_json_of_its_payload_byte_for_byte(client: TestClient) -> None:
    """The view's JSON is made once per view key and spliced into each viewer's answer
    (``tables.view_body``): the very bytes ``json.dumps`` makes of the whole payload."""
    from app.api.tables import json_bytes, view_body
    from app.kernel.types import GAME_MASTER, SPECTATOR, Viewer

    created = client.post("/api/tables", json=create_body(seats=2) | {"game": "darkest_night"}).json()
    hub = client.app.state.hub  # type: ignore[attr-defined]
    session = client.portal.call(hub.session, created["table_id"])  # type: ignore[union-attr]
    for viewer in (SPECTATOR, GAME_MASTER, Viewer("seat", frozenset({0})), Viewer("seat", frozenset({1}))):
        assert view_body(hub, session, viewer) == json_bytes(hub.view_payload(session, viewer))
