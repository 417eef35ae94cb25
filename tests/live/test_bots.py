"""Bot seats against a real uvicorn server, on SQLite and PostgreSQL: the bot's move is
pushed to a websocket after a person's, an all-bot table plays to its end, a killed and
restarted server resumes the bots by itself, and two processes driving the same bots
never make a move twice."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest

from app.store import EventStore
from tests.conftest import LiveServer
from tests.live.test_live import create, frames_until, open_ws, post
from tests.support.tables import auth, first_choice


def hand_to_bot(server: LiveServer, table: dict[str, Any], seat: int, on: bool = True) -> dict[str, Any]:
    response = httpx.post(
        f"{server.url}/api/tables/{table['table_id']}/seats/{seat}/bot",
        json={"on": on},
        headers=auth(table["gm_token"]),
        timeout=10,
    )
    assert response.status_code == 200, response.text
    return response.json()


def summary(server: LiveServer, table: dict[str, Any]) -> dict[str, Any]:
    return httpx.get(f"{server.url}/api/tables/{table['table_id']}", timeout=10).json()


def wait_until_finished(server: LiveServer, table: dict[str, Any], timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        current = summary(server, table)
        if current["status"] == "finished":
            return current
        time.sleep(0.1)
    raise AssertionError(f"the bots did not finish the game: {summary(server, table)}")


def stored_seq(database_url: str, table_id: str) -> int:
    """Where the log ends, read from the store itself (no request loads the table)."""

    async def read() -> int:
        store = EventStore(database_url)
        try:
            return await store.last_seq(table_id)
        finally:
            await store.close()

    return asyncio.run(read())


def check_log(server: LiveServer, table: dict[str, Any]) -> list[dict[str, Any]]:
    """Each bot command was decided on the state it was chosen from (``bot-<seq>-<seat>``
    starts at seq + 1) and none was made twice."""
    events = httpx.get(
        f"{server.url}/api/tables/{table['table_id']}/export", headers=auth(table["gm_token"]), timeout=10
    ).json()["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    seqs: dict[str, list[int]] = {}
    for event in events:
        if event["command_id"]:
            seqs.setdefault(event["command_id"], []).append(event["seq"])
    for command_id, run in seqs.items():
        assert run == list(range(run[0], run[0] + len(run))), (command_id, run)  # one commit
        if command_id.startswith("bot-"):
            _, seq, _seat = command_id.split("-")
            assert run[0] == int(seq) + 1, (command_id, run)
    return events


def test_the_bot_answers_over_the_websocket(live_server: LiveServer) -> None:
    table = create(live_server)
    tid, token = table["table_id"], table["seats"][0]["token"]
    assert hand_to_bot(live_server, table, 1)["seats"][1]["bot"] is True
    with open_ws(live_server, table, after=4) as ws:
        for _ in range(3):
            view = httpx.get(f"{live_server.url}/api/tables/{tid}/view", headers=auth(token)).json()
            started = time.monotonic()
            moved = post(live_server, table, first_choice(view, 0), token).json()
            events = frames_until(ws, moved["seq"] + 1, timeout=5)
            bot = [e for e in events if e["seq"] > moved["seq"]]
            assert bot and {e["actor"] for e in bot} == {"seat:1"}
            assert time.monotonic() - started < 5
            assert summary(live_server, table)["waiting_for"] == [0]
    check_log(live_server, table)


def test_an_all_bot_table_plays_to_its_end(live_server: LiveServer) -> None:
    table = create(live_server, seats=3)
    for seat in range(3):
        hand_to_bot(live_server, table, seat)
    final = wait_until_finished(live_server, table)
    assert final["outcome"]["result"] in ("win", "draw")
    check_log(live_server, table)


def stored_status(database_url: str, table_id: str) -> str:
    """The table's status as the store holds it (no request loads the table)."""

    async def read() -> str:
        store = EventStore(database_url)
        try:
            record = await store.table(table_id)
            assert record is not None
            return record.status
        finally:
            await store.close()

    return asyncio.run(read())


def test_a_restarted_server_resumes_the_bots(db_url: str, tmp_path: Any) -> None:
    server = LiveServer(db_url, log_path=tmp_path / "server.log").start()
    try:
        # The bots play instantly: on a starved machine they may finish the game before this
        # process gets to kill the server. Such a run proves nothing, so it plays a new table.
        for _attempt in range(3):
            table = create(server, seats=2, target=60, deck="long", hand_size=1)
            tid = table["table_id"]
            # A few ms a move (the game master's pace): a fast server otherwise plays the
            # whole game between two looks at the seq.
            pace = {"seat": "gm", "type": "bot_pace", "args": {"seconds": 0.01}, "command_id": f"pace-{tid}"}
            paced = httpx.post(
                f"{server.url}/api/tables/{tid}/commands", json=pace, headers=auth(table["gm_token"])
            )
            assert paced.status_code == 200, paced.text
            for seat in range(2):
                hand_to_bot(server, table, seat)
            deadline = time.monotonic() + 20
            while summary(server, table)["seq"] < 20:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            server.kill()  # as a crash would, mid-game
            killed_at = stored_seq(db_url, tid)
            assert killed_at >= 20
            server = LiveServer(db_url, port=server.port, log_path=tmp_path / "server.log").start()
            if stored_status(db_url, tid) == "running":
                break
        else:
            raise AssertionError("each game ended before the server could be killed mid-game")
        # Nobody asks for the table: the server resumes its bots by itself.
        deadline = time.monotonic() + 20
        while stored_seq(db_url, tid) <= killed_at:
            assert time.monotonic() < deadline, "the bots did not resume after the restart"
            time.sleep(0.1)
        wait_until_finished(server, table)
        check_log(server, table)
    finally:
        server.stop()


@pytest.mark.postgres
def test_two_processes_drive_the_same_bots_once(pg_url: str, tmp_path: Any) -> None:
    a = LiveServer(pg_url, log_path=tmp_path / "a.log").start()
    b = LiveServer(pg_url, log_path=tmp_path / "b.log").start()
    try:
        table = create(a, seats=2, target=60, deck="long", hand_size=1)
        summary(b, table)  # b loads the table too
        for seat in range(2):
            hand_to_bot((a, b)[seat], table, seat)
        wait_until_finished(a, table)
        assert summary(b, table)["status"] == "finished"
        check_log(a, table)
    finally:
        a.stop()
        b.stop()
