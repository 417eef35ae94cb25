"""``umbra bench live darkest_night``: Darkest Night tables played live over real
websockets on loopback (issue 4).

For each database (a temporary SQLite file; PostgreSQL when one is available) the bench
starts a real server (``python -m app.cli serve``, as ``umbra bench live`` does) and creates
50 Darkest Night tables of 4 seats (5 with ``--quick``). Each table has 2 spectators
connected like a browser's watch page (``/ws/tables/{id}?format=html&after=<seq>``), which
receive the changed HTML fragments after every commit.

The 4 seats are played from this process by the heuristic bot (``app.games.darkest_night.bot``)
as API clients would: for each command the bench asks ``GET /api/tables/{id}/view`` with the
waited-on seat's token for its prompts, lets ``bot.choose`` pick one of those ready-to-send
commands, and ``POST``s it. The bot also reads the game state; the bench keeps a replica of
each table's state (the log read once with the game-master token, then every command
decided locally in lockstep with the server: same seed, same seq, same events) and checks
it against every command's response, resynchronising from the log if they ever differ.

After 2 warm-up commands per table (not reported) come two measured phases, one command in
flight per table: 4 commands per table with one table at a time (the server has nothing
else to do), then 60 commands per table (20 with ``--quick``) with every table at once, or
until a game ends. Reported for each phase:

- command-to-fragment latency, p50/p99 over every (command, spectator) pair: from just
  before the POST until the spectator receives the frame carrying that command's seq;
- bytes sent per command per spectator (the uncompressed frames: the bench turns
  permessage-deflate off) against the size of a full page render (``GET /t/{id}/watch``,
  at the start and the end): the diff ratio;
- server CPU per command: the server process's user + system time (``/proc/<pid>/stat``)
  over the phase, divided by its commands. It covers everything the server did meanwhile:
  each command's ``GET /view`` and ``POST``, and the fragment renders and sends for 2
  spectators.

The run fails (exit 1) if a command fails, a spectator misses a command's frame or loses
its socket, or the replica ever disagrees with the server. Every phase is bounded in time.
The client runs on one event loop in this process: its latencies include the time the
loop takes to get to a frame, so they are an upper bound for the server's own. With every
table at once the server is saturated, and the latency is mostly queueing.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import os
import random
import re
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.bench.databases import BenchDatabase, on_each_database
from app.bench.live import Server, _settings, close_all, run_against_server
from app.bench.stats import fmt, percentile
from app.bench.stats import table as text_table

GAME = "darkest_night"
SEAT_NAMES = ("Ann", "Bo", "Cy", "Di")
SPECTATORS = 2
SEQ_MARKER = re.compile(r'id="seq"[^>]*data-seq="(\d+)"')
CLOCK = time.perf_counter


@dataclass(frozen=True)
class Plan:
    tables: int
    commands_per_table: int
    """In the phase with every table at once."""
    alone_commands: int
    """Per table in the phase with one table at a time."""
    warmup_commands: int
    connect_budget_s: float
    run_budget_s: float
    drain_budget_s: float
    create_concurrency: int = 8
    max_attempts: int = 3
    """Tries per command before a table gives up (every failed try is counted)."""


FULL = Plan(
    tables=50,
    commands_per_table=60,
    alone_commands=4,
    warmup_commands=2,
    connect_budget_s=60,
    run_budget_s=300,
    drain_budget_s=20,
)
QUICK = Plan(
    tables=5,
    commands_per_table=20,
    alone_commands=4,
    warmup_commands=2,
    connect_budget_s=30,
    run_budget_s=60,
    drain_budget_s=10,
)


# -- the client side -----------------------------------------------------------------------


@dataclass
class Spectator:
    """One ``format=html`` websocket: every frame's arrival, size and seq marker."""

    table: DnTable
    arrivals: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    markers: list[int | None] = field(default_factory=list)
    last: int = 0
    closed: str | None = None
    ws: Any = None
    task: asyncio.Task[None] | None = None

    async def listen(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.ws:
                now = CLOCK()
                text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
                found = SEQ_MARKER.search(text)
                seq = int(found.group(1)) if found else None
                self.arrivals.append(now)
                self.sizes.append(len(text.encode()))
                self.markers.append(seq)
                if seq is not None:
                    self.last = max(self.last, seq)
            self.closed = f"closed by the server ({self.ws.close_code})"
        except ConnectionClosed as exc:
            self.closed = f"connection lost: {exc}"

    def arrival_of(self, seq: int) -> float | None:
        """When the first frame at or past ``seq`` arrived (markers only grow)."""
        marked = [(m, a) for m, a in zip(self.markers, self.arrivals, strict=True) if m is not None]
        index = bisect.bisect_left([m for m, _ in marked], seq)
        return marked[index][1] if index < len(marked) else None

    def frames_between(self, start: float, end: float) -> list[int]:
        """The sizes of the frames received in ``[start, end]``."""
        return [s for a, s in zip(self.arrivals, self.sizes, strict=True) if start <= a <= end]


@dataclass
class DnTable:
    index: int
    id: str
    seed: str
    tokens: list[str]
    gm_token: str
    state: Any = None
    seq: int = 0
    spectators: list[Spectator] = field(default_factory=list)
    resyncs: int = 0
    finished: bool = False
    page_bytes: dict[str, int] = field(default_factory=dict)


@dataclass
class Phase:
    """Commands sent with ``tables_at_once`` tables playing at the same time."""

    name: str
    tables_at_once: int
    commands_per_table: int
    measured: bool = True
    sent: list[tuple[DnTable, int, float]] = field(default_factory=list)
    """(table, seq of the command's last event, time just before its POST) per command."""
    reply_ms: list[float] = field(default_factory=list)
    failures: Counter[str] = field(default_factory=Counter)
    cut_short: int = 0
    start: float = 0.0
    end: float = 0.0
    cpu_s: float = 0.0
    drained: bool = True
    push_ms: list[float] = field(default_factory=list)
    per_command_bytes: list[float] = field(default_factory=list)
    """Per spectator: the bytes it received in the phase / its table's commands."""
    frame_bytes: list[int] = field(default_factory=list)
    missing: int = 0

    @property
    def commands(self) -> int:
        return len(self.sent)

    @property
    def seconds(self) -> float:
        return self.end - self.start

    def row(self, page: float) -> list[str]:
        per_command = statistics.fmean(self.per_command_bytes) if self.per_command_bytes else float("nan")
        return [
            self.name,
            str(self.commands),
            fmt(self.commands / self.seconds if self.seconds else float("nan"), 1),
            fmt(percentile(self.push_ms, 50), 1),
            fmt(percentile(self.push_ms, 99), 1),
            fmt(percentile(self.reply_ms, 50), 1),
            fmt(percentile(self.reply_ms, 99), 1),
            fmt(per_command, 0),
            fmt(per_command / page if page else float("nan"), 3),
            fmt(self.cpu_s * 1000 / self.commands if self.commands else float("nan"), 2),
            fmt(self.cpu_s / self.seconds * 100 if self.seconds else float("nan"), 0),
        ]


HEADERS = [
    "load",
    "commands",
    "per s",
    "frag p50 ms",
    "frag p99 ms",
    "POST p50 ms",
    "POST p99 ms",
    "B/cmd/spectator",
    "diff ratio",
    "CPU ms/cmd",
    "CPU %",
]


@dataclass
class Figures:
    database: BenchDatabase
    settings: str = ""
    tables: int = 0
    connect_s: float = 0.0
    phases: list[Phase] = field(default_factory=list)
    """The warm-up first (not reported), then the measured phases."""
    page_start: list[int] = field(default_factory=list)
    page_end: list[int] = field(default_factory=list)
    closed: int = 0
    resyncs: int = 0
    finished_games: int = 0

    @property
    def measured(self) -> list[Phase]:
        return [p for p in self.phases if p.measured]

    @property
    def ok(self) -> bool:
        return (
            all(p.commands for p in self.measured)
            and not any(p.failures or p.missing or not p.drained for p in self.phases)
            and not self.closed
            and not self.resyncs
        )

    def report(self) -> str:
        page = _mean(self.page_start + self.page_end)
        frames = [b for p in self.measured for b in p.frame_bytes]
        rows = text_table(HEADERS, [p.row(page) for p in self.measured], left=1)
        lines = [
            f"{self.database.label}: {self.settings}",
            f"  {self.tables} tables x ({len(SEAT_NAMES)} bot seats + {SPECTATORS} spectators): "
            f"{self.tables * SPECTATORS} html websockets, connected in {self.connect_s:.1f} s",
            *("  " + line for line in rows.splitlines()),
            f"  full page render (GET /t/<id>/watch): {fmt(_mean(self.page_start), 0)} B at the start, "
            f"{fmt(_mean(self.page_end), 0)} B at the end; diff ratio = B/cmd/spectator / their mean",
            f"  frames: {len(frames)}, p50 {fmt(percentile(frames, 50), 0)} B, "
            f"p99 {fmt(percentile(frames, 99), 0)} B; games ended: {self.finished_games}",
            f"  missing frames / sockets closed early / replica resyncs: "
            f"{sum(p.missing for p in self.phases)} / {self.closed} / {self.resyncs}",
        ]
        for phase in self.phases:
            if phase.cut_short:
                lines.append(f"  {phase.name}: {phase.cut_short} tables stopped at the time budget")
            if not phase.drained:
                lines.append(f"  {phase.name}: spectators had not caught up when the drain budget ran out")
            for reason, count in phase.failures.most_common(5):
                lines.append(f"  {phase.name}: failed x{count}: {reason}")
        lines.append(f"  result: {'OK' if self.ok else 'FAILED'}")
        return "\n".join(lines)


def _mean(values: list[int]) -> float:
    return statistics.fmean(values) if values else float("nan")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` (all its threads), from /proc."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- the run -------------------------------------------------------------------------------


def run_live_darkest_night(args: argparse.Namespace | Any) -> int:
    plan = QUICK if getattr(args, "quick", False) else FULL
    mode = "quick" if plan is QUICK else "full"
    print(
        f"umbra bench live darkest_night ({mode}: {plan.tables} tables x ({len(SEAT_NAMES)} bot seats + "
        f"{SPECTATORS} spectators) over websockets on loopback; one command in flight per table; after "
        f"{plan.warmup_commands} warm-up commands per table, {plan.alone_commands} per table with one table "
        f"at a time, then {plan.commands_per_table} per table with all {plan.tables} at once)\n"
        "frag: from just before the POST until a spectator's html websocket delivers the frame with the "
        "command's seq, over every (command, spectator) pair; B/cmd/spectator: uncompressed frame bytes; "
        "CPU: /proc user+system time of the server process over the phase (GET /view, POST, fan-out)",
        flush=True,
    )
    if not Path("/proc/self/stat").exists():
        print("umbra bench live darkest_night needs /proc (Linux) to read the server's CPU time")
        return 2
    return on_each_database(args, "live-dn", lambda db: _bench_one(db, plan))


def _bench_one(db: BenchDatabase, plan: Plan) -> bool:
    figures = Figures(db)
    return run_against_server(db, figures, lambda server, ids: bench_server(server, plan, figures, ids))


async def bench_server(server: Server, plan: Plan, figures: Figures, table_ids: list[str]) -> None:
    import httpx

    limits = httpx.Limits(max_connections=plan.tables + 8, max_keepalive_connections=plan.tables + 8)
    async with httpx.AsyncClient(base_url=server.url, timeout=60, trust_env=False, limits=limits) as client:
        await server.wait_ready(client)
        figures.settings = await _settings(figures.database.url)
        tables = await create_tables(client, plan, table_ids)
        figures.tables = len(tables)
        await asyncio.gather(*(resync(client, t, count=False) for t in tables))
        spectators = [s for t in tables for s in t.spectators]
        assert server.proc is not None
        pid = server.proc.pid
        figures.phases = [
            Phase("warm-up", plan.tables, plan.warmup_commands, measured=False),
            Phase("1 table at a time", 1, plan.alone_commands),
            Phase(f"{plan.tables} tables at once", plan.tables, plan.commands_per_table),
        ]
        try:
            started = CLOCK()
            await connect_all(server, spectators, plan)
            figures.connect_s = CLOCK() - started
            deadline = CLOCK() + plan.run_budget_s
            for phase in figures.phases:
                cpu0, phase.start = cpu_seconds(pid), CLOCK()
                await run_phase(client, tables, plan, phase, deadline)
                phase.drained = await drained(tables, plan.drain_budget_s)
                phase.cpu_s, phase.end = cpu_seconds(pid) - cpu0, CLOCK()
                if not phase.measured:
                    await asyncio.gather(*(page_size(client, t, "start") for t in tables))
            await asyncio.gather(*(page_size(client, t, "end") for t in tables))
        finally:
            await close_all(spectators)
    collect(tables, figures)


async def run_phase(client: Any, tables: list[DnTable], plan: Plan, phase: Phase, deadline: float) -> None:
    if phase.tables_at_once >= len(tables):
        await asyncio.gather(*(play(client, t, plan, phase, deadline) for t in tables))
        return
    for table in tables:
        await play(client, table, plan, phase, deadline)


async def create_tables(client: Any, plan: Plan, table_ids: list[str]) -> list[DnTable]:
    gate = asyncio.Semaphore(plan.create_concurrency)

    async def create(index: int) -> DnTable:
        seed = f"bench-dn-{index}"
        body = {
            "game": GAME,
            "seats": [{"name": n} for n in SEAT_NAMES],
            "seed": seed,
            "name": f"bench {index}",
        }
        async with gate:
            response = await client.post("/api/tables", json=body)
        if response.status_code != 201:
            raise RuntimeError(f"creating a table: {response.status_code} {response.text[:300]}")
        data = response.json()
        table_ids.append(data["table_id"])
        table = DnTable(index, data["table_id"], seed, [s["token"] for s in data["seats"]], data["gm_token"])
        table.spectators = [Spectator(table) for _ in range(SPECTATORS)]
        return table

    return list(await asyncio.gather(*(create(i) for i in range(plan.tables))))


async def resync(client: Any, table: DnTable, *, count: bool = True) -> None:
    """Rebuild the table's replica from its whole log (read with the game-master token)."""
    from app.games.darkest_night import DARKEST_NIGHT
    from app.kernel import table as kernel
    from app.kernel.types import Event

    log: list[tuple[int, Event]] = []
    while True:
        response = await client.get(
            f"/api/tables/{table.id}/events",
            params={"after": log[-1][0] if log else 0, "limit": 5000},
            headers={"Authorization": f"Bearer {table.gm_token}"},
        )
        response.raise_for_status()
        data = response.json()
        log += [(e["seq"], Event(e["type"], e["data"], e["v"])) for e in data["events"]]
        if not data["events"] or log[-1][0] >= data["seq"]:
            break
    replay = getattr(kernel, "replay_log", None)
    if replay is not None:
        table.state = replay(DARKEST_NIGHT, log)
    else:
        table.state = kernel.replay(DARKEST_NIGHT, (e for _, e in log))
    table.seq = log[-1][0] if log else 0
    if count:
        table.resyncs += 1


async def connect_all(server: Server, spectators: list[Spectator], plan: Plan) -> None:
    from websockets.asyncio.client import connect

    gate = asyncio.Semaphore(50)

    async def open_one(s: Spectator) -> None:
        url = f"{server.ws_url}/ws/tables/{s.table.id}?format=html&after={s.table.seq}"
        async with gate:
            s.ws = await connect(
                url,
                open_timeout=plan.connect_budget_s,
                ping_interval=None,
                proxy=None,
                compression=None,
                max_size=16 * 2**20,
            )
        s.last = s.table.seq
        s.task = asyncio.create_task(s.listen())

    try:
        await asyncio.wait_for(asyncio.gather(*(open_one(s) for s in spectators)), plan.connect_budget_s)
    except TimeoutError as exc:
        count = sum(1 for s in spectators if s.ws is not None)
        raise RuntimeError(f"only {count} of {len(spectators)} spectators connected in time") from exc


async def play(client: Any, table: DnTable, plan: Plan, phase: Phase, deadline: float) -> None:
    """Play the phase's commands at this table (fewer if the game ends first)."""
    for _ in range(phase.commands_per_table):
        for _attempt in range(plan.max_attempts):
            if table.finished:
                return
            if CLOCK() > deadline:
                phase.cut_short += 1
                return
            if await step(client, table, phase):
                break
        else:
            return  # this table keeps failing: its failures are counted, leave it


async def step(client: Any, table: DnTable, phase: Phase) -> bool:
    """One command: the waited-on seat's prompts from GET /view, the bot's pick, the POST,
    and the replica moved on in lockstep. False if it failed (counted)."""
    import httpx

    from app.games.darkest_night import DARKEST_NIGHT as game
    from app.games.darkest_night.bot import choose
    from app.kernel import table as kernel
    from app.kernel.rng import rng_for
    from app.kernel.types import Choice, Command, Prompt, Viewer

    if game.outcome(table.state) is not None:
        table.finished = True
        return True
    waiting = next((p for p in game.prompts(table.state) if p.required), None)
    if waiting is None:
        phase.failures["the replica waits on nobody"] += 1
        table.finished = True
        return True
    seat = waiting.seat
    headers = {"Authorization": f"Bearer {table.tokens[seat]}"}
    try:
        response = await client.get(f"/api/tables/{table.id}/view", headers=headers)
        if response.status_code != 200:
            phase.failures[f"GET /view: HTTP {response.status_code}: {response.text[:160]}"] += 1
            return False
        view = response.json()
        if view["seq"] != table.seq:
            await resync(client, table)
            return False
        offered = next((p for p in view["prompts"] if p["seat"] == seat and p["required"]), None)
        if offered is None:
            phase.failures["GET /view offers the waited-on seat nothing"] += 1
            await resync(client, table)
            return False
        choices = [
            Choice(c["command"]["type"], c["command"]["args"], c["label"], c["detail"])
            for c in offered["choices"]
        ]
        rng = random.Random(f"{table.seed}:bot:{table.seq}")
        picked = choose(table.state, Prompt(seat, offered["title"], tuple(choices)), rng)
        command = offered["choices"][next(i for i, c in enumerate(choices) if c is picked)]["command"]
        t0 = CLOCK()
        response = await client.post(f"/api/tables/{table.id}/commands", json=command, headers=headers)
        t1 = CLOCK()
    except httpx.HTTPError as exc:
        phase.failures[f"{type(exc).__name__}: {exc}"] += 1
        return False
    if response.status_code != 200:
        phase.failures[f"POST: HTTP {response.status_code}: {response.text[:160]}"] += 1
        await resync(client, table)
        return False
    body = response.json()
    events = kernel.decide(
        game,
        table.state,
        Command(seat, command["type"], command["args"]),
        Viewer("seat", frozenset({seat})),
        rng_for(table.seed, table.seq + 1),
    )
    told = [(e["seq"], e["type"]) for e in body["events"]]
    if told != [(table.seq + 1 + i, e.type) for i, e in enumerate(events)]:
        await resync(client, table)  # counted: the replica disagreed with the server
    else:
        table.state = kernel.fold_all(game, table.state, events)
        table.seq = body["seq"]
    phase.sent.append((table, body["seq"], t0))
    phase.reply_ms.append((t1 - t0) * 1000)
    if game.outcome(table.state) is not None:
        table.finished = True
    return True


async def drained(tables: list[DnTable], budget_s: float) -> bool:
    """Wait until every spectator has the frame of its table's newest seq."""
    deadline = CLOCK() + budget_s
    while True:
        if all(s.last >= t.seq or s.closed for t in tables for s in t.spectators):
            return True
        if CLOCK() > deadline:
            return False
        await asyncio.sleep(0.01)


async def page_size(client: Any, table: DnTable, when: str) -> None:
    response = await client.get(f"/t/{table.id}/watch")
    response.raise_for_status()
    table.page_bytes[when] = len(response.content)


def collect(tables: list[DnTable], figures: Figures) -> None:
    for table in tables:
        figures.resyncs += table.resyncs
        figures.finished_games += table.finished
        figures.closed += sum(1 for s in table.spectators if s.closed)
        if "start" in table.page_bytes:
            figures.page_start.append(table.page_bytes["start"])
        if "end" in table.page_bytes:
            figures.page_end.append(table.page_bytes["end"])
    for phase in figures.phases:
        commands = Counter(t.id for t, _, _ in phase.sent)
        for table, seq, t0 in phase.sent:
            for spectator in table.spectators:
                at = spectator.arrival_of(seq)
                if at is None:
                    phase.missing += 1
                else:
                    phase.push_ms.append((at - t0) * 1000)
        for table in tables:
            if not commands[table.id]:
                continue
            for spectator in table.spectators:
                sizes = spectator.frames_between(phase.start, phase.end)
                phase.frame_bytes += sizes
                phase.per_command_bytes.append(sum(sizes) / commands[table.id])
