"""``umbra bench live [<game>]``: any registered game played live over real websockets on
loopback, with no game-specific code (the bench game Pulse when no game is named).

For each database (a temporary SQLite file; PostgreSQL when one is available) the bench
starts a real server (``python -m app.cli serve``, test mode, ``UMBRA_EXTRA_GAMES`` with the
bench game and any module the environment's ``UMBRA_EXTRA_GAMES`` names) and creates, over
the public HTTP API, 50 tables of the game (5 with ``--quick``; ``--tables``) with the
game's default options and its ``max_seats`` seats (``--seats``; fewer if the server
refuses that many). Each table gets one websocket per seat with that seat's token (JSON
frames, ``/ws/tables/{id}?after=<seq>&token=...``, what an API client sees) and 2 spectators
connected like a browser's watch page (``format=html``: the changed HTML fragments).

The seats are played from this process as API clients would: for each command the bench
asks ``GET /api/tables/{id}/view`` with the token of the seat the table waits on (the
view's ``waiting_for`` says which) and sends one of the ready-to-send commands of that
seat's required prompt. When the game has a bot (``app.kernel.game.has_bot``) the bot
picks, ``game.bot_choice(state, prompt, rng)``, on a replica of the table's state (the log
read once with the game-master token, then every command decided locally in lockstep with
the server: same seed, same seq), checked against every command's response and rebuilt
from the log if they ever differ. Without a bot the pick is a seeded random one among the
served choices. Nothing here knows a game's rules, commands or names.

After 2 warm-up commands per table (not reported) come two measured phases, one command in
flight per table: 4 commands per table with one table at a time (the server has nothing
else to do), then 60 per table (20 with ``--quick``) with every table at once, or until a
game ends. Reported for each phase:

- commands and commands per second;
- push: command-to-frame latency p50/p95/p99 over every (command, seat websocket) pair,
  from just before the POST until the JSON frame holding the command's seq arrives;
- frag: the same at each html spectator (the frame carrying the page's seq marker);
- the POST round trip p50/p99;
- bytes sent per command per spectator (uncompressed: permessage-deflate is off) against
  a full page render (``GET /t/{id}/watch`` at the start and the end): the diff ratio;
- server CPU per command: the server process's user + system time (``/proc/<pid>/stat``)
  over the phase divided by its commands, covering everything it did meanwhile (each
  ``GET /view`` and ``POST``, and the frames rendered and sent to every viewer).

The run fails (exit 1) if a command fails, a viewer misses a command's frame or loses its
socket, a seat's websocket loses, duplicates or reorders an event or shows its own
command's event other than the POST's response did, or the bot's replica disagrees with
the server. Every phase is bounded in time. The client runs on one event loop in this
process: its latencies include the time the loop takes to get to a frame (and, with a
bot, the bot's thinking), so they are an upper bound for the server's own. With every
table at once the server is saturated, and the latency is mostly queueing.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import random
import re
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.bench.databases import BenchDatabase, on_each_database, purge_tables
from app.bench.server import (
    Server,
    cpu_seconds,
    database_settings,
    extra_game_modules,
    free_port,
    import_extra_games,
    spawn_serve,
)
from app.bench.stats import fmt, percentile
from app.bench.stats import table as text_table
from app.kernel.game import Game, has_bot
from app.kernel.types import GM_SEAT

__all__ = ["free_port", "run_live", "spawn_serve"]  # spawn_serve: tests/conftest.py starts its server so

DEFAULT_GAME = "pulse"
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
    spectators: int = SPECTATORS
    create_concurrency: int = 8
    connect_concurrency: int = 50
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
class Watcher:
    """One websocket: a seat's (JSON frames, its token) or a spectator's (HTML fragments).
    Records when each frame arrived, its size and the seq it brings the viewer to."""

    table: LiveTable
    seat: Any
    """The seat whose token it uses; None for a spectator."""
    arrivals: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    markers: list[int] = field(default_factory=list)
    """The seq each frame brought the viewer to (frames without one are not recorded)."""
    order: list[int] = field(default_factory=list)
    """JSON: every event seq in the order received."""
    contents: dict[int, tuple[str, Any]] = field(default_factory=dict)
    bad_frames: int = 0
    hello_seq: int | None = None
    last: int = 0
    closed: str | None = None
    ws: Any = None
    task: asyncio.Task[None] | None = None

    @property
    def is_spectator(self) -> bool:
        return self.seat is None

    async def listen(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.ws:
                now = CLOCK()
                text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
                seq = self._html(text) if self.is_spectator else self._json(text)
                if seq is None:
                    continue
                self.arrivals.append(now)
                self.sizes.append(len(text.encode()))
                self.markers.append(seq)
                self.last = max(self.last, seq)
            self.closed = f"closed by the server ({self.ws.close_code})"
        except ConnectionClosed as exc:
            self.closed = f"connection lost: {exc}"

    @staticmethod
    def _html(text: str) -> int | None:
        found = SEQ_MARKER.search(text)
        return int(found.group(1)) if found else None

    def _json(self, text: str) -> int | None:
        message = json.loads(text)
        kind = message.get("type")
        if kind == "hello" and self.hello_seq is None:
            self.hello_seq = message["seq"]
            return None
        events = message.get("events")
        if kind != "events" or not events or events[-1]["seq"] != message["seq"]:
            self.bad_frames += 1
            return None
        for event in events:
            self.order.append(event["seq"])
            self.contents.setdefault(event["seq"], (event["type"], event["data"]))
        return int(message["seq"])

    def arrival_of(self, seq: int) -> float | None:
        """When the first frame at or past ``seq`` arrived (the seqs only grow)."""
        index = bisect.bisect_left(self.markers, seq)
        return self.arrivals[index] if index < len(self.markers) else None

    def bytes_between(self, start: float, end: float) -> list[int]:
        return [s for a, s in zip(self.arrivals, self.sizes, strict=True) if start <= a <= end]


@dataclass
class LiveTable:
    index: int
    id: str
    seed: str
    tokens: list[str]
    gm_token: str
    seq: int = 0
    """The newest seq this client knows of (from the server's answers)."""
    start_seq: int = 0
    """Where the table's log was when its websockets connected."""
    final_seq: int = 0
    seat: Any = 0
    """The seat the table waited on at the last look."""
    state: Any = None
    """The bot's replica of the game state, at ``replica_seq``."""
    replica_seq: int = 0
    commands: int = 0
    watchers: list[Watcher] = field(default_factory=list)
    expected: dict[int, tuple[Any, str, Any]] = field(default_factory=dict)
    """Per seq: (the seat that sent the command, the event's type and data as the POST's
    response showed them to that seat)."""
    resyncs: int = 0
    finished: bool = False
    page_bytes: dict[str, int] = field(default_factory=dict)

    def token_for(self, seat: Any) -> str:
        return self.gm_token if seat == GM_SEAT else self.tokens[seat]


@dataclass
class Phase:
    """Commands sent with ``tables_at_once`` tables playing at the same time."""

    name: str
    tables_at_once: int
    commands_per_table: int
    measured: bool = True
    sent: list[tuple[LiveTable, int, float]] = field(default_factory=list)
    """(table, seq of the command's last event, time just before its POST) per command."""
    reply_ms: list[float] = field(default_factory=list)
    failures: Counter[str] = field(default_factory=Counter)
    cut_short: int = 0
    start: float = 0.0
    end: float = 0.0
    cpu_s: float = 0.0
    drained: bool = True
    push_ms: list[float] = field(default_factory=list)
    frag_ms: list[float] = field(default_factory=list)
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
        per_command = _mean(self.per_command_bytes)
        return [
            self.name,
            str(self.commands),
            fmt(self.commands / self.seconds if self.seconds else float("nan"), 1),
            *(fmt(percentile(self.push_ms, p), 1) for p in (50, 95, 99)),
            *(fmt(percentile(self.frag_ms, p), 1) for p in (50, 95, 99)),
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
    "push p50 ms",
    "push p95 ms",
    "push p99 ms",
    "frag p50 ms",
    "frag p95 ms",
    "frag p99 ms",
    "POST p50 ms",
    "POST p99 ms",
    "B/cmd/spectator",
    "diff ratio",
    "CPU ms/cmd",
    "CPU %",
]


@dataclass
class Delivery:
    """The seats' JSON websockets: every event of the log once, in order, as told."""

    lost: int = 0
    duplicated: int = 0
    out_of_order: int = 0
    wrong: int = 0
    bad_frames: int = 0

    @property
    def ok(self) -> bool:
        return not (self.lost or self.duplicated or self.out_of_order or self.wrong or self.bad_frames)


@dataclass
class Figures:
    database: BenchDatabase
    game: str
    picker: str
    """``bot`` or ``random``."""
    seats: int = 0
    spectators: int = 0
    settings: str = ""
    tables: int = 0
    connect_s: float = 0.0
    phases: list[Phase] = field(default_factory=list)
    """The warm-up first (not reported), then the measured phases."""
    page_start: list[int] = field(default_factory=list)
    page_end: list[int] = field(default_factory=list)
    delivery: Delivery = field(default_factory=Delivery)
    closed: int = 0
    resyncs: int = 0
    finished_games: int = 0

    @property
    def measured(self) -> list[Phase]:
        return [p for p in self.phases if p.measured]

    @property
    def ok(self) -> bool:
        return (
            bool(self.measured)
            and all(p.commands for p in self.measured)
            and not any(p.failures or p.missing or not p.drained for p in self.phases)
            and self.delivery.ok
            and not self.closed
            and not self.resyncs
        )

    def report(self) -> str:
        page = _mean(self.page_start + self.page_end)
        frames = [b for p in self.measured for b in p.frame_bytes]
        rows = text_table(HEADERS, [p.row(page) for p in self.measured], left=1)
        d = self.delivery
        lines = [
            f"{self.database.label}: {self.settings}",
            f"  {self.tables} tables x ({self.seats} {self.picker} seats + {self.spectators} spectators): "
            f"{self.tables * self.seats} json + {self.tables * self.spectators} html websockets, "
            f"connected in {self.connect_s:.1f} s",
            *("  " + line for line in rows.splitlines()),
            f"  full page render (GET /t/<id>/watch): {fmt(_mean(self.page_start), 0)} B at the start, "
            f"{fmt(_mean(self.page_end), 0)} B at the end; diff ratio = B/cmd/spectator / their mean",
            f"  spectator frames: {len(frames)}, p50 {fmt(percentile(frames, 50), 0)} B, "
            f"p99 {fmt(percentile(frames, 99), 0)} B; games ended: {self.finished_games}",
            f"  seat events lost / duplicated / out of order / wrong: "
            f"{d.lost} / {d.duplicated} / {d.out_of_order} / {d.wrong}"
            + (f"; bad frames {d.bad_frames}" if d.bad_frames else ""),
            f"  missing frames / sockets closed early / replica resyncs: "
            f"{sum(p.missing for p in self.phases)} / {self.closed} / {self.resyncs}",
        ]
        for phase in self.phases:
            if phase.cut_short:
                lines.append(f"  {phase.name}: {phase.cut_short} tables stopped at the time budget")
            if not phase.drained:
                lines.append(f"  {phase.name}: viewers had not caught up when the drain budget ran out")
            for reason, count in phase.failures.most_common(5):
                lines.append(f"  {phase.name}: failed x{count}: {reason}")
        lines.append(f"  result: {'OK' if self.ok else 'FAILED'}")
        return "\n".join(lines)


def _mean(values: Sequence[float]) -> float:
    return statistics.fmean(values) if values else float("nan")


# -- the run -------------------------------------------------------------------------------


def find_game(name: str | None) -> tuple[Game | None, str]:
    """The registered game called ``name`` (``-`` read as ``_``; Pulse by default), after
    importing the bench game and ``UMBRA_EXTRA_GAMES``, or None and why not."""
    from app.kernel.registry import all_games, get_game

    import_extra_games()
    wanted = (name or DEFAULT_GAME).replace("-", "_")
    game = get_game(wanted)
    if game is None:
        known = ", ".join(sorted(all_games()))
        return None, f"umbra bench live: no game named {name!r} (registered: {known})"
    return game, ""


def run_live(game_name: str | None, args: argparse.Namespace | Any) -> int:
    game, why = find_game(game_name)
    if game is None:
        print(why)
        return 2
    if not Path("/proc/self/stat").exists():
        print("umbra bench live needs /proc (Linux) to read the server's CPU time")
        return 2
    base = QUICK if getattr(args, "quick", False) else FULL
    tables = getattr(args, "tables", None) or base.tables
    if tables < 1:
        print("umbra bench live: --tables must be at least 1")
        return 2
    plan = Plan(**{**base.__dict__, "tables": tables})
    seats = getattr(args, "seats", None) or game.max_seats
    if not game.min_seats <= seats <= game.max_seats:
        print(f"umbra bench live: {game.title} takes {game.min_seats} to {game.max_seats} seats, not {seats}")
        return 2
    picker = "bot" if has_bot(game) else "random"
    mode = "quick" if base is QUICK else "full"
    print(
        f"umbra bench live {game.name} ({mode}: {plan.tables} tables x (up to {seats} {picker} seats + "
        f"{plan.spectators} spectators) over websockets on loopback; one command in flight per table; "
        f"after {plan.warmup_commands} warm-up commands per table, {plan.alone_commands} per table with one "
        f"table at a time, then {plan.commands_per_table} per table with all {plan.tables} at once)\n"
        "push: from just before the POST until a seat's json websocket delivers the frame with the "
        "command's seq, over every (command, seat) pair; frag: the same at each html spectator; "
        "B/cmd/spectator: uncompressed frame bytes; CPU: /proc user+system time of the server process "
        "over the phase (GET /view, POST, fan-out)",
        flush=True,
    )
    return on_each_database(
        args, f"live-{game.name}", lambda db: bench_database(db, game, plan, seats, picker)
    )


def bench_database(db: BenchDatabase, game: Game, plan: Plan, seats: int, picker: str) -> bool:
    """Start a real server on ``db``, play against it, print the figures; the tables it
    created are removed afterwards from a shared database."""
    print(f"{db.label}: {db.about} ...", flush=True)
    figures = Figures(db, game.name, picker, spectators=plan.spectators)
    with tempfile.TemporaryDirectory(prefix="umbra-bench-") as folder:
        server = Server(db.url, Path(folder) / "server.log", extra_game_modules())
        table_ids: list[str] = []
        try:
            server.start()
            asyncio.run(bench_server(server, game, plan, seats, figures, table_ids))
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


async def bench_server(
    server: Server, game: Game, plan: Plan, seats: int, figures: Figures, table_ids: list[str]
) -> None:
    import httpx

    limits = httpx.Limits(max_connections=plan.tables + 8, max_keepalive_connections=plan.tables + 8)
    async with httpx.AsyncClient(base_url=server.url, timeout=60, trust_env=False, limits=limits) as client:
        await server.wait_ready(client, game.name)
        figures.settings = await database_settings(figures.database.url)
        tables = await create_tables(client, game, plan, seats, table_ids)
        figures.tables, figures.seats = len(tables), len(tables[0].tokens)
        await asyncio.gather(*(look(client, t) for t in tables))
        if figures.picker == "bot":
            await asyncio.gather(*(resync(client, game, t, count=False) for t in tables))
        watchers = [w for t in tables for w in t.watchers]
        figures.phases = [
            Phase("warm-up", plan.tables, plan.warmup_commands, measured=False),
            Phase("1 table at a time", 1, plan.alone_commands),
            Phase(f"{plan.tables} tables at once", plan.tables, plan.commands_per_table),
        ]
        try:
            started = CLOCK()
            await connect_all(server, watchers, plan)
            figures.connect_s = CLOCK() - started
            deadline = CLOCK() + plan.run_budget_s
            for phase in figures.phases:
                cpu0, phase.start = cpu_seconds(server.pid), CLOCK()
                await run_phase(client, game, tables, plan, phase, deadline)
                phase.drained = await caught_up(tables, plan.drain_budget_s)
                phase.cpu_s, phase.end = cpu_seconds(server.pid) - cpu0, CLOCK()
                if not phase.measured:
                    await asyncio.gather(*(page_size(client, t, "start") for t in tables))
            await asyncio.gather(*(page_size(client, t, "end") for t in tables))
            await asyncio.gather(*(look(client, t, final=True) for t in tables))
            await caught_up(tables, plan.drain_budget_s, final=True)
        finally:
            await close_all(watchers)
    collect(tables, figures)


async def create_tables(
    client: Any, game: Game, plan: Plan, seats: int, table_ids: list[str]
) -> list[LiveTable]:
    """Create the tables with the game's default options and ``seats`` seats, or the most
    seats up to that which the server accepts with those options."""

    async def create(index: int, count: int) -> tuple[int, Any]:
        seed = f"bench-{game.name}-{index}"
        body = {
            "game": game.name,
            "seats": [{"name": f"Player {i + 1}"} for i in range(count)],
            "seed": seed,
            "name": f"bench {index}",
        }
        response = await client.post("/api/tables", json=body)
        return response.status_code, (response.json() if response.status_code == 201 else response.text)

    refusals = []
    for count in range(seats, game.min_seats - 1, -1):
        status, first = await create(0, count)
        if status == 201:
            break
        refusals.append(f"{count} seats: HTTP {status} {str(first)[:200]}")
        if status != 422:
            break
    else:
        status = 0
    if status != 201:
        raise RuntimeError("creating a table: " + "; ".join(refusals))
    gate = asyncio.Semaphore(plan.create_concurrency)

    async def another(index: int) -> Any:
        async with gate:
            status, data = await create(index, count)
        if status != 201:
            raise RuntimeError(f"creating a table: HTTP {status} {str(data)[:300]}")
        return data

    created = [first, *await asyncio.gather(*(another(i) for i in range(1, plan.tables)))]
    tables = []
    for index, data in enumerate(created):
        table_ids.append(data["table_id"])
        tokens = [s["token"] for s in data["seats"]]
        table = LiveTable(index, data["table_id"], f"bench-{game.name}-{index}", tokens, data["gm_token"])
        table.watchers = [Watcher(table, seat) for seat in range(len(tokens))]
        table.watchers += [Watcher(table, None) for _ in range(plan.spectators)]
        tables.append(table)
    return tables


async def look(client: Any, table: LiveTable, *, final: bool = False) -> None:
    """Where the table's log is and whom it waits on (``GET /api/tables/{id}``)."""
    response = await client.get(f"/api/tables/{table.id}")
    response.raise_for_status()
    summary = response.json()
    if final:
        table.final_seq = summary["seq"]
        return
    table.seq = table.start_seq = summary["seq"]
    if summary["waiting_for"]:
        table.seat = summary["waiting_for"][0]
    table.finished = summary["status"] != "running"


async def resync(client: Any, game: Game, table: LiveTable, *, count: bool = True) -> None:
    """Rebuild the bot's replica from the table's whole log (read with the game-master token)."""
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
    table.state = kernel.replay_log(game, log)
    table.replica_seq = log[-1][0] if log else 0
    if count:
        table.resyncs += 1


async def connect_all(server: Server, watchers: list[Watcher], plan: Plan) -> None:
    """Open every websocket after the table's current seq; wait for each seat's hello."""
    from websockets.asyncio.client import connect

    gate = asyncio.Semaphore(plan.connect_concurrency)

    async def open_one(w: Watcher) -> None:
        url = f"{server.ws_url}/ws/tables/{w.table.id}?after={w.table.start_seq}"
        url += "&format=html" if w.is_spectator else f"&token={w.table.token_for(w.seat)}"
        async with gate:
            w.ws = await connect(
                url,
                open_timeout=plan.connect_budget_s,
                ping_interval=None,
                proxy=None,
                compression=None,
                max_size=16 * 2**20,
            )
        w.last = w.table.start_seq
        w.task = asyncio.create_task(w.listen())

    def ready(w: Watcher) -> bool:
        return w.is_spectator or (w.hello_seq is not None and w.last >= w.hello_seq)

    async def all_open() -> None:
        await asyncio.gather(*(open_one(w) for w in watchers))
        while not all(ready(w) for w in watchers):
            if any(w.closed for w in watchers):
                raise RuntimeError(next(w.closed for w in watchers if w.closed))
            await asyncio.sleep(0.02)

    try:
        await asyncio.wait_for(all_open(), plan.connect_budget_s)
    except TimeoutError as exc:
        count = sum(1 for w in watchers if w.ws is not None and ready(w))
        raise RuntimeError(f"only {count} of {len(watchers)} websockets were ready in time") from exc


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


async def run_phase(
    client: Any, game: Game, tables: list[LiveTable], plan: Plan, phase: Phase, deadline: float
) -> None:
    if phase.tables_at_once >= len(tables):
        await asyncio.gather(*(play(client, game, t, plan, phase, deadline) for t in tables))
        return
    for table in tables:
        await play(client, game, table, plan, phase, deadline)


async def play(client: Any, game: Game, table: LiveTable, plan: Plan, phase: Phase, deadline: float) -> None:
    """Play the phase's commands at this table (fewer if the game ends first)."""
    for _ in range(phase.commands_per_table):
        for _attempt in range(plan.max_attempts):
            if table.finished:
                return
            if CLOCK() > deadline:
                phase.cut_short += 1
                return
            if await step(client, game, table, phase):
                break
        else:
            return  # this table keeps failing: its failures are counted, leave it


async def served_view(client: Any, table: LiveTable, phase: Phase) -> dict[str, Any] | None:
    """``GET /view`` as the seat the table waits on (asking again as another seat if the
    one last seen waited on is not waited on now); None if it failed (counted)."""
    for _ in range(2):
        response = await client.get(
            f"/api/tables/{table.id}/view", headers={"Authorization": f"Bearer {table.token_for(table.seat)}"}
        )
        if response.status_code != 200:
            phase.failures[f"GET /view: HTTP {response.status_code}: {response.text[:160]}"] += 1
            return None
        view = response.json()
        waiting = view["waiting_for"]
        if view["outcome"] is not None or not waiting or table.seat in waiting:
            return view
        table.seat = waiting[table.commands % len(waiting)]
    return view


async def step(client: Any, game: Game, table: LiveTable, phase: Phase) -> bool:
    """One command: the waited-on seat's prompts from GET /view, a pick (the bot's or a
    seeded random one), the POST, and the bot's replica moved on in lockstep. False if it
    failed (counted)."""
    import httpx

    try:
        view = await served_view(client, table, phase)
        if view is None:
            return False
        table.seq = view["seq"]
        if view["outcome"] is not None:
            table.finished = True
            return True
        seat = table.seat
        offered = next(
            (p for p in view["prompts"] if p["seat"] == seat and p["required"] and p["choices"]), None
        )
        if offered is None:
            phase.failures[f"GET /view offers the waited-on seat {seat!r} nothing"] += 1
            table.finished = True
            return True
        if table.state is not None and table.replica_seq != view["seq"]:
            await resync(client, game, table)  # counted: the replica fell behind the server
        command = pick(game, table, offered, view["seq"])
        t0 = CLOCK()
        response = await client.post(
            f"/api/tables/{table.id}/commands",
            json=command,
            headers={"Authorization": f"Bearer {table.token_for(seat)}"},
        )
        t1 = CLOCK()
    except httpx.HTTPError as exc:
        phase.failures[f"{type(exc).__name__}: {exc}"] += 1
        return False
    if response.status_code != 200:
        phase.failures[f"POST: HTTP {response.status_code}: {response.text[:160]}"] += 1
        if table.state is not None:
            await resync(client, game, table)
        return False
    body = response.json()
    for event in body["events"]:
        table.expected[event["seq"]] = (seat, event["type"], event["data"])
    if table.state is not None:
        await follow(client, game, table, command, body)
    table.seq = body["seq"]
    table.commands += 1
    phase.sent.append((table, body["seq"], t0))
    phase.reply_ms.append((t1 - t0) * 1000)
    return True


def pick(game: Game, table: LiveTable, offered: dict[str, Any], seq: int) -> dict[str, Any]:
    """The command to send: the bot's choice on the replica when the game has a bot (and
    it plays this prompt), else a seeded random one of the served choices."""
    from app.kernel.types import Choice, Prompt

    served = [c["command"] for c in offered["choices"]]
    if table.state is not None:
        choices = tuple(
            Choice(c["command"]["type"], c["command"]["args"], c["label"], c["detail"])
            for c in offered["choices"]
        )
        prompt = Prompt(offered["seat"], offered["title"], choices)
        chosen = game.bot_choice(table.state, prompt, random.Random(f"{table.seed}:bot:{seq}"))  # type: ignore[attr-defined]
        for index, choice in enumerate(choices):
            if choice is chosen:
                return served[index]
        for index, choice in enumerate(choices):
            if chosen is not None and (choice.type, choice.args) == (chosen.type, chosen.args):
                return served[index]
    return served[random.Random(f"{table.seed}:pick:{seq}").randrange(len(served))]


async def follow(client: Any, game: Game, table: LiveTable, command: dict[str, Any], body: Any) -> None:
    """Decide the command on the replica as the server did (same seed and seq) and check
    the events' seqs and types against the response; rebuild the replica if they differ."""
    from app.kernel import table as kernel
    from app.kernel.rng import rng_for
    from app.kernel.types import GAME_MASTER, Command, Viewer

    seat = command["seat"]
    actor = GAME_MASTER if seat == GM_SEAT else Viewer("seat", frozenset({seat}))
    events = kernel.decide(
        game,
        table.state,
        Command(seat, command["type"], command["args"]),
        actor,
        rng_for(table.seed, table.replica_seq + 1),
    )
    mine = [(table.replica_seq + 1 + i, e.type) for i, e in enumerate(events)]
    told = [(e["seq"], e["type"]) for e in body["events"]]
    agrees = len(mine) == len(told) and all(
        a[0] == b[0] and (b[1] == "hidden" or a[1] == b[1]) for a, b in zip(mine, told, strict=True)
    )
    if agrees and body["seq"] == table.replica_seq + len(events):
        table.state = kernel.fold_all(game, table.state, events)
        table.replica_seq = body["seq"]
    else:
        await resync(client, game, table)  # counted: the replica disagreed with the server


async def caught_up(tables: list[LiveTable], budget_s: float, *, final: bool = False) -> bool:
    """Wait until every viewer has the frame of its table's newest seq."""
    deadline = CLOCK() + budget_s
    while True:
        if all(w.last >= (t.final_seq if final else t.seq) or w.closed for t in tables for w in t.watchers):
            return True
        if CLOCK() > deadline:
            return False
        await asyncio.sleep(0.01)


async def page_size(client: Any, table: LiveTable, when: str) -> None:
    response = await client.get(f"/t/{table.id}/watch")
    response.raise_for_status()
    table.page_bytes[when] = len(response.content)


def collect(tables: list[LiveTable], figures: Figures) -> None:
    """Latencies over every (command, viewer) pair, bytes per command per spectator, and
    the seats' exactly-once, in-order check."""
    for table in tables:
        figures.resyncs += table.resyncs
        figures.finished_games += table.finished
        figures.closed += sum(1 for w in table.watchers if w.closed)
        for when, into in (("start", figures.page_start), ("end", figures.page_end)):
            if when in table.page_bytes:
                into.append(table.page_bytes[when])
    for phase in figures.phases:
        commands = Counter(t.id for t, _, _ in phase.sent)
        for table, seq, t0 in phase.sent:
            for w in table.watchers:
                at = w.arrival_of(seq)
                if at is None:
                    phase.missing += 1
                else:
                    (phase.frag_ms if w.is_spectator else phase.push_ms).append((at - t0) * 1000)
        for table in tables:
            if not commands[table.id]:
                continue
            for w in table.watchers:
                if w.is_spectator:
                    sizes = w.bytes_between(phase.start, phase.end)
                    phase.frame_bytes += sizes
                    phase.per_command_bytes.append(sum(sizes) / commands[table.id])
    d = figures.delivery
    for table in tables:
        for w in table.watchers:
            if w.is_spectator:
                continue
            d.bad_frames += w.bad_frames
            seen = set(w.order)
            d.duplicated += len(w.order) - len(seen)
            d.lost += sum(1 for s in range(table.start_seq + 1, table.final_seq + 1) if s not in seen)
            d.wrong += sum(1 for s in seen if s > table.final_seq or s <= table.start_seq)
            d.out_of_order += sum(1 for a, b in zip(w.order, w.order[1:], strict=False) if b < a)
            for seq, (sender, kind, data) in table.expected.items():
                got = w.contents.get(seq)
                if sender == w.seat and got is not None and got != (kind, data):
                    d.wrong += 1
