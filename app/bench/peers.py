"""Umbra and boardgame.io under the same load, one after the other, in one run, printed side
by side (issue 10). A developer tool: it needs Node (``node``, ``npm``) and the peers'
harness (``../shared/peers`` beside the checkout, read-only: it is copied to a scratch
folder, where ``npm install`` runs once; ``--keep DIR`` reuses a copy).

    .venv/bin/python -m app.bench.peers [--tables 25] [--spectators 1] [--moves 20]
        [--interval 1000] [--format html|json] [--rounds 1] [--workers N] [--processes N]
        [--database-url URL | --sqlite] [--keep DIR] [--json]

Load shape (the harness's): T tables x (4 seat clients + S spectators), one legal move per
table every ``interval`` ms (staggered starts, 2 warm-up moves), latency from just before
the move is sent to the frame carrying it at every client; server CPU from ``/proc``.
boardgame.io 0.50.2 plays its small dice game in memory; Umbra plays Darkest Night through
its HTTP API (``GET /view``, ``POST /commands``) on a real ``umbra serve`` (``--workers``),
on a throwaway PostgreSQL cluster by default (``tests/pg_cluster.py``), ``--database-url``,
or ``--sqlite``. ``--rounds N`` alternates the two N times (the machine's noise hits both).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.bench.databases import ROOT
from app.bench.server import free_port, spawn_serve, stop_process

PEERS = next(
    (p / "shared" / "peers" for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared" / "peers").is_dir()),
    ROOT.parent / "shared" / "peers",
)
"""``../shared/peers`` beside the checkout (or beside its worktrees' folder)."""
COLUMNS = (
    ("p50_ms", "p50 ms"),
    ("p95_ms", "p95 ms"),
    ("p99_ms", "p99 ms"),
    ("cmds_per_s", "commands/s"),
    ("server_cpu_ms_per_cmd", "server CPU ms/cmd"),
    ("pg_cpu_ms_per_cmd", "PostgreSQL CPU ms/cmd"),
    ("bytes_per_frame_p50", "frame p50 B"),
    ("missing", "missing"),
)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m app.bench.peers", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=25)
    parser.add_argument("--spectators", type=int, default=1)
    parser.add_argument("--moves", type=int, default=20, help="measured moves per table")
    parser.add_argument("--interval", type=int, default=1000, help="ms between a table's moves")
    parser.add_argument("--format", choices=["html", "json"], default="html", help="Umbra's websockets")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="umbra serve --workers (PostgreSQL)")
    parser.add_argument(
        "--processes", type=int, default=1, help="umbra serve --processes, nginx in front (PostgreSQL)"
    )
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--sqlite", action="store_true", help="Umbra on a temporary SQLite file")
    parser.add_argument("--peers", type=Path, default=PEERS, help=f"the harness (default {PEERS})")
    parser.add_argument("--keep", type=Path, default=None, help="a scratch copy of the harness to reuse")
    parser.add_argument("--json", action="store_true", help="print both results as JSON")
    return parser.parse_args(argv)


def command_line(args: argparse.Namespace) -> str:
    """The command that runs this comparison again (printed with its figures)."""
    words = ["python", "-m", "app.bench.peers"]
    for option in ("tables", "spectators", "moves", "interval", "format", "rounds", "workers", "processes"):
        words += ["--" + option, str(getattr(args, option))]
    if args.sqlite:
        words.append("--sqlite")
    if args.database_url:
        words += ["--database-url", "<url>"]
    return shlex.join(words)


def harness(args: argparse.Namespace) -> Path:
    """The harness copied to a scratch folder, with its node modules installed."""
    where = args.keep or Path(tempfile.mkdtemp(prefix="umbra-peers-")) / "peers"
    if not (where / "boardgameio" / "package.json").is_file():
        shutil.copytree(args.peers, where, dirs_exist_ok=True)
    if not (where / "boardgameio" / "node_modules").is_dir():
        subprocess.run(["npm", "install", "--no-audit", "--no-fund"], cwd=where / "boardgameio", check=True)
    return where


@contextlib.contextmanager
def umbra_database(args: argparse.Namespace) -> Iterator[str]:
    if args.database_url:
        yield args.database_url
        return
    if args.sqlite:
        with tempfile.TemporaryDirectory(prefix="umbra-peers-") as folder:
            yield f"sqlite:///{folder}/umbra.db"
        return
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.pg_cluster import PgCluster

    cluster = PgCluster()
    cluster.start()
    try:
        yield cluster.create_database(f"umbra_peers_{int(time.time())}")
    finally:
        cluster.stop()


def wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port} after {timeout:g} s")


def wait_answers(port: int, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    """Until ``/healthz`` answers 200 (behind nginx, the serving processes are up)."""
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return
        time.sleep(0.2)
    raise RuntimeError(f"the server on port {port} did not answer within {timeout:g} s")


def process_tree(pid: int) -> list[int]:
    """``pid`` and every live process below it (workers, serving processes, nginx)."""
    from app.bench.server import child_pids

    out, stack = [], [pid]
    while stack:
        current = stack.pop()
        out.append(current)
        stack += child_pids(current)
    return out


def run_boardgameio(where: Path, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    folder = where / "boardgameio"
    port = free_port()
    server = subprocess.Popen(["node", "server.js", str(port)], cwd=folder, stdout=subprocess.DEVNULL)
    try:
        wait_port(port, server)
        load = [str(port), str(args.tables), str(args.spectators), str(args.moves), str(args.interval)]
        load += ["1", "2", str(server.pid), str(out)]
        subprocess.run(["node", "load2.js", *load], cwd=folder, check=True, stdout=subprocess.DEVNULL)
    finally:
        stop_process(server, 10)  # type: ignore[arg-type]
    return dict(json.loads(out.read_text()))


def run_umbra(where: Path, url: str, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    from app.bench.server import postmaster_pid

    port = free_port()
    with open(out.with_suffix(".log"), "ab") as log:
        server = spawn_serve(port, url, log, workers=args.workers, processes=args.processes)
    try:
        wait_port(port, server)
        wait_answers(port, server)
        pids = process_tree(server.pid) if args.workers > 1 or args.processes > 1 else [server.pid]
        postmaster = postmaster_pid(url) or 0
        load = [str(port), str(args.tables), str(args.spectators), str(args.moves), str(args.interval)]
        load += [args.format, "1", "2", ",".join(map(str, pids)), str(postmaster), str(out)]
        env = {"NODE_PATH": str(where / "boardgameio" / "node_modules"), "PATH": _path()}
        subprocess.run(
            ["node", str(where / "umbra_load.js"), *load], check=True, stdout=subprocess.DEVNULL, env=env
        )
    finally:
        stop_process(server, 15)
    return dict(json.loads(out.read_text()))


def _path() -> str:
    import os

    return os.environ.get("PATH", "/usr/bin:/bin")


def report(rows: list[tuple[str, dict[str, Any]]]) -> str:
    from app.bench.stats import table

    for _, r in rows:
        if r.get("cmds_per_s") is None and r.get("window_s"):
            r["cmds_per_s"] = round(r.get("commands", 0) / r["window_s"], 1)
    body = [
        [name, *("-" if r.get(key) is None else str(r.get(key)) for key, _ in COLUMNS)] for name, r in rows
    ]
    return table(["run", *(label for _, label in COLUMNS)], body)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if shutil.which("node") is None or shutil.which("npm") is None:
        print("python -m app.bench.peers needs node and npm on PATH")
        return 2
    if not (args.peers / "umbra_load.js").is_file() and not (
        args.keep and (args.keep / "umbra_load.js").is_file()
    ):
        print(f"no harness at {args.peers} (pass --peers DIR)")
        return 2
    where = harness(args)
    rows: list[tuple[str, dict[str, Any]]] = []
    shape = f"{args.tables} tables x (4 seats + {args.spectators} spectators), a move per {args.interval} ms"
    print(f"command: {command_line(args)}", flush=True)
    print(f"boardgame.io and Umbra, {shape}, {args.moves} measured moves per table", flush=True)
    with umbra_database(args) as url, tempfile.TemporaryDirectory(prefix="umbra-peers-out-") as folder:
        database = "sqlite" if url.startswith("sqlite") else "postgresql"
        for round_ in range(1, args.rounds + 1):
            bgio = run_boardgameio(where, args, Path(folder) / f"bgio-{round_}.json")
            rows.append((f"boardgame.io (round {round_})", bgio))
            print(f"boardgame.io round {round_}: p50 {bgio['p50_ms']} ms", flush=True)
            umbra = run_umbra(where, url, args, Path(folder) / f"umbra-{round_}.json")
            rows.append((f"Umbra {args.format} on {database} (round {round_})", umbra))
            print(f"Umbra round {round_}: p50 {umbra['p50_ms']} ms", flush=True)
    if args.json:
        print(json.dumps([{"run": name, **r} for name, r in rows]))
    else:
        print(report(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
