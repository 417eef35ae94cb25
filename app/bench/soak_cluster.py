"""The processes ``umbra bench soak`` runs and breaks: its ``umbra serve`` processes, the
throwaway PostgreSQL cluster, and the chaos that kills and restarts them (issue 8).

Each server is its own ``python -m app.cli serve`` process on its own port, so one can be
killed (SIGKILL, as a crash would) and restarted alone on the same port while the other
goes on serving. Every start is an :class:`Incarnation` with its own pid and its own RSS
and open file descriptors, read from ``/proc`` when it is ready and again just before it
is killed or stopped: a restarted process reports its own figures, not its predecessor's.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.bench.server import free_port, spawn_serve

CLOCK = time.monotonic


@dataclass(frozen=True)
class ProcStats:
    rss_kib: int
    fds: int


def proc_stats(pid: int) -> ProcStats | None:
    """RSS (``VmRSS`` of ``/proc/<pid>/status``) and the number of open file descriptors;
    None once the process is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        fds = len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None
    rss = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return ProcStats(rss, fds)


@dataclass
class Incarnation:
    """One start of a server process, from ready to killed or stopped."""

    pid: int
    started_s: float
    start: ProcStats | None = None
    end: ProcStats | None = None
    ended_s: float | None = None
    how: str = "running"


class SoakServer:
    """One ``umbra serve`` process on a fixed loopback port, restartable on that port."""

    def __init__(self, name: str, database_url: str, log_path: Path, bot_delay: float, t0: float) -> None:
        self.name = name
        self.database_url = database_url
        self.log_path = log_path
        self.bot_delay = bot_delay
        self.t0 = t0
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.incarnations: list[Incarnation] = []
        self.down = False
        """True from a chaos kill until the restarted process answers."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def current(self) -> Incarnation | None:
        return self.incarnations[-1] if self.incarnations else None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        with open(self.log_path, "ab") as log:
            log.write(f"--- server {self.name} starting at {CLOCK() - self.t0:.1f} s ---\n".encode())
            log.flush()
            self.proc = spawn_serve(self.port, self.database_url, log, UMBRA_BOT_DELAY=str(self.bot_delay))
        self.incarnations.append(Incarnation(self.proc.pid, CLOCK() - self.t0))

    async def wait_ready(self, timeout: float = 60) -> None:
        """Until ``GET /healthz`` says the process and its database answer; the
        incarnation's starting figures are read then."""
        import httpx

        deadline = CLOCK() + timeout
        async with httpx.AsyncClient(base_url=self.url, timeout=5, trust_env=False) as client:
            while True:
                if not self.alive():
                    assert self.proc is not None
                    raise RuntimeError(
                        f"server {self.name} exited with {self.proc.returncode}:\n{self.log_tail()}"
                    )
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get("/healthz")).status_code == 200:
                        break
                if CLOCK() > deadline:
                    raise RuntimeError(
                        f"server {self.name} did not answer within {timeout:g} s:\n{self.log_tail()}"
                    )
                await asyncio.sleep(0.1)
        incarnation = self.current
        if incarnation is not None and incarnation.start is None and self.proc is not None:
            incarnation.start = proc_stats(self.proc.pid)
        self.down = False

    async def restart(self, attempts: int = 3) -> None:
        """Start a new process on the same port and wait for it (again if it exits early,
        e.g. while its database is still coming back)."""
        for attempt in range(attempts):
            self.start()
            try:
                await self.wait_ready()
                return
            except RuntimeError:
                self._ended("exited before it was ready")
                if attempt == attempts - 1:
                    raise
                await asyncio.sleep(1)

    def kill(self) -> None:
        """SIGKILL, as a crash would: no shutdown, no goodbye to clients or the database."""
        self.down = True
        self._ended("killed by chaos", signal.SIGKILL)

    def stop(self) -> None:
        self.down = True
        self._ended("stopped at the end", signal.SIGTERM)

    def exited_by_itself(self) -> int | None:
        """The exit code if the process ended without the bench asking it to."""
        if self.proc is None or self.down or self.proc.poll() is None:
            return None
        return self.proc.returncode

    def note_exit(self, code: int) -> None:
        self.down = True
        self._ended(f"exited by itself with {code}")

    def _ended(self, how: str, sig: int | None = None) -> None:
        incarnation = self.current
        if incarnation is None or incarnation.ended_s is not None or self.proc is None:
            return
        incarnation.end = proc_stats(self.proc.pid)
        incarnation.ended_s, incarnation.how = CLOCK() - self.t0, how
        if sig is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(15)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(5)

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


class ClusterSoakServer(SoakServer):
    """``umbra serve --processes N`` behind its nginx, as one server to the clients (every
    request and websocket through nginx). Chaos kills one of its serving processes, not the
    whole: its supervisor restarts that process on its port, and meanwhile nginx hands its
    tables to the next process on the ring (issue 25)."""

    def __init__(
        self, name: str, database_url: str, log_path: Path, bot_delay: float, t0: float, processes: int
    ) -> None:
        super().__init__(name, database_url, log_path, bot_delay, t0)
        self.processes = processes
        self.member_ports: list[int] = []
        self.killed: tuple[int, int] | None = None
        """(port, pid) of the serving process chaos killed last, until it is back."""

    def start(self) -> None:
        with open(self.log_path, "ab") as log:
            log.write(f"--- cluster {self.name} starting at {CLOCK() - self.t0:.1f} s ---\n".encode())
            log.flush()
            self.proc = spawn_serve(
                self.port,
                self.database_url,
                log,
                processes=self.processes,
                UMBRA_BOT_DELAY=str(self.bot_delay),
            )
        self.incarnations.append(Incarnation(self.proc.pid, CLOCK() - self.t0))

    async def wait_ready(self, timeout: float = 60) -> None:
        await super().wait_ready(timeout)
        said = re.search(r"processes on 127\.0\.0\.1 ports ([\d, ]+),", self.log_tail(200))
        if said:
            self.member_ports = [int(p) for p in said.group(1).split(", ")]

    async def member_pid(self, port: int) -> int | None:
        import httpx

        async with httpx.AsyncClient(timeout=2, trust_env=False) as client:
            with contextlib.suppress(httpx.HTTPError):
                r = await client.get(f"http://127.0.0.1:{port}/healthz")
                if r.status_code == 200:
                    return int(r.json()["pid"])
        return None

    async def kill_member(self, rng: random.Random) -> str:
        """``kill -9`` one serving process; what was killed."""
        port = rng.choice(self.member_ports)
        pid = await self.member_pid(port)
        if pid is None:
            return f"no serving process answered on port {port}"
        os.kill(pid, signal.SIGKILL)
        self.killed = (port, pid)
        return f"kill -9 serving process on port {port} (pid {pid}) of cluster {self.name}"

    async def member_back(self, timeout: float = 60) -> float:
        """Wait until the supervisor's restart of the killed process answers; how long it took."""
        assert self.killed is not None
        port, old = self.killed
        started = CLOCK()
        while True:
            pid = await self.member_pid(port)
            if pid is not None and pid != old:
                self.killed = None
                return CLOCK() - started
            if CLOCK() - started > timeout:
                raise RuntimeError(
                    f"the serving process on port {port} was not restarted within {timeout:g} s"
                )
            await asyncio.sleep(0.1)


class PgControl:
    """Stops and starts the throwaway cluster (``tests/pg_cluster.py``) the bench started.
    A server it did not start (``--postgres-url``, ``$UMBRA_TEST_PG_URL``) is not its to stop."""

    def __init__(self, cluster: Any | None) -> None:
        self.cluster = cluster

    @property
    def can_restart(self) -> bool:
        return self.cluster is not None and not getattr(self.cluster, "external_url", None)

    def outage(self, down_s: float) -> None:
        """``pg_ctl stop -m immediate`` (every connection cut, as a crash would), a pause,
        then ``pg_ctl restart``, which starts it again with the options it last ran with
        (``postmaster.opts``: same port, same settings)."""
        cluster = self.cluster
        assert cluster is not None and cluster.bindir is not None
        pg_ctl, data = str(cluster.bindir / "pg_ctl"), str(cluster.datadir)
        # PgCluster._run runs the command as the cluster's OS user (as root: ``postgres``).
        cluster._run([pg_ctl, "stop", "-D", data, "-m", "immediate", "-w", "-t", "60"], timeout=90)
        time.sleep(down_s)
        cluster._run(
            [pg_ctl, "restart", "-D", data, "-l", str(cluster.logfile), "-w", "-t", "60"], timeout=90
        )
        cluster._wait_ready(cluster.url)


@dataclass
class ChaosEvent:
    at_s: float
    what: str


@dataclass
class Chaos:
    """At seeded random moments, one event at a time: kill -9 a server and restart it a
    moment later, or (alternating, when the bench owns the cluster) an outage of
    PostgreSQL. Events never overlap, so a server is never restarted while its database
    is down."""

    servers: list[SoakServer]
    pg: PgControl
    rng: random.Random
    every_s: tuple[float, float]
    restart_after_s: tuple[float, float]
    pg_down_s: tuple[float, float]
    t0: float
    say: Callable[[str], None]
    events: list[ChaosEvent] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    """Chaos that could not be undone: a server or the database that did not come back."""

    def note(self, what: str) -> None:
        self.events.append(ChaosEvent(CLOCK() - self.t0, what))
        self.say(f"chaos: {what}")

    async def run(self, stop: asyncio.Event) -> None:
        # The outage first: it is the rarer event, and a short run on a busy machine (a slow
        # server restart) might otherwise end before its turn comes.
        kinds = ["pg", "kill"] if self.pg.can_restart else ["kill"]
        number = 0
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.rng.uniform(*self.every_s))
            if stop.is_set():
                return
            kind = kinds[number % len(kinds)]
            number += 1
            try:
                if kind == "kill":
                    await self.kill_one(self.rng.choice(self.servers))
                else:
                    await self.pg_outage(self.rng.uniform(*self.pg_down_s))
            except Exception as exc:
                self.failures.append(f"chaos ({kind}) not undone: {type(exc).__name__}: {exc}")
                self.note(f"FAILED: {self.failures[-1]}")
                return

    async def kill_one(self, server: SoakServer) -> None:
        if isinstance(server, ClusterSoakServer):
            self.note(await server.kill_member(self.rng))
            if server.killed is not None:
                back = await server.member_back()
                self.note(f"the supervisor restarted it: answering after {back:.1f} s")
            return
        pause = self.rng.uniform(*self.restart_after_s)
        pid = server.proc.pid if server.proc else None
        server.kill()
        self.note(f"kill -9 server {server.name} (pid {pid}); restart in {pause:.1f} s")
        await asyncio.sleep(pause)
        started = CLOCK()
        await server.restart()
        pid = server.proc.pid if server.proc else None
        self.note(f"server {server.name} back (pid {pid}), ready after {CLOCK() - started:.1f} s")

    async def pg_outage(self, down_s: float) -> None:
        self.note(f"PostgreSQL stopped (pg_ctl stop -m immediate) for {down_s:.1f} s")
        started = CLOCK()
        await asyncio.to_thread(self.pg.outage, down_s)
        self.note(f"PostgreSQL back (pg_ctl restart), {CLOCK() - started:.1f} s after it stopped")


async def watch_exits(
    servers: list[SoakServer], stop: asyncio.Event, say: Callable[[str], None]
) -> list[str]:
    """A server process that ends without being killed is a failure: note it, start it
    again so the run goes on. Returns what happened."""
    exits: list[str] = []
    while not stop.is_set():
        for server in servers:
            code = server.exited_by_itself()
            if code is None:
                continue
            exits.append(
                f"server {server.name} (pid {server.proc.pid if server.proc else '?'}) exited with {code}"
            )
            say(f"FAILURE: {exits[-1]}; starting it again\n{server.log_tail(10)}")
            server.note_exit(code)
            with contextlib.suppress(RuntimeError):
                await server.restart()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1)
    return exits
