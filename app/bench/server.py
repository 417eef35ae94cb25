"""The server side of the live benches: a real ``umbra serve`` process of this checkout on
a loopback port, its CPU time from ``/proc``, and the database settings it runs with."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from app.bench.databases import ROOT, postgres_settings, sqlite_settings

BENCH_GAMES = ("app.bench.pulse",)
"""Modules the bench server always imports: the bench-only game Pulse."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spawn_serve(
    port: int, database_url: str, log: IO[bytes] | int, *, workers: int = 1, processes: int = 1, **env: str
) -> subprocess.Popen[bytes]:
    """``python -m app.cli serve`` of this checkout on a loopback ``port``, in test mode,
    with ``workers`` worker processes or ``processes`` serving processes behind nginx,
    ``env`` over this process's environment and its output to ``log``."""
    full = dict(os.environ)
    path = [str(ROOT), *([full["PYTHONPATH"]] if full.get("PYTHONPATH") else [])]
    full.update(
        {"DATABASE_URL": database_url, "UMBRA_TEST_MODE": "1", "PYTHONPATH": os.pathsep.join(path), **env}
    )
    command = [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--log-level", "warning"]
    if workers != 1:
        command += ["--workers", str(workers)]
    if processes != 1:
        command += ["--processes", str(processes)]
    return subprocess.Popen(command, cwd=ROOT, env=full, stdout=log, stderr=subprocess.STDOUT)


def stop_process(proc: subprocess.Popen[bytes] | None, timeout: float) -> None:
    """Ask a running ``proc`` to end (SIGTERM), and kill it if it has not within ``timeout`` s."""
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout)


def extra_game_modules() -> tuple[str, ...]:
    """The bench game and every module ``UMBRA_EXTRA_GAMES`` names (comma-separated): the
    server imports them for their games, and so does the bench, to know those games."""
    named = [m.strip() for m in os.environ.get("UMBRA_EXTRA_GAMES", "").split(",") if m.strip()]
    return tuple(dict.fromkeys([*BENCH_GAMES, *named]))


def import_extra_games() -> tuple[str, ...]:
    """Import ``extra_game_modules()`` here, from this checkout as the server does (its
    ``PYTHONPATH`` starts with the checkout, so a test module such as
    ``tests.support.lanterns`` is found by both), and return their names."""
    modules = extra_game_modules()
    if str(ROOT) not in sys.path:
        sys.path.append(str(ROOT))
    from app.kernel.game import Game
    from app.kernel.registry import register

    for name in modules:
        module = importlib.import_module(name)
        # A game registers itself when its module is first imported; register it again in
        # case it was unregistered since (the tests take the bench's games out afterwards).
        for value in vars(module).values():
            if isinstance(value, Game) and not isinstance(value, type):
                register(value)
    return modules


class Server:
    """``python -m app.cli serve`` on a free loopback port, with the extra games imported."""

    def __init__(
        self,
        database_url: str,
        log_path: Path,
        extra_games: Sequence[str] = BENCH_GAMES,
        *,
        workers: int = 1,
        processes: int = 1,
        env: dict[str, str] | None = None,
    ) -> None:
        self.database_url = database_url
        self.log_path = log_path
        self.extra_games = tuple(extra_games)
        self.workers = workers
        self.processes = processes
        self.env = dict(env or {})
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None, "the server was not started"
        return self.proc.pid

    def start(self) -> None:
        with open(self.log_path, "ab") as log:
            self.proc = spawn_serve(
                self.port,
                self.database_url,
                log,
                workers=self.workers,
                processes=self.processes,
                **{"UMBRA_EXTRA_GAMES": ",".join(self.extra_games), **self.env},
            )

    async def wait_ready(self, client: Any, game: str, timeout: float = 60) -> None:
        """Wait until ``GET /api/games`` answers, and check that it offers ``game``."""
        deadline = time.perf_counter() + timeout
        while True:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}:\n{self.log_tail()}")
            with contextlib.suppress(Exception):
                response = await client.get("/api/games")
                if response.status_code == 200:
                    if not any(g["name"] == game for g in response.json()):
                        raise RuntimeError(f"the server does not offer the game {game}")
                    return
            if time.perf_counter() > deadline:
                raise RuntimeError(f"the server did not answer within {timeout:g} s:\n{self.log_tail()}")
            await asyncio.sleep(0.1)

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        stop_process(self.proc, 15)


def cpu_seconds(pid: int, *, children: bool = False) -> float:
    """User + system CPU time of process ``pid`` (all its threads), from /proc; with
    ``children``, plus that of every live process below it (``umbra serve --workers N``'s
    workers; ``--processes N``'s serving processes, nginx and nginx's worker)."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2 :].split()
    total = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    if children:
        for child in child_pids(pid):
            with contextlib.suppress(OSError):
                total += cpu_seconds(child, children=True)
    return total


def tree_cpu_by_name(pid: int) -> dict[str, float]:
    """CPU seconds of ``pid`` and every live process below it, by process name (``/proc``
    ``comm``: "python" for the serving processes and the supervisor, "nginx" for nginx)."""
    out: dict[str, float] = {}
    stack = [pid]
    while stack:
        current = stack.pop()
        with contextlib.suppress(OSError):
            name = Path(f"/proc/{current}/comm").read_text().strip()
            kind = "nginx" if name.startswith("nginx") else "python"
            out[kind] = out.get(kind, 0.0) + cpu_seconds(current)
            stack += child_pids(current)
    return out


def child_pids(pid: int) -> list[int]:
    """The live processes whose parent is ``pid``."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                text = Path(f"/proc/{entry.name}/stat").read_text()
                if int(text[text.rindex(")") + 2 :].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


def postmaster_pid(url: str) -> int | None:
    """The pid of the PostgreSQL postmaster behind ``url`` when it runs on this machine."""
    from app.store.urls import is_postgres, libpq_dsn

    if not is_postgres(url):
        return None
    try:
        import psycopg

        with psycopg.connect(libpq_dsn(url), autocommit=True, connect_timeout=10) as conn:
            row = conn.execute("SELECT pg_backend_pid()").fetchone()
            # Read while the backend lives: its parent is the postmaster.
            text = Path(f"/proc/{int(row[0]) if row else 0}/stat").read_text()
        return int(text[text.rindex(")") + 2 :].split()[1])
    except Exception:  # not local, or not readable: no figure rather than a wrong one
        return None


def postgres_cpu(url: str) -> Callable[[], float | None]:
    """A probe of the CPU seconds of the PostgreSQL behind ``url`` (its postmaster, the
    children it reaped, every live backend), when it runs on this machine; else a probe
    that answers None."""
    postmaster = postmaster_pid(url)
    if postmaster is None:
        return lambda: None

    def probe() -> float | None:
        """CPU seconds of the postmaster, its reaped children and its live ones."""
        try:
            text = Path(f"/proc/{postmaster}/stat").read_text()
            fields = text[text.rindex(")") + 2 :].split()
            reaped = (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
            return cpu_seconds(postmaster, children=True) + reaped
        except OSError:
            return None

    return probe


async def database_settings(url: str) -> str:
    """One line on the database the server runs on (version, journal or fsync settings)."""
    from app.store import EventStore
    from app.store.urls import is_postgres

    if is_postgres(url):
        return await asyncio.to_thread(postgres_settings, url)
    store = EventStore(url)
    try:
        return await sqlite_settings(store.engine)
    finally:
        await store.close()
