"""The fork server behind the tests' ``LiveServer`` (tests/server_fork.py) behaves as the
``umbra serve`` process it stands for: it serves with the environment it was given, its
exit code and a SIGKILL are seen as a ``Popen``'s would be, and a server that cannot start
says so."""

from __future__ import annotations

import signal
from pathlib import Path

import httpx
import pytest

from tests import server_fork
from tests.conftest import LiveServer


def test_a_forked_server_serves_and_dies_by_sigkill(tmp_path: Path) -> None:
    server = LiveServer(f"sqlite:///{tmp_path / 'umbra.db'}", log_path=tmp_path / "server.log").start()
    try:
        if server_fork.enabled():
            assert isinstance(server.proc, server_fork.ForkedProcess)
        games = httpx.get(f"{server.url}/api/games", timeout=10)
        assert games.status_code == 200
        assert "lanterns" in games.text  # UMBRA_EXTRA_GAMES reached it
        assert server.proc is not None and server.proc.poll() is None
        server.kill()
        assert server.proc.returncode == -signal.SIGKILL
    finally:
        server.stop()
    assert "serving on" in (tmp_path / "server.log").read_text()


def test_a_server_that_cannot_start_says_so(tmp_path: Path) -> None:
    dead_end = "postgresql://nobody@127.0.0.1:1/nothing"  # nothing listens on port 1
    with pytest.raises(RuntimeError, match=r"umbra serve exited with [1-9]"):
        LiveServer(dead_end, log_path=tmp_path / "server.log").start()
    assert "Traceback" in (tmp_path / "server.log").read_text()


def test_a_port_another_server_answers_on_is_not_taken_for_ours(tmp_path: Path) -> None:
    """Two xdist workers' servers may be handed one free port: the one that loses the bind
    must not take the winner's answers for its own (its test would lose that server when the
    other test ends), but start again on another port."""
    first = LiveServer(f"sqlite:///{tmp_path / 'first.db'}", log_path=tmp_path / "first.log").start()
    try:
        second_db = f"sqlite:///{tmp_path / 'second.db'}"
        second = LiveServer(second_db, port=first.port, log_path=tmp_path / "second.log")
        second.port_chosen = True  # as if free_port had handed it the port the first one holds
        second.start()
        try:
            assert second.port != first.port
            assert httpx.get(f"{second.url}/healthz", timeout=10).json()["pid"] == second.proc.pid
        finally:
            second.stop()
    finally:
        first.stop()
