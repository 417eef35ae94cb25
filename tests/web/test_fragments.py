"""Per-viewer fragment diffing over the real websocket: after a commit each page gets only
the fragments of its own view whose HTML changed, and the new log lines."""

from __future__ import annotations

import re

import httpx
from websockets.sync.client import connect

from tests.conftest import LiveServer
from tests.support.tables import auth, create_body


def ids_in(frame: str) -> set[str]:
    return set(re.findall(r'^<\w+ id="([\w-]+)"', frame, flags=re.MULTILINE))


def test_only_changed_fragments_are_pushed(live_server: LiveServer) -> None:
    table = httpx.post(f"{live_server.url}/api/tables", json=create_body(target=60)).json()
    tid = table["table_id"]
    url = f"{live_server.ws_url}/ws/tables/{tid}?format=html&after=4"
    with connect(url, open_timeout=10) as spectator:
        # The page is current at seq 4: only the players panel is refreshed on connect
        # (seats change hands without events); then nothing until something changes.
        assert ids_in(spectator.recv(timeout=10)) == {"seats"}
        gift = {"command_id": "g1", "seat": "gm", "type": "gift", "args": {"seat": 1}}
        response = httpx.post(
            f"{live_server.url}/api/tables/{tid}/commands", json=gift, headers=auth(table["gm_token"])
        )
        assert response.status_code == 200
        frame = spectator.recv(timeout=10)
        assert ids_in(frame) == {"seq", "view-players"}, frame
        assert 'hx-swap-oob="afterbegin:#log-entries"' in frame
        assert "gifts seat 1 a point" in frame
        assert 'id="view-deck"' not in frame and 'id="prompts"' not in frame


def test_a_stale_page_gets_everything_on_reconnect(live_server: LiveServer) -> None:
    table = httpx.post(f"{live_server.url}/api/tables", json=create_body()).json()
    tid = table["table_id"]
    with connect(f"{live_server.ws_url}/ws/tables/{tid}?format=html&after=2", open_timeout=10) as page:
        frame = page.recv(timeout=10)
        assert {"status", "prompts", "seats", "seq", "view-players", "view-deck"} <= ids_in(frame)
        assert frame.count('<li class="log-entry') == 2  # seqs 3 and 4


def test_a_players_prompts_follow_the_turn(live_server: LiveServer) -> None:
    table = httpx.post(f"{live_server.url}/api/tables", json=create_body()).json()
    tid, token = table["table_id"], table["seats"][1]["token"]
    with connect(
        f"{live_server.ws_url}/ws/tables/{tid}?format=html&after=4&token={token}", open_timeout=10
    ) as page:
        assert ids_in(page.recv(timeout=10)) == {"seats"}
        roll = {"command_id": "r1", "seat": 0, "type": "roll", "args": {}}
        httpx.post(
            f"{live_server.url}/api/tables/{tid}/commands",
            json=roll,
            headers=auth(table["seats"][0]["token"]),
        )
        frame = page.recv(timeout=10)
        # The turn passed: the players panel re-sends the two players whose tag moved.
        assert {"prompts", "status", "seat-0", "seat-1"} <= ids_in(frame)
        assert "seats" not in ids_in(frame)
        assert "Roll a die" in frame  # now it is seat 1's turn
        assert "that&#39;s you" in frame or "that's you" in frame
