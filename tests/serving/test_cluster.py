"""``umbra serve --processes 2`` (issue 25): each table lives in one process behind nginx,
and a ``kill -9`` of that process loses nothing: its tables are served again within
seconds, every acknowledged command is in the log, and every viewer resumes from its last
seq and sees each event once, in order."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from tests.serving.cluster_client import Player, Viewer, cluster, nginx_missing

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(240)]

if nginx_missing():
    pytest.skip(f"nginx not installed: {nginx_missing()}", allow_module_level=True)


def new_table(base: str) -> tuple[str, str]:
    """A one-seat Dark Omen Quick Start (one token plays every move): (table id, token)."""
    body = {"game": "dark_omen", "options": {"mode": "quick_chapter"}, "seats": [{"name": "Ann"}]}
    made = httpx.post(f"{base}/api/tables", json=body, timeout=10).json()
    return made["table_id"], made["seats"][0]["token"]


def test_each_table_lives_in_one_process_and_the_tables_spread(pg_url: str, tmp_path: Path) -> None:
    """Every request and websocket of a table reach one process; different tables reach both."""
    with cluster(pg_url, 2, tmp_path / "serve.log") as running:
        owners = set()
        for _ in range(12):
            table_id, token = new_table(running.base)
            viewers = [Viewer(running.base, table_id, token) for _ in range(2)]
            for v in viewers:
                v.start()
            for v in viewers:
                assert v.connected.wait(10)
            Player(running.base, table_id, token).play_one()
            owner = running.owner()  # the viewers are all in one process
            assert owner["viewers"] == 2
            owners.add(owner["pid"])
            for v in viewers:
                v.stop()
            deadline = time.monotonic() + 10
            while any((h := running.health(p)) and h["viewers"] for p in running.ports):
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert len(owners) == 2  # 12 tables all on one of 2 processes: 1 chance in 2,048


def test_a_killed_process_loses_nothing(pg_url: str, tmp_path: Path) -> None:
    with cluster(pg_url, 2, tmp_path / "serve.log") as running:
        table_id, token = new_table(running.base)
        viewer = Viewer(running.base, table_id, token)
        viewer.start()
        assert viewer.connected.wait(10)
        player = Player(running.base, table_id, token)
        for _ in range(5):
            player.play_one()
        owner = running.owner()
        os.kill(owner["pid"], signal.SIGKILL)
        killed_at = time.monotonic()
        player.play_one()  # served again: by the next process on the ring, or the restarted one
        served_again_s = time.monotonic() - killed_at
        for _ in range(10):
            player.play_one()
        assert served_again_s < 10, served_again_s
        # the supervisor restarted the killed process on its port, as a new process
        deadline = time.monotonic() + 20
        restarted = {p: running.health(p) for p in running.ports}
        while any(h is None for h in restarted.values()):
            assert time.monotonic() < deadline, "the killed process was not restarted"
            time.sleep(0.2)
            restarted = {p: running.health(p) for p in running.ports}
        assert owner["pid"] not in {h["pid"] for h in restarted.values() if h}
        # every acknowledged command is in the log, and the viewer saw every event once, in order
        logged = [e["seq"] for e in player.events()]
        assert logged == list(range(1, len(logged) + 1))
        assert set(player.acknowledged) <= set(logged)
        deadline = time.monotonic() + 15
        while viewer.seqs[-1:] != logged[-1:]:
            assert time.monotonic() < deadline, (viewer.seqs[-3:], logged[-3:])
            time.sleep(0.1)
        viewer.stop()
        assert viewer.seqs == logged  # none lost, none twice, none out of order
        assert viewer.connections >= 2  # it resumed after its process died
