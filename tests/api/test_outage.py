"""Issue 8, item 5: while PostgreSQL is away a request gets a JSON 503 ``unavailable``
with ``Retry-After`` (a page's htmx request an HTML flash with the same status), nothing is
half-done, and once the database is back the same connection and the same command_id
carry on, committing exactly once."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url
from starlette.websockets import WebSocketDisconnect

from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.support.hardening import store_counts
from tests.support.tables import auth, create_body, first_choice
from tests.support.tcp_proxy import TcpProxy

pytestmark = pytest.mark.postgres


@pytest.fixture
def proxied(pg_url: str) -> Iterator[tuple[TestClient, TcpProxy, str]]:
    upgrade(pg_url)
    url = make_url(pg_url)
    proxy = TcpProxy(url.host or "127.0.0.1", url.port or 5432)
    through = url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    try:
        with TestClient(create_app(make_settings(through))) as client:
            yield client, proxy, pg_url
    finally:
        proxy.close()


def until_ok(call: Any, timeout: float = 20) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        response = call()
        if response.status_code != 503 or time.monotonic() > deadline:
            return response
        time.sleep(float(response.headers.get("retry-after", "1")) / 4)


def test_a_command_during_an_outage_is_503_and_its_retry_lands_once(proxied: Any) -> None:
    client, proxy, direct = proxied
    table = client.post("/api/tables", json=create_body(seats=2)).json()
    tid, token = table["table_id"], table["seats"][0]["token"]
    command = first_choice(client.get(f"/api/tables/{tid}/view", headers=auth(token)).json(), 0)
    before = store_counts(direct)
    proxy.cut()
    try:
        response = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token))
        assert response.status_code == 503, response.text
        assert response.headers["content-type"].startswith("application/json")
        assert response.json()["error"]["code"] == "unavailable"
        assert int(response.headers["retry-after"]) >= 1
        created = client.post("/api/tables", json=create_body(seats=1))
        assert created.status_code == 503 and created.json()["error"]["code"] == "unavailable"
        health = client.get("/healthz")
        assert health.status_code == 503 and health.headers["content-type"].startswith("application/json")
        page = client.post(
            f"/t/{tid}/chat", data={"seat": "0", "text": "hello?", "command_id": "chat-out-1"},
            headers={"HX-Request": "true", "Cookie": ""},
        )  # fmt: skip
        assert page.status_code in (503, 403)  # without the seat's cookie this page holds no seat
    finally:
        proxy.restore()
    assert store_counts(direct) == before
    again = until_ok(lambda: client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token)))
    assert again.status_code == 200, again.text
    assert not again.json()["replayed"]
    twice = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token))
    assert twice.status_code == 200 and twice.json()["replayed"]
    assert store_counts(direct)["events"] == before["events"] + len(again.json()["events"])


def test_a_page_is_told_to_retry(proxied: Any) -> None:
    client, proxy, _ = proxied
    table = client.post("/api/tables", json=create_body(seats=2)).json()
    tid = table["table_id"]
    joined = client.get(table["seats"][0]["url"].replace("http://testserver", ""), follow_redirects=False)
    assert joined.status_code == 303
    proxy.cut()
    try:
        response = client.post(
            f"/t/{tid}/chat", data={"seat": "0", "text": "hello?", "command_id": "chat-out-2"},
            headers={"HX-Request": "true"},
        )  # fmt: skip
        assert response.status_code == 503, response.text
        assert response.headers["retry-after"] and "flash" in response.text and "Retrying" in response.text
    finally:
        proxy.restore()
    response = until_ok(
        lambda: client.post(
            f"/t/{tid}/chat",
            data={"seat": "0", "text": "hello?", "command_id": "chat-out-2"},
            headers={"HX-Request": "true"},
        )  # fmt: skip
    )
    assert response.status_code == 200
    events = client.get(f"/api/tables/{tid}/events").json()["events"]
    assert [e["data"]["text"] for e in events if e["type"] == "table.chat"] == ["hello?"]


def test_a_socket_to_a_table_not_in_memory_is_closed_1013_during_an_outage(
    proxied: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 23, item 4: the socket is closed with "try again later" (1013, which the
    page's socket reconnects after), with an ``unavailable`` frame and no traceback
    logged; once the database is back the same socket address serves the table."""
    client, proxy, _ = proxied
    table = client.post("/api/tables", json=create_body(seats=2)).json()
    tid, token = table["table_id"], table["seats"][0]["token"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.sessions.pop(tid)  # the table leaves memory, as an idle one does
    proxy.cut()
    try:
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as socket:
            frame = socket.receive_json()
            assert frame["type"] == "error" and frame["error"]["code"] == "unavailable", frame
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == 1013
    finally:
        proxy.restore()
    socket_logs = [r for r in caplog.records if r.name.startswith(("app.api", "uvicorn", "starlette"))]
    assert socket_logs and not [r for r in socket_logs if r.exc_info], [r.getMessage() for r in socket_logs]
    deadline = time.monotonic() + 20
    while True:
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as socket:
            frame = socket.receive_json()
        if frame["type"] == "hello" or time.monotonic() > deadline:
            break
        time.sleep(0.25)
    assert frame["type"] == "hello" and frame["table_id"] == tid, frame
