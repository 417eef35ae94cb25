"""Issue 8, item 8: two processes on one PostgreSQL. A command chosen from a view one
process served and sent to the other, which has not caught up yet, is decided on fresh
state (caught up first), never refused as stale; every viewer on either process receives
every event once and in order."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.store.migrate import upgrade
from tests.conftest import LiveServer, make_settings
from tests.live.test_live import frames_until, open_ws
from tests.support.tables import auth, create_body, first_choice

pytestmark = pytest.mark.postgres


@pytest.fixture
def two_servers(pg_url: str, tmp_path: Path) -> Iterator[tuple[LiveServer, LiveServer]]:
    a = LiveServer(pg_url, log_path=tmp_path / "a.log").start()
    b = LiveServer(pg_url, log_path=tmp_path / "b.log").start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def test_commands_chosen_on_one_process_are_decided_fresh_on_the_other(two_servers: Any) -> None:
    a, b = two_servers
    created = httpx.post(f"{a.url}/api/tables", json=create_body(seats=3, target=60, deck="long"), timeout=10)
    table = created.json()
    tid, tokens = table["table_id"], [s["token"] for s in table["seats"]]
    start = httpx.get(f"{a.url}/api/tables/{tid}", timeout=10).json()["seq"]
    httpx.get(f"{b.url}/api/tables/{tid}", timeout=10)  # both processes hold the table
    with ExitStack() as stack:
        viewers = {
            name: stack.enter_context(open_ws(server, table, start)) for name, server in (("a", a), ("b", b))
        }
        final = play_across(a, b, tid, tokens, start)
        received = {name: frames_until(ws, final, timeout=20) for name, ws in viewers.items()}
    for name, events in received.items():
        assert [e["seq"] for e in events] == list(range(start + 1, final + 1)), name


def play_across(a: LiveServer, b: LiveServer, tid: str, tokens: list[str], start: int) -> int:
    """30 moves, each chosen from one process's view and sent to the other."""
    final = start
    refused = []
    with httpx.Client(timeout=10) as http:
        for move in range(30):
            chooser, sender = (a, b) if move % 2 == 0 else (b, a)
            waiting = http.get(f"{chooser.url}/api/tables/{tid}", timeout=10).json()
            if waiting["status"] != "running":
                break
            seat = waiting["waiting_for"][0]
            view = http.get(f"{chooser.url}/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
            command = first_choice(view, seat)
            response = http.post(
                f"{sender.url}/api/tables/{tid}/commands", json=command, headers=auth(tokens[seat])
            )
            if response.status_code != 200:
                refused.append((move, response.status_code, response.text))
                continue
            assert not response.json()["replayed"]
            final = response.json()["seq"]
    assert refused == []
    assert final > start + 20
    return final


def test_a_process_that_hears_nothing_still_decides_fresh_and_delivers(pg_url: str) -> None:
    """Process B's listener is gone (as after a dropped connection): it learns of A's commits
    only when a command chosen from A's newer view reaches it, and then catches up before
    deciding; its viewer still receives every event once, in order (the periodic sweep)."""
    upgrade(pg_url)
    with (
        TestClient(create_app(make_settings(pg_url))) as a,
        TestClient(create_app(make_settings(pg_url))) as b,
    ):
        b.portal.call(b.app.state.hub.listener.stop)
        table = a.post("/api/tables", json=create_body(seats=2, target=60, deck="long")).json()
        tid, tokens = table["table_id"], [s["token"] for s in table["seats"]]
        start = b.get(f"/api/tables/{tid}").json()["seq"]  # B holds the table, at the start
        with b.websocket_connect(f"/ws/tables/{tid}?after={start}") as ws:
            assert ws.receive_json()["type"] == "hello"
            final = start
            for move in range(12):
                chooser, sender = (a, b) if move % 2 == 0 else (b, a)
                seat = chooser.get(f"/api/tables/{tid}").json()["waiting_for"][0]
                view = chooser.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
                if move % 2 == 0:  # A moves on once more before B hears of the choice
                    other = a.post(
                        f"/api/tables/{tid}/commands",
                        json=first_choice(view, seat),
                        headers=auth(tokens[seat]),
                    )
                    assert other.status_code == 200, other.text
                    seat = a.get(f"/api/tables/{tid}").json()["waiting_for"][0]
                    view = a.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
                command = first_choice(view, seat)
                response = sender.post(
                    f"/api/tables/{tid}/commands", json=command, headers=auth(tokens[seat])
                )
                assert response.status_code == 200, (move, response.text)
                final = response.json()["seq"]
            seqs: list[int] = []
            while not seqs or seqs[-1] < final:
                frame = ws.receive_json()
                seqs += [e["seq"] for e in frame["events"]]
        assert seqs == list(range(start + 1, final + 1))


def test_a_seat_handed_over_on_one_process_is_refused_on_the_other(two_servers: Any) -> None:
    """The hand-over is stored with the seat and NOTIFYed: the other process, which holds
    the table already, refuses the old invite with the reason and accepts the new one."""
    a, b = two_servers
    with httpx.Client(timeout=10) as http:
        table = http.post(f"{a.url}/api/tables", json=create_body(seats=2)).json()
        tid, gm, old = table["table_id"], table["gm_token"], table["seats"][0]["token"]
        assert http.get(f"{b.url}/api/tables/{tid}/view", headers=auth(old)).status_code == 200  # b holds it
        handed = http.post(
            f"{a.url}/api/tables/{tid}/seats/0/reissue", json={"name": "Bea"}, headers=auth(gm)
        )
        assert handed.status_code == 201, handed.text
        new = handed.json()["token"]
        deadline = time.monotonic() + 10
        while (refused := http.get(f"{b.url}/api/tables/{tid}/view", headers=auth(old))).status_code == 200:
            assert time.monotonic() < deadline, "process b never heard of the hand-over"
            time.sleep(0.05)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "seat_reissued"
        view = http.get(f"{b.url}/api/tables/{tid}/view", headers=auth(new))
        assert view.status_code == 200 and {p["seat"] for p in view.json()["prompts"]} == {0}
        assert http.get(f"{b.url}/api/tables/{tid}").json()["seats"][0]["name"] == "Bea"
