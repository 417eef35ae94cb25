"""Compressed responses and cached assets (issue 11): pages, JSON and static files above a
kilobyte leave gzipped when the browser accepts it; assets linked under their content hash
are cached for good, a plain URL only briefly; websocket frames are not touched."""

from __future__ import annotations

import gzip
import re

from fastapi.testclient import TestClient

from app.web.assets import IMMUTABLE, SHORT_CACHE, content_hash, static_url
from tests.support.tables import auth, create_body

GZIP = {"Accept-Encoding": "gzip"}


def wire_bytes(client: TestClient, url: str, headers: dict[str, str]) -> tuple[int, dict[str, str]]:
    """The bytes the body takes over the wire (before any decoding), and the headers."""
    with client.stream("GET", url, headers=headers) as response:
        assert response.status_code == 200, url
        return sum(len(chunk) for chunk in response.iter_raw()), dict(response.headers)


def test_a_darkest_night_table_page_and_its_assets_weigh_a_third(client: TestClient) -> None:
    page = client.post("/lobby", data={"game": "darkest_night", "seat": ["Ann", "Bo"], "opt_heroes": "4"})
    seat = client.get(re.search(r"/t/\w+/join/[\w-]+", page.text).group(0))  # type: ignore[union-attr]
    urls = [str(seat.url)] + re.findall(r'(?:src|href)="(/static/[^"]+)"', seat.text)
    assert any("/static/umbra.js?v=" in u for u in urls)
    plain = sum(wire_bytes(client, url, {"Accept-Encoding": "identity"})[0] for url in urls)
    packed = 0
    for url in urls:
        size, headers = wire_bytes(client, url, GZIP)
        packed += size
        assert headers["content-encoding"] == "gzip" and "accept-encoding" in headers["vary"].lower()
    assert packed * 3 < plain  # measured 172,829 → 46,002 bytes


def test_json_is_compressed_and_small_answers_are_not(client: TestClient) -> None:
    created = client.post("/api/tables", json=create_body() | {"game": "darkest_night"})
    assert created.status_code == 201, created.text
    body = created.json()
    with client.stream(
        "GET", f"/api/tables/{body['table_id']}/view", headers=GZIP | auth(body["gm_token"])
    ) as view:
        raw = b"".join(view.iter_raw())
        assert view.headers["content-encoding"] == "gzip"
        assert gzip.decompress(raw).startswith(b"{")
    small = client.get("/healthz", headers=GZIP)
    assert "content-encoding" not in small.headers  # under a kilobyte: not worth it


def test_hashed_assets_are_immutable_and_plain_ones_are_not(client: TestClient) -> None:
    url = static_url("umbra.js")
    assert re.fullmatch(r"/static/umbra\.js\?v=[0-9a-f]{12}", url)
    assert client.get(url).headers["cache-control"] == IMMUTABLE
    assert client.get("/static/umbra.js").headers["cache-control"] == SHORT_CACHE
    assert client.get("/static/umbra.js?v=000000000000").headers["cache-control"] == SHORT_CACHE
    assert client.get("/static/nothing.js?v=1").status_code == 404
    assert static_url("../app/main.py") == "/static/../app/main.py" and content_hash("../app/main.py") is None
    lobby = client.get("/").text
    assert f'src="{static_url("umbra.js")}"' in lobby and 'href="/static/umbra.css"' not in lobby


def test_websocket_frames_are_not_compressed(client: TestClient) -> None:
    created = client.post("/api/tables", json=create_body()).json()
    with client.websocket_connect(
        f"/ws/tables/{created['table_id']}?token={created['gm_token']}", headers=GZIP
    ) as socket:
        frame = socket.receive_text()
    assert frame.startswith("{")
