"""Issue 10, item 4: under saturation nothing fails. Beyond ``UMBRA_MAX_IN_FLIGHT`` requests
in progress a real server answers 503 ``overloaded`` with ``Retry-After`` at once, keeps
the connection for the retry, and a command retried after it lands exactly once; a burst
far beyond the limit gets only answers (200 or that 503), never a dropped connection."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.bench.server import free_port, spawn_serve, stop_process
from tests.conftest import TEST_GAMES
from tests.support.tables import auth, create_body, first_choice


class Served:
    def __init__(self, url: str) -> None:
        self.url = url


@pytest.fixture
def small_server(tmp_path: Path) -> Iterator[Served]:
    port = free_port()
    log = open(tmp_path / "server.log", "ab")  # noqa: SIM115
    proc = spawn_serve(
        port,
        f"sqlite:///{tmp_path / 'umbra.db'}",
        log,
        UMBRA_EXTRA_GAMES=",".join(TEST_GAMES),
        UMBRA_MAX_IN_FLIGHT="1",
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, (tmp_path / "server.log").read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield Served(f"http://127.0.0.1:{port}")
    finally:
        stop_process(proc, 10)
        log.close()


def in_flight(server: Served) -> int:
    return int(httpx.get(f"{server.url}/healthz", timeout=5).json()["requests_in_flight"])


def test_a_request_over_the_limit_gets_503_with_retry_after_and_its_retry_lands_once(
    small_server: Served,
) -> None:
    url = small_server.url
    table = httpx.post(f"{url}/api/tables", json=create_body(seats=2), timeout=10).json()
    tid, tokens = table["table_id"], [s["token"] for s in table["seats"]]
    view = httpx.get(f"{url}/api/tables/{tid}/view", headers=auth(tokens[0]), timeout=10).json()
    command = first_choice(view, 0)
    body = json.dumps(command).encode()
    host, port = url.removeprefix("http://").split(":")
    # A slow client holds the only slot: its headers are in, its body only half.
    slow = socket.create_connection((host, int(port)), timeout=10)
    try:
        slow.sendall(
            (
                f"POST /api/tables/{tid}/commands HTTP/1.1\r\nHost: {host}\r\n"
                f"Authorization: Bearer {tokens[0]}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n"
            ).encode()
            + body[:5]
        )
        deadline = time.monotonic() + 10
        while in_flight(small_server) != 1:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        with httpx.Client(base_url=url, timeout=10) as client:
            refused = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(tokens[0]))
            assert refused.status_code == 503
            assert refused.headers["retry-after"] == "1"
            assert refused.json()["error"]["code"] == "overloaded"
            assert refused.headers.get("connection", "").lower() != "close"
            slow.sendall(body[5:])
            answer = slow.recv(65536).decode()
            assert answer.startswith("HTTP/1.1 200"), answer
            time.sleep(float(refused.headers["retry-after"]) / 10)  # the slot is free again
            retried = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(tokens[0]))
            assert retried.status_code == 200, retried.text
            assert retried.json()["replayed"] is True
            events = client.get(f"/api/tables/{tid}/events", headers=auth(tokens[0])).json()["events"]
        seqs = [e["seq"] for e in retried.json()["events"]]
        assert [e["seq"] for e in events if e["seq"] in seqs] == seqs  # stored once
        assert httpx.get(f"{url}/healthz", timeout=5).json()["requests_turned_away"] >= 1
    finally:
        slow.close()


def test_a_burst_far_over_the_limit_gets_answers_never_a_dropped_connection(small_server: Served) -> None:
    url = small_server.url
    table = httpx.post(f"{url}/api/tables", json=create_body(seats=2), timeout=10).json()
    tid, token = table["table_id"], table["seats"][0]["token"]

    async def burst() -> list[Any]:
        limits = httpx.Limits(max_connections=60, max_keepalive_connections=60)
        async with httpx.AsyncClient(base_url=url, timeout=20, limits=limits) as client:

            async def one() -> Any:
                return await client.get(f"/api/tables/{tid}/view", headers=auth(token))

            return await asyncio.gather(*(one() for _ in range(120)), return_exceptions=True)

    answers = asyncio.run(burst())
    errors = [a for a in answers if isinstance(a, BaseException)]
    assert errors == []
    assert {a.status_code for a in answers} <= {200, 503}
    for answer in answers:
        if answer.status_code == 503:
            assert answer.headers["retry-after"] == "1"
            assert answer.json()["error"]["code"] == "overloaded"
    assert any(a.status_code == 200 for a in answers)


def test_healthz_tells_the_load_and_the_event_loop_lag(small_server: Served) -> None:
    time.sleep(0.3)  # a few turns of the lag monitor
    health = httpx.get(f"{small_server.url}/healthz", params={"window": 5}, timeout=5).json()
    assert health["max_requests_in_flight"] == 1
    assert health["requests_in_flight"] == 0  # /healthz itself is never counted
    assert health["requests_turned_away"] == 0
    lag = health["loop_lag_ms"]
    assert lag["samples"] > 0 and 0 <= lag["p50"] <= lag["p99"] <= lag["max"]
