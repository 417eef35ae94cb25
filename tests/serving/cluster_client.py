"""A real ``umbra serve --processes N`` for the tests (PostgreSQL, nginx in front), and a
careful client: commands retried with their ``command_id`` until acknowledged, and a
websocket viewer that resumes from its last seq after its process dies."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from app.serving.cluster import find_nginx, free_port

ROOT = Path(__file__).resolve().parents[2]


def nginx_missing() -> str | None:
    try:
        find_nginx()
    except Exception as err:  # ClusterError: the reason
        return str(err)
    return None


class Cluster:
    """``umbra serve --processes n`` of this checkout on a free port."""

    def __init__(self, database_url: str, processes: int, log: Path, **env: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        env = dict(os.environ, DATABASE_URL=database_url, UMBRA_TEST_MODE="1", PYTHONPATH=str(ROOT), **env)
        command = [sys.executable, "-m", "app.cli", "serve", "--processes", str(processes)]
        command += ["--port", str(self.port), "--log-level", "warning"]
        self.out = log.open("wb")
        self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self.out, stderr=subprocess.STDOUT)
        self.ports = self._member_ports()
        self.wait_ready()

    def _member_ports(self, timeout: float = 60.0) -> list[int]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            said = self.log.read_text(errors="replace")
            found = re.search(r"processes on 127\.0\.0\.1 ports ([\d, ]+),", said)
            if found:
                return [int(p) for p in found.group(1).split(", ")]
            if self.proc.poll() is not None:
                raise RuntimeError(f"umbra serve --processes ended: {self.log.read_text()[-2000:]}")
            time.sleep(0.1)
        raise RuntimeError("umbra serve --processes did not say its ports")

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        for port in self.ports:
            while not self.health(port):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"process on {port} not ready: {self.log.read_text()[-2000:]}")
                time.sleep(0.1)

    def health(self, port: int) -> dict[str, Any] | None:
        """A serving process's own ``/healthz`` (straight to it, past nginx), None while down."""
        with contextlib.suppress(httpx.HTTPError):
            r = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
            if r.status_code == 200:
                return r.json()
        return None

    def owner(self) -> dict[str, Any]:
        """The health of the one process holding viewers now (a test opens viewers of one table)."""
        holding = [h for p in self.ports if (h := self.health(p)) and h["viewers"]]
        assert len(holding) == 1, f"viewers in {len(holding)} processes"
        return holding[0]

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(30)
        finally:
            self.out.close()


class Player:
    """One seat's careful client through nginx: every command carries a ``command_id`` and
    is sent again (same id) until the table answers it, as a browser retrying would."""

    def __init__(self, base: str, table_id: str, token: str) -> None:
        self.base, self.table_id, self.token = base, table_id, token
        self.acknowledged: list[int] = []

    def view(self) -> dict[str, Any]:
        return self._retry("GET", f"/api/tables/{self.table_id}/view")

    def play_one(self) -> dict[str, Any]:
        """The first choice of the seat's first required prompt, sent until acknowledged."""
        view = self.view()
        prompt = next(p for p in view["prompts"] if p.get("required", True) and p["choices"])
        command = dict(prompt["choices"][0]["command"], command_id=uuid.uuid4().hex, seq=view["seq"])
        answer = self._retry("POST", f"/api/tables/{self.table_id}/commands", command)
        self.acknowledged.append(answer["seq"])
        return answer

    def events(self) -> list[dict[str, Any]]:
        return self._retry("GET", f"/api/tables/{self.table_id}/events?after=0")["events"]

    def _retry(self, method: str, path: str, body: Any = None, timeout: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                auth = {"Authorization": f"Bearer {self.token}"}
                r = httpx.request(method, self.base + path, json=body, timeout=5, headers=auth)
                if r.status_code < 500:
                    assert r.status_code < 300, r.text
                    return r.json()
            except httpx.HTTPError:
                pass  # the process died mid-request: the same command again, with its id
            if time.monotonic() > deadline:
                raise TimeoutError(f"{method} {path} unanswered for {timeout} s")
            time.sleep(0.1)


class Viewer(threading.Thread):
    """A websocket viewer through nginx that keeps every event's seq and, when its socket
    closes (its process died), connects again with ``after`` = the last seq it saw."""

    def __init__(self, base: str, table_id: str, token: str) -> None:
        super().__init__(daemon=True)
        self.url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
        self.token = token
        self.seqs: list[int] = []
        self.connections = 0
        self.connected = threading.Event()
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            after = self.seqs[-1] if self.seqs else 0
            try:
                with connect(f"{self.url}?after={after}&token={self.token}", open_timeout=5) as ws:
                    self.connections += 1
                    self.connected.set()
                    while not self.done.is_set():
                        with contextlib.suppress(TimeoutError):
                            frame = json.loads(ws.recv(timeout=0.2))
                            if frame.get("type") == "events":
                                self.seqs += [e["seq"] for e in frame["events"]]
            except Exception:  # closed by a dying process, or refused while it restarts
                self.connected.clear()
                time.sleep(0.2)

    def stop(self) -> None:
        self.done.set()
        self.join(10)


@contextlib.contextmanager
def cluster(database_url: str, processes: int, log: Path, **env: str) -> Iterator[Cluster]:
    running = Cluster(database_url, processes, log, **env)
    try:
        yield running
    finally:
        running.stop()
