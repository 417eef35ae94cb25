"""Issue 10, item 6: ``umbra serve --workers N``. On PostgreSQL, N processes behind one port
serve any table (they hear each other's commits by LISTEN/NOTIFY): commands sent over fresh
connections land on both, every viewer on either gets every event once and in order, and a
command retried on the other worker lands once. With SQLite the server refuses to start
more than one process, saying why."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from app.bench.server import free_port, spawn_serve, stop_process
from app.cli import main
from tests.conftest import TEST_GAMES
from tests.live.test_live import frames_until
from tests.support.tables import auth, create_body, first_choice


def fresh(url: str) -> httpx.Client:
    """A client that opens a new connection per request, so the kernel hands each to
    whichever worker accepts first."""
    return httpx.Client(base_url=url, timeout=10, limits=httpx.Limits(max_keepalive_connections=0))


@pytest.fixture
def two_workers(pg_url: str, tmp_path: Path) -> Iterator[str]:
    port = free_port()
    log_path = tmp_path / "server.log"
    log = open(log_path, "ab")  # noqa: SIM115
    proc = spawn_serve(port, pg_url, log, workers=2, UMBRA_EXTRA_GAMES=",".join(TEST_GAMES))
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        pids: set[int] = set()
        with fresh(url) as client:
            while len(pids) < 2:  # both workers up and answering
                assert proc.poll() is None, log_path.read_text()
                assert time.monotonic() < deadline, f"workers seen: {pids}\n{log_path.read_text()}"
                try:
                    pids.add(client.get("/healthz").json()["pid"])
                except (httpx.HTTPError, ValueError, KeyError):
                    time.sleep(0.1)
        yield url
    finally:
        stop_process(proc, 20)
        log.close()


def workers_holding(url: str, tries: int = 60) -> dict[int, int]:
    """Each worker's pid and the tables it holds in memory (asked until both answered)."""
    seen: dict[int, int] = {}
    with fresh(url) as client:
        for _ in range(tries):
            health = client.get("/healthz").json()
            seen[health["pid"]] = health["tables_loaded"]
            if len(seen) == 2:
                break
    return seen


@pytest.mark.postgres
def test_two_workers_serve_one_table(two_workers: str) -> None:
    url = two_workers
    ws_url = url.replace("http://", "ws://")
    table = httpx.post(
        f"{url}/api/tables", json=create_body(seats=3, target=60, deck="long"), timeout=10
    ).json()
    tid, tokens = table["table_id"], [s["token"] for s in table["seats"]]
    start = httpx.get(f"{url}/api/tables/{tid}", timeout=10).json()["seq"]
    with ExitStack() as stack:
        viewers = []
        for _ in range(6):  # six sockets: the kernel spreads them over the two workers
            ws = stack.enter_context(connect(f"{ws_url}/ws/tables/{tid}?after={start}", open_timeout=10))
            assert json.loads(ws.recv(timeout=10))["type"] == "hello"
            viewers.append(ws)
        final, replays = start, 0
        with fresh(url) as client:
            for _ in range(30):
                summary = client.get(f"/api/tables/{tid}").json()
                if summary["status"] != "running":
                    break
                # A worker that has not yet heard the last commit (NOTIFY is asynchronous)
                # answers with the state before it: ask until a view has reached it.
                seat = summary["waiting_for"][0]
                for _ in range(200):
                    view = client.get(f"/api/tables/{tid}/view", headers=auth(tokens[seat])).json()
                    if view["seq"] >= final and seat in view["waiting_for"]:
                        break
                    if view["seq"] >= final and view["waiting_for"]:
                        seat = view["waiting_for"][0]
                    time.sleep(0.02)
                command = first_choice(view, seat)
                answer = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(tokens[seat]))
                assert answer.status_code == 200, answer.text
                final = answer.json()["seq"]
                # The same command again, on whichever worker takes the new connection.
                again = client.post(f"/api/tables/{tid}/commands", json=command, headers=auth(tokens[seat]))
                assert again.status_code == 200, again.text
                assert again.json()["replayed"] and again.json()["seq"] == final
                replays += 1
        assert final > start + 10
        for ws in viewers:
            assert [e["seq"] for e in frames_until(ws, final, timeout=20)] == list(
                range(start + 1, final + 1)
            )
    holding = workers_holding(url)
    assert len(holding) == 2 and all(count >= 1 for count in holding.values()), holding


def test_more_than_one_worker_is_refused_with_sqlite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'umbra.db'}")
    assert main(["serve", "--workers", "2", "--port", str(free_port())]) == 2
    err = capsys.readouterr().err
    assert "--workers 2 needs PostgreSQL" in err and "SQLite" in err
    assert not (tmp_path / "umbra.db").exists()  # refused before anything was done


def clients_per_worker(url: str, tries: int = 40) -> dict[int, httpx.Client]:
    """One kept-alive client per worker (a client keeps its one connection, so it stays on
    the worker that accepted it), found by asking each new client for the worker's pid."""
    found: dict[int, httpx.Client] = {}
    for _ in range(tries):
        client = httpx.Client(base_url=url, timeout=10, limits=httpx.Limits(max_connections=1))
        pid = client.get("/healthz").json()["pid"]
        if pid in found:
            client.close()
        else:
            found[pid] = client
        if len(found) == 2:
            return found
    for client in found.values():
        client.close()
    raise AssertionError(f"one client per worker not found in {tries} tries: {sorted(found)}")


@pytest.mark.postgres
def test_a_view_after_your_command_is_never_older_than_it_on_either_worker(two_workers: str) -> None:
    """Issue 10: read your writes. A command committed through one worker, then
    ``GET /view?after=<its seq>`` through the other at once: the view is at that seq or
    later every time (the other worker has not necessarily heard the NOTIFY yet)."""
    table = httpx.post(
        f"{two_workers}/api/tables", json=create_body(seats=2, target=60, deck="long"), timeout=10
    ).json()
    tid, tokens = table["table_id"], [s["token"] for s in table["seats"]]
    workers = clients_per_worker(two_workers)
    writer, reader = workers.values()
    try:
        view = writer.get(f"/api/tables/{tid}/view", headers=auth(tokens[0])).json()
        for round_ in range(24):
            if round_ % 2:  # each worker in turn writes, the other reads
                writer, reader = reader, writer
            seat = view["waiting_for"][0]
            answer = writer.post(
                f"/api/tables/{tid}/commands", json=first_choice(view, seat), headers=auth(tokens[seat])
            )
            assert answer.status_code == 200, answer.text
            seq = answer.json()["seq"]
            got = reader.get(f"/api/tables/{tid}/view", params={"after": seq}, headers=auth(tokens[seat]))
            assert got.status_code == 200, got.text
            view = got.json()
            assert view["seq"] >= seq, (round_, view["seq"], seq)
            if view["waiting_for"] and view["waiting_for"][0] != seat:  # the next seat's prompts
                seat = view["waiting_for"][0]
                view = reader.get(
                    f"/api/tables/{tid}/view", params={"after": seq}, headers=auth(tokens[seat])
                ).json()
                assert view["seq"] >= seq, (round_, view["seq"], seq)
            if view["outcome"] is not None:
                break
        # A seq the table never reached: a precise 409 after the bounded wait, nothing else.
        ahead = reader.get(f"/api/tables/{tid}/view", params={"after": view["seq"] + 50})
        assert ahead.status_code == 409, ahead.text
        assert ahead.json()["error"]["code"] == "seq_not_reached"
    finally:
        for client in workers.values():
            client.close()
