"""``umbra serve --processes N``: N serving processes on loopback ports and an nginx in front
(``routing.py``), supervised (issue 25).

Each serving process is a plain ``umbra serve`` of one process; a table lives in the one
nginx routes it to. The supervisor restarts a process that dies on the same port, so its
tables come back from their snapshot and log there (meanwhile nginx sends them to the next
process on the ring, which loads them the same way), and stops everything on SIGTERM or
SIGINT. It runs in the foreground and owns no table itself.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from app.serving.routing import TEMP_KINDS, nginx_config

RESTART_PAUSE_S = 0.5
"""Wait this long before restarting a process that died (so a crash loop does not spin)."""
STOP_GRACE_S = 10.0
"""How long a stopping process may take before it is killed."""


class ClusterError(Exception):
    """The cluster cannot start (no nginx, a port taken)."""


def find_nginx() -> str:
    """Debian's nginx (``apt-get install nginx-light``), on the path or in /usr/sbin."""
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )
    if found is None:
        raise ClusterError(
            "umbra serve --processes needs nginx in front of its processes: install Debian's "
            "(sudo apt-get install nginx-light), or run --processes 1"
        )
    return found


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


@dataclass
class Member:
    """One supervised child: how to start it, and its process while it runs."""

    name: str
    command: list[str]
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None
    restarts: int = 0

    def start(self) -> None:
        self.process = subprocess.Popen(self.command, env=self.env)

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


@dataclass
class Cluster:
    """N serving processes behind one nginx on ``host:port``."""

    host: str
    port: int
    processes: int
    log_level: str = "info"
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="umbra-serve-")))
    ports: list[int] = field(default_factory=list)
    members: list[Member] = field(default_factory=list)
    stopping: bool = False
    say: Callable[[str], None] = field(default=lambda text: print(text, file=sys.stderr, flush=True))

    def plan(self) -> None:
        """Pick each serving process's loopback port and write nginx's configuration."""
        nginx = find_nginx()
        self.ports = [free_port() for _ in range(self.processes)]
        for kind in TEMP_KINDS:
            (self.folder / kind).mkdir(parents=True, exist_ok=True)
        from app.config import Settings

        config = nginx_config(
            self.host,
            self.port,
            [f"127.0.0.1:{p}" for p in self.ports],
            self.folder,
            max_body=Settings.from_env().max_body_bytes + 64 * 1024,
        )
        conf = self.folder / "nginx.conf"
        conf.write_text(config)
        env = dict(os.environ)
        # nginx is the only client of the processes: trust its X-Forwarded-* headers.
        env.setdefault("FORWARDED_ALLOW_IPS", "127.0.0.1")
        serve = [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1"]
        serve += ["--log-level", self.log_level]
        self.members = [
            Member(f"process {k + 1} (127.0.0.1:{p})", [*serve, "--port", str(p)], env)
            for k, p in enumerate(self.ports)
        ]
        check = subprocess.run([nginx, "-t", "-c", str(conf)], capture_output=True, text=True)
        if check.returncode != 0:
            raise ClusterError(f"nginx refuses its generated configuration: {check.stderr.strip()}")
        self.members.append(Member("nginx", [nginx, "-c", str(conf)], env))

    def start(self) -> None:
        for member in self.members:
            member.start()

    def supervise(self, poll_s: float = 0.2) -> int:
        """Restart whatever dies until asked to stop; then stop everything."""
        while not self.stopping:
            for member in self.members:
                if self.stopping or member.running():
                    continue
                code = member.process.returncode if member.process is not None else None
                self.say(f"umbra: {member.name} ended (exit {code}); restarting it")
                time.sleep(RESTART_PAUSE_S)
                member.restarts += 1
                if not self.stopping:
                    member.start()
            time.sleep(poll_s)
        self.stop()
        return 0

    def request_stop(self, signum: int, _frame: FrameType | None) -> None:
        self.stopping = True

    def stop(self) -> None:
        """SIGTERM to every child (nginx last: it drains what the processes still answer),
        then SIGKILL to any that outlives ``STOP_GRACE_S``."""
        ordered = sorted(self.members, key=lambda m: m.name == "nginx")
        for member in ordered:
            if member.running():
                member.process.terminate()  # type: ignore[union-attr]  (running)
        deadline = time.monotonic() + STOP_GRACE_S
        for member in ordered:
            if member.process is None:
                continue
            try:
                member.process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                member.process.kill()
                member.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def serve_cluster(host: str, port: int, processes: int, log_level: str) -> int:
    """Run the cluster in the foreground until SIGTERM or SIGINT."""
    cluster = Cluster(host, port, processes, log_level)
    try:
        cluster.plan()
    except ClusterError as err:
        print(f"umbra serve: {err}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, cluster.request_stop)
    signal.signal(signal.SIGINT, cluster.request_stop)
    ports = ", ".join(str(p) for p in cluster.ports)
    cluster.say(
        f"umbra: {processes} processes on 127.0.0.1 ports {ports}, nginx in front on http://{host}:{port} "
        "(each table in one process, by a consistent hash of its id)"
    )
    cluster.start()
    return cluster.supervise()
