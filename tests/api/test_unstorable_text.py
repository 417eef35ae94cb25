"""Issue 8, item 2: text no database can store or no page can render (a lone surrogate, a
NUL) is refused with a 422 before anything is written, wherever it hides; a path segment
that cannot name anything is a 404. The table stays whole on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.support.hardening import store_counts
from tests.support.tables import auth, create_body

BAD_TEXTS = ["\udc00", "a\ud800b", "nul\x00here", "\x00"]


def send_json(client: TestClient, path: str, body: Any, token: str | None = None) -> Any:
    headers = {"content-type": "application/json"} | (auth(token) if token else {})
    return client.post(path, content=json.dumps(body), headers=headers)  # ASCII escapes


def assert_refused(response: Any, status: int, *codes: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["error"]["code"] in codes, response.text


@pytest.fixture
def table(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/tables", json=create_body(seats=2))
    assert response.status_code == 201
    return response.json()


@pytest.mark.parametrize("text", BAD_TEXTS)
def test_chat_that_cannot_be_stored_is_refused(
    client: TestClient, db_url: str, table: Any, text: str
) -> None:
    tid, token = table["table_id"], table["seats"][0]["token"]
    before = store_counts(db_url)
    command = {"command_id": "c1", "seat": 0, "type": "chat", "args": {"text": text}}
    assert_refused(send_json(client, f"/api/tables/{tid}/commands", command, token), 422, "bad_text")
    assert store_counts(db_url) == before
    # The table is whole: every way of reading it still works.
    for path in (
        f"/api/tables/{tid}/events",
        f"/api/tables/{tid}/export",
        f"/t/{tid}/watch",
        f"/t/{tid}/replay",
    ):
        headers = auth(table["gm_token"]) if path.endswith("export") else {}
        assert client.get(path, headers=headers).status_code == 200, path
    ok = {"command_id": "c2", "seat": 0, "type": "chat", "args": {"text": "still here ✓ 😀"}}
    assert send_json(client, f"/api/tables/{tid}/commands", ok, token).status_code == 200
    with client.websocket_connect(f"/ws/tables/{tid}?after=0&format=html") as ws:
        assert ws.receive_text()


@pytest.mark.parametrize("text", BAD_TEXTS)
def test_unstorable_text_anywhere_in_a_command_is_refused(
    client: TestClient, db_url: str, table: Any, text: str
) -> None:
    tid, token = table["table_id"], table["seats"][0]["token"]
    before = store_counts(db_url)
    command = {"command_id": "c1", "seat": 0, "type": "play", "args": {"card": text, "deep": [{"x": text}]}}
    assert_refused(send_json(client, f"/api/tables/{tid}/commands", command, token), 422, "bad_text")
    assert store_counts(db_url) == before


@pytest.mark.parametrize("text", BAD_TEXTS)
def test_unstorable_names_and_options_make_no_table(client: TestClient, db_url: str, text: str) -> None:
    before = store_counts(db_url)
    seat_name = create_body(seats=2)
    seat_name["seats"][1]["name"] = f"Bo{text}"
    table_name = create_body(seats=2) | {"name": f"Night{text}"}
    option_key = create_body(seats=2) | {"options": {f"target{text}": 5}}
    option_value = create_body(seats=2) | {"options": {"deck": f"short{text}"}}
    for body in (seat_name, table_name, option_key):
        # pydantic refuses a lone surrogate in a typed field before we see it; either way, 422
        assert_refused(send_json(client, "/api/tables", body), 422, "bad_text", "invalid_request")
    assert send_json(client, "/api/tables", option_value).status_code == 422
    if "\x00" in text:  # a form is UTF-8 percent-encoded: only the NUL can arrive that way
        form = {"game": "lanterns", "seat": ["Ann", f"Bo{text}"], "name": ""}
        response = client.post("/lobby", data=form)
        assert response.status_code == 422 and "cannot be stored" in response.text
    assert store_counts(db_url) == before


@pytest.mark.parametrize(
    "path", ["/api/tables/%00", "/api/tables/%00/view", "/api/tables/%00/events", "/t/%00", "/t/%00/watch",
             "/t/%00/replay", "/t/a%00b/gm", "/api/tables/x%00/export"],
)  # fmt: skip
def test_a_path_with_a_nul_names_nothing(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404, response.text
    assert response.headers["content-type"].startswith("application/json")


@pytest.mark.parametrize("table_id", ["..", "a" * 200, "x y", "ünïcode", "a.b"])
def test_an_impossible_table_id_is_404(client: TestClient, table_id: str) -> None:
    response = client.get(f"/api/tables/{table_id}/view")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    assert client.get(f"/t/{table_id}/watch").status_code == 404


def test_a_websocket_to_a_nul_path_is_closed(client: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/tables/%00") as ws:
        ws.receive_text()
