"""The live layer against a real uvicorn server, on SQLite and PostgreSQL: racing
clients, the websocket's exactly-once delivery, resume after a drop, restart mid-game."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.conftest import LiveServer
from tests.support.tables import auth, create_body, first_choice


def create(server: LiveServer, **kw: Any) -> dict[str, Any]:
    response = httpx.post(f"{server.url}/api/tables", json=create_body(**kw), timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def post(server: LiveServer, table: dict[str, Any], command: dict[str, Any], token: str) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/tables/{table['table_id']}/commands", json=command, headers=auth(token), timeout=10
    )


def gift(i: int, seat: int = 0) -> dict[str, Any]:
    return {"command_id": f"gift-{i}", "seat": "gm", "type": "gift", "args": {"seat": seat}}


def frames_until(ws: ClientConnection, seq: int, timeout: float = 10) -> list[dict[str, Any]]:
    """Every event received until ``seq`` has arrived."""
    events: list[dict[str, Any]] = []
    while not events or events[-1]["seq"] < seq:
        frame = json.loads(ws.recv(timeout=timeout))
        if frame["type"] == "events":
            events.extend(frame["events"])
    return events


@contextmanager
def open_ws(
    server: LiveServer, table: dict[str, Any], after: int = 0, token: str | None = None
) -> Iterator[ClientConnection]:
    url = f"{server.ws_url}/ws/tables/{table['table_id']}?after={after}"
    if token:
        url += f"&token={token}"
    with connect(url, open_timeout=10) as ws:
        hello = json.loads(ws.recv(timeout=10))
        assert hello["type"] == "hello"
        yield ws


def test_twenty_racing_clients(live_server: LiveServer) -> None:
    table = create(live_server)
    tid, gm = table["table_id"], table["gm_token"]

    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as client:
            return await asyncio.gather(
                *(
                    client.post(f"/api/tables/{tid}/commands", json=gift(i, i % 2), headers=auth(gm))
                    for i in range(20)
                )
            )

    responses = asyncio.run(race())
    assert all(r.status_code == 200 for r in responses), [r.text for r in responses]
    seqs = sorted(r.json()["seq"] for r in responses)
    assert seqs == list(range(5, 25))
    events = httpx.get(f"{live_server.url}/api/tables/{tid}/events?after=0", headers=auth(gm)).json()[
        "events"
    ]
    assert [e["seq"] for e in events] == list(range(1, 25))
    assert sorted(e["data"]["seat"] for e in events[4:]) == sorted(i % 2 for i in range(20))


def test_twenty_clients_racing_for_one_turn(live_server: LiveServer) -> None:
    table = create(live_server)
    tid, token = table["table_id"], table["seats"][0]["token"]
    view = httpx.get(f"{live_server.url}/api/tables/{tid}/view", headers=auth(token)).json()
    options = [c["command"] for p in view["prompts"] for c in p["choices"]]

    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as client:
            return await asyncio.gather(
                *(
                    client.post(
                        f"/api/tables/{tid}/commands",
                        json=options[i % len(options)] | {"command_id": f"turn-{i}"},
                        headers=auth(token),
                    )
                    for i in range(20)
                )
            )

    responses = asyncio.run(race())
    codes = sorted(r.status_code for r in responses)
    assert codes.count(200) == 1 and codes.count(409) == 19, [r.text for r in responses]
    assert all(r.json()["error"]["code"] == "taken" for r in responses if r.status_code == 409)
    summary = httpx.get(f"{live_server.url}/api/tables/{tid}").json()
    winner = next(r for r in responses if r.status_code == 200).json()
    assert summary["seq"] == winner["seq"] and summary["waiting_for"] == [1]


def test_websocket_delivers_each_event_once_in_order(live_server: LiveServer) -> None:
    table = create(live_server)
    with (
        open_ws(live_server, table, after=0) as spectator,
        open_ws(live_server, table, after=4, token=table["seats"][0]["token"]) as player,
    ):
        opening = frames_until(spectator, 4)
        assert [e["seq"] for e in opening] == [1, 2, 3, 4]
        assert opening[1]["data"] == {"order": 12}  # the deck order stays hidden
        for i in range(10):
            assert post(live_server, table, gift(i), table["gm_token"]).status_code == 200
        assert [e["seq"] for e in frames_until(spectator, 14)] == list(range(5, 15))
        assert [e["seq"] for e in frames_until(player, 14)] == list(range(5, 15))
        with pytest.raises(TimeoutError):
            spectator.recv(timeout=0.3)  # nothing more, nothing twice


def test_resume_after_a_dropped_socket_gets_exactly_what_was_missed(live_server: LiveServer) -> None:
    table = create(live_server)
    with open_ws(live_server, table, after=4) as ws:
        post(live_server, table, gift(1), table["gm_token"])
        assert [e["seq"] for e in frames_until(ws, 5)] == [5]
    for i in range(2, 6):
        post(live_server, table, gift(i), table["gm_token"])
    with open_ws(live_server, table, after=5) as again:
        assert [e["seq"] for e in frames_until(again, 9)] == [6, 7, 8, 9]
        post(live_server, table, gift(9), table["gm_token"])
        assert [e["seq"] for e in frames_until(again, 10)] == [10]


def test_socket_errors_close_with_a_reason(live_server: LiveServer) -> None:
    with connect(f"{live_server.ws_url}/ws/tables/nope", open_timeout=10) as ws:
        frame = json.loads(ws.recv(timeout=10))
        assert frame["error"]["code"] == "not_found"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == 4404
    table = create(live_server)
    with connect(f"{live_server.ws_url}/ws/tables/{table['table_id']}?token=forged", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["error"]["code"] == "token_invalid"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == 4401


def test_a_server_restarted_mid_game_loses_nothing(db_url: str, tmp_path: Any) -> None:
    server = LiveServer(db_url, log_path=tmp_path / "server.log").start()
    try:
        table = create(server, seats=2)
        tokens = [s["token"] for s in table["seats"]]
        tid = table["table_id"]
        for _ in range(6):  # a few real turns
            summary = httpx.get(f"{server.url}/api/tables/{tid}").json()
            seat = summary["waiting_for"][0]
            view = httpx.get(f"{server.url}/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
            assert post(server, table, first_choice(view, seat), tokens[seat]).status_code == 200
        before = httpx.get(f"{server.url}/api/tables/{tid}/view", headers=auth(table["gm_token"])).json()
        server.kill()  # as a crash would
        server = LiveServer(db_url, port=server.port, log_path=tmp_path / "server.log").start()
        after = httpx.get(f"{server.url}/api/tables/{tid}/view", headers=auth(table["gm_token"])).json()
        assert after == before
        with open_ws(server, table, after=before["seq"] - 2) as ws:
            assert [e["seq"] for e in frames_until(ws, before["seq"])] == [before["seq"] - 1, before["seq"]]
            seat = after["waiting_for"][0]
            view = httpx.get(f"{server.url}/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
            result = post(server, table, first_choice(view, seat), tokens[seat]).json()
            assert result["seq"] > before["seq"]
            assert frames_until(ws, result["seq"])[-1]["seq"] == result["seq"]
    finally:
        server.stop()


@pytest.mark.postgres
def test_two_processes_serve_one_table(pg_url: str, tmp_path: Any) -> None:
    a = LiveServer(pg_url, log_path=tmp_path / "a.log").start()
    b = LiveServer(pg_url, log_path=tmp_path / "b.log").start()
    try:
        table = create(a, target=60)
        with open_ws(b, table, after=4) as on_b, open_ws(a, table, after=4) as on_a:
            for i in range(10):
                server = (a, b)[i % 2]
                response = post(server, table, gift(i, i % 2), table["gm_token"])
                assert response.status_code == 200, response.text
                assert response.json()["seq"] == 5 + i
            assert [e["seq"] for e in frames_until(on_b, 14)] == list(range(5, 15))
            assert [e["seq"] for e in frames_until(on_a, 14)] == list(range(5, 15))

            async def race() -> list[httpx.Response]:
                async with httpx.AsyncClient(timeout=30) as client:
                    return await asyncio.gather(
                        *(
                            client.post(
                                f"{(a, b)[i % 2].url}/api/tables/{table['table_id']}/commands",
                                json=gift(100 + i, i % 2),
                                headers=auth(table["gm_token"]),
                            )
                            for i in range(20)
                        )
                    )

            responses = asyncio.run(race())
            assert all(r.status_code == 200 for r in responses), [r.text for r in responses]
            assert sorted(r.json()["seq"] for r in responses) == list(range(15, 35))
            assert [e["seq"] for e in frames_until(on_b, 34)] == list(range(15, 35))
            assert [e["seq"] for e in frames_until(on_a, 34)] == list(range(15, 35))
        # a retry sent to the other process is still the same command
        again = post(b, table, gift(100, 0), table["gm_token"])
        assert again.json()["replayed"] is True
    finally:
        a.stop()
        b.stop()
