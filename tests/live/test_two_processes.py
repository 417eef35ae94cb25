"""Issue 8, item 8: two processes on one PostgreSQL. A command chosen from a view one
process served and sent to the other, which has not caught up yet, is decided on fresh
state (caught up first), never refused as stale; every viewer on either process receives
every event once and in order."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import LiveServer
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
