"""Browser protections through the public app: cookie-authorised requests from another
site are refused and change nothing, API clients and same-origin pages pass, every
response carries the security headers, and seat cookies are Secure behind https."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.api.security import CSP, DOCS_CSP, normal_origin, origin_of_url
from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import make_settings
from tests.support.tables import auth, create_body, first_choice

FOREIGN = [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Origin": "https://evil.example"},
    {"Origin": "null"},
    {"Origin": "https://testserver"},  # another scheme is another origin
    {"Sec-Fetch-Site": "cross-site", "Origin": "http://testserver"},  # Sec-Fetch-Site decides
]
SAME = [
    {"Sec-Fetch-Site": "same-origin"},
    {"Sec-Fetch-Site": "none"},
    {"Origin": "http://testserver"},
    {"Origin": "http://testserver:80"},
    {},  # curl and other non-browser clients send neither header
]
HEADERS = {
    "content-security-policy": CSP,
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "x-content-type-options": "nosniff",
}


def seated(client: TestClient) -> tuple[dict[str, Any], str]:
    """A new table whose seat 0 this client holds through the invite link's cookie."""
    response = client.post("/api/tables", json=create_body())
    assert response.status_code == 201, response.text
    table = response.json()
    page = client.get(table["seats"][0]["url"])  # sets the cookie, then shows /t/{id}
    assert page.status_code == 200 and any(n.startswith("umbra_") for n in client.cookies)
    return table, table["table_id"]


def seq_of(client: TestClient, tid: str) -> int:
    return client.get(f"/api/tables/{tid}").json()["seq"]


def act_form(client: TestClient, table: dict[str, Any]) -> dict[str, str]:
    """The form a button on seat 0's page posts: its ready-made command as JSON."""
    token = table["seats"][0]["token"]
    view = client.get(f"/api/tables/{table['table_id']}/view", headers=auth(token)).json()
    return {"command": json.dumps(first_choice(view, 0, "play"))}


def assert_cross_site(response: Any) -> None:
    assert response.status_code == 403, response.text
    assert response.json()["error"]["code"] == "cross_site"
    assert response.json()["error"]["message"]


@pytest.mark.parametrize("headers", FOREIGN, ids=lambda h: ",".join(f"{k}={v}" for k, v in h.items()))
def test_a_cross_site_post_with_the_seat_cookie_is_refused_and_changes_nothing(
    client: TestClient, headers: dict[str, str]
) -> None:
    table, tid = seated(client)
    before = seq_of(client, tid)
    assert_cross_site(client.post(f"/t/{tid}/chat", data={"seat": "0", "text": "hi"}, headers=headers))
    assert_cross_site(client.post(f"/t/{tid}/act", data=act_form(client, table), headers=headers))
    assert_cross_site(client.post(f"/t/{tid}/seats/1/bot", data={"on": "1"}, headers=headers))
    assert seq_of(client, tid) == before
    assert client.get(f"/api/tables/{tid}").json()["seats"][1]["bot"] is False


@pytest.mark.parametrize("headers", SAME, ids=lambda h: ",".join(f"{k}={v}" for k, v in h.items()) or "none")
def test_a_same_origin_post_with_the_seat_cookie_goes_through(
    client: TestClient, headers: dict[str, str]
) -> None:
    table, tid = seated(client)
    before = seq_of(client, tid)
    chat = client.post(f"/t/{tid}/chat", data={"seat": "0", "text": "hi"}, headers=headers)
    assert chat.status_code == 200, chat.text
    assert seq_of(client, tid) == before + 1
    act = client.post(f"/t/{tid}/act", data=act_form(client, table), headers=headers)
    assert act.status_code == 200, act.text
    assert seq_of(client, tid) > before + 1


def test_a_bearer_token_api_post_passes_whatever_its_origin(client: TestClient) -> None:
    table, tid = seated(client)  # the cookie is there too, but the bearer token is what counts
    token = table["seats"][0]["token"]
    command = json.loads(act_form(client, table)["command"])
    foreign = {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}
    response = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(token) | foreign)
    assert response.status_code == 200, response.text
    assert response.json()["replayed"] is False


def test_a_post_without_an_umbra_cookie_is_not_checked(client: TestClient) -> None:
    """Creating a table needs no cookie, so there is nothing to forge: an embedding site or
    a script may make tables (they get links, not anyone's seat)."""
    foreign = {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}
    client.cookies.set("other", "x")
    assert client.post("/api/tables", json=create_body(), headers=foreign).status_code == 201


def test_a_chat_retried_with_its_command_id_appends_one_event(client: TestClient) -> None:
    _, tid = seated(client)
    before = seq_of(client, tid)
    form = {"seat": "0", "text": "once", "command_id": "chat-0123456789abcdef"}
    for _ in range(3):
        assert client.post(f"/t/{tid}/chat", data=form).status_code == 200
    assert seq_of(client, tid) == before + 1
    events = client.get(f"/api/tables/{tid}/events?after={before}").json()["events"]
    assert [e["data"].get("text") for e in events] == ["once"]
    # An id outside ^[A-Za-z0-9._:-]{1,64}$ is ignored: each post gets a fresh one.
    for bad in ("has space", "x" * 65, "é"):
        assert client.post(f"/t/{tid}/chat", data=form | {"command_id": bad}).status_code == 200
    assert seq_of(client, tid) == before + 4


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    _, tid = seated(client)
    responses = {
        "lobby": client.get("/"),
        "seat page": client.get(f"/t/{tid}"),
        "watch page": client.get(f"/t/{tid}/watch"),
        "replay page": client.get(f"/t/{tid}/replay"),
        "static": client.get("/static/umbra.js"),
        "json": client.get(f"/api/tables/{tid}"),
        "json 404": client.get("/api/tables/nope"),
        "page 404": client.get("/t/nope"),
        "openapi": client.get("/openapi.json"),
        "flash": client.post(f"/t/{tid}/chat", data={"seat": "0", "text": "hi"}),
        "refused": client.post(f"/t/{tid}/chat", data={"seat": "0"}, headers={"Origin": "https://x.example"}),
        "too large": client.post("/api/tables", content=b"x" * (2 << 20)),
        "health": client.get("/healthz"),
    }
    for name, response in responses.items():
        for header, value in HEADERS.items():
            assert response.headers.get(header) == value, (name, response.status_code, header)
    assert responses["openapi"].json()["info"]["title"] == "Umbra"
    docs = client.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()
    assert docs.headers["content-security-policy"] == DOCS_CSP
    assert docs.headers["x-frame-options"] == "DENY"


def test_the_csp_allows_no_inline_script_and_no_framing() -> None:
    directives = dict(d.strip().split(" ", 1) for d in CSP.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"
    assert "unsafe-eval" not in CSP


def test_seat_cookies_are_secure_when_the_public_url_is_https(db_url: str) -> None:
    upgrade(db_url)
    settings = make_settings(db_url, public_url="https://umbra.example")
    with TestClient(create_app(settings)) as https_client:
        table = https_client.post("/api/tables", json=create_body()).json()
        seat = https_client.get(
            f"/t/{table['table_id']}/join/{table['seats'][0]['token']}", follow_redirects=False
        )
        gm = https_client.get(f"/t/{table['table_id']}/gm/join/{table['gm_token']}", follow_redirects=False)
        for response in (seat, gm):
            assert response.status_code == 303
            cookie = response.headers["set-cookie"]
            assert cookie.startswith("umbra_") and "secure" in cookie.lower() and "httponly" in cookie.lower()
        # That public origin is this server's own, whatever Host the proxy passed on.
        foreign = https_client.post(
            f"/t/{table['table_id']}/chat",
            data={"seat": "0", "text": "hi"},
            headers={"Origin": "https://umbra.example", "Cookie": seat.headers["set-cookie"].split(";")[0]},
        )
        assert foreign.status_code == 200, foreign.text


def test_seat_cookies_are_not_secure_over_plain_http(client: TestClient) -> None:
    table = client.post("/api/tables", json=create_body()).json()
    seat = client.get(table["seats"][0]["url"], follow_redirects=False)
    assert "secure" not in seat.headers["set-cookie"].lower()


def test_a_cross_origin_websocket_with_the_seat_cookie_is_refused(client: TestClient) -> None:
    table, tid = seated(client)
    foreign = {"Origin": "https://evil.example"}
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"/ws/tables/{tid}", headers=foreign),
    ):
        pass
    assert refused.value.code == 1008
    # Same origin, no Origin (an API client), or an explicit token: all accepted.
    token = table["seats"][0]["token"]
    for url, headers in (
        (f"/ws/tables/{tid}", {"Origin": "http://testserver"}),
        (f"/ws/tables/{tid}", {}),
        (f"/ws/tables/{tid}?token={token}", {"Origin": "https://evil.example"}),
        (f"/ws/tables/{tid}", {"Origin": "https://evil.example", "Authorization": f"Bearer {token}"}),
    ):
        with client.websocket_connect(url, headers=headers) as ws:
            assert json.loads(ws.receive_text())["type"] == "hello"


def test_origins_are_compared_normalised() -> None:
    assert normal_origin("HTTP", "Example.COM:80") == "http://example.com"
    assert normal_origin("https", "example.com:443") == "https://example.com"
    assert normal_origin("https", "example.com:8443") == "https://example.com:8443"
    assert normal_origin("http", "[::1]:8000") == "http://[::1]:8000"
    assert normal_origin("http", "bad:port") is None
    assert origin_of_url("https://umbra.example/") == "https://umbra.example"
    assert origin_of_url("null") is None
