"""``umbra bench live``: command-to-push latency over real websockets on loopback.

For each database (a temporary SQLite file; PostgreSQL when one is available) the bench
starts a real server (``python -m app.cli serve`` with ``UMBRA_EXTRA_GAMES=app.bench.pulse``),
creates 100 tables of the bench game Pulse over HTTP, and opens 5 websockets per table
(``/ws/tables/{id}?after=0``: the 2 seats with their tokens, and 3 spectators). Pools of
HTTP workers (one ``httpx.AsyncClient`` each) then send ``tick`` commands, a table never
having two commands in flight: one warm-up command per table (not reported), then 20 per
table (3 with ``--quick``) from 1 worker, the latency of a server with nothing else to do,
and again from 16 workers, a server under load (where it is CPU-bound, the latency is
mostly queueing). For every command the bench measures, from just before its POST, when
each of the table's viewers receives the frame holding that command's seq.

Reported: p50/p99 command-to-push latency over every (command, viewer) pair, the POST
round trip, commands per second, and the delivery check: every viewer must receive every
event of its table's log exactly once and in order, with the content the command's
response reported (lost, duplicated, out-of-order and wrong events are counted; any is a
failure). Every phase is bounded in count and in time.

The client runs in this one process, on one event loop: its latencies include the time
the loop takes to get to a frame, so they are an upper bound for the server's own.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from app.bench.databases import (
    ROOT,
    BenchDatabase,
    on_each_database,
    postgres_settings,
    purge_tables,
    sqlite_settings,
)
from app.bench.stats import fmt, percentile
from app.bench.stats import table as text_table

SEAT_NAMES = ("north", "south")
SPECTATORS = 3


@dataclass(frozen=True)
class Plan:
    tables: int
    commands_per_table: int
    """Per load level."""
    loads: tuple[int, ...]
    """HTTP workers of each measured phase (a table never has two commands in flight)."""
    connect_budget_s: float
    phase_budget_s: float
    drain_budget_s: float
    warmup_workers: int = 16
    connect_concurrency: int = 50


FULL = Plan(
    tables=100,
    commands_per_table=20,
    loads=(1, 16),
    connect_budget_s=60,
    phase_budget_s=45,
    drain_budget_s=15,
)
QUICK = Plan(
    tables=100,
    commands_per_table=3,
    loads=(1, 16),
    connect_budget_s=30,
    phase_budget_s=8,
    drain_budget_s=5,
)


# -- the client side -----------------------------------------------------------------------


@dataclass
class Watcher:
    """One websocket viewer: records when each seq arrives, and what it said."""

    table: BenchTable
    kind: str
    """``seat 0``, ``seat 1`` or ``spectator``."""
    token: str | None
    arrivals: dict[int, float] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)
    contents: dict[int, tuple[str, Any]] = field(default_factory=dict)
    frames: int = 0
    bad_frames: int = 0
    """Frames whose ``seq`` is not their last event's, or messages that are not events."""
    last: int = 0
    opening_frames: int = 0
    """Frames received before the first command: the log so far (``after=0``)."""
    hello_seq: int | None = None
    closed: str | None = None
    """Why the server closed the socket before the bench did."""
    ws: Any = None
    task: asyncio.Task[None] | None = None

    async def listen(self) -> None:
        from websockets.exceptions import ConnectionClosed

        clock = time.perf_counter
        try:
            async for raw in self.ws:
                now = clock()
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "hello" and self.hello_seq is None:
                    self.hello_seq = message["seq"]
                    continue
                if kind != "events" or not message.get("events"):
                    self.bad_frames += 1
                    continue
                self.frames += 1
                events = message["events"]
                if events[-1]["seq"] != message["seq"]:
                    self.bad_frames += 1
                for event in events:
                    seq = event["seq"]
                    self.order.append(seq)
                    self.arrivals.setdefault(seq, now)
                    self.contents.setdefault(seq, (event["type"], event["data"]))
                    self.last = max(self.last, seq)
            self.closed = f"closed by the server ({self.ws.close_code})"
        except ConnectionClosed as exc:
            self.closed = f"connection lost: {exc}"


@dataclass
class BenchTable:
    index: int
    id: str
    tokens: list[str]
    watchers: list[Watcher] = field(default_factory=list)
    expected: dict[int, tuple[str, Any]] = field(default_factory=dict)
    """What each command's response said its event was, by seq."""
    latest: int = 0
    """The newest seq a command response reported."""
    final_seq: int = 0
    """Where the log ends, asked of the server at the end."""


@dataclass
class Phase:
    """Commands sent by ``workers`` workers, ``rounds`` per table."""

    name: str
    workers: int
    rounds: int
    planned: int = 0
    committed: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    cut_short: bool = False
    caught_up: bool = True
    sent: list[tuple[BenchTable, int, float]] = field(default_factory=list)
    """(table, seq of the command's event, time just before its POST) per committed command."""
    reply_ms: list[float] = field(default_factory=list)
    push_ms: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.committed / self.seconds if self.seconds else float("nan")

    def row(self) -> list[str]:
        return [
            f"{self.workers} worker{'s' if self.workers != 1 else ''}",
            str(self.committed),
            str(sum(self.failures.values())),
            fmt(self.rate, 1),
            fmt(percentile(self.push_ms, 50), 2),
            fmt(percentile(self.push_ms, 99), 2),
            fmt(percentile(self.reply_ms, 50), 2),
            fmt(percentile(self.reply_ms, 99), 2),
        ]


@dataclass
class Delivery:
    lost: int = 0
    duplicated: int = 0
    out_of_order: int = 0
    wrong: int = 0
    bad_frames: int = 0
    closed: int = 0

    @property
    def ok(self) -> bool:
        return not (
            self.lost or self.duplicated or self.out_of_order or self.wrong or self.bad_frames or self.closed
        )


PHASE_HEADERS = [
    "load",
    "commands",
    "failed",
    "commands/s",
    "push p50 ms",
    "push p99 ms",
    "reply p50 ms",
    "reply p99 ms",
]


@dataclass
class LiveFigures:
    database: BenchDatabase
    settings: str = ""
    tables: int = 0
    watchers: int = 0
    connect_s: float = 0.0
    phases: list[Phase] = field(default_factory=list)
    """The warm-up first (not reported), then one per load level."""
    frames: int = 0
    opening_frames: int = 0
    delivery: Delivery = field(default_factory=Delivery)
    drained: bool = True

    @property
    def ok(self) -> bool:
        failed = any(p.failures for p in self.phases)
        return self.delivery.ok and self.drained and not failed and all(p.caught_up for p in self.phases)

    def report(self) -> str:
        d = self.delivery
        measured = self.phases[1:]
        lines = [
            f"{self.database.label}: {self.settings}",
            f"  {self.tables} tables x {len(SEAT_NAMES) + SPECTATORS} viewers: {self.watchers} websockets "
            f"({len(SEAT_NAMES)} seats + {SPECTATORS} spectators per table), "
            f"connected in {self.connect_s:.1f} s",
            *(
                "  " + line
                for line in text_table(PHASE_HEADERS, [p.row() for p in measured], left=1).splitlines()
            ),
            f"  frames received: {self.frames} ({self.opening_frames} opening, "
            f"{self.frames - self.opening_frames} live)",
            f"  events lost / duplicated / out of order / wrong: "
            f"{d.lost} / {d.duplicated} / {d.out_of_order} / {d.wrong}"
            + (f"; bad frames {d.bad_frames}" if d.bad_frames else "")
            + (f"; sockets closed early {d.closed}" if d.closed else ""),
        ]
        for phase in self.phases:
            if phase.cut_short:
                lines.append(
                    f"  {phase.name}: stopped at the time budget ({phase.committed} of {phase.planned})"
                )
            if not phase.caught_up:
                lines.append(f"  {phase.name}: viewers had not caught up when the drain budget ran out")
            for reason, count in phase.failures.most_common(5):
                lines.append(f"  {phase.name}: failed command x{count}: {reason}")
        if not self.drained:
            lines.append("  some viewers had not reached the end of their log when the drain budget ran out")
        lines.append(f"  result: {'OK' if self.ok else 'FAILED'}")
        return "\n".join(lines)


# -- the server ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spawn_serve(port: int, database_url: str, log: IO[bytes] | int, **env: str) -> subprocess.Popen[bytes]:
    """``python -m app.cli serve`` of this checkout on a loopback ``port``, in test mode,
    with ``env`` over this process's environment and its output to ``log``."""
    full = dict(os.environ)
    path = [str(ROOT), *([full["PYTHONPATH"]] if full.get("PYTHONPATH") else [])]
    full.update(
        {"DATABASE_URL": database_url, "UMBRA_TEST_MODE": "1", "PYTHONPATH": os.pathsep.join(path), **env}
    )
    command = [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--log-level", "warning"]
    return subprocess.Popen(command, cwd=ROOT, env=full, stdout=log, stderr=subprocess.STDOUT)


class Server:
    """``python -m app.cli serve`` on a free loopback port, with the bench game."""

    def __init__(self, database_url: str, log_path: Path) -> None:
        self.database_url = database_url
        self.log_path = log_path
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        with open(self.log_path, "ab") as log:
            self.proc = spawn_serve(self.port, self.database_url, log, UMBRA_EXTRA_GAMES="app.bench.pulse")

    async def wait_ready(self, client: Any, timeout: float = 60) -> None:
        deadline = time.perf_counter() + timeout
        while True:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}:\n{self.log_tail()}")
            with contextlib.suppress(Exception):
                response = await client.get("/api/games")
                if response.status_code == 200:
                    if not any(g["name"] == "pulse" for g in response.json()):
                        raise RuntimeError("the server does not offer the bench game pulse")
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
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(15)


# -- the run -------------------------------------------------------------------------------


def run_live(args: argparse.Namespace | Any) -> int:
    plan = QUICK if getattr(args, "quick", False) else FULL
    mode = "quick" if plan is QUICK else "full"
    loads = " and ".join(str(n) for n in plan.loads)
    print(
        f"umbra bench live ({mode}: {plan.tables} tables x {len(SEAT_NAMES) + SPECTATORS} viewers over "
        f"websockets on loopback; after a warm-up command per table, {plan.commands_per_table} commands "
        f"per table with {loads} HTTP workers in turn, one command in flight per table)\n"
        "push: from just before the POST until a viewer receives the frame with the command's seq, over "
        "every (command, viewer) pair; reply: the POST round trip",
        flush=True,
    )
    return on_each_database(args, "live", lambda db: _bench_one(db, plan))


def _bench_one(db: BenchDatabase, plan: Plan) -> bool:
    figures = LiveFigures(db)
    return run_against_server(db, figures, lambda server, ids: bench_server(server, plan, figures, ids))


def run_against_server(
    db: BenchDatabase, figures: Any, bench: Callable[[Server, list[str]], Coroutine[Any, Any, None]]
) -> bool:
    """Start a real server on ``db``, run ``bench`` against it, print the figures; the
    tables it creates are removed afterwards from a shared database."""
    print(f"{db.label}: {db.about} ...", flush=True)
    with tempfile.TemporaryDirectory(prefix="umbra-bench-") as folder:
        server = Server(db.url, Path(folder) / "server.log")
        table_ids: list[str] = []
        try:
            server.start()
            asyncio.run(bench(server, table_ids))
        except Exception as exc:
            print(f"{db.label}: FAILED: {type(exc).__name__}: {exc}", flush=True)
            tail = server.log_tail(15)
            if tail:
                print(tail, flush=True)
            return False
        finally:
            server.stop()
            if db.shared and table_ids:
                purge_tables(db.url, table_ids)
    print(figures.report(), flush=True)
    return figures.ok


async def bench_server(server: Server, plan: Plan, figures: LiveFigures, table_ids: list[str]) -> None:
    import httpx

    async with httpx.AsyncClient(base_url=server.url, timeout=30, trust_env=False) as client:
        await server.wait_ready(client)
        figures.settings = await _settings(figures.database.url)
        tables = await create_tables(client, plan, table_ids)
    watchers = [w for t in tables for w in t.watchers]
    figures.tables, figures.watchers = len(tables), len(watchers)
    try:
        started = time.perf_counter()
        await connect_all(server, watchers, plan)
        figures.connect_s = time.perf_counter() - started
        figures.phases.append(Phase("warm-up", plan.warmup_workers, 1))
        figures.phases += [Phase(f"{n} workers", n, plan.commands_per_table) for n in plan.loads]
        for number, phase in enumerate(figures.phases):
            await run_phase(server, tables, plan, phase, number)
            phase.caught_up = await caught_up(tables, plan.drain_budget_s)
        figures.drained = await drain(server, tables, plan)
    finally:
        await close_all(watchers)
    collect(tables, figures)


async def _settings(url: str) -> str:
    from app.store import EventStore
    from app.store.urls import is_postgres

    if is_postgres(url):
        return await asyncio.to_thread(postgres_settings, url)
    store = EventStore(url)
    try:
        return await sqlite_settings(store.engine)
    finally:
        await store.close()


async def create_tables(client: Any, plan: Plan, table_ids: list[str]) -> list[BenchTable]:
    gate = asyncio.Semaphore(8)

    async def create(index: int) -> BenchTable:
        body = {
            "game": "pulse",
            "options": {"limit": 0},
            "seats": [{"name": n} for n in SEAT_NAMES],
            "name": f"bench {index}",
        }
        async with gate:
            response = await client.post("/api/tables", json=body)
        if response.status_code != 201:
            raise RuntimeError(f"creating a table: {response.status_code} {response.text[:300]}")
        data = response.json()
        table_ids.append(data["table_id"])
        table = BenchTable(index, data["table_id"], [s["token"] for s in data["seats"]])
        table.watchers = [Watcher(table, f"seat {i}", tok) for i, tok in enumerate(table.tokens)]
        table.watchers += [Watcher(table, "spectator", None) for _ in range(SPECTATORS)]
        return table

    return list(await asyncio.gather(*(create(i) for i in range(plan.tables))))


async def connect_all(server: Server, watchers: list[Watcher], plan: Plan) -> None:
    """Open every websocket and wait until each has its opening frames."""
    from websockets.asyncio.client import connect

    gate = asyncio.Semaphore(plan.connect_concurrency)

    async def open_one(w: Watcher) -> None:
        url = f"{server.ws_url}/ws/tables/{w.table.id}?after=0"
        if w.token:
            url += f"&token={w.token}"
        async with gate:
            w.ws = await connect(url, open_timeout=plan.connect_budget_s, ping_interval=None, proxy=None)
        w.task = asyncio.create_task(w.listen())

    def ready(w: Watcher) -> bool:
        return w.hello_seq is not None and w.last >= w.hello_seq

    async def all_open() -> None:
        await asyncio.gather(*(open_one(w) for w in watchers))
        while not all(ready(w) for w in watchers):
            if any(w.closed for w in watchers):
                raise RuntimeError(next(w.closed for w in watchers if w.closed))
            await asyncio.sleep(0.02)

    try:
        await asyncio.wait_for(all_open(), plan.connect_budget_s)
    except TimeoutError as exc:
        count = sum(1 for w in watchers if ready(w))
        raise RuntimeError(
            f"only {count} of {len(watchers)} viewers were connected after {plan.connect_budget_s:g} s"
        ) from exc
    for w in watchers:
        w.opening_frames = w.frames


async def run_phase(server: Server, tables: list[BenchTable], plan: Plan, phase: Phase, number: int) -> None:
    """Each worker owns every ``workers``-th table and sends round after round of ticks
    to them, so a table never has two commands in flight."""
    import httpx

    phase.planned = len(tables) * phase.rounds
    deadline = time.perf_counter() + plan.phase_budget_s
    clock = time.perf_counter

    async def worker(owned: list[BenchTable]) -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=30, trust_env=False) as client:
            for k in range(phase.rounds):
                for table in owned:
                    if clock() > deadline:
                        phase.cut_short = True
                        return
                    seat = k % len(table.tokens)
                    command_id = f"bench-{number}-{table.index}-{k}"
                    body = {"command_id": command_id, "seat": seat, "type": "tick", "args": {}}
                    headers = {"Authorization": f"Bearer {table.tokens[seat]}"}
                    t0 = clock()
                    try:
                        response = await client.post(
                            f"/api/tables/{table.id}/commands", json=body, headers=headers
                        )
                    except httpx.HTTPError as exc:
                        phase.failures[f"{type(exc).__name__}: {exc}"] += 1
                        continue
                    t1 = clock()
                    if response.status_code != 200:
                        phase.failures[f"HTTP {response.status_code}: {response.text[:200]}"] += 1
                        continue
                    data = response.json()
                    phase.sent.append((table, data["seq"], t0))
                    phase.reply_ms.append((t1 - t0) * 1000)
                    table.latest = max(table.latest, data["seq"])
                    for event in data["events"]:
                        table.expected[event["seq"]] = (event["type"], event["data"])

    started = clock()
    await asyncio.gather(*(worker(tables[i :: phase.workers]) for i in range(phase.workers)))
    phase.seconds = clock() - started
    phase.committed = len(phase.sent)


async def caught_up(tables: list[BenchTable], budget_s: float, *, final: bool = False) -> bool:
    """Wait until every viewer has every seq its table reached (``final_seq`` at the end,
    else the newest seq a command response reported)."""
    deadline = time.perf_counter() + budget_s
    while True:
        if all(
            w.last >= (t.final_seq if final else t.latest) or w.closed for t in tables for w in t.watchers
        ):
            return True
        if time.perf_counter() > deadline:
            return False
        await asyncio.sleep(0.02)


async def drain(server: Server, tables: list[BenchTable], plan: Plan) -> bool:
    """Ask the server where each log ends, then wait for every viewer to get there."""
    import httpx

    async with httpx.AsyncClient(base_url=server.url, timeout=30, trust_env=False) as client:
        gate = asyncio.Semaphore(8)

        async def final(table: BenchTable) -> None:
            async with gate:
                response = await client.get(f"/api/tables/{table.id}")
            response.raise_for_status()
            table.final_seq = response.json()["seq"]

        await asyncio.gather(*(final(t) for t in tables))
    return await caught_up(tables, plan.drain_budget_s, final=True)


async def close_all(watchers: Sequence[Any]) -> None:
    """Stop each socket reader (anything with a ``task`` and a ``ws``) and close its socket."""

    async def close(w: Any) -> None:
        if w.task is not None:
            w.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await w.task
        if w.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(w.ws.close(), 5)

    await asyncio.gather(*(close(w) for w in watchers))


def collect(tables: list[BenchTable], figures: LiveFigures) -> None:
    """Latencies over every (command, viewer) pair, and the exactly-once, in-order check."""
    for phase in figures.phases:
        for table, seq, t0 in phase.sent:
            for w in table.watchers:
                at = w.arrivals.get(seq)
                if at is not None:
                    phase.push_ms.append((at - t0) * 1000)
    d = figures.delivery
    for table in tables:
        for w in table.watchers:
            figures.frames += w.frames
            figures.opening_frames += w.opening_frames
            d.bad_frames += w.bad_frames
            if w.closed:
                d.closed += 1
            seen = set(w.order)
            d.duplicated += len(w.order) - len(seen)
            d.lost += sum(1 for s in range(1, table.final_seq + 1) if s not in seen)
            d.wrong += sum(1 for s in seen if s > table.final_seq)
            d.out_of_order += sum(1 for a, b in zip(w.order, w.order[1:], strict=False) if b < a)
            for seq, expected in table.expected.items():
                got = w.contents.get(seq)
                if got is not None and got != expected:
                    d.wrong += 1
